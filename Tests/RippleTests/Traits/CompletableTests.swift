import Ripple
import RippleTest
import XCTest

final class CompletableTests: RippleTestCase {
    // MARK: - do

    func testDoRunsEachHookInOrder() {
        var log: [String] = []
        let hooked = { (source: Completable) in
            source.do(
                onError: { log.append("onError \($0)") },
                afterError: { log.append("afterError \($0)") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
        }
        _ = hooked(.empty()).subscribe(onCompleted: { log.append("completed") })
        XCTAssertEqual(log, ["onSubscribe", "onCompleted", "completed", "afterCompleted", "onSubscribed", "onDispose"])
        log = []
        _ = hooked(.error(testError)).subscribe(onError: { log.append("error \($0)") })
        XCTAssertEqual(log, ["onSubscribe", "onError TestError(1)", "error TestError(1)", "afterError TestError(1)", "onSubscribed", "onDispose"])
    }

    func testDoHookThatThrowsFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, completable) = scheduler.hotCompletable(210)
        XCTAssertEqual(scheduler.start { completable.do(onCompleted: { throw testError }) }.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, late) = scheduler2.hotCompletable(300)
        var disposedAt: [Int] = []
        XCTAssertEqual(scheduler2.start(disposed: 250) { late.do(onDispose: { disposedAt.append(scheduler2.clock) }) }.events, [])
        XCTAssertEqual(disposedAt, [250])
    }

    // MARK: - andThen

    func testAndThenSingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, first) = scheduler.hotCompletable(210)
        let (ys, second) = scheduler.coldSingle(20, 1)
        let result: Single<Int> = first.andThen(second)
        XCTAssertEqual(scheduler.start { result }.events, [.next(230, 1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testAndThenMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, first) = scheduler.hotCompletable(210)
        let (ys, second) = scheduler.coldMaybe(20, nil, Int.self)
        let result: Maybe<Int> = first.andThen(second)
        XCTAssertEqual(scheduler.start { result }.events, [.completed(230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])

        XCTAssertEqual(record(Completable.empty().andThen(Maybe.just(2)).asObservable()).0.values, [.next(2), .completed])
    }

    func testAndThenCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, first) = scheduler.hotCompletable(210)
        let (ys, second) = scheduler.coldCompletable(20)
        let result: Completable = first.andThen(second)
        XCTAssertEqual(scheduler.start { result }.events, [.completed(230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testAndThenObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, first) = scheduler.hotCompletable(210)
        let ys = scheduler.createColdObservable([.next(5, "a"), .next(10, "b"), .completed(15)])
        let result: Observable<String> = first.andThen(ys.asObservable())
        XCTAssertEqual(scheduler.start { result }.events, [.next(215, "a"), .next(220, "b"), .completed(225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 225)])
    }

    func testAndThenFirstFailureSkipsTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, first) = scheduler.coldFailingCompletable(10, testError)
        let (ys, second) = scheduler.coldSingle(20, 1)
        let zs = scheduler.createColdObservable([.next(5, "a")])
        XCTAssertEqual(scheduler.start { first.andThen(second) }.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [])
        XCTAssertEqual(record(Completable.error(testError).andThen(zs.asObservable())).0.values, [.error(testError)])
        XCTAssertEqual(zs.subscriptions, [])
        XCTAssertEqual(record(Completable.error(testError).andThen(Maybe.just(1)).asObservable()).0.values, [.error(testError)])
        XCTAssertEqual(record(Completable.error(testError).andThen(Completable.empty()).asObservable()).0.values, [.error(testError)])
    }

    func testAndThenSecondFailureAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, first) = scheduler.hotCompletable(210)
        let (_, second) = scheduler.coldFailingSingle(20, testError, Int.self)
        XCTAssertEqual(scheduler.start { first.andThen(second) }.events, [.error(230, testError)])

        // Disposed during the first, then during the second.
        let scheduler2 = TestScheduler(initialClock: 0)
        let (xs2, first2) = scheduler2.hotCompletable(300)
        let (ys2, second2) = scheduler2.coldSingle(20, 1)
        XCTAssertEqual(scheduler2.start(disposed: 250) { first2.andThen(second2) }.events, [])
        XCTAssertEqual(xs2.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys2.subscriptions, [])

        let scheduler3 = TestScheduler(initialClock: 0)
        let (_, first3) = scheduler3.hotCompletable(210)
        let (ys3, second3) = scheduler3.coldSingle(50, 1)
        XCTAssertEqual(scheduler3.start(disposed: 250) { first3.andThen(second3) }.events, [])
        XCTAssertEqual(ys3.subscriptions, [Subscription(210, 250)])
    }

    func testAndThenAtEqualVirtualTimes() {
        // The first completes at 210 and a hot second succeeds at 210 too: the
        // second's event was scheduled after the first's completion, so the
        // subscription made at the completion still sees it.
        let scheduler = TestScheduler(initialClock: 0)
        let (_, first) = scheduler.hotCompletable(210)
        let (ys, second) = scheduler.hotSingle(210, 1)
        XCTAssertEqual(scheduler.start { first.andThen(second) }.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 210)])
    }

    func testAndThenDisposedFromTheOutcomeHandler() {
        // Re-entrant: disposing inside the handler of the outcome is harmless.
        var log: [String] = []
        var subscription: Disposable?
        subscription = Completable.empty().andThen(Single.just(1)).subscribe(
            onSuccess: { value in
                log.append("success \(value)")
                subscription?.dispose()
            },
            onDisposed: { log.append("disposed") }
        )
        subscription?.dispose()
        subscription = nil
        XCTAssertEqual(log, ["success 1", "disposed"])
    }

    func testAndThenChains() {
        var log: [String] = []
        let step = { (name: String) in Completable.create { observer in
            log.append(name)
            observer(.completed)
            return Disposables.create()
        } }
        let result = step("a").andThen(step("b")).andThen(step("c")).andThen(Single.just(1))
        XCTAssertEqual(log, [])
        XCTAssertEqual(record(result.asObservable()).0.values, [.next(1), .completed])
        XCTAssertEqual(log, ["a", "b", "c"])
    }

    // MARK: - concat

    func testConcatRunsOneAfterTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, a) = scheduler.coldCompletable(10)
        let (ys, b) = scheduler.coldCompletable(20)
        XCTAssertEqual(scheduler.start { a.concat(b) }.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testStaticConcatForms() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, a) = scheduler.coldCompletable(10)
        let (ys, b) = scheduler.coldCompletable(20)
        let (zs, c) = scheduler.coldCompletable(5)
        XCTAssertEqual(scheduler.start { Completable.concat(a, b, c) }.events, [.completed(235)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(zs.subscriptions, [Subscription(230, 235)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, a2) = scheduler2.coldCompletable(10)
        let (_, b2) = scheduler2.coldCompletable(20)
        XCTAssertEqual(scheduler2.start { Completable.concat([a2, b2]) }.events, [.completed(230)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let (_, a3) = scheduler3.coldCompletable(10)
        let (_, b3) = scheduler3.coldCompletable(20)
        XCTAssertEqual(scheduler3.start { Completable.concat(AnySequence([a3, b3])) }.events, [.completed(230)])

        XCTAssertEqual(record(Completable.concat().asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Completable.concat([Completable]()).asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Completable.concat(AnySequence([Completable]())).asObservable()).0.values, [.completed])
    }

    func testConcatStopsAtTheFirstFailureAndDisposes() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, a) = scheduler.coldCompletable(10)
        let (xs, failing) = scheduler.coldFailingCompletable(10, testError)
        let (ys, c) = scheduler.coldCompletable(10)
        XCTAssertEqual(scheduler.start { Completable.concat(a, failing, c) }.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(210, 220)])
        XCTAssertEqual(ys.subscriptions, [])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, a2) = scheduler2.coldCompletable(10)
        let (zs, b2) = scheduler2.coldCompletable(50)
        XCTAssertEqual(scheduler2.start(disposed: 230) { a2.concat(b2) }.events, [])
        XCTAssertEqual(zs.subscriptions, [Subscription(210, 230)])
    }

    // MARK: - zip (and its deprecated name, merge)

    func testZipCompletesWhenAllHaveCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, a) = scheduler.coldCompletable(10)
        let (ys, b) = scheduler.coldCompletable(30)
        XCTAssertEqual(scheduler.start { Completable.zip(a, b) }.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, a2) = scheduler2.coldCompletable(10)
        let (_, b2) = scheduler2.coldCompletable(30)
        XCTAssertEqual(scheduler2.start { Completable.zip([a2, b2]) }.events, [.completed(230)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let (_, a3) = scheduler3.coldCompletable(10)
        let (_, b3) = scheduler3.coldCompletable(30)
        XCTAssertEqual(scheduler3.start { Completable.zip(ContiguousArray([a3, b3])) }.events, [.completed(230)])

        XCTAssertEqual(record(Completable.zip().asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Completable.zip([Completable]()).asObservable()).0.values, [.completed])
    }

    func testZipFailsAtTheFirstFailureAndDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, a) = scheduler.coldCompletable(50)
        let (ys, failing) = scheduler.coldFailingCompletable(20, testError)
        XCTAssertEqual(scheduler.start { Completable.zip(a, failing) }.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (zs, a2) = scheduler2.coldCompletable(50)
        let (_, b2) = scheduler2.coldCompletable(10)
        XCTAssertEqual(scheduler2.start(disposed: 230) { Completable.zip(a2, b2) }.events, [])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 230)])
    }

    @available(*, deprecated)
    func testDeprecatedMergeIsZip() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, a) = scheduler.coldCompletable(10)
        let (_, b) = scheduler.coldCompletable(30)
        XCTAssertEqual(scheduler.start { Completable.merge(a, b) }.events, [.completed(230)])
        XCTAssertEqual(record(Completable.merge([.empty(), .error(testError)]).asObservable()).0.values, [.error(testError)])
        XCTAssertEqual(record(Completable.merge(ContiguousArray([Completable.empty()])).asObservable()).0.values, [.completed])
    }

    // MARK: - Shared operators on a Completable

    func testDelayDelaysTheCompletionButNotTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, completable) = scheduler.hotCompletable(210)
        XCTAssertEqual(scheduler.start { completable.delay(.seconds(20), scheduler: scheduler) }.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, failing) = scheduler2.coldFailingCompletable(10, testError)
        XCTAssertEqual(scheduler2.start { failing.delay(.seconds(20), scheduler: scheduler2) }.events, [.error(210, testError)])
    }

    func testTimeoutWithACompletableFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, late) = scheduler.hotCompletable(300)
        let (ys, fallback) = scheduler.coldCompletable(10)
        XCTAssertEqual(scheduler.start { late.timeout(.seconds(20), other: fallback, scheduler: scheduler) }.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, late2) = scheduler2.hotCompletable(300)
        XCTAssertEqual(scheduler2.start { late2.timeout(.seconds(20), scheduler: scheduler2) }.events, [.error(220, RxError.timeout)])
    }

    func testRetryCatchAndDeferred() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, failing) = scheduler.coldFailingCompletable(10, testError)
        XCTAssertEqual(scheduler.start { failing.retry(2) }.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, failing2) = scheduler2.coldFailingCompletable(10, testError)
        let (ys, fallback) = scheduler2.coldCompletable(10)
        XCTAssertEqual(scheduler2.start { failing2.catch { _ in fallback } }.events, [.completed(220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])

        var attempts = 0
        let flaky = Completable.deferred {
            attempts += 1
            return attempts < 3 ? .error(testError) : .empty()
        }
        XCTAssertEqual(record(flaky.retry(when: { (errors: Observable<Swift.Error>) in errors }).asObservable()).0.values, [.completed])
        XCTAssertEqual(attempts, 3)
    }

    func testDelaySubscriptionSubscribeOnAndObserveOn() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, completable) = scheduler.coldCompletable(10)
        let res = scheduler.start {
            completable.delaySubscription(.seconds(10), scheduler: scheduler).subscribe(on: scheduler).observe(on: scheduler)
        }
        XCTAssertEqual(res.events, [.completed(222)])
        XCTAssertEqual(xs.subscriptions, [Subscription(211, 221)])
    }

    func testUsingDisposesTheResource() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = VirtualTimeResource(scheduler: scheduler)
        let (_, completable) = scheduler.coldCompletable(10)
        XCTAssertEqual(scheduler.start { Completable.using({ resource }, primitiveSequenceFactory: { _ in completable }) }.events, [.completed(210)])
        XCTAssertEqual(resource.disposedAt, [210])
    }

    // MARK: - Conversions and subscribe

    func testAsCompletableOfAnElementlessObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(scheduler.start { xs.ignoreElements().asCompletable() }.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(record(Observable<Never>.error(testError).asCompletable().asObservable()).0.values, [.error(testError)])
    }

    func testSubscribeWithObject() {
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        for completable in [Completable.empty(), .error(testError)] {
            _ = completable.subscribe(
                with: owner,
                onCompleted: { owner in owner.log.append("completed") },
                onError: { owner, error in owner.log.append("error \(error)") },
                onDisposed: { owner in owner.log.append("disposed") }
            )
        }
        XCTAssertEqual(owner.log, ["completed", "disposed", "error TestError(1)", "disposed"])
    }

    func testDisposedBeforeTheOutcome() {
        var log: [String] = []
        let subject = PublishSubject<Never>()
        let subscription = subject.asCompletable().subscribe(onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        subscription.dispose()
        subject.onCompleted()
        XCTAssertEqual(log, ["disposed"])
    }

    func testUnhandledErrorOfEachSubscribeFormGoesToTheHook() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        let errors = Recorder<String>()
        Hooks.defaultErrorHandler = { _, error in errors.append("\(error)") }
        final class Owner {}
        let owner = Owner()
        _ = Completable.error(testError).subscribe()
        _ = Completable.error(testError).subscribe(onCompleted: {})
        _ = Completable.error(testError).subscribe(with: owner, onCompleted: { _ in })
        _ = Completable.error(testError2).subscribe(onError: { _ in })
        _ = Completable.error(testError2).subscribe { _ in }
        XCTAssertEqual(errors.values, ["TestError(1)", "TestError(1)", "TestError(1)"])
    }
}

/// `andThen` lets go of the first `Completable` (disposes its subscription) as
/// soon as it completes, before the second one runs, as RxSwift does.
final class CompletableAndThenReleaseTests: XCTestCase {
    private func firstAndSecond<Second>(
        _ scheduler: TestScheduler, log: Recorder<String>, second: (Completable) -> Observable<Second>
    ) -> Observable<Second> {
        let first = scheduler.createColdObservable([Recorded<Event<Never>>.completed(10)]).asCompletable()
            .do(onDispose: { log.append("first disposed @ \(scheduler.clock)") })
        return second(first)
    }

    func testAndThenCompletableDisposesTheFirstWhenItCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let second = scheduler.createColdObservable([Recorded<Event<Never>>.completed(20)]).asCompletable()
            .do(onSubscribe: { log.append("second subscribed @ \(scheduler.clock)") },
                onDispose: { log.append("second disposed @ \(scheduler.clock)") })
        let res = scheduler.start { self.firstAndSecond(scheduler, log: log) { $0.andThen(second).asObservable() } }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(log.values, ["first disposed @ 210", "second subscribed @ 210", "second disposed @ 230"])
    }

    func testAndThenSingleDisposesTheFirstWhenItCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let second = scheduler.createColdObservable([.next(20, 1), .completed(20)]).asSingle()
            .do(onSubscribe: { log.append("second subscribed @ \(scheduler.clock)") })
        let res = scheduler.start { self.firstAndSecond(scheduler, log: log) { $0.andThen(second).asObservable() } }
        XCTAssertEqual(res.events, [.next(230, 1), .completed(230)])
        XCTAssertEqual(log.values, ["first disposed @ 210", "second subscribed @ 210"])
    }

    func testAndThenMaybeDisposesTheFirstWhenItCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let second = scheduler.createColdObservable([.next(20, 1), .completed(20)]).asMaybe()
            .do(onSubscribe: { log.append("second subscribed @ \(scheduler.clock)") })
        let res = scheduler.start { self.firstAndSecond(scheduler, log: log) { $0.andThen(second).asObservable() } }
        XCTAssertEqual(res.events, [.next(230, 1), .completed(230)])
        XCTAssertEqual(log.values, ["first disposed @ 210", "second subscribed @ 210"])
    }

    func testAndThenObservableDisposesTheFirstWhenItCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let second = scheduler.createColdObservable([.next(20, "a"), .completed(30)]).asObservable()
            .do(onSubscribe: { log.append("second subscribed @ \(scheduler.clock)") })
        let res = scheduler.start { self.firstAndSecond(scheduler, log: log) { $0.andThen(second) } }
        XCTAssertEqual(res.events, [.next(230, "a"), .completed(240)])
        XCTAssertEqual(log.values, ["first disposed @ 210", "second subscribed @ 210"])
    }

    func testAndThenDisposesASynchronousFirstBeforeTheSecondRuns() {
        var log: [String] = []
        let first = Completable.create { observer in
            observer(.completed)
            return Disposables.create { log.append("first disposed") }
        }
        let second = Observable<Int>.never().do(onSubscribe: { log.append("second subscribed") })
        let subscription = first.andThen(second).subscribe()
        XCTAssertEqual(log, ["first disposed", "second subscribed"])
        subscription.dispose()
        let chained = first.andThen(Completable.never()).subscribe()
        XCTAssertEqual(log, ["first disposed", "second subscribed", "first disposed"])
        chained.dispose()
    }
}
