import Ripple
import RippleTest
import XCTest

/// A custom strategy: replays everything, delivers on the sharing scheduler.
struct ReplayAllSharingStrategy: SharingStrategyProtocol {
    static var scheduler: SchedulerType { SharingScheduler.make() }
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: Int.max, scope: .whileConnected)
    }
}

/// The test observable as a `Driver`; it must not fail.
private func driver<Element>(_ xs: TestableObservable<Element>) -> Driver<Element> {
    xs.asDriver(onErrorRecover: { error in
        XCTFail("unexpected \(error)")
        return .empty()
    })
}

final class SharedSequenceOperatorTests: RippleTestCase {
    /// Runs `body` with a fresh test scheduler mocked as the sharing scheduler.
    private func onTestScheduler(_ body: (TestScheduler) throws -> Void) rethrows {
        let scheduler = TestScheduler(initialClock: 0)
        try SharingScheduler.mock(scheduler: scheduler) { try body(scheduler) }
    }

    // MARK: - Transforming

    func testMapFilterCompactMapAreSharedAndOnTheScheduler() {
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, "1"), .next(220, "x"), .next(230, "4"), .completed(300)])
            var transforms = 0
            let result = driver(xs)
                .compactMap { Int($0) }
                .map { value -> Int in transforms += 1; return value * 10 }
                .filter { $0 > 10 }
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) {
                result.drive(first).disposed(by: bag)
                result.drive(second).disposed(by: bag)
            }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(231, 40), .completed(301)])
            XCTAssertEqual(second.events, first.events)
            XCTAssertEqual(transforms, 2)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testScanBothFormsAndStartWith() {
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { driver(xs).scan(0, accumulator: +).startWith(-1) }
            XCTAssertEqual(res.events, [.next(200, -1), .next(211, 1), .next(221, 3), .completed(301)])
        }
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(300)])
            let res = scheduler.start { driver(xs).scan(into: "") { $0 += $1 } }
            XCTAssertEqual(res.events, [.next(211, "a"), .next(221, "ab"), .completed(301)])
        }
    }

    // MARK: - Flattening

    func testFlatMapLatestSearchPattern() {
        onTestScheduler { scheduler in
            let query = scheduler.createHotObservable([.next(210, "a"), .next(230, "ab"), .completed(400)])
            let response = scheduler.createColdObservable([.next(30, 1), .completed(40)])
            let failing = scheduler.createColdObservable([.error(5, testError)] as [Recorded<Event<Int>>])
            let res = scheduler.start {
                driver(query).flatMapLatest { text in
                    (text == "a" ? response : failing).map { "\(text):\($0)" }.asDriver(onErrorJustReturn: "\(text):failed")
                }
            }
            // "a" is superseded before its response; "ab" fails and is recovered.
            XCTAssertEqual(res.events, [.next(237, "ab:failed"), .completed(401)])
            XCTAssertEqual(response.subscriptions, [Subscription(211, 231)])
        }
    }

    func testFlatMapFlatMapFirstConcatMap() {
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
            let inner = scheduler.createColdObservable([.next(10, 10), .completed(20)])
            let merged = scheduler.start { driver(xs).flatMap { value in driver(inner).map { $0 + value } } }
            XCTAssertEqual(merged.events, [.next(222, 11), .next(227, 12), .completed(301)])
        }
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
            let inner = scheduler.createColdObservable([.next(10, 10), .completed(20)])
            let first = scheduler.start { driver(xs).flatMapFirst { value in driver(inner).map { $0 + value } } }
            XCTAssertEqual(first.events, [.next(222, 11), .completed(301)])
        }
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
            let inner = scheduler.createColdObservable([.next(10, 10), .completed(20)])
            let concatenated = scheduler.start { driver(xs).concatMap { value in driver(inner).map { $0 + value } } }
            XCTAssertEqual(concatenated.events, [.next(222, 11), .next(243, 12), .completed(301)])
        }
    }

    func testSwitchLatestAndMergeOfDrivers() {
        onTestScheduler { scheduler in
            let a = PublishRelay<Int>()
            let b = PublishRelay<Int>()
            let outer = PublishRelay<Signal<Int>>()
            let latest = scheduler.createObserver(Int.self)
            let merged = scheduler.createObserver(Int.self)
            let mergedOne = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            outer.asSignal().switchLatest().emit(to: latest).disposed(by: bag)
            outer.asSignal().merge().emit(to: merged).disposed(by: bag)
            outer.asSignal().merge(maxConcurrent: 1).emit(to: mergedOne).disposed(by: bag)
            scheduler.scheduleAt(210) { outer.accept(a.asSignal()) }
            scheduler.scheduleAt(220) { a.accept(1) }
            scheduler.scheduleAt(230) { outer.accept(b.asSignal()) }
            scheduler.scheduleAt(240) { a.accept(2) }
            scheduler.scheduleAt(250) { b.accept(3) }
            scheduler.start()
            XCTAssertEqual(latest.events, [.next(221, 1), .next(251, 3)])
            XCTAssertEqual(merged.events, [.next(221, 1), .next(241, 2), .next(251, 3)])
            XCTAssertEqual(mergedOne.events, [.next(221, 1), .next(241, 2)], "b waits for a, which never completes")
        }
    }

    func testMergeMaxConcurrentZeroIsReported() {
        let scheduler = TestScheduler(initialClock: 0)
        var res: TestableObserver<Int>!
        let violations = capturingViolations {
            res = SharingScheduler.mock(scheduler: scheduler) {
                scheduler.start { Driver.just(Driver.just(1)).merge(maxConcurrent: 0) }
            }
        }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(violations, ["SharedSequence: merge(maxConcurrent: 0) needs maxConcurrent > 0"])
    }

    // MARK: - Filtering

    func testSkipTakeAndTheirVariants() {
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 1), .completed(300)])
            let d = driver(xs)
            let skipped = scheduler.createObserver(Int.self)
            let taken = scheduler.createObserver(Int.self)
            let skippedWhile = scheduler.createObserver(Int.self)
            let takenWhile = scheduler.createObserver(Int.self)
            let takenUntil = scheduler.createObserver(Int.self)
            let takenFor = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) {
                d.skip(2).drive(skipped).disposed(by: bag)
                d.take(2).drive(taken).disposed(by: bag)
                d.skip(while: { $0 < 3 }).drive(skippedWhile).disposed(by: bag)
                d.take(while: { $0 < 3 }, behavior: .inclusive).drive(takenWhile).disposed(by: bag)
                d.take(until: { $0 == 2 }).drive(takenUntil).disposed(by: bag)
                d.take(for: .seconds(25)).drive(takenFor).disposed(by: bag)
            }
            scheduler.start()
            XCTAssertEqual(skipped.events, [.next(231, 3), .next(241, 1), .completed(301)])
            XCTAssertEqual(taken.events, [.next(211, 1), .next(221, 2), .completed(221)])
            XCTAssertEqual(skippedWhile.events, [.next(231, 3), .next(241, 1), .completed(301)])
            XCTAssertEqual(takenWhile.events, [.next(211, 1), .next(221, 2), .next(231, 3), .completed(231)])
            XCTAssertEqual(takenUntil.events, [.next(211, 1), .completed(221)])
            XCTAssertEqual(takenFor.events, [.next(211, 1), .next(221, 2), .completed(225)])
        }
    }

    func testTakeUntilAnotherSharedSequence() {
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let stop = scheduler.createHotObservable([.next(220, ())])
            let res = scheduler.start { driver(xs).take(until: stop.asSignal(onErrorSignalWith: .empty())) }
            XCTAssertEqual(res.events, [.next(211, 1), .completed(221)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 221)])
        }
    }

    func testInvalidCountsAreReported() {
        let scheduler = TestScheduler(initialClock: 0)
        var events: [[Recorded<Event<Int>>]] = []
        let violations = capturingViolations {
            SharingScheduler.mock(scheduler: scheduler) {
                events.append(scheduler.start { Driver.just(1).skip(-1) }.events)
            }
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        let violations2 = capturingViolations {
            SharingScheduler.mock(scheduler: scheduler2) {
                events.append(scheduler2.start { Signal.just(1).take(-2) }.events)
            }
        }
        XCTAssertEqual(events, [[.completed(200)], [.completed(200)]])
        XCTAssertEqual(violations + violations2, ["SharedSequence: skip(-1) needs count >= 0", "SharedSequence: take(-2) needs count >= 0"])
    }

    func testDistinctUntilChangedForms() {
        struct Item: Equatable { let letter: String; let number: Int }
        onTestScheduler { scheduler in
            let numbers = Driver.of(1, 1, 2, 2, 1)
            let items = Driver.of(Item(letter: "a", number: 1), Item(letter: "a", number: 2), Item(letter: "b", number: 1))
            let sameHalf: (Int, Int) -> Bool = { $0 / 2 == $1 / 2 }
            let plain = scheduler.createObserver(Int.self)
            let byKey = scheduler.createObserver(Int.self)
            let byKeyPath = scheduler.createObserver(Int.self)
            let byComparer = scheduler.createObserver(Int.self)
            let byKeyAndComparer = scheduler.createObserver(String.self)
            let bag = DisposeBag()
            numbers.distinctUntilChanged().drive(plain).disposed(by: bag)
            items.distinctUntilChanged { $0.letter }.map(\.number).drive(byKey).disposed(by: bag)
            items.distinctUntilChanged(at: \.letter).map(\.number).drive(byKeyPath).disposed(by: bag)
            Driver.of(1, 2, 4, 5).distinctUntilChanged(sameHalf).drive(byComparer).disposed(by: bag)
            items.distinctUntilChanged({ $0.number }, comparer: { $0 == $1 }).map(\.letter).drive(byKeyAndComparer).disposed(by: bag)
            scheduler.start()
            XCTAssertEqual(plain.events.compactMap(\.value.element), [1, 2, 1])
            XCTAssertEqual(byKey.events.compactMap(\.value.element), [1, 1])
            XCTAssertEqual(byKeyPath.events.compactMap(\.value.element), [1, 1])
            XCTAssertEqual(byComparer.events.compactMap(\.value.element), [1, 2, 4])
            XCTAssertEqual(byKeyAndComparer.events.compactMap(\.value.element), ["a", "a", "b"])
        }
    }

    // MARK: - Time (on the sharing scheduler, no scheduler argument)

    func testDebounceThrottleDelay() {
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(260, 3), .completed(300)])
            let res = scheduler.start { driver(xs).debounce(.seconds(20)) }
            XCTAssertEqual(res.events, [.next(236, 2), .next(281, 3), .completed(301)])
        }
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .next(260, 4), .completed(300)])
            let res = scheduler.start { driver(xs).throttle(.seconds(20)) }
            XCTAssertEqual(res.events, [.next(211, 1), .next(231, 3), .next(261, 4), .completed(301)])
        }
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .next(260, 4), .completed(300)])
            let res = scheduler.start { driver(xs).throttle(.seconds(20), latest: false) }
            XCTAssertEqual(res.events, [.next(211, 1), .next(261, 4), .completed(301)])
        }
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            let res = scheduler.start { driver(xs).delay(.seconds(30)) }
            XCTAssertEqual(res.events, [.next(241, 1), .completed(251)])
        }
    }

    // MARK: - Combining

    func testMergeAndConcatStatics() {
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(240)])
            let ys = scheduler.createHotObservable([.next(220, 2), .completed(250)])
            XCTAssertEqual(scheduler.start { Driver.merge(driver(xs), driver(ys)) }.events,
                           [.next(211, 1), .next(221, 2), .completed(251)])
        }
        onTestScheduler { scheduler in
            let merged = scheduler.createObserver(Int.self)
            let mergedCollection = scheduler.createObserver(Int.self)
            let concatenated = scheduler.createObserver(Int.self)
            let concatenatedSequence = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            Signal.merge([Signal.just(1), Signal.just(2)]).emit(to: merged).disposed(by: bag)
            Signal.merge([Signal.just(1), Signal.just(2)][...]).emit(to: mergedCollection).disposed(by: bag)
            Driver.concat([Driver.of(1, 2), Driver.just(3)]).drive(concatenated).disposed(by: bag)
            Driver.concat((4...5).lazy.map { Driver.just($0) }).drive(concatenatedSequence).disposed(by: bag)
            scheduler.start()
            XCTAssertEqual(merged.events.compactMap(\.value.element), [1, 2])
            XCTAssertEqual(mergedCollection.events.compactMap(\.value.element), [1, 2])
            XCTAssertEqual(concatenated.events.compactMap(\.value.element), [1, 2, 3])
            XCTAssertEqual(concatenatedSequence.events.compactMap(\.value.element), [4, 5])
        }
    }

    func testCombineLatestAndZipArities() {
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, "a"), .completed(250)])
            XCTAssertEqual(scheduler.start { Driver.combineLatest(driver(xs), driver(ys)) { "\($0)\($1)" } }.events,
                           [.next(221, "1a"), .next(231, "2a"), .completed(301)])
        }
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(250)])
            XCTAssertEqual(scheduler.start { Driver.zip(driver(xs), driver(ys)).map { "\($0.0)\($0.1)" } }.events,
                           [.next(221, "1a"), .next(241, "2b"), .completed(301)])
        }
        onTestScheduler { scheduler in
            let sources = (1...8).map { Driver.just($0) }
            let tuple = Driver.combineLatest(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7])
            let zipped = Driver.zip(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]) {
                $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7
            }
            let tuples = scheduler.createObserver(Int.self)
            let sums = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            tuple.map { $0.0 * $0.7 }.drive(tuples).disposed(by: bag)
            zipped.drive(sums).disposed(by: bag)
            scheduler.start()
            XCTAssertEqual(tuples.events.compactMap(\.value.element), [8])
            XCTAssertEqual(sums.events.compactMap(\.value.element), [36])
        }
        onTestScheduler { scheduler in
            let arrays = scheduler.createObserver([Int].self)
            let sums = scheduler.createObserver(Int.self)
            let zippedArrays = scheduler.createObserver([Int].self)
            let zippedSums = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            let sources = [Driver.of(1, 2), Driver.just(10)]
            Driver.combineLatest(sources).drive(arrays).disposed(by: bag)
            Driver.combineLatest(sources) { $0.reduce(0, +) }.drive(sums).disposed(by: bag)
            Driver.zip(sources).drive(zippedArrays).disposed(by: bag)
            Driver.zip(sources) { $0.reduce(0, +) }.drive(zippedSums).disposed(by: bag)
            scheduler.start()
            XCTAssertEqual(arrays.events.compactMap(\.value.element), [[1, 10], [2, 10]])
            XCTAssertEqual(sums.events.compactMap(\.value.element), [11, 12])
            XCTAssertEqual(zippedArrays.events.compactMap(\.value.element), [[1, 10]])
            XCTAssertEqual(zippedSums.events.compactMap(\.value.element), [11])
        }
    }

    func testWithLatestFromBothForms() {
        onTestScheduler { scheduler in
            let taps = scheduler.createHotObservable([.next(210, ()), .next(230, ()), .completed(300)])
            let text = BehaviorRelay(value: "")
            scheduler.scheduleAt(220) { text.accept("ripple") }
            let res = scheduler.start { taps.asSignal(onErrorSignalWith: .empty()).withLatestFrom(text.asDriver()) }
            XCTAssertEqual(res.events, [.next(211, ""), .next(231, "ripple"), .completed(301)])
        }
        onTestScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, 10)])
            let res = scheduler.start { driver(xs).withLatestFrom(driver(ys), resultSelector: +) }
            XCTAssertEqual(res.events, [.next(231, 12), .completed(301)])
        }
    }

    // MARK: - Utility

    func testDoRunsOncePerEventWhateverTheSubscribers() {
        onTestScheduler { scheduler in
            var log: [String] = []
            let d = Driver.of(1).do(
                onNext: { log.append("onNext \($0)") },
                afterNext: { log.append("afterNext \($0)") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
            let bag = DisposeBag()
            d.drive().disposed(by: bag)
            d.drive().disposed(by: bag)
            scheduler.start()
            // The shared connection to the source is released when the completion
            // reaches it, before `afterCompleted` (as with RxSwift's `share`).
            XCTAssertEqual(log, ["onSubscribe", "onSubscribed", "onNext 1", "afterNext 1", "onCompleted", "onDispose", "afterCompleted"])
        }
    }

    func testDebugAndWithUnretained() {
        let previous = DebugOutput.sink
        defer { DebugOutput.sink = previous }
        let lines = Recorder<String>()
        DebugOutput.sink = { lines.append($0) }
        final class Owner { let name = "o" }
        let owner = Owner()
        onTestScheduler { scheduler in
            let res = scheduler.start { Driver.just(1).debug("driver").withUnretained(owner) { "\($0.name)\($1)" } }
            XCTAssertEqual(res.events, [.next(201, "o1"), .completed(201)])
        }
        onTestScheduler { scheduler in
            let pairs = scheduler.start { Driver.just(2).withUnretained(owner).map { $0.0 === owner ? $0.1 : -1 } }
            XCTAssertEqual(pairs.events, [.next(201, 2), .completed(201)])
        }
        XCTAssertEqual(lines.values.map { $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ") },
                       ["driver -> subscribed", "driver -> Event next(1)", "driver -> Event completed", "driver -> isDisposed"])
    }

    func testCustomSharingStrategy() {
        onTestScheduler { scheduler in
            let relay = PublishRelay<Int>()
            let all: SharedSequence<ReplayAllSharingStrategy, Int> = relay.asSharedSequence(onErrorJustReturn: 0)
            let first = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) { all.asObservable().subscribe(first).disposed(by: bag) }
            scheduler.scheduleAt(210) { relay.accept(1) }
            scheduler.scheduleAt(220) { relay.accept(2) }
            scheduler.scheduleAt(230) { all.asObservable().subscribe(late).disposed(by: bag) }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 1), .next(221, 2)])
            XCTAssertEqual(late.events, [.next(230, 1), .next(230, 2)])

            let failing = Observable<Int>.error(testError)
            let recovered: SharedSequence<ReplayAllSharingStrategy, Int> = failing.asSharedSequence(onErrorRecover: { _ in all })
            let fallback: SharedSequence<ReplayAllSharingStrategy, Int> = failing.asSharedSequence(
                sharingStrategy: ReplayAllSharingStrategy.self, onErrorDriveWith: all)
            XCTAssertTrue(recovered.asSharedSequence().asObservable() !== fallback.asObservable())
        }
    }
}
