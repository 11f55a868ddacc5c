#if AsyncHTTPClient
import Foundation
@testable import RippleHTTP
import RippleTest
import XCTest

/// Thousands of requests disposed around the moment they complete, on
/// `AsyncHTTPClientTransport`: the process survives, every connection is
/// closed and every connection slot comes back. Bounded: at most 3 000
/// requests and 20 s, all to 127.0.0.1.
final class AsyncHTTPClientStressTests: HTTPTestCase {
    func testDisposingRequestsAsTheyCompleteNeverCrashesNorLeaksAConnection() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let transport = AsyncHTTPClientTransport()
        let url = URL(string: "\(server.baseURL.absoluteString)/hello")!
        var random = SeededRandomNumberGenerator(seed: 11)
        let delivered = Recorder<Bool>()
        let deadline = Date().addingTimeInterval(20)
        var iterations = 0
        while iterations < 3_000, Date() < deadline {
            let subscription = transport.get(url).subscribe { delivered.append((try? $0.get()) != nil) }
            // 0–3 ms: a loopback request takes about 1–2 ms, so the disposes
            // land while waiting for a slot, before, during and after completion.
            usleep(UInt32(random.below(3_000)))
            subscription.dispose()
            iterations += 1
        }
        XCTAssertGreaterThanOrEqual(iterations, 500, "too few iterations to mean anything")
        let completed = delivered.values.count
        XCTAssertGreaterThan(completed, 0)
        XCTAssertLessThan(completed, iterations)
        print("AsyncHTTPClientStressTests: \(iterations) requests, \(completed) completed before their dispose")
        // Nothing leaked: the server sees every connection closed, the client holds no slot.
        // A connection AsyncHTTPClient opened for a request disposed before it
        // was written idles until the server gives up on it (5 s).
        XCTAssertTrue(waitUntil(timeout: 15) { server.openConnections == 0 }, "\(server.openConnections) connections still open")
        print("AsyncHTTPClientStressTests: open \(server.openConnections), slots \(transport.limiter.snapshot)")
        XCTAssertTrue(waitUntil(timeout: 5) { transport.limiter.snapshot.running.isEmpty && transport.limiter.snapshot.waiting.isEmpty })
        // And the client still works.
        XCTAssertEqual(try outcome(of: transport.get(url), timeout: 15)?.get().statusCode, 200)
    }
}
#endif
