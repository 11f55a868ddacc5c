// Every operator of RxSwift 6's public surface (the shared API checklist), used
// the way app tests use them: in virtual time, or blocking on a result.
import Foundation
import Ripple
import RippleTest
import XCTest

/// Runs `make` on a new `TestScheduler` (one per run, as RxTest wants) and
/// returns what the observer recorded.
func virtualTime<Element>(_ make: (TestScheduler) -> Observable<Element>) -> [Recorded<Event<Element>>] {
    let scheduler = TestScheduler(initialClock: 0)
    let observable = make(scheduler)
    return scheduler.start { observable }.events
}

/// The source most time tests use: four elements, then completion at 400.
func ticks(_ scheduler: TestScheduler) -> Observable<Int> {
    scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .next(300, 4), .completed(400)]).asObservable()
}

final class CreationOperatorTests: RippleTestCase {
    func testCreatingSequences() throws {
        XCTAssertEqual(try Observable.just(1).toBlocking().toArray(), [1])
        XCTAssertEqual(try Observable.just(1, scheduler: CurrentThreadScheduler.instance).toBlocking().toArray(), [1])
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try Observable.from([1, 2]).toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Observable.from(1...3).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try Observable.from(optional: Optional<Int>.none).toBlocking().toArray(), [])
        XCTAssertEqual(try Observable<Int>.empty().toBlocking().toArray(), [])
        XCTAssertThrowsError(try Observable<Int>.error(AppError.offline).toBlocking().toArray())
        XCTAssertEqual(try Observable.range(start: 5, count: 3).toBlocking().toArray(), [5, 6, 7])
        XCTAssertEqual(try Observable.repeatElement("a").take(2).toBlocking().toArray(), ["a", "a"])
        XCTAssertEqual(try Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 }).toBlocking().toArray(), [1, 3, 9])
        var built = 0
        let deferred = Observable<Int>.deferred {
            built += 1
            return .just(built)
        }
        XCTAssertEqual(try deferred.toBlocking().single(), 1)
        XCTAssertEqual(try deferred.toBlocking().single(), 2)
        let token = Token()
        XCTAssertEqual(try Observable.using({ token }, observableFactory: { _ in Observable.just("used") }).toBlocking().first(), "used")
        XCTAssertTrue(token.isDisposed)
        XCTAssertEqual(try Observable.create { observer -> Disposable in
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create()
        }.toBlocking().toArray(), [1])
        XCTAssertEqual(try Ticker(count: 3).asObservable().toBlocking().toArray(), [0, 1, 2])
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.05).toArray()) { error in
            guard case .timeout? = error as? RxError else { return XCTFail("\(error)") }
        }
    }

    func testTimers() {
        let scheduler = TestScheduler(initialClock: 0)
        let interval = scheduler.start(disposed: 270) { Observable<Int>.interval(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(interval.events, [.next(220, 0), .next(240, 1), .next(260, 2)])
        let later = TestScheduler(initialClock: 0)
        let timer = later.start(created: 300, subscribed: 310, disposed: 1_000) { Observable<Int>.timer(.seconds(5), scheduler: later) }
        XCTAssertEqual(timer.events, [.next(315, 0), .completed(315)])
    }

    func testAsyncSequencesAndAwaiting() async throws {
        let stream = AsyncStream<Int> { continuation in
            continuation.yield(1)
            continuation.yield(2)
            continuation.finish()
        }
        var collected: [Int] = []
        for try await value in stream.asObservable().values {
            collected.append(value)
        }
        XCTAssertEqual(collected, [1, 2])
        let fetched = try await Single.create(detached: false, priority: nil) { 42 }.value
        XCTAssertEqual(fetched, 42)
        let maybe = try await Maybe<Int>.empty().value
        XCTAssertNil(maybe)
        try await Completable.empty().value
        var seen: [String] = []
        for await value in Infallible.of("x", "y").values {
            seen.append(value)
        }
        XCTAssertEqual(seen, ["x", "y"])
        XCTAssertEqual(try Observable.from(AsyncStream<Int> { $0.yield(7); $0.finish() }).toBlocking().toArray(), [7])
    }
}

final class TransformingOperatorTests: RippleTestCase {
    func testTransforming() throws {
        XCTAssertEqual(try Observable.of(1, 2).map { $0 * 10 }.toBlocking().toArray(), [10, 20])
        XCTAssertEqual(try Observable.of("1", "x", "3").compactMap { Int($0) }.toBlocking().toArray(), [1, 3])
        XCTAssertEqual(try Observable.of(1, 2, 3).scan(0, accumulator: +).toBlocking().toArray(), [1, 3, 6])
        XCTAssertEqual(try Observable.of(1, 2).scan(into: [Int]()) { $0.append($1) }.toBlocking().last(), [1, 2])
        XCTAssertEqual(try Observable.of(1, 2, 3).reduce(0, accumulator: +).toBlocking().single(), 6)
        XCTAssertEqual(try Observable.of(1, 2, 3).reduce(0, accumulator: +, mapResult: { "\($0)" }).toBlocking().single(), "6")
        XCTAssertEqual(try Observable.of(1, 2).toArray().toBlocking().single(), [1, 2])
        XCTAssertEqual(try Observable.of("a", "b").enumerated().map { "\($0.index)\($0.element)" }.toBlocking().toArray(), ["0a", "1b"])
        XCTAssertEqual(try Observable.of(1, 2).flatMap { Observable.of($0, $0) }.toBlocking().toArray(), [1, 1, 2, 2])
        XCTAssertEqual(try Observable.of(1, 2).concatMap { value in Observable.of(value, 0 - value) }.toBlocking().toArray(), [1, -1, 2, -2])
        XCTAssertEqual(try Observable.of(Observable.of(1), Observable.of(2)).merge().toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Observable.of(Observable.of(1), Observable.of(2)).merge(maxConcurrent: 1).toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Observable.of(Observable.of(1), Observable.of(2)).concat().toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Observable.of(Observable.of(1), Observable.of(2)).switchLatest().toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Observable.of(1, 2).materialize().dematerialize().toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Observable.of(1, 2, 3).ignoreElements().asObservable().toBlocking().toArray(), [])
        let groups = try Observable.of(1, 2, 3, 4).groupBy(keySelector: { $0 % 2 }).flatMap { group in
            group.map { "\(group.key):\($0)" }
        }.toBlocking().toArray()
        XCTAssertEqual(groups, ["1:1", "0:2", "1:3", "0:4"])
        let json = Data(#"{"id":1,"name":"r","stars":2}"#.utf8)
        XCTAssertEqual(try Observable.just(json).decode(type: Repo.self, decoder: JSONDecoder()).toBlocking().single().name, "r")
        XCTAssertEqual(try Observable.just(Data("line".utf8)).decode(type: String.self, decoder: LineDecoder()).toBlocking().single(), "line")
        let owner = Token()
        XCTAssertEqual(try Observable.of(1).withUnretained(owner).map { $0.0 === owner }.toBlocking().toArray(), [true])
        XCTAssertEqual(try Observable.of(2).withUnretained(owner) { _, value in value * 2 }.toBlocking().toArray(), [4])
        XCTAssertEqual(try Observable.of(1, 2).debug("migration", trimOutput: true).toBlocking().toArray(), [1, 2])
    }

    func testFlatMapFirstAndLatestInVirtualTime() {
        func inner(_ scheduler: TestScheduler) -> (Int) -> Observable<Int> {
            { value in scheduler.createColdObservable([.next(10, value * 10), .completed(20)]).asObservable() }
        }
        XCTAssertEqual(virtualTime { ticks($0).flatMapFirst(inner($0)) },
                       [.next(220, 10), .next(250, 30), .next(310, 40), .completed(400)])
        XCTAssertEqual(virtualTime { ticks($0).flatMapLatest(inner($0)) },
                       [.next(225, 20), .next(250, 30), .next(310, 40), .completed(400)])
    }
}

final class FilteringOperatorTests: RippleTestCase {
    func testFiltering() throws {
        let source = Observable.of(1, 1, 2, 3, 3, 4)
        XCTAssertEqual(try source.filter { $0 % 2 == 0 }.toBlocking().toArray(), [2, 4])
        XCTAssertEqual(try source.distinctUntilChanged().toBlocking().toArray(), [1, 2, 3, 4])
        XCTAssertEqual(try source.distinctUntilChanged { $0 / 2 }.toBlocking().toArray(), [1, 2, 4])
        XCTAssertEqual(try source.distinctUntilChanged { $0 == $1 - 1 }.toBlocking().toArray(), [1, 1, 3, 3])
        XCTAssertEqual(try source.distinctUntilChanged({ $0 % 3 }, comparer: ==).toBlocking().toArray(), [1, 2, 3, 4])
        let repos = Observable.of(Repo(id: 1, name: "a", stars: 1), Repo(id: 1, name: "b", stars: 1))
        XCTAssertEqual(try repos.distinctUntilChanged(at: \.id).toBlocking().toArray().count, 1)
        XCTAssertEqual(try source.element(at: 2).toBlocking().single(), 2)
        XCTAssertEqual(try source.take(2).toBlocking().toArray(), [1, 1])
        XCTAssertEqual(try source.take(while: { $0 < 3 }).toBlocking().toArray(), [1, 1, 2])
        XCTAssertEqual(try source.take(while: { $0 < 3 }, behavior: .inclusive).toBlocking().toArray(), [1, 1, 2, 3])
        XCTAssertEqual(try source.take(until: { $0 == 2 }, behavior: .exclusive).toBlocking().toArray(), [1, 1])
        XCTAssertEqual(try source.takeLast(2).toBlocking().toArray(), [3, 4])
        XCTAssertEqual(try source.skip(4).toBlocking().toArray(), [3, 4])
        XCTAssertEqual(try source.skip(while: { $0 < 3 }).toBlocking().toArray(), [3, 3, 4])
        XCTAssertEqual(try source.first().toBlocking().single(), 1)
        XCTAssertEqual(try source.single { $0 == 4 }.toBlocking().single(), 4)
        XCTAssertThrowsError(try source.single().toBlocking().single()) { error in
            guard case .moreThanOneElement? = error as? RxError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try Observable<Int>.empty().ifEmpty(default: 9).toBlocking().toArray(), [9])
        XCTAssertEqual(try Observable<Int>.empty().ifEmpty(switchTo: .of(7, 8)).toBlocking().toArray(), [7, 8])
    }

    func testTimeBasedFiltering() {
        XCTAssertEqual(virtualTime { ticks($0).debounce(.seconds(20), scheduler: $0) },
                       [.next(235, 2), .next(260, 3), .next(320, 4), .completed(400)])
        XCTAssertEqual(virtualTime { ticks($0).throttle(.seconds(20), latest: false, scheduler: $0) },
                       [.next(210, 1), .next(240, 3), .next(300, 4), .completed(400)])
        XCTAssertEqual(virtualTime { ticks($0).take(for: .seconds(50), scheduler: $0) },
                       [.next(210, 1), .next(215, 2), .next(240, 3), .completed(250)])
        XCTAssertEqual(virtualTime { ticks($0).skip(.seconds(50), scheduler: $0) },
                       [.next(300, 4), .completed(400)])
        XCTAssertEqual(virtualTime { ticks($0).take(until: $0.createHotObservable([.next(250, "x")])) },
                       [.next(210, 1), .next(215, 2), .next(240, 3), .completed(250)])
        XCTAssertEqual(virtualTime { ticks($0).skip(until: $0.createHotObservable([.next(250, "x")])) },
                       [.next(300, 4), .completed(400)])
        // After the source completed, the next tick sends its last element and completes.
        XCTAssertEqual(virtualTime { ticks($0).sample($0.createHotObservable([.next(220, ()), .next(230, ()), .next(500, ())]), defaultValue: 0) },
                       [.next(220, 2), .next(230, 0), .next(500, 4), .completed(500)])
    }
}

final class CombiningOperatorTests: RippleTestCase {
    func testCombining() throws {
        let a = Observable.of(1, 2)
        let b = Observable.of("x")
        // Sources that send on the current-thread scheduler take turns.
        XCTAssertEqual(try Observable.combineLatest(a, b) { "\($0)\($1)" }.toBlocking().toArray(), ["1x", "2x"])
        XCTAssertEqual(try Observable.combineLatest(a, b).map { "\($0.0)\($0.1)" }.toBlocking().toArray(), ["1x", "2x"])
        XCTAssertEqual(try Observable.combineLatest(a, a, a, a, a, a, a, a) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.toBlocking().last(), 16)
        XCTAssertEqual(try Observable.combineLatest([a, a]).toBlocking().last(), [2, 2])
        XCTAssertEqual(try Observable.combineLatest([a, a]) { $0.reduce(0, +) }.toBlocking().last(), 4)
        XCTAssertEqual(try Observable.zip(a, b) { "\($0)\($1)" }.toBlocking().toArray(), ["1x"])
        XCTAssertEqual(try Observable.zip(a, a, a).map { $0.0 + $0.1 + $0.2 }.toBlocking().toArray(), [3, 6])
        XCTAssertEqual(try Observable.zip([a, a]).toBlocking().toArray(), [[1, 1], [2, 2]])
        XCTAssertEqual(try Observable.merge(a, a).toBlocking().toArray(), [1, 1, 2, 2])
        XCTAssertEqual(try Observable.merge([a, a]).toBlocking().toArray(), [1, 1, 2, 2])
        XCTAssertEqual(try Observable.merge(Set([0]).map { _ in a }).toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Observable.concat(a, a).toBlocking().toArray(), [1, 2, 1, 2])
        XCTAssertEqual(try Observable.concat([a, a]).toBlocking().toArray(), [1, 2, 1, 2])
        XCTAssertEqual(try Observable.concat(AnySequence([a])).toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try a.concat(Observable.just(3)).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try a.startWith(0).toBlocking().toArray(), [0, 1, 2])
        XCTAssertEqual(try a.withLatestFrom(b).toBlocking().toArray(), ["x", "x"])
        XCTAssertEqual(try Observable.amb([Observable.never(), a]).toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Observable<Int>.never().amb(a).toBlocking().toArray(), [1, 2])
    }

    func testWithLatestFromInVirtualTime() {
        func taps(_ scheduler: TestScheduler) -> TestableObservable<Void> {
            scheduler.createHotObservable([.next(210, ()), .next(230, ())])
        }
        func text(_ scheduler: TestScheduler) -> TestableObservable<String> {
            scheduler.createHotObservable([.next(205, "a"), .next(220, "ab")])
        }
        XCTAssertEqual(virtualTime { taps($0).withLatestFrom(text($0)) }, [.next(210, "a"), .next(230, "ab")])
        XCTAssertEqual(virtualTime { taps($0).withLatestFrom(text($0)) { _, text in text.count } }, [.next(210, 1), .next(230, 2)])
    }
}

final class ErrorAndUtilityOperatorTests: RippleTestCase {
    func testErrorHandling() throws {
        let failing = Observable<Int>.error(AppError.offline)
        XCTAssertEqual(try failing.catch { _ in .just(0) }.toBlocking().toArray(), [0])
        XCTAssertEqual(try failing.catchAndReturn(-1).toBlocking().toArray(), [-1])
        XCTAssertEqual(try Observable.catch(sequence: [failing, .just(5)]).toBlocking().toArray(), [5])
        var attempts = 0
        let flaky = Observable<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(AppError.offline) : .just(attempts)
        }
        XCTAssertEqual(try flaky.retry().toBlocking().single(), 3)
        attempts = 0
        XCTAssertThrowsError(try flaky.retry(2).toBlocking().single())
        attempts = 0
        XCTAssertEqual(try flaky.retry(when: { (errors: Observable<AppError>) in errors.map { _ in () } }).toBlocking().single(), 3)
        attempts = 0
        XCTAssertEqual(try flaky.retry(when: { (errors: Observable<Error>) in errors.take(5) }).toBlocking().single(), 3)
    }

    func testUtility() {
        func source(_ scheduler: TestScheduler) -> Observable<Int> {
            scheduler.createColdObservable([.next(10, 1), .completed(20)]).asObservable()
        }
        XCTAssertEqual(virtualTime { source($0).delay(.seconds(5), scheduler: $0) }, [.next(215, 1), .completed(225)])
        XCTAssertEqual(virtualTime { source($0).delaySubscription(.seconds(5), scheduler: $0) }, [.next(215, 1), .completed(225)])
        XCTAssertEqual(virtualTime { source($0).timeout(.seconds(5), scheduler: $0) }, [.error(205, RxError.timeout)])
        XCTAssertEqual(virtualTime { source($0).timeout(.seconds(5), other: Observable.just(0), scheduler: $0) }, [.next(205, 0), .completed(205)])
        XCTAssertEqual(virtualTime { source($0).observe(on: $0).subscribe(on: $0) }, [.next(212, 1), .completed(222)])
        XCTAssertEqual(virtualTime { ticks($0).buffer(timeSpan: .seconds(100), count: 2, scheduler: $0) },
                       [.next(215, [1, 2]), .next(300, [3, 4]), .next(400, []), .completed(400)])
        XCTAssertEqual(virtualTime { ticks($0).window(timeSpan: .seconds(100), count: 2, scheduler: $0).flatMap { $0.toArray().asObservable() } },
                       [.next(215, [1, 2]), .next(300, [3, 4]), .next(400, []), .completed(400)])

        var log: [String] = []
        _ = Observable.of(1).do(
            onNext: { log.append("next \($0)") }, afterNext: { _ in log.append("afterNext") },
            onError: { _ in log.append("error") }, afterError: { _ in log.append("afterError") },
            onCompleted: { log.append("completed") }, afterCompleted: { log.append("afterCompleted") },
            onSubscribe: { log.append("subscribe") }, onSubscribed: { log.append("subscribed") },
            onDispose: { log.append("dispose") }
        ).subscribe()
        // `of` sends on the current-thread scheduler: after the subscription.
        XCTAssertEqual(log, ["subscribe", "subscribed", "next 1", "afterNext", "completed", "afterCompleted", "dispose"])
    }

    func testSharing() {
        var subscriptions = 0
        let source = Observable<Int>.create { observer in
            subscriptions += 1
            observer.onNext(subscriptions)
            return Disposables.create()
        }
        let shared = source.share(replay: 1, scope: .forever)
        let first = Collector<Int>()
        let second = Collector<Int>()
        let bag = DisposeBag()
        shared.subscribe(first).disposed(by: bag)
        shared.subscribe(second).disposed(by: bag)
        XCTAssertEqual(subscriptions, 1)
        XCTAssertEqual(second.events, [.next(1)])

        let published = Observable.of(1, 2).publish()
        let late = Collector<Int>()
        published.subscribe(late).disposed(by: bag)
        published.connect().disposed(by: bag)
        XCTAssertEqual(late.events, [.next(1), .next(2), .completed])

        // (A connection that completed hands later subscribers a new subject,
        // as in RxSwift: these sources stay open.)
        let running = Observable.of(1, 2).concat(Observable.never())
        let replayed = running.replay(1)
        replayed.connect().disposed(by: bag)
        let replayCollector = Collector<Int>()
        replayed.subscribe(replayCollector).disposed(by: bag)
        XCTAssertEqual(replayCollector.events, [.next(2)])

        let all = running.replayAll()
        all.connect().disposed(by: bag)
        XCTAssertEqual(try all.take(2).toBlocking().toArray(), [1, 2])

        let subject = PublishSubject<Int>()
        let multicast = Observable.of(3).multicast(subject)
        let viaSubject = Collector<Int>()
        multicast.subscribe(viaSubject).disposed(by: bag)
        multicast.connect().disposed(by: bag)
        XCTAssertEqual(viaSubject.events, [.next(3), .completed])
        XCTAssertEqual(try Observable.of(4).multicast({ ReplaySubject<Int>.createUnbounded() }, selector: { $0.map { $0 * 2 } }).toBlocking().toArray(), [8])
        let factory = Observable.of(5).multicast(makeSubject: { PublishSubject<Int>() })
        let counted = Collector<Int>()
        factory.refCount().subscribe(counted).disposed(by: bag)
        XCTAssertEqual(counted.events, [.next(5), .completed])

        let manual = ManualConnectable(Observable.of(6))
        let manualCollector = Collector<Int>()
        manual.subscribe(manualCollector).disposed(by: bag)
        manual.connect().disposed(by: bag)
        XCTAssertEqual(manualCollector.events, [.next(6), .completed])
    }
}
