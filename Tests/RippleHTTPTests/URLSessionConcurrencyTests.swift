import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleTest
import XCTest

/// `URLSessionHTTPClient`'s request runs and connection limiter on real
/// threads against a loopback server (in the ThreadSanitizer gate by name).
final class URLSessionConcurrencyTests: HTTPTestCase {
    func testDisposesFromManyThreadsRacingStartsAndCompletions() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 2
        let client = URLSessionHTTPClient(configuration: configuration)
        let session = Session(client: client, scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated), timeout: .milliseconds(500))
        let url = URL(string: "\(server.baseURL.absoluteString)/hello")!
        let base = server.baseURL
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            let deliveries = Recorder<Int>()
            let subscription = index % 2 == 0
                ? client.get(url).subscribe { _ in deliveries.append(1) }
                : session.response(for: ConfigurableRequest<Int>(baseURL: base, path: "hello", convert: \.statusCode))
                    .subscribe { _ in deliveries.append(1) }
            // Dispose while waiting for a slot, just after the start, or around completion.
            usleep(UInt32(index % 5) * 400)
            subscription.dispose()
            // A delivery already under way when another thread disposes may
            // still finish; there is never more than one.
            usleep(2_000)
            XCTAssertLessThanOrEqual(deliveries.values.count, 1)
        }
        // Every slot came back: with 2 connections per host, a leaked slot or
        // two would leave these waiting forever. And the limit holds: counted
        // from here, as the server may still count a request cancelled above
        // after its slot went to the next one (seen: 3 under ThreadSanitizer on
        // a loaded machine).
        XCTAssertTrue(server.resetMaximumConcurrentRequests())
        let results = Recorder<Int>()
        let subscriptions = (0..<4).map { _ in client.get(url).subscribe(onSuccess: { results.append($0.statusCode) }) }
        XCTAssertTrue(waitUntil(timeout: 10) { results.values.count == 4 }, "\(results.values)")
        XCTAssertLessThanOrEqual(server.maximumConcurrentRequests, 2)
        subscriptions.forEach { $0.dispose() }
    }
}
