import Ripple
import RippleTest
import XCTest

final class InfallibleOperatorTests: RippleTestCase {
    // MARK: - Transforming

    func testMapCompactMapFilter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.infallible.map { $0 * 10 } }.events,
                       [.next(210, 10), .next(220, 20), .next(230, 30), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, "1"), .next(220, "x"), .next(230, "3"), .completed(300)])
        XCTAssertEqual(scheduler2.start { ys.infallible.compactMap { Int($0) } }.events, [.next(210, 1), .next(230, 3), .completed(300)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let zs = scheduler3.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 4), .completed(300)])
        XCTAssertEqual(scheduler3.start { zs.infallible.filter { $0.isMultiple(of: 2) } }.events,
                       [.next(220, 2), .next(230, 4), .completed(300)])
    }

    func testMapDisposedMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2)])
        let res = scheduler.start(disposed: 400) { xs.infallible.map { $0 + 1 } }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testScanBothFormsStartOverPerSubscription() {
        let running = Infallible.of(1, 2, 3).scan(0, accumulator: +)
        XCTAssertEqual(record(running.asObservable()).0.values, [.next(1), .next(3), .next(6), .completed])
        XCTAssertEqual(record(running.asObservable()).0.values, [.next(1), .next(3), .next(6), .completed])
        let into = Infallible.of("a", "b").scan(into: [String]()) { $0.append($1) }
        XCTAssertEqual(record(into.asObservable()).0.values, [.next(["a"]), .next(["a", "b"]), .completed])
        XCTAssertEqual(record(Infallible<Int>.empty().scan(0, accumulator: +).asObservable()).0.values, [.completed])
    }

    func testEnumeratedIgnoreElementsStartWith() {
        let enumerated = record(Infallible.of("a", "b").enumerated().map { "\($0.index)\($0.element)" }.asObservable()).0.values
        XCTAssertEqual(enumerated, [.next("0a"), .next("1b"), .completed])
        XCTAssertEqual(record(Infallible.of(1, 2).ignoreElements().asObservable()).0.values.count, 1)

        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.infallible.startWith(1, 2) }.events,
                       [.next(200, 1), .next(200, 2), .next(210, 3), .completed(300)])
        // Disposed while the prefix is sent: the source is never subscribed.
        var values: [Int] = []
        var subscription: Disposable?
        subscription = Infallible<Int>.never().startWith(1, 2).subscribe(onNext: {
            values.append($0)
            subscription?.dispose()
        })
        XCTAssertEqual(values, [1, 2])
        subscription?.dispose()
    }

    // MARK: - Flattening

    func testFlatMapMergesInnerSequences() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(250)])
        let inner = scheduler.createColdObservable([.next(10, 10), .next(30, 20), .completed(40)])
        let res = scheduler.start { xs.infallible.flatMap { value in inner.infallible.map { $0 + value } } }
        XCTAssertEqual(res.events, [.next(220, 11), .next(240, 21), .next(250, 12), .next(270, 22), .completed(280)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 250), Subscription(240, 280)])
    }

    func testFlatMapLatestSwitchesAndDisposesThePreviousInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(250)])
        let inner = scheduler.createColdObservable([.next(10, 10), .next(40, 20), .completed(50)])
        let res = scheduler.start { xs.infallible.flatMapLatest { value in inner.infallible.map { $0 + value } } }
        XCTAssertEqual(res.events, [.next(220, 11), .next(250, 12), .next(280, 22), .completed(290)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 240), Subscription(240, 290)])
    }

    func testFlatMapFirstIgnoresWhileBusy() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(300)])
        let inner = scheduler.createColdObservable([.next(10, 10), .completed(30)])
        let res = scheduler.start { xs.infallible.flatMapFirst { value in inner.infallible.map { $0 + value } } }
        XCTAssertEqual(res.events, [.next(220, 11), .next(270, 13), .completed(300)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 240), Subscription(260, 290)])
    }

    func testConcatMapRunsInnerSequencesInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let inner = scheduler.createColdObservable([.next(10, 10), .completed(20)])
        let res = scheduler.start { xs.infallible.concatMap { value in inner.infallible.map { $0 + value } } }
        XCTAssertEqual(res.events, [.next(220, 11), .next(240, 12), .completed(250)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 230), Subscription(230, 250)])
    }

    func testSwitchLatestMergeAndConcatOfInfallibles() {
        let a = PublishRelay<Int>()
        let b = PublishRelay<Int>()
        let outer = PublishRelay<Infallible<Int>>()
        var latest: [Int] = []
        var merged: [Int] = []
        let bag = DisposeBag()
        outer.asInfallible().switchLatest().subscribe(onNext: { latest.append($0) }).disposed(by: bag)
        outer.asInfallible().merge().subscribe(onNext: { merged.append($0) }).disposed(by: bag)
        outer.accept(a.asInfallible())
        a.accept(1)
        outer.accept(b.asInfallible())
        a.accept(2)
        b.accept(3)
        XCTAssertEqual(latest, [1, 3])
        XCTAssertEqual(merged, [1, 2, 3])

        let sources = Infallible.of(Infallible.of(1, 2), Infallible.of(3))
        XCTAssertEqual(record(sources.concat().asObservable()).0.values, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(record(sources.merge(maxConcurrent: 1).asObservable()).0.values, [.next(1), .next(2), .next(3), .completed])
    }

    // MARK: - Filtering

    func testSkipAndTakeByCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.infallible.skip(2) }.events, [.next(230, 3), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(scheduler2.start { ys.infallible.take(2) }.events, [.next(210, 1), .next(220, 2), .completed(220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])

        XCTAssertEqual(record(Infallible.of(1, 2).take(0).asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Infallible.of(1, 2, 3).takeLast(2).asObservable()).0.values, [.next(2), .next(3), .completed])
    }

    func testInvalidCountsAreReportedAndComplete() {
        var results: [[Event<Int>]] = []
        let violations = capturingViolations {
            results.append(record(Infallible.of(1).take(-1).asObservable()).0.values)
            results.append(record(Infallible.of(1).skip(-1).asObservable()).0.values)
            results.append(record(Infallible.of(1).takeLast(-1).asObservable()).0.values)
            results.append(record(Infallible.of(1).element(at: -1).asObservable()).0.values)
            results.append(record(Infallible.of(1).share(replay: -1).asObservable()).0.values)
            results.append(record(Infallible.of(Infallible.of(1)).merge(maxConcurrent: 0).asObservable()).0.values)
        }
        XCTAssertEqual(results, Array(repeating: [.completed], count: 6))
        XCTAssertEqual(violations.count, 6)
        XCTAssertTrue(violations[0].hasPrefix("Infallible: take(-1)"), violations[0])
    }

    func testSkipAndTakeByDuration() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.infallible.skip(.seconds(25), scheduler: scheduler) }.events,
                       [.next(230, 2), .next(260, 3), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .completed(300)])
        XCTAssertEqual(scheduler2.start { ys.infallible.take(for: .seconds(35), scheduler: scheduler2) }.events,
                       [.next(210, 1), .next(230, 2), .completed(235)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 235)])
    }

    func testSkipWhileTakeWhileTakeUntilPredicate() {
        let source = Infallible.of(1, 2, 3, 1)
        XCTAssertEqual(record(source.skip(while: { $0 < 3 }).asObservable()).0.values, [.next(3), .next(1), .completed])
        XCTAssertEqual(record(source.take(while: { $0 < 3 }).asObservable()).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(record(source.take(while: { $0 < 3 }, behavior: .inclusive).asObservable()).0.values,
                       [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(record(source.take(until: { $0 == 2 }).asObservable()).0.values, [.next(1), .completed])
        XCTAssertEqual(record(source.take(until: { $0 == 2 }, behavior: .inclusive).asObservable()).0.values,
                       [.next(1), .next(2), .completed])
    }

    func testTakeUntilAndSkipUntilOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        let trigger = scheduler.createHotObservable([.next(230, ()), .completed(250)])
        XCTAssertEqual(scheduler.start { xs.infallible.take(until: trigger) }.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        let relay = PublishRelay<Void>()
        scheduler2.scheduleAt(230) { relay.accept(()) }
        XCTAssertEqual(scheduler2.start { ys.infallible.skip(until: relay) }.events, [.next(240, 3), .completed(300)])
    }

    func testFailingTriggerIsReportedAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let trigger = scheduler.createHotObservable([.error(230, testError)] as [Recorded<Event<Int>>])
        var res: TestableObserver<Int>!
        let violations = capturingViolations {
            res = scheduler.start { xs.infallible.take(until: trigger) }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(violations, ["Infallible: take(until:) failed with TestError(1)"])
    }

    func testElementAt() {
        XCTAssertEqual(record(Infallible.of("a", "b", "c").element(at: 1).asObservable()).0.values, [.next("b"), .completed])
        // Too few elements: completes without one (an Infallible cannot fail).
        XCTAssertEqual(record(Infallible.of("a").element(at: 3).asObservable()).0.values, [.completed])
    }

    func testIfEmpty() {
        XCTAssertEqual(record(Infallible<Int>.empty().ifEmpty(default: 7).asObservable()).0.values, [.next(7), .completed])
        XCTAssertEqual(record(Infallible.of(1).ifEmpty(default: 7).asObservable()).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Infallible<Int>.empty().ifEmpty(switchTo: .of(8, 9)).asObservable()).0.values,
                       [.next(8), .next(9), .completed])
    }

    func testDistinctUntilChangedForms() {
        struct Item: Equatable { let letter: String; let number: Int }
        let items = Infallible.of(Item(letter: "a", number: 1), Item(letter: "a", number: 2), Item(letter: "b", number: 1))
        XCTAssertEqual(record(Infallible.of(1, 1, 2, 2, 1).distinctUntilChanged().asObservable()).0.values,
                       [.next(1), .next(2), .next(1), .completed])
        XCTAssertEqual(record(items.distinctUntilChanged { $0.letter }.map(\.number).asObservable()).0.values,
                       [.next(1), .next(1), .completed])
        XCTAssertEqual(record(items.distinctUntilChanged(at: \.letter).map(\.number).asObservable()).0.values,
                       [.next(1), .next(1), .completed])
        let sameHalf: (Int, Int) -> Bool = { $0 / 2 == $1 / 2 }
        XCTAssertEqual(record(Infallible.of(1, 2, 4, 5).distinctUntilChanged(sameHalf).asObservable()).0.values,
                       [.next(1), .next(2), .next(4), .completed])
        XCTAssertEqual(record(items.distinctUntilChanged({ $0.number }, comparer: { $0 == $1 }).map(\.letter).asObservable()).0.values,
                       [.next("a"), .next("a"), .next("b"), .completed])
    }

    // MARK: - Time

    func testDebounce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(270)])
        let res = scheduler.start { xs.infallible.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 2), .next(270, 3), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 270)])
    }

    func testThrottleBothModes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .next(260, 4), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.infallible.throttle(.seconds(20), scheduler: scheduler) }.events,
                       [.next(210, 1), .next(230, 3), .next(260, 4), .completed(300)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .next(260, 4), .completed(300)])
        XCTAssertEqual(scheduler2.start { ys.infallible.throttle(.seconds(20), latest: false, scheduler: scheduler2) }.events,
                       [.next(210, 1), .next(260, 4), .completed(300)])
    }

    func testDelayAndDelaySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(scheduler.start { xs.infallible.delay(.seconds(30), scheduler: scheduler) }.events,
                       [.next(240, 1), .next(250, 2), .completed(260)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createColdObservable([.next(10, 1), .completed(20)])
        XCTAssertEqual(scheduler2.start { ys.infallible.delaySubscription(.seconds(30), scheduler: scheduler2) }.events,
                       [.next(240, 1), .completed(250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
    }

    func testObserveOnAndSubscribeOn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler.start { xs.infallible.observe(on: scheduler) }.events, [.next(211, 1), .completed(221)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler2.start { ys.infallible.subscribe(on: scheduler2) }.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(201, 220)])
    }

    // MARK: - Sharing and utility

    func testShareReplaysAndSubscribesOnce() {
        var subscriptions = 0
        let relay = BehaviorRelay(value: 0)
        let shared = relay.asInfallible()
            .do(onSubscribe: { subscriptions += 1 })
            .map { $0 * 10 }
            .share(replay: 1)
        var first: [Int] = []
        var second: [Int] = []
        let a = shared.subscribe(onNext: { first.append($0) })
        relay.accept(1)
        let b = shared.subscribe(onNext: { second.append($0) })
        relay.accept(2)
        XCTAssertEqual(first, [0, 10, 20])
        XCTAssertEqual(second, [10, 20])
        XCTAssertEqual(subscriptions, 1)
        a.dispose()
        b.dispose()
    }

    func testShareForeverKeepsItsBuffer() {
        let relay = PublishRelay<Int>()
        let shared = relay.asInfallible().share(replay: 1, scope: .forever)
        let a = shared.subscribe(onNext: { _ in })
        relay.accept(5)
        a.dispose()
        var late: [Int] = []
        let b = shared.subscribe(onNext: { late.append($0) })
        XCTAssertEqual(late, [5])
        b.dispose()
    }

    func testDoHooksOrder() {
        var log: [String] = []
        let source = Infallible.of(1).do(
            onNext: { log.append("onNext \($0)") },
            afterNext: { log.append("afterNext \($0)") },
            onCompleted: { log.append("onCompleted") },
            afterCompleted: { log.append("afterCompleted") },
            onSubscribe: { log.append("onSubscribe") },
            onSubscribed: { log.append("onSubscribed") },
            onDispose: { log.append("onDispose") }
        )
        _ = source.subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
        // `of` emits from the trampoline, after the subscription returned.
        XCTAssertEqual(log, [
            "onSubscribe", "onSubscribed", "onNext 1", "next 1", "afterNext 1",
            "onCompleted", "completed", "afterCompleted", "onDispose",
        ])
    }

    func testDebugPrintsInRxSwiftFormat() {
        let previous = DebugOutput.sink
        defer { DebugOutput.sink = previous }
        let lines = Recorder<String>()
        DebugOutput.sink = { lines.append($0) }
        _ = Infallible.of(1).debug("inf").subscribe()
        let suffixes = lines.values.map { $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ") }
        XCTAssertEqual(suffixes, ["inf -> subscribed", "inf -> Event next(1)", "inf -> Event completed", "inf -> isDisposed"])
    }

    func testWithUnretained() {
        final class Owner { let name = "o" }
        var owner: Owner? = Owner()
        let relay = PublishRelay<Int>()
        var values: [String] = []
        var completed = false
        let subscription = relay.asInfallible()
            .withUnretained(owner!) { owner, value in "\(owner.name)\(value)" }
            .subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        relay.accept(1)
        owner = nil
        relay.accept(2)
        XCTAssertEqual(values, ["o1"])
        XCTAssertTrue(completed)
        subscription.dispose()

        let other = Owner()
        let pairs = record(Infallible.of(1).withUnretained(other).map { $0.0 === other && $0.1 == 1 }.asObservable()).0.values
        XCTAssertEqual(pairs, [.next(true), .completed])
    }
}
