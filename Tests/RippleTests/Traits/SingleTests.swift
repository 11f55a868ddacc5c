import Foundation
import Ripple
import RippleTest
import XCTest

/// `Single`'s own operators, and the operators every trait shares, pinned on a
/// `Single` (see `MaybeTests` and `CompletableTests` for the other traits).
final class SingleTests: RippleTestCase {
    // MARK: - deferred / using / timer

    func testDeferredBuildsTheSingleAtEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        var calls = 0
        let single = Single<Int>.deferred {
            calls += 1
            return .just(scheduler.clock)
        }
        XCTAssertEqual(calls, 0)
        let res = scheduler.start { single }
        XCTAssertEqual(res.events, [.next(200, 200), .completed(200)])
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(record(single.asObservable()).0.values, [.next(1000), .completed])
        XCTAssertEqual(calls, 2)
    }

    func testDeferredFactoryThatThrowsFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single<Int>.deferred { throw testError } }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testDeferredSubscribesToTheBuiltSingleAndDisposesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.coldSingle(50, 1)
        let res = scheduler.start(disposed: 230) { Single.deferred { single } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testUsingDisposesTheResourceAfterTheOutcome() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = VirtualTimeResource(scheduler: scheduler)
        let (xs, single) = scheduler.coldSingle(50, 1)
        var factoryGot: VirtualTimeResource?
        let res = scheduler.start {
            Single.using({ resource }, primitiveSequenceFactory: { resource in
                factoryGot = resource
                return single
            })
        }
        XCTAssertEqual(res.events, [.next(250, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(resource.disposedAt, [250])
        XCTAssertTrue(factoryGot === resource)
    }

    func testUsingDisposesTheResourceOnDisposeAndOnFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = VirtualTimeResource(scheduler: scheduler)
        let (xs, single) = scheduler.coldSingle(50, 1)
        let res = scheduler.start(disposed: 220) { Single.using({ resource }, primitiveSequenceFactory: { _ in single }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(resource.disposedAt, [220])

        let scheduler2 = TestScheduler(initialClock: 0)
        let resource2 = VirtualTimeResource(scheduler: scheduler2)
        let (_, failing) = scheduler2.coldFailingSingle(30, testError, Int.self)
        let res2 = scheduler2.start { Single.using({ resource2 }, primitiveSequenceFactory: { _ in failing }) }
        XCTAssertEqual(res2.events, [.error(230, testError)])
        XCTAssertEqual(resource2.disposedAt, [230])
    }

    func testUsingFactoriesThatThrow() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = VirtualTimeResource(scheduler: scheduler)
        let res = scheduler.start {
            Single<Int>.using({ resource }, primitiveSequenceFactory: { _ in throw testError })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(resource.disposedAt, [200])

        let res2 = TestScheduler(initialClock: 0).start {
            Single<Int>.using({ () throws -> VirtualTimeResource in throw testError2 }, primitiveSequenceFactory: { _ in .just(1) })
        }
        XCTAssertEqual(res2.events, [.error(200, testError2)])
    }

    func testTimerSucceedsWithZeroAfterTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single<Int>.timer(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 0), .completed(230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let res2 = scheduler2.start(disposed: 220) { Single<Int>.timer(.seconds(30), scheduler: scheduler2) }
        XCTAssertEqual(res2.events, [])

        let scheduler3 = TestScheduler(initialClock: 0)
        // A zero due time is scheduled "now", which the test scheduler runs one tick later.
        let res3 = scheduler3.start { Single<UInt8>.timer(.seconds(0), scheduler: scheduler3) }
        XCTAssertEqual(res3.events, [.next(201, 0), .completed(201)])
    }

    // MARK: - delay / delaySubscription / observe(on:) / subscribe(on:)

    func testDelayShiftsTheSuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(210, 1)
        let res = scheduler.start { single.delay(.seconds(30), scheduler: scheduler) }
        // As in RxSwift, each delayed event gets its own scheduled step: the
        // completion that arrived with the element leaves one tick later (a
        // subscriber to the Single sees its success at 240).
        XCTAssertEqual(res.events, [.next(240, 1), .completed(241)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testDelayDoesNotDelayTheFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotFailingSingle(210, testError, Int.self)
        let res = scheduler.start { single.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testDelayDisposedWhileTheSuccessWaits() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, single) = scheduler.hotSingle(210, 1)
        let res = scheduler.start(disposed: 230) { single.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testDelaySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.coldSingle(10, 1)
        let res = scheduler.start { single.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 240)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (ys, single2) = scheduler2.coldSingle(10, 1)
        let res2 = scheduler2.start(disposed: 220) { single2.delaySubscription(.seconds(30), scheduler: scheduler2) }
        XCTAssertEqual(res2.events, [])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testObserveOnDeliversTheOutcomeOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(210, 1)
        let res = scheduler.start { single.observe(on: scheduler) }
        // As in RxSwift, the success and the completion are two scheduled actions.
        XCTAssertEqual(res.events, [.next(211, 1), .completed(212)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, failing) = scheduler2.hotFailingSingle(210, testError, Int.self)
        XCTAssertEqual(scheduler2.start { failing.observe(on: scheduler2) }.events, [.error(211, testError)])
    }

    func testObserveOnOnARealQueue() throws {
        let queue = DispatchQueue(label: "single-observe-on")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 3)
        let onQueue = Recorder<Bool>()
        let value = try Single.just(1)
            .observe(on: SerialDispatchQueueScheduler(serialQueue: queue))
            .do(onSuccess: { _ in onQueue.append(DispatchQueue.getSpecific(key: key) == 3) })
            .asObservable()
            .toBlocking(timeout: 5).single()
        XCTAssertEqual(value, 1)
        XCTAssertEqual(onQueue.values, [true])
    }

    func testSubscribeOnSubscribesOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.coldSingle(10, 1)
        let res = scheduler.start { single.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .completed(211)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 211)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (ys, single2) = scheduler2.coldSingle(10, 1)
        let res2 = scheduler2.start(created: 100, subscribed: 200, disposed: 200) { single2.subscribe(on: scheduler2) }
        XCTAssertEqual(res2.events, [])
        XCTAssertEqual(ys.subscriptions, [])
    }

    @available(*, deprecated)
    func testDeprecatedSchedulingSpellings() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, single) = scheduler.coldSingle(10, 1)
        let res = scheduler.start { single.subscribeOn(scheduler).observeOn(scheduler) }
        XCTAssertEqual(res.events, [.next(212, 1), .completed(213)])
    }

    // MARK: - catch / catchAndReturn

    func testCatchContinuesWithTheReplacement() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, failing) = scheduler.hotFailingSingle(210, testError, Int.self)
        let (ys, replacement) = scheduler.coldSingle(20, 2)
        var caught: [TestError] = []
        let res = scheduler.start {
            failing.catch { error in
                caught.append(error as! TestError)
                return replacement
            }
        }
        XCTAssertEqual(res.events, [.next(230, 2), .completed(230)])
        XCTAssertEqual(caught, [testError])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testCatchIsNotCalledOnSuccessAndPassesReplacementFailures() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, single) = scheduler.hotSingle(210, 1)
        var calls = 0
        let res = scheduler.start { single.catch { _ in calls += 1; return .just(0) } }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(calls, 0)

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, failing) = scheduler2.hotFailingSingle(210, testError, Int.self)
        let (_, failingToo) = scheduler2.coldFailingSingle(5, testError2, Int.self)
        XCTAssertEqual(scheduler2.start { failing.catch { _ in failingToo } }.events, [.error(215, testError2)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let (_, failing3) = scheduler3.hotFailingSingle(210, testError, Int.self)
        XCTAssertEqual(scheduler3.start { failing3.catch { _ in throw testError2 } }.events, [.error(210, testError2)])
    }

    func testCatchDisposedWhileTheReplacementRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, failing) = scheduler.hotFailingSingle(210, testError, Int.self)
        let (ys, replacement) = scheduler.coldSingle(50, 2)
        let res = scheduler.start(disposed: 230) { failing.catch { _ in replacement } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testCatchAndReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, failing) = scheduler.hotFailingSingle(210, testError, Int.self)
        XCTAssertEqual(scheduler.start { failing.catchAndReturn(7) }.events, [.next(210, 7), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(record(Single.just(1).catchAndReturn(7).asObservable()).0.values, [.next(1), .completed])
    }

    @available(*, deprecated)
    func testDeprecatedCatchSpellings() {
        XCTAssertEqual(record(Single<Int>.error(testError).catchError { _ in .just(3) }.asObservable()).0.values, [.next(3), .completed])
        XCTAssertEqual(record(Single<Int>.error(testError).catchErrorJustReturn(4).asObservable()).0.values, [.next(4), .completed])
    }

    // MARK: - retry

    func testRetryForeverUntilSuccess() {
        var attempts = 0
        let single = Single<Int>.create { observer in
            attempts += 1
            observer(attempts < 4 ? .failure(testError) : .success(attempts))
            return Disposables.create()
        }
        XCTAssertEqual(record(single.retry().asObservable()).0.values, [.next(4), .completed])
        XCTAssertEqual(attempts, 4)
    }

    func testRetryForeverInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, failing) = scheduler.coldFailingSingle(100, testError, Int.self)
        let res = scheduler.start(disposed: 450) { failing.retry() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300), Subscription(300, 400), Subscription(400, 450)])
    }

    func testRetryCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, failing) = scheduler.coldFailingSingle(10, testError, Int.self)
        let res = scheduler.start { failing.retry(3) }
        XCTAssertEqual(res.events, [.error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (ys, single) = scheduler2.coldSingle(10, 1)
        XCTAssertEqual(scheduler2.start { single.retry(3) }.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testRetryZeroAndNegativeCounts() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.coldSingle(10, 1)
        // As for Observable: zero attempts complete at once, which a Single reports
        // as "no element".
        XCTAssertEqual(scheduler.start { single.retry(0) }.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
        var outcome: SingleEvent<Int>?
        _ = Single.just(1).retry(0).subscribe { outcome = $0 }
        guard case .failure(RxError.noElements)? = outcome else { return XCTFail("\(String(describing: outcome))") }

        XCTAssertEqual(record(Single.just(1).retry(-1).asObservable()).0.values, [.error(RxError.argumentOutOfRange)])
    }

    func testRetryWhenResubscribesOnEachTriggerElement() {
        let scheduler = TestScheduler(initialClock: 0)
        var attempts = 0
        let single = Single<Int>.deferred {
            attempts += 1
            return attempts < 3 ? scheduler.coldFailingSingle(10, testError, Int.self).1 : scheduler.coldSingle(10, attempts).1
        }
        let res = scheduler.start {
            single.retry(when: { (errors: Observable<Swift.Error>) in errors.delay(.seconds(5), scheduler: scheduler) })
        }
        XCTAssertEqual(res.events, [.next(240, 3), .completed(240)])
    }

    func testRetryWhenTriggerCompletionAndError() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, failing) = scheduler.coldFailingSingle(10, testError, Int.self)
        let res = scheduler.start { failing.retry(when: { (errors: Observable<Swift.Error>) in errors.take(2) }) }
        // The trigger completes: the sequence completes (without an element).
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, failing2) = scheduler2.coldFailingSingle(10, testError, Int.self)
        let res2 = scheduler2.start {
            failing2.retry(when: { (errors: Observable<Swift.Error>) in errors.flatMap { _ in Observable<Int>.error(testError2) } })
        }
        XCTAssertEqual(res2.events, [.error(210, testError2)])
    }

    func testTypedRetryWhenFailsAtOnceForOtherErrors() {
        struct Other: Error {}
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, failing) = scheduler.coldFailingSingle(10, testError, Int.self)
        let res = scheduler.start { failing.retry(when: { (errors: Observable<Other>) in errors }) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (ys, failing2) = scheduler2.coldFailingSingle(10, testError, Int.self)
        let res2 = scheduler2.start(disposed: 235) { failing2.retry(when: { (errors: Observable<TestError>) in errors }) }
        XCTAssertEqual(res2.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230), Subscription(230, 235)])
    }

    @available(*, deprecated)
    func testDeprecatedRetryWhen() {
        var attempts = 0
        let single = Single<Int>.create { observer in
            attempts += 1
            observer(attempts < 2 ? .failure(testError) : .success(attempts))
            return Disposables.create()
        }
        XCTAssertEqual(record(single.retryWhen { (errors: Observable<Swift.Error>) in errors }.asObservable()).0.values, [.next(2), .completed])
        attempts = 0
        XCTAssertEqual(record(single.retryWhen { (errors: Observable<TestError>) in errors }.asObservable()).0.values, [.next(2), .completed])
    }

    // MARK: - timeout

    func testTimeoutFailsWhenTheOutcomeIsLate() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(260, 1)
        let res = scheduler.start { single.timeout(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(250, RxError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testTimeoutPassesAnOutcomeInTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(240, 1)
        XCTAssertEqual(scheduler.start { single.timeout(.seconds(50), scheduler: scheduler) }.events, [.next(240, 1), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, failing) = scheduler2.hotFailingSingle(240, testError, Int.self)
        XCTAssertEqual(scheduler2.start { failing.timeout(.seconds(50), scheduler: scheduler2) }.events, [.error(240, testError)])
    }

    func testTimeoutAtTheSameTimeAsAHotOutcome() {
        // Events of a hot source were scheduled before the timer: they win.
        let scheduler = TestScheduler(initialClock: 0)
        let (_, single) = scheduler.hotSingle(250, 1)
        XCTAssertEqual(scheduler.start { single.timeout(.seconds(50), scheduler: scheduler) }.events, [.next(250, 1), .completed(250)])
    }

    func testTimeoutSwitchesToTheFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(260, 1)
        let (ys, fallback) = scheduler.coldSingle(20, 2)
        let res = scheduler.start { single.timeout(.seconds(50), other: fallback, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(270, 2), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(250, 270)])
    }

    func testTimeoutFallbackNotSubscribedInTimeAndDisposedMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, single) = scheduler.hotSingle(240, 1)
        let (ys, fallback) = scheduler.coldSingle(20, 2)
        XCTAssertEqual(scheduler.start { single.timeout(.seconds(50), other: fallback, scheduler: scheduler) }.events,
                       [.next(240, 1), .completed(240)])
        XCTAssertEqual(ys.subscriptions, [])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, late) = scheduler2.hotSingle(300, 1)
        let (zs, fallback2) = scheduler2.coldSingle(20, 2)
        let res = scheduler2.start(disposed: 260) { late.timeout(.seconds(50), other: fallback2, scheduler: scheduler2) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(zs.subscriptions, [Subscription(250, 260)])
    }

    // MARK: - debug

    func testDebugPrintsTheOutcome() {
        let lines = Recorder<String>()
        DebugOutput.sink = { lines.append($0) }
        defer { DebugOutput.sink = { print($0) } }
        _ = Single.just(1).debug("single").subscribe()
        _ = Single<Int>.error(testError).debug("failing").subscribe(onFailure: { _ in })
        let messages = lines.values.map { $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ") }
        XCTAssertEqual(messages, [
            "single -> subscribed", "single -> Event next(1)", "single -> Event completed", "single -> isDisposed",
            "failing -> subscribed", "failing -> Event error(TestError(1))", "failing -> isDisposed",
        ])
        let file = Recorder<String>()
        DebugOutput.sink = { file.append($0) }
        _ = Single.just(1).debug().subscribe()
        XCTAssertTrue(file.values.first?.contains("SingleTests.swift:") == true, file.values.first ?? "")
    }

    // MARK: - do

    func testDoRunsEachHookInOrder() {
        var log: [String] = []
        _ = Single.just(1)
            .do(
                onSuccess: { log.append("onSuccess \($0)") },
                afterSuccess: { log.append("afterSuccess \($0)") },
                onError: { _ in log.append("onError") },
                afterError: { _ in log.append("afterError") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
            .subscribe(onSuccess: { log.append("success \($0)") })
        XCTAssertEqual(log, ["onSubscribe", "onSuccess 1", "success 1", "afterSuccess 1", "onSubscribed", "onDispose"])

        log = []
        _ = Single<Int>.error(testError)
            .do(onSuccess: { _ in log.append("onSuccess") }, onError: { log.append("onError \($0)") }, afterError: { log.append("afterError \($0)") })
            .subscribe(onFailure: { log.append("failure \($0)") })
        XCTAssertEqual(log, ["onError TestError(1)", "failure TestError(1)", "afterError TestError(1)"])
    }

    func testDoHookThatThrowsFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(210, 1)
        let res = scheduler.start { single.do(onSuccess: { _ in throw testError }) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        var log: [String] = []
        _ = Single<Int>.error(testError).do(onError: { _ in throw testError2 }).subscribe(onFailure: { log.append("\($0)") })
        XCTAssertEqual(log, ["TestError(2)"])
    }

    func testDoOnDisposeWhenDisposedMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(300, 1)
        var disposedAt: [Int] = []
        let res = scheduler.start(disposed: 250) { single.do(onDispose: { disposedAt.append(scheduler.clock) }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(disposedAt, [250])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    // MARK: - map / compactMap / filter

    func testMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(210, 2)
        XCTAssertEqual(scheduler.start { single.map { "\($0 * 10)" } }.events, [.next(210, "20"), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        XCTAssertEqual(record(Single.just(1).map { _ -> Int in throw testError }.asObservable()).0.values, [.error(testError)])
        XCTAssertEqual(record(Single<Int>.error(testError).map { $0 + 1 }.asObservable()).0.values, [.error(testError)])
    }

    func testMapDisposedBeforeTheOutcome() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(300, 2)
        var calls = 0
        XCTAssertEqual(scheduler.start(disposed: 250) { single.map { value -> Int in calls += 1; return value } }.events, [])
        XCTAssertEqual(calls, 0)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testCompactMapIsAMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, odd) = scheduler.hotSingle(210, 3)
        let keepOdd: (Int) -> String? = { $0 % 2 == 1 ? "odd \($0)" : nil }
        XCTAssertEqual(scheduler.start { odd.compactMap(keepOdd) }.events, [.next(210, "odd 3"), .completed(210)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, even2) = scheduler2.hotSingle(220, 4)
        XCTAssertEqual(scheduler2.start { even2.compactMap(keepOdd) }.events, [.completed(220)])
        XCTAssertEqual(record(Single.just(1).compactMap { _ -> Int? in throw testError }.asObservable()).0.values, [.error(testError)])

        var outcome: MaybeEvent<Int>?
        _ = Single.just(2).compactMap { $0 % 2 == 1 ? $0 : nil }.subscribe { outcome = $0 }
        XCTAssertEqual(outcome, .completed)
    }

    func testFilterIsAMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(210, 4)
        XCTAssertEqual(scheduler.start { single.filter { $0 > 3 } }.events, [.next(210, 4), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, single2) = scheduler2.hotSingle(210, 2)
        XCTAssertEqual(scheduler2.start { single2.filter { $0 > 3 } }.events, [.completed(210)])

        XCTAssertEqual(record(Single.just(1).filter { _ in throw testError }.asObservable()).0.values, [.error(testError)])
        XCTAssertEqual(record(Single<Int>.error(testError).filter { _ in true }.asObservable()).0.values, [.error(testError)])
    }

    // MARK: - flatMap / flatMapMaybe / flatMapCompletable

    func testFlatMapContinuesWithTheInnerSingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(210, 1)
        let (ys, inner) = scheduler.coldSingle(20, "a")
        var got: [Int] = []
        let res = scheduler.start { single.flatMap { value -> Single<String> in got.append(value); return inner } }
        XCTAssertEqual(res.events, [.next(230, "a"), .completed(230)])
        XCTAssertEqual(got, [1])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapFailures() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, single) = scheduler.hotSingle(210, 1)
        let (ys, inner) = scheduler.coldFailingSingle(20, testError, String.self)
        XCTAssertEqual(scheduler.start { single.flatMap { _ in inner } }.events, [.error(230, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, failing) = scheduler2.hotFailingSingle(210, testError, Int.self)
        var calls = 0
        XCTAssertEqual(scheduler2.start { failing.flatMap { _ -> Single<Int> in calls += 1; return .just(1) } }.events, [.error(210, testError)])
        XCTAssertEqual(calls, 0)

        XCTAssertEqual(record(Single.just(1).flatMap { _ -> Single<Int> in throw testError2 }.asObservable()).0.values, [.error(testError2)])
    }

    func testFlatMapDisposedWhileTheInnerSingleRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(210, 1)
        let (ys, inner) = scheduler.coldSingle(50, "a")
        let res = scheduler.start(disposed: 230) { single.flatMap { _ in inner } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, single) = scheduler.hotSingle(210, 1)
        let (ys, some) = scheduler.coldMaybe(20, "a")
        XCTAssertEqual(scheduler.start { single.flatMapMaybe { _ in some } }.events, [.next(230, "a"), .completed(230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, single2) = scheduler2.hotSingle(210, 1)
        let (_, none) = scheduler2.coldMaybe(20, nil, String.self)
        XCTAssertEqual(scheduler2.start { single2.flatMapMaybe { _ in none } }.events, [.completed(230)])

        XCTAssertEqual(record(Single.just(1).flatMapMaybe { _ -> Maybe<Int> in throw testError }.asObservable()).0.values, [.error(testError)])
        XCTAssertEqual(record(Single<Int>.error(testError).flatMapMaybe { Maybe.just($0) }.asObservable()).0.values, [.error(testError)])
    }

    func testFlatMapCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, single) = scheduler.hotSingle(210, 1)
        let (ys, completable) = scheduler.coldCompletable(20)
        XCTAssertEqual(scheduler.start { single.flatMapCompletable { _ in completable } }.events, [.completed(230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, single2) = scheduler2.hotSingle(210, 1)
        let (zs, failing) = scheduler2.coldFailingCompletable(20, testError)
        XCTAssertEqual(scheduler2.start(disposed: 220) { single2.flatMapCompletable { _ in failing } }.events, [])
        XCTAssertEqual(zs.subscriptions, [Subscription(210, 220)])

        XCTAssertEqual(record(Single.just(1).flatMapCompletable { _ in throw testError }.asObservable()).0.values, [.error(testError)])
        XCTAssertEqual(record(Single.just(1).flatMapCompletable { _ in .error(testError2) }.asObservable()).0.values, [.error(testError2)])
    }

    // MARK: - Conversions and subscribe

    func testAsObservableAsMaybeAsCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, single) = scheduler.hotSingle(210, 1)
        XCTAssertEqual(scheduler.start { single.asMaybe() }.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, single2) = scheduler2.hotSingle(210, 1)
        XCTAssertEqual(scheduler2.start { single2.asCompletable() }.events, [.completed(210)])
        let observable: Observable<Int> = Single.just(1).asObservable()
        XCTAssertEqual(record(observable).0.values, [.next(1), .completed])
    }

    func testFirstOnObservableIsASingleOfAnOptional() {
        XCTAssertEqual(record(Observable.of(1, 2).first().asObservable()).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Observable<Int>.empty().first().asObservable()).0.values, [.next(nil), .completed])
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start { xs.first() }
        XCTAssertEqual(res.events, [.next(210, Optional(1)), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testSubscribeWithObjectReportsFailureAndDisposal() {
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        _ = Single<Int>.error(testError).subscribe(
            with: owner,
            onSuccess: { owner, _ in owner.log.append("success") },
            onFailure: { owner, error in owner.log.append("failure \(error)") },
            onDisposed: { owner in owner.log.append("disposed") }
        )
        XCTAssertEqual(owner.log, ["failure TestError(1)", "disposed"])

        var gone: Owner? = Owner()
        weak let weakOwner = gone
        let subject = PublishSubject<Int>()
        var calls = 0
        let subscription = subject.asSingle().subscribe(with: gone!, onSuccess: { _, _ in calls += 1 })
        gone = nil
        XCTAssertNil(weakOwner)
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(calls, 0)
        subscription.dispose()
    }

    func testSubscribeToOutcomeOfACompletionWithoutElement() {
        // A raw source that completes empty is reported as a failure, never as a crash.
        var outcomes: [String] = []
        _ = Observable<Int>.empty().asSingle().subscribe(onSuccess: { _ in outcomes.append("success") }, onFailure: { outcomes.append("\($0)") })
        XCTAssertEqual(outcomes, ["\(RxError.noElements)"])
    }

    func testUnhandledFailureOfEachSubscribeFormGoesToTheHook() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        let errors = Recorder<String>()
        Hooks.defaultErrorHandler = { _, error in errors.append("\(error)") }
        final class Owner {}
        let owner = Owner()
        _ = Single<Int>.error(testError).subscribe()
        _ = Single<Int>.error(testError).subscribe(onSuccess: { _ in }, onDisposed: {})
        _ = Single<Int>.error(testError).subscribe(with: owner, onSuccess: { _, _ in })
        // Handled failures do not reach it.
        _ = Single<Int>.error(testError2).subscribe(onFailure: { _ in })
        _ = Single<Int>.error(testError2).subscribe { _ in }
        XCTAssertEqual(errors.values, ["TestError(1)", "TestError(1)", "TestError(1)"])
    }

    func testUnhandledFailureCarriesTheSubscriptionCallStackWhenAsked() {
        let previous = Hooks.defaultErrorHandler
        let previousCapture = Hooks.customCaptureSubscriptionCallstack
        defer {
            Hooks.defaultErrorHandler = previous
            Hooks.customCaptureSubscriptionCallstack = previousCapture
            Hooks.recordCallStackOnError = false
        }
        let stacks = Recorder<[String]>()
        Hooks.defaultErrorHandler = { stack, _ in stacks.append(stack) }
        Hooks.customCaptureSubscriptionCallstack = { ["frame"] }
        Hooks.recordCallStackOnError = true
        _ = Single<Int>.error(testError).subscribe(onSuccess: { _ in })
        XCTAssertEqual(stacks.values, [["frame"]])
    }
}
