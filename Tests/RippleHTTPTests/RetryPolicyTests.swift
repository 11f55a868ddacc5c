import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleHTTPTesting
import RippleTest
import XCTest

/// Retry and timeout policies, in virtual time (one tick = one second).
final class RetryPolicyTests: HTTPTestCase {
    let unavailable = HTTPError.unacceptableStatusCode(503, headers: [:], body: Data())
    let notFound = HTTPError.unacceptableStatusCode(404, headers: [:], body: Data())

    func policy(retries: Int = 3, initial: TimeInterval = 10, multiplier: Double = 2, maxDelay: TimeInterval = 1000, jitter: RetryPolicy.Jitter = .none) -> RetryPolicy {
        RetryPolicy(maxRetries: retries, initialDelay: initial, multiplier: multiplier, maxDelay: maxDelay, jitter: jitter)
    }

    // MARK: Backoff timing

    func testExponentialBackoffThenTheLastError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(5, unavailable, Int.self)])
        let res = scheduler.start { xs.retry(self.policy(), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(290, unavailable)])
        // Attempts at 200, 205+10, 220+20, 245+40.
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 205), Subscription(215, 220), Subscription(240, 245), Subscription(285, 290)])
    }

    func testSuccessAfterRetriesCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        var attempts = 0
        let source = Observable<Int>.deferred {
            attempts += 1
            let events: [Recorded<Event<Int>>] = attempts < 3 ? [.error(5, self.unavailable)] : [.next(5, 42), .completed(5)]
            return scheduler.createColdObservable(events).asObservable()
        }
        let res = scheduler.start { source.retry(self.policy(), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(245, 42), .completed(245)])
        XCTAssertEqual(attempts, 3)
    }

    func testMaxDelayCapsTheBackoff() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(1, unavailable, Int.self)])
        _ = scheduler.start { xs.retry(self.policy(retries: 4, initial: 10, multiplier: 3, maxDelay: 25), scheduler: scheduler) }
        // Delays 10, 25 (not 30), 25, 25.
        XCTAssertEqual(xs.subscriptions.map(\.subscribe), [200, 211, 237, 263, 289])
    }

    func testNonTransientErrorsAreNotRetried() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(5, notFound, Int.self)])
        let res = scheduler.start { xs.retry(self.policy(), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(205, notFound)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 205)])
    }

    func testZeroRetriesAndInvalidPolicies() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(5, unavailable, Int.self)])
        XCTAssertEqual(scheduler.start { xs.retry(RetryPolicy.never, scheduler: scheduler) }.events, [.error(205, unavailable)])

        for (invalid, setting) in [
            (RetryPolicy(maxRetries: -1), "maxRetries must be 0 or more (got -1)"),
            (RetryPolicy(initialDelay: -1), "initialDelay must be a finite number of seconds, 0 or more (got -1.0)"),
            (RetryPolicy(initialDelay: .nan), "initialDelay must be a finite number of seconds, 0 or more (got nan)"),
            (RetryPolicy(multiplier: .infinity), "multiplier must be finite, 0 or more (got inf)"),
            (RetryPolicy(maxDelay: -5), "maxDelay must be 0 or more seconds (got -5.0)"),
            (RetryPolicy(maxDelay: .nan), "maxDelay must be 0 or more seconds (got nan)"),
            (RetryPolicy(jitter: .proportional(1.5)), "jitter factor must be in 0...1 (got 1.5)"),
            (RetryPolicy(retryAfterLimit: -1), "retryAfterLimit must be 0 or more seconds, or nil (got -1.0)"),
        ] {
            XCTAssertFalse(invalid.isValid)
            XCTAssertEqual(invalid.invalidSetting, setting)
            let scheduler = TestScheduler(initialClock: 0)
            let ys = scheduler.createColdObservable([.next(5, 1)])
            let events = scheduler.start { ys.retry(invalid, scheduler: scheduler) }.events
            // A typed HTTPError that names the bad setting, not an RxError.
            XCTAssertEqual(describe(events), ["200: error(Invalid HTTP request: invalid RetryPolicy: \(setting))"])
            XCTAssertEqual(events.first.flatMap { ($0.value.error as? HTTPError)?.kind }, .invalidRequest)
            XCTAssertEqual(ys.subscriptions, [])
        }
        XCTAssertTrue(RetryPolicy.default.isValid)
        XCTAssertNil(RetryPolicy.default.invalidSetting)
    }

    func testDisposeDuringTheWaitCancelsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(5, unavailable, Int.self)])
        let res = scheduler.start(disposed: 210) { xs.retry(self.policy(), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 205)])
        // Nothing was left scheduled.
        scheduler.advanceTo(2000)
        XCTAssertEqual(xs.subscriptions.count, 1)
    }

    func testDeterministicJitter() {
        // random() = 0.75, factor 0.2: each delay × (1 - 0.2 + 0.4 × 0.75) = × 1.1
        let fixed = policy(jitter: .proportional(0.2, random: { 0.75 }))
        XCTAssertEqual(fixed.backoff(beforeRetry: 1), 11, accuracy: 1e-9)
        XCTAssertEqual(fixed.backoff(beforeRetry: 2), 22, accuracy: 1e-9)
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(1, unavailable, Int.self)])
        _ = scheduler.start { xs.retry(fixed, scheduler: scheduler) }
        XCTAssertEqual(xs.subscriptions.map(\.subscribe), [200, 212, 235, 280])

        // A seeded source gives the same delays every time, within the spread.
        let first = policy(jitter: .seeded(0.5, seed: 7))
        let second = policy(jitter: .seeded(0.5, seed: 7))
        let delays = (1...3).map { first.backoff(beforeRetry: $0) }
        XCTAssertEqual(delays, (1...3).map { second.backoff(beforeRetry: $0) })
        for (index, delay) in delays.enumerated() {
            let base = 10 * pow(2, Double(index))
            XCTAssertTrue(delay >= base * 0.5 && delay <= base * 1.5, "\(delay)")
        }
        XCTAssertNotEqual(delays, (1...3).map { self.policy(jitter: .seeded(0.5, seed: 8)).backoff(beforeRetry: $0) })
        // Out-of-range random numbers are clamped; no jitter means no change.
        XCTAssertEqual(policy(jitter: .proportional(0.5, random: { 7 })).backoff(beforeRetry: 1), 15)
        XCTAssertEqual(policy(jitter: .proportional(0.5, random: { -.nan })).backoff(beforeRetry: 1), 5)
        XCTAssertEqual(policy().backoff(beforeRetry: 1), 10)
        XCTAssertEqual(policy().backoff(beforeRetry: 0), 0)
        XCTAssertEqual(policy(initial: 0).backoff(beforeRetry: 100), 0)
        XCTAssertEqual(policy(maxDelay: .infinity).backoff(beforeRetry: 2000), .infinity)
    }

    // MARK: Retry-After

    func testRetryAfterSecondsReplacesTheBackoff() {
        let tooMany = HTTPError.unacceptableStatusCode(429, headers: ["Retry-After": "7"], body: Data())
        let scheduler = TestScheduler(initialClock: 0)
        var attempts = 0
        let source = Observable<String>.deferred {
            attempts += 1
            let events: [Recorded<Event<String>>] = attempts == 1 ? [.error(5, tooMany)] : [.next(5, "ok"), .completed(5)]
            return scheduler.createColdObservable(events).asObservable()
        }
        let res = scheduler.start { source.retry(self.policy(), scheduler: scheduler) }
        // 205 + 7 = 212, answered 5 later.
        XCTAssertEqual(res.events, [.next(217, "ok"), .completed(217)])
    }

    func testRetryAfterHTTPDateIsRelativeToTheSchedulersClock() {
        // Virtual time 0 is 1970-01-01T00:00:00Z; the first failure happens at 205.
        let date = HTTPError.unacceptableStatusCode(503, headers: ["retry-after": "Thu, 01 Jan 1970 00:04:00 GMT"], body: Data())
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(5, date, Int.self)])
        _ = scheduler.start { xs.retry(self.policy(retries: 1), scheduler: scheduler) }
        XCTAssertEqual(xs.subscriptions.map(\.subscribe), [200, 240])
    }

    func testRetryAfterBeyondTheLimitEndsTheRetries() {
        let later = HTTPError.unacceptableStatusCode(429, headers: ["Retry-After": "3600"], body: Data())
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(5, later, Int.self)])
        let res = scheduler.start { xs.retry(RetryPolicy(initialDelay: 10, retryAfterLimit: 60), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(205, later)])
        // Without Retry-After handling, the backoff is used.
        let ignoring = RetryPolicy(maxRetries: 1, initialDelay: 10, retryAfterLimit: nil)
        XCTAssertEqual(ignoring.delay(beforeRetry: 1, after: later, now: Date()), 10)
    }

    func testRetryAfterParsing() {
        let now = Date(timeIntervalSince1970: 784_111_777) // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(RetryPolicy.retryAfter("120", now: now), 120)
        XCTAssertEqual(RetryPolicy.retryAfter(" 0 ", now: now), 0)
        XCTAssertEqual(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:50:07 GMT", now: now), 30)
        XCTAssertEqual(RetryPolicy.retryAfter("Sunday, 06-Nov-94 08:50:37 GMT", now: now), 60)
        XCTAssertEqual(RetryPolicy.retryAfter("Sun Nov  6 08:51:37 1994", now: now), 120)
        XCTAssertEqual(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:00:00 GMT", now: now), 0, "a date in the past")
        for bad in ["", "-5", "1.5", "soon", "Sun, 99 Nov 1994 08:50:07 GMT", "99999999999999999999999999"] {
            let value = RetryPolicy.retryAfter(bad, now: now)
            if bad.hasPrefix("9") {
                XCTAssertEqual(value, 1e26, "huge numbers parse; the limit rejects them")
            } else {
                XCTAssertNil(value, bad)
            }
        }
        // Only 429 and 503 carry a meaningful Retry-After.
        XCTAssertNil(RetryPolicy.retryAfter(of: HTTPError.unacceptableStatusCode(500, headers: ["Retry-After": "5"], body: Data()), now: now))
        XCTAssertNil(RetryPolicy.retryAfter(of: TestError(), now: now))
    }

    // MARK: What is transient

    func testTransientFailures() {
        let transient: [Error] = [
            HTTPError.transport(URLError(.timedOut)), HTTPError.transport(URLError(.networkConnectionLost)),
            HTTPError.transport(URLError(.cannotConnectToHost)), HTTPError.transport(URLError(.notConnectedToInternet)),
            HTTPError.transport(URLError(.dnsLookupFailed)), URLError(.timedOut), RxError.timeout,
        ] + [408, 429, 500, 502, 503, 504, 599].map { HTTPError.unacceptableStatusCode($0, headers: [:], body: Data()) }
        for error in transient {
            XCTAssertTrue(RetryPolicy.isTransient(error), "\(error)")
        }
        let permanent: [Error] = [
            HTTPError.transport(URLError(.cancelled)), HTTPError.transport(URLError(.badURL)), URLError(.cannotFindHost),
            HTTPError.notHTTPResponse(nil), HTTPError.undecodableBody(TestError(), body: Data()), HTTPError.invalidRequest("x"),
            TestError(), RxError.noElements,
        ] + [400, 401, 403, 404, 409, 422, 501, 505].map { HTTPError.unacceptableStatusCode($0, headers: [:], body: Data()) }
        for error in permanent {
            XCTAssertFalse(RetryPolicy.isTransient(error), "\(error)")
        }
        let custom = RetryPolicy(maxRetries: 1, shouldRetry: { $0 is TestError })
        XCTAssertEqual(custom.delay(beforeRetry: 1, after: TestError(), now: Date()), 0.5)
        XCTAssertNil(custom.delay(beforeRetry: 2, after: TestError(), now: Date()))
        XCTAssertNil(custom.delay(beforeRetry: 1, after: unavailable, now: Date()))
    }

    // MARK: Request timeout

    func testRequestTimeoutFailsWithATransportTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start { xs.requestTimeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(230, HTTPError.transport(URLError(.timedOut)))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let fast = TestScheduler(initialClock: 0)
        let ys = fast.createColdObservable([.next(20, 1), .completed(20)])
        XCTAssertEqual(fast.start { ys.requestTimeout(.seconds(30), scheduler: fast) }.events, [.next(220, 1), .completed(220)])
    }

    func testRequestTimeoutArguments() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        XCTAssertEqual(scheduler.start { xs.requestTimeout(.never, scheduler: scheduler) }.events, [.next(250, 1), .completed(250)])
        let zero = TestScheduler(initialClock: 0)
        let res = zero.start { Observable.just(1).requestTimeout(.seconds(0), scheduler: zero) }
        XCTAssertEqual(res.events.count, 1)
        XCTAssertEqual((res.events.first?.value.error as? HTTPError)?.kind, .invalidRequest)
    }

    func testTimeoutThenRetryOnSingles() {
        // Each attempt times out after 30; the third one answers in time.
        let scheduler = TestScheduler(initialClock: 0)
        var attempts = 0
        let single = Single<String>.create { observer in
            attempts += 1
            let answerIn = attempts < 3 ? 100 : 10
            return scheduler.scheduleRelative((), dueTime: .seconds(answerIn)) { _ in
                observer(.success("answer"))
                return Disposables.create()
            }
        }
        let res = scheduler.start {
            single.requestTimeout(.seconds(30), scheduler: scheduler)
                .retry(self.policy(retries: 2, initial: 1), scheduler: scheduler)
                .asObservable()
        }
        // 200 → timeout 230, wait 1 → 231 → timeout 261, wait 2 → 263 → answer 273.
        XCTAssertEqual(res.events, [.next(273, "answer"), .completed(273)])
        XCTAssertEqual(attempts, 3)
    }

    func testValidateOperator() {
        let ok = HTTPResponse(url: exampleBase, statusCode: 204)!
        let missing = HTTPResponse(url: exampleBase, statusCode: 404, data: Data("nope".utf8))!
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, ok), .next(220, missing), .next(230, ok)])
        let res = scheduler.start { xs.validate().map(\.statusCode) }
        XCTAssertEqual(res.events, [.next(210, 204), .error(220, HTTPError.unacceptableStatusCode(404, headers: [:], body: Data("nope".utf8)))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(try Single.just(missing).validate([404]).asObservable().toBlocking().single().statusCode, 404)
    }
}

extension Event {
    var error: Swift.Error? {
        if case .error(let error) = self { return error }
        return nil
    }
}
