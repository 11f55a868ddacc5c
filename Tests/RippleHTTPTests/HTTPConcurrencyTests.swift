import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleHTTPTesting
import RippleRepository
import RippleTest
import XCTest

/// Stress tests on real threads (they also run under ThreadSanitizer).
final class HTTPConcurrencyTests: HTTPTestCase {
    func testRepositoryFromManyThreads() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let stub = StubHTTPClient(scheduler: scheduler)
        stub.stub(.get, "/users/*/name", handler: { request in .text(request.url?.lastPathComponent ?? "").delayed(by: .milliseconds(5)) })
        let session = Session(client: stub, scheduler: scheduler)
        let cache = InMemoryCache<Int, String>()
        let repository = CachedRepository(cache: cache) { key in
            session.response(for: ConfigurableRequest<String>(path: "users/\(key)/name", convert: { "\($0.text)#\(key)" }))
        }
        let finals = Recorder<String>()
        let completions = Recorder<Int>()
        let subscriptions = Recorder<Disposable>()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            let key = index % 5
            let subscription = repository.value(for: key).subscribe(
                onNext: { fetched in
                    if fetched.isFinal { finals.append(fetched.value ?? "nil") }
                },
                onCompleted: { completions.append(key) }
            )
            subscriptions.append(subscription)
        }
        XCTAssertTrue(waitUntil(timeout: 10) { completions.values.count == 200 })
        XCTAssertEqual(finals.values.count, 200)
        XCTAssertTrue(finals.values.allSatisfy { $0.hasPrefix("name#") })
        XCTAssertLessThanOrEqual(stub.requests.count, 200)
        XCTAssertTrue(waitUntil { repository.inFlightCount == 0 })
        XCTAssertEqual(cache.count, 5)
        subscriptions.values.forEach { $0.dispose() }
    }

    func testDisposeRacingAnswers() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let stub = StubHTTPClient(scheduler: scheduler)
        stub.stub(.get, "/race", .text("x").delayed(by: .microseconds(200)))
        let session = Session(client: stub, scheduler: scheduler, timeout: .milliseconds(100), retryPolicy: RetryPolicy(maxRetries: 1, initialDelay: 0.001))
        let outcomes = Recorder<Int>()
        DispatchQueue.concurrentPerform(iterations: 300) { index in
            let delivered = Recorder<Int>()
            let request = ConfigurableRequest<String>(path: "race", convert: \.text)
            let subscription = session.response(for: request).subscribe(
                onSuccess: { _ in delivered.append(1); outcomes.append(1) },
                onFailure: { _ in delivered.append(1); outcomes.append(1) }
            )
            if index % 2 == 0 {
                usleep(UInt32(index % 7) * 50)
            }
            subscription.dispose()
            XCTAssertLessThanOrEqual(delivered.values.count, 1)
        }
        // Whatever got through, nothing is left running.
        XCTAssertLessThanOrEqual(outcomes.values.count, 300)
        XCTAssertGreaterThanOrEqual(stub.requests.count, 300, "every subscription sent its request")
    }

    func testRetriesOnARealScheduler() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let stub = StubHTTPClient(scheduler: scheduler)
        let attempts = Recorder<String>()
        stub.stub(.get, "/flaky/*", handler: { request in
            // Each path fails twice, then answers.
            let path = request.url?.path ?? ""
            attempts.append(path)
            return attempts.values.filter { $0 == path }.count >= 3 ? .text("ok") : .status(503)
        })
        let session = Session(client: stub, scheduler: scheduler, retryPolicy: RetryPolicy(maxRetries: 10, initialDelay: 0.001, maxDelay: 0.002, jitter: .seeded(0.5, seed: 1)))
        let successes = Recorder<String>()
        let subscriptions = Recorder<Disposable>()
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            subscriptions.append(session.response(for: ConfigurableRequest<String>(path: "flaky/\(index)", convert: \.text))
                .subscribe(onSuccess: { successes.append($0) }))
        }
        XCTAssertTrue(waitUntil(timeout: 10) { successes.values.count == 50 })
        XCTAssertEqual(attempts.values.count, 150)
        subscriptions.values.forEach { $0.dispose() }
    }

    func testInMemoryCacheAndStubRecordsFromManyThreads() {
        let cache = InMemoryCache<Int, Int>(countLimit: 50)
        let stub = StubHTTPClient()
        stub.stub(.get, "/x", .text("x"))
        DispatchQueue.concurrentPerform(iterations: 1000) { index in
            cache[index % 80] = index
            _ = cache[(index * 7) % 80]
            _ = cache.value(forKey: index % 10).subscribe { _ in }
            stub.send(URLRequest(url: URL(string: "https://stub.test/x")!)).subscribe { _ in }.dispose()
            _ = stub.requests.count
        }
        XCTAssertLessThanOrEqual(cache.count, 50)
        XCTAssertEqual(stub.requests.count, 1000)
    }
}
