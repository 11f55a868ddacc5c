import Ripple
import RippleTest
import XCTest

final class InfallibleTests: RippleTestCase {
    // MARK: - Conversions: a source error always goes through the recovery

    func testAsInfallibleOnErrorJustReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError), .next(240, 3)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 0), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testAsInfallibleOnErrorFallbackTo() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let fallback = scheduler.createColdObservable([.next(10, 8), .next(20, 9), .completed(30)])
        let res = scheduler.start { xs.asInfallible(onErrorFallbackTo: fallback.asInfallible(onErrorJustReturn: -1)) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(240, 8), .next(250, 9), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(fallback.subscriptions, [Subscription(230, 260)])
    }

    func testAsInfallibleOnErrorRecoverReceivesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        var received: [TestError] = []
        let res = scheduler.start {
            xs.asInfallible(onErrorRecover: { error in
                received.append(error as! TestError)
                return .just(42)
            })
        }
        XCTAssertEqual(received, [testError])
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 42), .completed(230)])
    }

    func testRecoveryIsNotUsedWithoutError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        var recovered = false
        let res = scheduler.start { xs.asInfallible(onErrorRecover: { _ in recovered = true; return .empty() }) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
        XCTAssertFalse(recovered)
    }

    func testConversionsDisposeMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2)])
        let res = scheduler.start(disposed: 300) { xs.asInfallible(onErrorJustReturn: 0) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testNoErrorEverReachesAnInfallibleSubscriber() {
        // Whatever fails upstream (the source, or an inner sequence of a chain that
        // was made infallible), the subscriber of an Infallible never sees `.error`.
        let failing = Observable<Int>.error(testError)
        let chains: [Infallible<Int>] = [
            failing.asInfallible(onErrorJustReturn: 1),
            failing.asInfallible(onErrorFallbackTo: .of(1, 2)),
            failing.asInfallible(onErrorRecover: { _ in .just(1) }),
            Observable.of(1, 2).map { _ -> Int in throw testError }.asInfallible(onErrorJustReturn: 0).map { $0 + 1 },
            Infallible.of(1, 2).flatMap { _ in failing.asInfallible(onErrorJustReturn: 7) },
            Infallible.of(1, 2).flatMapLatest { _ in failing.asInfallible(onErrorFallbackTo: .empty()) },
            Infallible.of(1).take(until: failing),
            Infallible.of(1).skip(until: failing),
        ]
        capturingViolations {
            for chain in chains {
                var sawError = false
                var completed = false
                _ = chain.subscribe { event in
                    if case .error = event { sawError = true }
                    if case .completed = event { completed = true }
                }
                XCTAssertFalse(sawError)
                XCTAssertTrue(completed)
            }
        }
    }

    func testRelaysAsInfallible() {
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 0)
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        replay.accept(5)
        var values: [String] = []
        let bag = DisposeBag()
        publish.asInfallible().subscribe(onNext: { values.append("p\($0)") }).disposed(by: bag)
        behavior.asInfallible().subscribe(onNext: { values.append("b\($0)") }).disposed(by: bag)
        replay.asInfallible().subscribe(onNext: { values.append("r\($0)") }).disposed(by: bag)
        publish.accept(1)
        behavior.accept(2)
        replay.accept(3)
        XCTAssertEqual(values, ["b0", "r5", "p1", "b2", "r3"])
    }

    func testAsInfallibleOnInfallibleAndAsObservable() {
        let infallible = Infallible.of(1, 2)
        XCTAssertTrue(infallible.asInfallible().asObservable() === infallible.asObservable())
        XCTAssertEqual(record(infallible.asObservable()).0.values, [.next(1), .next(2), .completed])
    }

    // MARK: - Creating

    func testCreate() {
        var disposed = 0
        let infallible = Infallible<Int>.create { observer in
            observer(.next(1))
            observer(.next(2))
            observer(.completed)
            observer(.next(3))
            return Disposables.create { disposed += 1 }
        }
        XCTAssertEqual(record(infallible.asObservable()).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(disposed, 1)
    }

    func testCreateDisposedBeforeCompletion() {
        var observer: Infallible<Int>.InfallibleObserver?
        var disposed = false
        let infallible = Infallible<Int>.create { emit in
            observer = emit
            return Disposables.create { disposed = true }
        }
        var values: [Int] = []
        let subscription = infallible.subscribe(onNext: { values.append($0) })
        observer?(.next(1))
        subscription.dispose()
        observer?(.next(2))
        XCTAssertEqual(values, [1])
        XCTAssertTrue(disposed)
        observer = nil
    }

    func testJustOfFromEmptyNever() {
        XCTAssertEqual(record(Infallible.just(1).asObservable()).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Infallible.of(1, 2, 3).asObservable()).0.values, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(record(Infallible.from([4, 5]).asObservable()).0.values, [.next(4), .next(5), .completed])
        XCTAssertEqual(record(Infallible.from(1...2).asObservable()).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(record(Infallible.from(optional: 7).asObservable()).0.values, [.next(7), .completed])
        XCTAssertEqual(record(Infallible<Int>.from(optional: nil).asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Infallible<Int>.empty().asObservable()).0.values, [.completed])
        let (never, subscription) = record(Infallible<Int>.never().asObservable())
        XCTAssertEqual(never.values, [])
        subscription.dispose()
    }

    func testCreatorsOnAScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Infallible.just(1, scheduler: scheduler) }.events, [.next(201, 1), .completed(202)])
        let scheduler2 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler2.start { Infallible.of(1, 2, scheduler: scheduler2) }.events,
                       [.next(201, 1), .next(202, 2), .completed(203)])
        let scheduler3 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler3.start { Infallible.from(optional: 3, scheduler: scheduler3) }.events,
                       [.next(201, 3), .completed(202)])
        let scheduler4 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler4.start { Infallible.repeatElement(9, scheduler: scheduler4).take(2) }.events,
                       [.next(201, 9), .next(202, 9), .completed(202)])
    }

    func testDeferredCallsTheFactoryPerSubscription() {
        var calls = 0
        let infallible = Infallible<Int>.deferred {
            calls += 1
            return .just(calls)
        }
        XCTAssertEqual(record(infallible.asObservable()).0.values, [.next(1), .completed])
        XCTAssertEqual(record(infallible.asObservable()).0.values, [.next(2), .completed])
    }

    func testRange() {
        XCTAssertEqual(record(Infallible.range(start: 3, count: 3).asObservable()).0.values,
                       [.next(3), .next(4), .next(5), .completed])
        XCTAssertEqual(record(Infallible.range(start: 3, count: 0).asObservable()).0.values, [.completed])
    }

    func testRangeWithInvalidArgumentsReportsAndCompletes() {
        var events: [Event<Int8>] = []
        let violations = capturingViolations {
            events = record(Infallible<Int8>.range(start: 0, count: -1).asObservable()).0.values
            events += record(Infallible<Int8>.range(start: 120, count: 10).asObservable()).0.values
        }
        XCTAssertEqual(events, [.completed, .completed])
        XCTAssertEqual(violations.count, 2)
        XCTAssertTrue(violations[0].contains("range(start: 0, count: -1)"), violations[0])
    }

    func testIntervalAndTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 335) { Infallible<Int>.interval(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(250, 0), .next(300, 1)])

        let scheduler2 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler2.start { Infallible<Int>.timer(.seconds(30), scheduler: scheduler2) }.events,
                       [.next(230, 0), .completed(230)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let periodic = scheduler3.start(disposed: 260) { Infallible<Int>.timer(.seconds(30), period: .seconds(20), scheduler: scheduler3) }
        XCTAssertEqual(periodic.events, [.next(230, 0), .next(250, 1)])
    }

    // MARK: - Subscribing

    func testSubscribeHandlersAndOnDisposedOrder() {
        var log: [String] = []
        _ = Infallible.of(1, 2).subscribe(
            onNext: { log.append("next \($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        XCTAssertEqual(log, ["next 1", "next 2", "completed", "disposed"])

        log = []
        let subscription = Infallible<Int>.never().subscribe(onNext: { _ in }, onDisposed: { log.append("disposed") })
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(log, ["disposed"])
    }

    func testSubscribeEventClosure() {
        var events: [Event<Int>] = []
        _ = Infallible.of(1).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .completed])
    }

    func testSubscribeWithObjectHoldsItWeakly() {
        final class Owner { var log: [String] = [] }
        var owner: Owner? = Owner()
        weak let weakOwner = owner
        let relay = PublishRelay<Int>()
        let subscription = relay.asInfallible().subscribe(
            with: owner!,
            onNext: { owner, value in owner.log.append("next \(value)") },
            onCompleted: { owner in owner.log.append("completed") },
            onDisposed: { owner in owner.log.append("disposed") }
        )
        relay.accept(1)
        XCTAssertEqual(owner?.log, ["next 1"])
        owner = nil
        XCTAssertNil(weakOwner)
        relay.accept(2)
        subscription.dispose()
    }

    // MARK: - Binding

    func testBindToObserversAndOptionalObservers() {
        let log = EventLog<Int>()
        let optionalLog = EventLog<Int?>()
        _ = Infallible.of(1, 2).bind(to: log, log)
        _ = Infallible.of(3).bind(to: optionalLog)
        XCTAssertEqual(log.events, [.next(1), .next(1), .next(2), .next(2), .completed, .completed])
        XCTAssertEqual(optionalLog.events, [.next(3), .completed])
    }

    func testBindToRelaysKeepsThemOpen() {
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 0)
        let replay = ReplayRelay<Int>.createUnbounded()
        var published: [Int] = []
        let bag = DisposeBag()
        publish.subscribe(onNext: { published.append($0) }).disposed(by: bag)
        _ = Infallible.of(1, 2).bind(to: publish)
        _ = Infallible.of(3).bind(to: behavior)
        _ = Infallible.of(4, 5).bind(to: replay)
        XCTAssertEqual(published, [1, 2])
        XCTAssertEqual(behavior.value, 3)
        XCTAssertEqual(record(replay.asObservable().take(2)).0.values, [.next(4), .next(5), .completed])
        // Still open after the source completed:
        publish.accept(9)
        XCTAssertEqual(published, [1, 2, 9])
    }

    func testBindToOptionalRelays() {
        let publish = PublishRelay<Int?>()
        let behavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int?>.create(bufferSize: 1)
        var published: [Int?] = []
        let subscription = publish.subscribe(onNext: { published.append($0) })
        _ = Infallible.of(1).bind(to: publish)
        _ = Infallible.of(2).bind(to: behavior)
        _ = Infallible.of(3).bind(to: replay)
        XCTAssertEqual(published, [1])
        XCTAssertEqual(behavior.value, 2)
        XCTAssertEqual(record(replay.asObservable().take(1)).0.values, [.next(3), .completed])
        subscription.dispose()
    }

    func testBindOnNextWithObjectAndCustomBinders() {
        var values: [Int] = []
        _ = Infallible.of(1, 2).bind(onNext: { values.append($0) })
        XCTAssertEqual(values, [1, 2])

        final class Owner { var values: [Int] = [] }
        let owner = Owner()
        _ = Infallible.of(3).bind(with: owner) { owner, value in owner.values.append(value) }
        XCTAssertEqual(owner.values, [3])

        let count = Infallible.of(1, 2, 3).bind(to: { (source: Infallible<Int>) -> Int in
            var count = 0
            _ = source.subscribe(onNext: { _ in count += 1 })
            return count
        })
        XCTAssertEqual(count, 3)

        func curried(_ source: Infallible<Int>) -> (Int) -> [Int] {
            { factor in
                var result: [Int] = []
                _ = source.subscribe(onNext: { result.append($0 * factor) })
                return result
            }
        }
        XCTAssertEqual(Infallible.of(1, 2).bind(to: curried, curriedArgument: 10), [10, 20])
    }

    func testBindToBinderAppliesElements() {
        final class Label { var text = "" }
        let label = Label()
        let binder = Binder(label, scheduler: CurrentThreadScheduler.instance) { label, text in label.text = text }
        _ = Infallible.of("a", "b").bind(to: binder)
        XCTAssertEqual(label.text, "b")
    }
}
