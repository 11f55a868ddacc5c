import Ripple
import RippleTest
import XCTest

final class RetryTests: RippleTestCase {
    func testCompletingSourceIsNotRetried() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .next(200, 3), .completed(250)])
        let res = scheduler.start { xs.retry() }
        XCTAssertEqual(res.events, [.next(300, 1), .next(350, 2), .next(400, 3), .completed(450)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 450)])
    }

    func testRetriesForever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .next(200, 3), .error(250, testError)])
        let res = scheduler.start(disposed: 1100) { xs.retry() }
        XCTAssertEqual(res.events, [
            .next(300, 1), .next(350, 2), .next(400, 3),
            .next(550, 1), .next(600, 2), .next(650, 3),
            .next(800, 1), .next(850, 2), .next(900, 3),
            .next(1050, 1),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 450), Subscription(450, 700), Subscription(700, 950), Subscription(950, 1100)])
    }

    func testMaxAttemptCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .next(10, 2), .next(15, 3), .error(20, testError)])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events, [
            .next(205, 1), .next(210, 2), .next(215, 3),
            .next(225, 1), .next(230, 2), .next(235, 3),
            .next(245, 1), .next(250, 2), .next(255, 3),
            .error(260, testError),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    func testOneAttemptIsNoRetryAndZeroCompletesAtOnce() {
        XCTAssertEqual(record(Observable<Int>.error(testError).retry(1)).0.values, [.error(testError)])

        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1)])
        XCTAssertEqual(scheduler.start { xs.retry(0) }.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testNegativeCountFails() {
        XCTAssertEqual(record(Observable.of(1).retry(-1)).0.values, [.error(RxError.argumentOutOfRange)])
    }

    func testSucceedsOnLaterAttempt() {
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            if attempts < 3 {
                observer.onError(testError)
            } else {
                observer.onNext(attempts)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        XCTAssertEqual(record(source.retry()).0.values, [.next(3), .completed])
        attempts = 0
        XCTAssertEqual(record(source.retry(3)).0.values, [.next(3), .completed])
        attempts = 0
        XCTAssertEqual(record(source.retry(2)).0.values, [.error(testError)])
    }

    func testSynchronousRetriesUseConstantStack() {
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            if attempts < 50_000 {
                observer.onNext(attempts)
                observer.onError(testError)
            } else {
                observer.onCompleted()
            }
            return Disposables.create()
        }
        var elements = 0
        var completed = false
        _ = source.retry().subscribe(onNext: { _ in elements += 1 }, onCompleted: { completed = true })
        XCTAssertTrue(completed)
        XCTAssertEqual(elements, 49_999)
    }

    func testTrampolinedSourceRetries() {
        // `of` emits from the trampoline; each failing attempt queues the next.
        var attempts = 0
        let source = Observable<Int>.deferred {
            attempts += 1
            return attempts < 5_000 ? Observable<Int>.error(testError).startWith(attempts) : .of(attempts)
        }
        let (recorder, subscription) = record(source.retry())
        XCTAssertEqual(recorder.values.count, 5_001)
        XCTAssertEqual(recorder.values.last, .completed)
        subscription.dispose()
    }

    func testDisposeFromObserverStopsSynchronousRetries() {
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            observer.onNext(attempts)
            observer.onError(testError)
            return Disposables.create()
        }
        let subject = PublishSubject<Void>()
        var values: [Int] = []
        // `take(until:)` disposes the retrying subscription from inside its loop.
        let subscription = source.retry().take(until: subject).subscribe(onNext: { value in
            values.append(value)
            if value == 3 { subject.onNext(()) }
        })
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertEqual(attempts, 3)
        subscription.dispose()
    }
}

final class RetryWhenTests: RippleTestCase {
    private func makeSource(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .next(40, 4), .error(50, testError)])
    }

    func testHandlerNeverDecides() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start(disposed: 300) { xs.retry(when: { (_: Observable<Error>) in Observable<Int>.never() }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testHandlerCompletingCompletesAtTheNextError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start { xs.retry(when: { (_: Observable<Error>) in Observable<Int>.empty() }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testHandlerFailingFailsAtTheNextError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start { xs.retry(when: { (_: Observable<Error>) in Observable<Int>.error(testError2) }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .error(250, testError2)])
    }

    func testHandlerThatFinishedBeforeAnyErrorCompletesAtTheFirstError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start { xs.retry(when: { (_: Observable<Error>) in Observable.just(()) }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testSourceCompletingIsNotRetried() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.retry(when: { (errors: Observable<Error>) in errors }) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testRetriesOnEachDecision() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start(disposed: 300) { xs.retry(when: { (errors: Observable<Error>) in errors }) }
        XCTAssertEqual(res.events, [
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4),
            .next(260, 1), .next(270, 2), .next(280, 3), .next(290, 4),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(250, 300)])
    }

    func testHandlerLimitsAttempts() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError)])
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<Error>) in
                errors.scan(0) { count, error in
                    if count == 2 { throw error }
                    return count + 1
                }
            })
        }
        XCTAssertEqual(res.events, [
            .next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .next(270, 1), .next(280, 2), .error(290, testError),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(230, 260), Subscription(260, 290)])
    }

    func testDelayedRetry() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start(disposed: 300) {
            xs.retry(when: { (errors: Observable<Error>) in errors.delay(.seconds(30), scheduler: scheduler) })
        }
        // Failures at 220 and 270; retries at 250 and (after the disposal at 300) none.
        XCTAssertEqual(res.events, [.next(210, 1), .next(260, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(250, 270)])
    }

    func testTypedHandlerForwardsOtherErrors() {
        struct OtherError: Error {}
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, OtherError())])
        var handled = 0
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<TestError>) in errors.do(onNext: { _ in handled += 1 }) })
        }
        XCTAssertEqual(res.events.count, 2)
        XCTAssertEqual(res.events.first, .next(210, 1))
        XCTAssertTrue(res.events.last?.value.error is OtherError)
        XCTAssertEqual(handled, 0)
    }

    func testTypedHandlerReceivesTypedErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        var received: [TestError] = []
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<TestError>) in
                errors.do(onNext: { received.append($0) }).take(2)
            })
        }
        // The third error finds `take(2)` done: the handler has completed.
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1), .completed(260)])
        XCTAssertEqual(received, [testError, testError])
    }

    func testSynchronousRetriesUseConstantStack() {
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            observer.onError(testError)
            return Disposables.create()
        }
        let (recorder, subscription) = record(source.retry(when: { (errors: Observable<Error>) in errors.take(20_000) }))
        XCTAssertEqual(recorder.values, [.completed])
        XCTAssertEqual(attempts, 20_001)
        subscription.dispose()
    }

    func testDisposeWhileWaitingReleasesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let trigger = scheduler.createHotObservable([.next(400, ())])
        let res = scheduler.start(disposed: 300) {
            xs.retry(when: { (_: Observable<Error>) in trigger.asObservable() })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 300)])
    }
}
