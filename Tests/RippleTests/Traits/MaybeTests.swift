import Ripple
import RippleTest
import XCTest

final class MaybeTests: RippleTestCase {
    // MARK: - do

    func testDoRunsEachHookInOrder() {
        var log: [String] = []
        let maybe = { (source: Maybe<Int>) in
            source.do(
                onNext: { log.append("onNext \($0)") },
                afterNext: { log.append("afterNext \($0)") },
                onError: { log.append("onError \($0)") },
                afterError: { log.append("afterError \($0)") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
        }
        _ = maybe(.just(1)).subscribe(onSuccess: { log.append("success \($0)") })
        XCTAssertEqual(log, ["onSubscribe", "onNext 1", "success 1", "afterNext 1", "onCompleted", "afterCompleted", "onSubscribed", "onDispose"])
        log = []
        _ = maybe(.empty()).subscribe(onCompleted: { log.append("completed") })
        XCTAssertEqual(log, ["onSubscribe", "onCompleted", "completed", "afterCompleted", "onSubscribed", "onDispose"])
        log = []
        _ = maybe(.error(testError)).subscribe(onError: { log.append("error \($0)") })
        XCTAssertEqual(log, ["onSubscribe", "onError TestError(1)", "error TestError(1)", "afterError TestError(1)", "onSubscribed", "onDispose"])
    }

    func testDoHookThatThrowsFailsAndDisposeRunsOnDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, maybe) = scheduler.hotMaybe(210, nil, Int.self)
        XCTAssertEqual(scheduler.start { maybe.do(onCompleted: { throw testError }) }.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, late) = scheduler2.hotMaybe(300, 1)
        var disposedAt: [Int] = []
        XCTAssertEqual(scheduler2.start(disposed: 250) { late.do(onDispose: { disposedAt.append(scheduler2.clock) }) }.events, [])
        XCTAssertEqual(disposedAt, [250])
    }

    // MARK: - map / compactMap / filter / flatMap

    func testMapOfAnElementAndOfNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, some) = scheduler.hotMaybe(210, 2)
        XCTAssertEqual(scheduler.start { some.map { $0 * 10 } }.events, [.next(210, 20), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, none) = scheduler2.hotMaybe(210, nil, Int.self)
        var calls = 0
        XCTAssertEqual(scheduler2.start { none.map { value -> Int in calls += 1; return value } }.events, [.completed(210)])
        XCTAssertEqual(calls, 0)

        XCTAssertEqual(record(Maybe.just(1).map { _ -> Int in throw testError }.asObservable()).0.values, [.error(testError)])
        XCTAssertEqual(record(Maybe<Int>.error(testError).map { $0 }.asObservable()).0.values, [.error(testError)])
    }

    func testCompactMapAndFilter() {
        XCTAssertEqual(record(Maybe.just(3).compactMap { $0 % 2 == 1 ? "\($0)" : nil }.asObservable()).0.values, [.next("3"), .completed])
        XCTAssertEqual(record(Maybe.just(4).compactMap { $0 % 2 == 1 ? "\($0)" : nil }.asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Maybe<Int>.empty().compactMap { "\($0)" }.asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Maybe.just(1).compactMap { _ -> Int? in throw testError }.asObservable()).0.values, [.error(testError)])

        XCTAssertEqual(record(Maybe.just(3).filter { $0 > 2 }.asObservable()).0.values, [.next(3), .completed])
        XCTAssertEqual(record(Maybe.just(1).filter { $0 > 2 }.asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Maybe<Int>.empty().filter { _ in true }.asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Maybe.just(1).filter { _ in throw testError }.asObservable()).0.values, [.error(testError)])

        let scheduler = TestScheduler(initialClock: 0)
        let (xs, late) = scheduler.hotMaybe(300, 1)
        XCTAssertEqual(scheduler.start(disposed: 250) { late.filter { _ in true } }.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testFlatMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, some) = scheduler.hotMaybe(210, 1)
        let (ys, inner) = scheduler.coldMaybe(20, "a")
        XCTAssertEqual(scheduler.start { some.flatMap { _ in inner } }.events, [.next(230, "a"), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])

        // An empty source never calls the selector.
        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, none) = scheduler2.hotMaybe(210, nil, Int.self)
        var calls = 0
        XCTAssertEqual(scheduler2.start { none.flatMap { _ -> Maybe<Int> in calls += 1; return .just(1) } }.events, [.completed(210)])
        XCTAssertEqual(calls, 0)

        // An empty inner Maybe completes the result.
        let scheduler3 = TestScheduler(initialClock: 0)
        let (_, some3) = scheduler3.hotMaybe(210, 1)
        let (_, emptyInner) = scheduler3.coldMaybe(20, nil, String.self)
        XCTAssertEqual(scheduler3.start { some3.flatMap { _ in emptyInner } }.events, [.completed(230)])
    }

    func testFlatMapFailuresAndDisposal() {
        XCTAssertEqual(record(Maybe.just(1).flatMap { _ -> Maybe<Int> in throw testError }.asObservable()).0.values, [.error(testError)])
        XCTAssertEqual(record(Maybe.just(1).flatMap { _ in Maybe<Int>.error(testError2) }.asObservable()).0.values, [.error(testError2)])

        let scheduler = TestScheduler(initialClock: 0)
        let (_, some) = scheduler.hotMaybe(210, 1)
        let (ys, inner) = scheduler.coldMaybe(50, "a")
        XCTAssertEqual(scheduler.start(disposed: 230) { some.flatMap { _ in inner } }.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    // MARK: - ifEmpty

    func testIfEmptyDefaultIsASingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, none) = scheduler.hotMaybe(210, nil, Int.self)
        let single: Single<Int> = none.ifEmpty(default: 0)
        XCTAssertEqual(scheduler.start { single }.events, [.next(210, 0), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        XCTAssertEqual(record(Maybe.just(1).ifEmpty(default: 0).asObservable()).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Maybe<Int>.error(testError).ifEmpty(default: 0).asObservable()).0.values, [.error(testError)])
    }

    func testIfEmptySwitchToMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, none) = scheduler.hotMaybe(210, nil, Int.self)
        let (ys, other) = scheduler.coldMaybe(20, 7)
        let result: Maybe<Int> = none.ifEmpty(switchTo: other)
        XCTAssertEqual(scheduler.start { result }.events, [.next(230, 7), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])

        // An element: `other` is never subscribed.
        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, some) = scheduler2.hotMaybe(210, 1)
        let (zs, other2) = scheduler2.coldMaybe(20, 7)
        XCTAssertEqual(scheduler2.start { some.ifEmpty(switchTo: other2) }.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(zs.subscriptions, [])

        // Empty, then empty again.
        XCTAssertEqual(record(Maybe<Int>.empty().ifEmpty(switchTo: Maybe<Int>.empty()).asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Maybe<Int>.empty().ifEmpty(switchTo: Maybe<Int>.error(testError)).asObservable()).0.values, [.error(testError)])
    }

    func testIfEmptySwitchToSingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, none) = scheduler.hotMaybe(210, nil, Int.self)
        let (ys, other) = scheduler.coldSingle(20, 7)
        let result: Single<Int> = none.ifEmpty(switchTo: other)
        XCTAssertEqual(scheduler.start(disposed: 220) { result }.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, none2) = scheduler2.hotMaybe(210, nil, Int.self)
        let (_, other2) = scheduler2.coldSingle(20, 7)
        XCTAssertEqual(scheduler2.start { none2.ifEmpty(switchTo: other2) }.events, [.next(230, 7), .completed(230)])

        XCTAssertEqual(record(Maybe.just(1).ifEmpty(switchTo: Single.just(7)).asObservable()).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Maybe<Int>.error(testError).ifEmpty(switchTo: Single.just(7)).asObservable()).0.values, [.error(testError)])
    }

    // MARK: - Shared operators on a Maybe

    func testCatchAndReturnAndCatch() {
        XCTAssertEqual(record(Maybe<Int>.error(testError).catchAndReturn(5).asObservable()).0.values, [.next(5), .completed])
        XCTAssertEqual(record(Maybe<Int>.empty().catchAndReturn(5).asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Maybe<Int>.error(testError).catch { _ in .empty() }.asObservable()).0.values, [.completed])

        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(210, testError)])
        let res = scheduler.start { xs.asMaybe().catchAndReturn(5) }
        XCTAssertEqual(res.events, [.next(210, 5), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    @available(*, deprecated)
    func testDeprecatedCatchErrorJustReturn() {
        XCTAssertEqual(record(Maybe<Int>.error(testError).catchErrorJustReturn(5).asObservable()).0.values, [.next(5), .completed])
    }

    func testTimeoutWithAMaybeFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, late) = scheduler.hotMaybe(300, 1)
        let (ys, fallback) = scheduler.coldMaybe(10, nil, Int.self)
        XCTAssertEqual(scheduler.start { late.timeout(.seconds(20), other: fallback, scheduler: scheduler) }.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, late2) = scheduler2.hotMaybe(300, 1)
        XCTAssertEqual(scheduler2.start { late2.timeout(.seconds(20), scheduler: scheduler2) }.events, [.error(220, RxError.timeout)])
    }

    func testTimerDelayRetryAndDeferredKeepTheTrait() {
        let scheduler = TestScheduler(initialClock: 0)
        let maybe: Maybe<Int> = Maybe<Int>.timer(.seconds(10), scheduler: scheduler)
            .delay(.seconds(5), scheduler: scheduler)
            .delaySubscription(.seconds(5), scheduler: scheduler)
        XCTAssertEqual(scheduler.start { maybe }.events, [.next(220, 0), .completed(221)])

        var attempts = 0
        let flaky = Maybe<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(testError) : .empty()
        }
        XCTAssertEqual(record(flaky.retry(5).asObservable()).0.values, [.completed])
        XCTAssertEqual(attempts, 3)

        let resource = BooleanDisposable()
        XCTAssertEqual(record(Maybe.using({ resource }, primitiveSequenceFactory: { _ in Maybe.just(1) }).asObservable()).0.values,
                       [.next(1), .completed])
        XCTAssertTrue(resource.isDisposed)
    }

    func testObserveOnSubscribeOnAndDebug() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, none) = scheduler.coldMaybe(10, nil, Int.self)
        XCTAssertEqual(scheduler.start { none.subscribe(on: scheduler).observe(on: scheduler) }.events, [.completed(212)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 211)])

        let lines = Recorder<String>()
        DebugOutput.sink = { lines.append($0) }
        defer { DebugOutput.sink = { print($0) } }
        _ = Maybe<Int>.empty().debug("maybe").subscribe()
        XCTAssertEqual(lines.values.map { $0.components(separatedBy: ": ").last! }, ["maybe -> subscribed", "maybe -> Event completed", "maybe -> isDisposed"])
    }

    // MARK: - Conversions and subscribe

    func testAsMaybeOfAnObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler.start { xs.asMaybe() }.events, [.next(220, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
        XCTAssertEqual(scheduler2.start { ys.asMaybe() }.events, [.error(215, RxError.moreThanOneElement)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 215)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let zs = scheduler3.createHotObservable([Recorded<Event<Int>>.error(210, testError)])
        XCTAssertEqual(scheduler3.start { zs.asMaybe() }.events, [.error(210, testError)])
    }

    func testAsCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, some) = scheduler.hotMaybe(210, 1)
        XCTAssertEqual(scheduler.start { some.asCompletable() }.events, [.completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testSubscribeWithObject() {
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        for maybe in [Maybe.just(1), .empty(), .error(testError)] {
            _ = maybe.subscribe(
                with: owner,
                onSuccess: { owner, value in owner.log.append("success \(value)") },
                onError: { owner, error in owner.log.append("error \(error)") },
                onCompleted: { owner in owner.log.append("completed") },
                onDisposed: { owner in owner.log.append("disposed") }
            )
        }
        XCTAssertEqual(owner.log, ["success 1", "disposed", "completed", "disposed", "error TestError(1)", "disposed"])
    }

    func testDisposedBeforeTheOutcome() {
        var log: [String] = []
        let subject = PublishSubject<Int>()
        let subscription = subject.asMaybe().subscribe(
            onSuccess: { _ in log.append("success") }, onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") }
        )
        subscription.dispose()
        subject.onCompleted()
        subscription.dispose()
        XCTAssertEqual(log, ["disposed"])
    }

    func testUnhandledErrorOfEachSubscribeFormGoesToTheHook() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        let errors = Recorder<String>()
        Hooks.defaultErrorHandler = { _, error in errors.append("\(error)") }
        final class Owner {}
        let owner = Owner()
        _ = Maybe<Int>.error(testError).subscribe()
        _ = Maybe<Int>.error(testError).subscribe(onSuccess: { _ in }, onCompleted: {})
        _ = Maybe<Int>.error(testError).subscribe(with: owner, onSuccess: { _, _ in })
        _ = Maybe<Int>.error(testError2).subscribe(onError: { _ in })
        _ = Maybe<Int>.error(testError2).subscribe { _ in }
        XCTAssertEqual(errors.values, ["TestError(1)", "TestError(1)", "TestError(1)"])
    }
}
