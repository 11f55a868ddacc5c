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
        disposeAroundCompletion(transport, url, seed: 11, name: "AsyncHTTPClientStressTests")
        // Nothing leaked: the server sees every connection closed, the client holds no slot.
        // A connection AsyncHTTPClient opened for a request disposed before it
        // was written idles until the server gives up on it (5 s).
        XCTAssertTrue(waitUntil(timeout: 15) { server.openConnections == 0 }, "\(server.openConnections) connections still open")
        XCTAssertTrue(waitUntil(timeout: 5) { transport.limiter.snapshot.running.isEmpty && transport.limiter.snapshot.waiting.isEmpty })
        // And the client still works.
        XCTAssertEqual(try outcome(of: transport.get(url), timeout: 15)?.get().statusCode, 200)
    }
}
#endif
