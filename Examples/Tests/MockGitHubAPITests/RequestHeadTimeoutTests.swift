import Foundation
import MockGitHubAPI
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The mock server bounds the time a client may take to send a request head
/// (`MockGitHubConfiguration.headerReadTimeout`), as production servers do: half a
/// head gets `408 Request Timeout` and the connection is closed; an idle
/// connection is closed without an answer. Before, either held a connection for
/// ever.
final class RequestHeadTimeoutTests: ServerTestCase {
    let timeout = Duration.milliseconds(400)

    func testHalfARequestHeadIsAnswered408AndTheConnectionClosed() async throws {
        let server = try await startServer { $0.headerReadTimeout = self.timeout }
        let connection = try RawConnection(port: server.port)
        let started = ContinuousClock.now
        try connection.send("GET /search/repositories?q=ripple HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let (received, closed) = connection.readUntilClosed(timeout: .seconds(10))
        let elapsed = ContinuousClock.now - started
        XCTAssertTrue(received.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), received)
        XCTAssertTrue(received.lowercased().contains("connection: close"), received)
        XCTAssertTrue(closed, "the server kept the connection open")
        XCTAssertGreaterThanOrEqual(elapsed, timeout)
        XCTAssertLessThan(elapsed, .seconds(5))
    }

    func testBytesTricklingInDoNotExtendTheDeadline() async throws {
        let server = try await startServer { $0.headerReadTimeout = self.timeout }
        let connection = try RawConnection(port: server.port)
        let started = ContinuousClock.now
        // One byte every 50 ms: the head would be complete after about 2 s.
        for byte in "GET / HTTP/1.1\r\nHost: x\r\n\r\n" {
            guard (try? connection.send(String(byte))) != nil else { break }
            if ContinuousClock.now - started > .seconds(3) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let (received, closed) = connection.readUntilClosed(timeout: .seconds(10))
        XCTAssertTrue(received.hasPrefix("HTTP/1.1 408 "), received)
        XCTAssertTrue(closed)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3))
    }

    func testAConnectionThatSendsNothingIsClosedWithoutAnAnswer() async throws {
        let server = try await startServer { $0.headerReadTimeout = self.timeout }
        let connection = try RawConnection(port: server.port)
        let started = ContinuousClock.now
        let (received, closed) = connection.readUntilClosed(timeout: .seconds(10))
        XCTAssertEqual(received, "")
        XCTAssertTrue(closed, "the server kept an idle connection open")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, timeout)
    }

    /// The deadline starts again after each response: a keep-alive client that
    /// sends its next request within it is served, then its idle connection is
    /// closed.
    func testAKeepAliveConnectionGetsAFreshDeadlineAfterEachResponse() async throws {
        let server = try await startServer { $0.headerReadTimeout = self.timeout }
        let connection = try RawConnection(port: server.port)
        let request = "GET /repos/nobody/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        for _ in 0..<3 {
            try await Task.sleep(for: timeout * 0.6)
            try connection.send(request)
            let response = connection.readResponseHead(timeout: .seconds(5))
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 404 "), response)
        }
        let (_, closed) = connection.readUntilClosed(timeout: .seconds(10))
        XCTAssertTrue(closed)
    }

    func testATimeoutThatIsNotPositiveIsRefused() async throws {
        for timeout in [Duration.zero, .seconds(-1)] {
            do {
                _ = try await startServer { $0.headerReadTimeout = timeout }
                XCTFail("a header read timeout of \(timeout) was accepted")
            } catch let error as MockGitHubServer.ConfigurationError {
                XCTAssertEqual(error, .invalid("header read timeout \(timeout) is not positive"))
            }
        }
    }
}

/// A TCP connection to the loopback server that sends and reads raw bytes.
final class RawConnection {
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// Reads until the server closes the connection or `timeout` passes; returns
    /// what arrived and whether the connection was closed.
    func readUntilClosed(timeout: Duration) -> (String, closed: Bool) {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            switch readSome(waiting: .milliseconds(100)) {
            case .bytes(let bytes): received += bytes
            case .closed: return (String(decoding: received, as: UTF8.self), true)
            case .nothing: continue
            }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// Reads until a blank line ends a response head, or `timeout` passes.
    func readResponseHead(timeout: Duration) -> String {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if case .bytes(let bytes) = readSome(waiting: .milliseconds(100)) {
                received += bytes
                let text = String(decoding: received, as: UTF8.self)
                if let end = text.range(of: "\r\n\r\n") {
                    // Skips the body (its length is in the head).
                    let head = String(text[..<end.upperBound])
                    let length = head.split(separator: "\r\n")
                        .first { $0.lowercased().hasPrefix("content-length:") }
                        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                    var body = received.count - head.utf8.count
                    while body < length, case .bytes(let more) = readSome(waiting: .milliseconds(500)) { body += more.count }
                    return head
                }
            }
        }
        return String(decoding: received, as: UTF8.self)
    }

    enum Read { case bytes([UInt8]), closed, nothing }

    private func readSome(waiting: Duration) -> Read {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(waiting.components.seconds * 1000 + waiting.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) > 0 else { return .nothing }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count > 0 { return .bytes(Array(buffer[..<count])) }
        return .closed
    }
}
