import Foundation
import MockGitHubAPI
import Ripple
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A client that gives up on a delayed request (as `flatMapLatest` does to a
/// superseded search) closes its connection; the server reports that request as
/// cancelled, not as answered, so the demo can show the cancellation.
final class CancelledRequestTests: ServerTestCase {
    func testARequestTheClientAbandonsIsReportedAsCancelled() async throws {
        let server = try await startServer { $0.behavior.latency = .fixed(.seconds(5)) }
        let records = Box<[ServedRequest]>([])
        let subscription = server.requests.subscribe(onNext: { request in records.mutate { $0.append(request) } })
        defer { subscription.dispose() }

        let started = ContinuousClock.now
        try sendAndHangUp(port: server.port, target: "/search/repositories?q=rip", after: .milliseconds(200))
        while records.value.isEmpty, ContinuousClock.now - started < .seconds(4) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let request = try XCTUnwrap(records.value.first, "nothing reported before the 5 s latency ran out")
        XCTAssertEqual(request.status, 499)
        XCTAssertEqual(request.fault, .clientClosedRequest)
        XCTAssertEqual(request.target, "/search/repositories?q=rip")
        XCTAssertLessThan(request.duration, .seconds(4))
        XCTAssertTrue(
            request.description.hasPrefix("GET /search/repositories?q=rip -> cancelled by the client after "), request.description)
        XCTAssertTrue(request.description.hasSuffix(" ms (499, nothing sent)"), request.description)
    }

    func testARequestThatWaitsOutTheLatencyIsAnswered() async throws {
        let server = try await startServer { $0.behavior.latency = .fixed(.milliseconds(100)) }
        let records = Box<[Int]>([])
        let subscription = server.requests.subscribe(onNext: { request in records.mutate { $0.append(request.status) } })
        defer { subscription.dispose() }
        let first = try await client.get(server, "/search/repositories?q=ripple")
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.header("Connection"), "close", "watching for a hang-up ends keep-alive")
        let second = try await client.get(server, "/repos/nobody/x")
        XCTAssertEqual(second.status, 404)
        XCTAssertEqual(records.value, [200, 404])
    }

    /// Connects to the server, sends a GET, waits, and closes the connection.
    private func sendAndHangUp(port: Int, target: String, after delay: Duration) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: application/json\r\n\r\n".utf8)
        XCTAssertEqual(request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }, request.count)
        Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds))
    }
}
