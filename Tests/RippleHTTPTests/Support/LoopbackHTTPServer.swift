import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 (or another loopback address) for
/// end-to-end tests of the transports (`URLSessionHTTPClient`,
/// `AsyncHTTPClientTransport`): POSIX sockets, one background thread
/// accepting connections and one thread per connection, a random port, one
/// request per connection (`Connection: close`).
///
/// Routes (see ``route(_:)``):
/// - `GET /hello`: a JSON object with a snake_case key and an ISO-8601 date;
/// - `* /echo`: the request as JSON (method, path, query, headers, body);
/// - `GET /status/<code>`: that status, body `status <code>`, plus the header
///   `Retry-After` when the query has `retry_after`;
/// - `GET /slow?ms=<n>`: answers after `n` ms, noticing if the client closes
///   the connection meanwhile;
/// - `GET /repos/octocat/hello`: a GitHub-like repository;
/// - `GET /text`: a plain-text body that is not JSON;
/// - `* /cut/body`, `* /cut/head`, `* /cut/chunked`: a connection closed
///   mid-body, before any response, or in the middle of a chunk;
/// - `* /once/head`, `* /once/body` (any query): the first request for a
///   target is cut like `/cut/head` or `/cut/body`, the next ones answer
///   `200` `ok`;
/// - `GET /bytes?n=<count>&ms=<delay>&length=none&status=<code>&drip_ms=<gap>`:
///   `count` bytes, optionally late, without `Content-Length`, with another
///   status, or in 64 KiB pieces `gap` ms apart;
/// - `GET /redirect?to=<url>&status=<code>`: a redirect (302 by default) to
///   `url`; `GET /loop`: a redirect to itself;
/// - broken responses: `/cut/headers` closes in the middle of the header
///   block, `/garbage` answers with a line that is not a status line,
///   `/slowloris?ms=<n>` sends a header line every 100 ms for `n` ms and never
///   ends the header block;
/// - `GET /events?count=<n>&interval_ms=<gap>&retry=<ms>&drop_after=<k>&hold=1&pad=<bytes>`:
///   Server-Sent Events `id: i` / `data: event i` from the one after the
///   request's `Last-Event-ID` to `n`, `gap` ms apart, after a `retry:`
///   line; the connection drops after `k` events, or (with `hold=1`) stays open
///   after the last until the client leaves; once the client has every event,
///   `204`. `GET /events/json`: the same stream served as `application/json`.
/// - `GET /ndjson?n=<count>&interval_ms=<gap>`: `{"n":i}` lines;
/// - `GET /malformed/<fault>`: a response that breaks HTTP/1.1 in one way
///   (``malformedResponses``), then the close;
/// - `GET /storm?events=<0|1>`: an event stream that sets `retry: 0`, sends
///   one event (or none) and closes: a client without a floor on its
///   reconnection time comes straight back;
/// - `GET /gzip/zeros?n=<bytes>`: `n` zero bytes as a gzip body of about
///   `n / 158` bytes (``gzipOfZeros(_:)``), with `Content-Length`;
/// - `GET /flood?event=<bytes>&total=<bytes>&blank=<0|1>`: an event stream of
///   `data:` lines of `event` bytes, each ending its event (`blank=1`, the
///   default) or not (one endless event), as fast as the client reads, until
///   `total` bytes or the client leaves (``bytesSent(_:)`` counts them);
/// - anything else: `404`.
final class LoopbackHTTPServer: @unchecked Sendable {
    struct ReceivedRequest: Sendable {
        let method: String
        let target: String
        let headers: [String: String]
        let body: Data

        var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }
        var query: String { target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? "" }
    }

    struct CannedResponse {
        var status: Int
        var headers: [(String, String)] = []
        var body: Data = Data()
        /// Wait this long before answering, watching for the client to leave.
        var delay: TimeInterval = 0
        /// Break the connection instead of answering properly.
        var cut: Cut? = nil
        /// Send no `Content-Length`: the body ends when the connection closes.
        var closeDelimited = false
        /// Send the body in 64 KiB pieces this far apart (0: all at once).
        var chunkDelay: TimeInterval = 0
        /// Writes the whole answer itself (raw bytes, streams); the others
        /// fields but `delay` are ignored.
        var writer: (@Sendable (Connection) -> Void)? = nil
    }

    /// What a custom ``CannedResponse/writer`` writes to.
    struct Connection: Sendable {
        let server: LoopbackHTTPServer
        let fd: Int32
        let request: ReceivedRequest

        /// Writes `bytes`; `false` if the client went away.
        func write(_ bytes: String) -> Bool { write(Data(bytes.utf8)) }

        /// Writes `data`; `false` if the client went away.
        func write(_ data: Data) -> Bool { server.writeAll(fd, data) }

        /// Waits `seconds`; `false` if the client closed the connection first.
        func wait(_ seconds: TimeInterval) -> Bool { server.waitWatchingForClose(fd, seconds: seconds) }
    }

    /// How a response is broken off.
    enum Cut {
        /// Close the connection without a byte of response.
        case beforeResponse
        /// Send the head (with the full `Content-Length`) and part of the
        /// body, then close.
        case midBody
    }

    /// What happened, in order, for tests to wait on.
    enum Event: Equatable {
        case received(String)
        case answered(String)
        case clientClosed(String)
    }

    let port: Int
    /// The loopback address the server listens on.
    let host: String
    var baseURL: URL { URL(string: "http://\(host):\(port)")! }

    private let listener: Int32
    private let condition = NSCondition()
    private var events: [Event] = []
    private var requests: [ReceivedRequest] = []
    private var stopping = false
    private var runningThreads = 0
    private var activeRequests = 0
    private var mostActiveRequests = 0
    private var connections = 0
    /// The `/once/...` targets already cut.
    private var cutTargets: Set<String> = []
    /// Body bytes written per path by the routes that count them.
    private var sent: [String: Int] = [:]

    /// A server on `host` (a loopback address: `127.0.0.2` is a second host
    /// on the same machine, another origin for redirect tests).
    init(host: String = "127.0.0.1") throws {
        self.host = host
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr(host)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: actual.sin_port))
        startThread { [self] in acceptLoop() }
    }

    /// Stops accepting, ends the connection threads and waits for them.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while runningThreads > 0 {
            _ = condition.wait(until: Date().addingTimeInterval(0.05))
        }
        condition.unlock()
        close(listener)
    }

    /// The requests received so far.
    var receivedRequests: [ReceivedRequest] {
        condition.lock()
        defer { condition.unlock() }
        return requests
    }

    /// The connections open now (accepted, not closed yet).
    var openConnections: Int {
        condition.lock()
        defer { condition.unlock() }
        return connections
    }

    /// The body bytes written so far for `path` (routes that stream: `/flood`,
    /// `/gzip/zeros`).
    func bytesSent(_ path: String) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return sent[path] ?? 0
    }

    fileprivate func countSent(_ path: String, _ bytes: Int) {
        condition.lock()
        sent[path, default: 0] += bytes
        condition.unlock()
    }

    /// The most requests that were being answered at the same time.
    var maximumConcurrentRequests: Int {
        condition.lock()
        defer { condition.unlock() }
        return mostActiveRequests
    }

    /// Waits until no request is being answered, then starts counting
    /// ``maximumConcurrentRequests`` afresh; `false` after `timeout`.
    ///
    /// A request the client cancelled may still be counted here for a moment
    /// after the client closed its connection and gave its connection slot to
    /// the next request (the server notices the close only when it writes), so
    /// a test that cancels requests counts concurrency after them.
    func resetMaximumConcurrentRequests(timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while activeRequests > 0 {
            if !condition.wait(until: deadline) { return false }
        }
        mostActiveRequests = 0
        return true
    }

    /// Waits until `event` happened; `false` after `timeout`.
    func wait(for event: Event, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !events.contains(event) {
            if !condition.wait(until: deadline) { return events.contains(event) }
        }
        return true
    }

    /// `true` if `event` happened.
    func happened(_ event: Event) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return events.contains(event)
    }

    fileprivate func record(_ event: Event) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    private func startThread(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        runningThreads += 1
        condition.unlock()
        let thread = Thread { [self] in
            body()
            condition.lock()
            runningThreads -= 1
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    private func acceptLoop() {
        while !isStopping {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            condition.lock()
            connections += 1
            condition.unlock()
            startThread { [self] in
                handle(connection)
                close(connection)
                condition.lock()
                connections -= 1
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    // MARK: One connection

    private func handle(_ fd: Int32) {
        guard let request = readRequest(fd) else { return }
        condition.lock()
        requests.append(request)
        activeRequests += 1
        mostActiveRequests = max(mostActiveRequests, activeRequests)
        condition.unlock()
        // Active until the response is written (or the client left).
        var active = true
        func finished() {
            guard active else { return }
            active = false
            condition.lock()
            activeRequests -= 1
            condition.broadcast()
            condition.unlock()
        }
        defer { finished() }
        record(.received(request.path))
        var response = LoopbackHTTPServer.route(request)
        if request.path.hasPrefix("/once/") {
            condition.lock()
            if !cutTargets.insert(request.target).inserted { response.cut = nil }
            condition.unlock()
        }
        if response.delay > 0, !waitWatchingForClose(fd, seconds: response.delay) {
            record(.clientClosed(request.path))
            return
        }
        if response.cut == .beforeResponse {
            record(.answered(request.path))
            return
        }
        if let writer = response.writer {
            writer(Connection(server: self, fd: fd, request: request))
            return
        }
        var head = "HTTP/1.1 \(response.status) \(LoopbackHTTPServer.reason(response.status))\r\n"
        if !response.closeDelimited {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        head += "Connection: close\r\n"
        for (name, value) in response.headers {
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        var bytes = Data(head.utf8)
        if request.method != "HEAD" {
            bytes.append(response.cut == .midBody ? response.body.prefix(response.body.count / 2) : response.body)
        }
        if response.chunkDelay > 0 {
            // The head, then the body in 64 KiB pieces, watching for the client to leave.
            let headLength = bytes.count - (request.method != "HEAD" ? response.body.count : 0)
            var offset = 0
            while offset < bytes.count {
                let end = offset == 0 ? headLength : min(bytes.count, offset + 65_536)
                guard offset == 0 || waitWatchingForClose(fd, seconds: response.chunkDelay) else {
                    record(.clientClosed(request.path))
                    return
                }
                // No longer counted once the last piece is on its way: the client
                // may take the next request as soon as it has read it, maybe
                // before this thread runs again.
                if end == bytes.count { finished() }
                guard writeAll(fd, bytes.subdata(in: offset..<end)) else {
                    record(.clientClosed(request.path))
                    return
                }
                offset = end
            }
        } else {
            finished()  // likewise
            guard writeAll(fd, bytes) else {
                record(.clientClosed(request.path))
                return
            }
        }
        shutdown(fd, Int32(SHUT_WR))
        record(.answered(request.path))
        // Let the client read everything before the socket closes.
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var scratch = [UInt8](repeating: 0, count: 1024)
        for _ in 0..<20 where poll(&poller, 1, 50) > 0 {
            if recv(fd, &scratch, scratch.count, 0) <= 0 { break }
        }
    }

    /// Waits `seconds`; `false` if the client closed the connection first (or
    /// the server is stopping).
    fileprivate func waitWatchingForClose(_ fd: Int32, seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if isStopping { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let slice = Int32(max(1, min(20, deadline.timeIntervalSinceNow * 1000)))
            if poll(&poller, 1, slice) > 0 {
                var byte: UInt8 = 0
                let count = recv(fd, &byte, 1, Int32(MSG_PEEK))
                if count <= 0 { return false }
                // Unexpected extra bytes: ignore them.
                _ = recv(fd, &byte, 1, 0)
            }
        }
        return true
    }

    private func readRequest(_ fd: Int32) -> ReceivedRequest? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            guard readSome(fd, &chunk, into: &buffer) else { return nil }
            headerEnd = buffer.range(of: separator)
            if buffer.count > 1 << 20 { return nil }
        }
        guard let headerEnd, let head = String(data: buffer[..<headerEnd.lowerBound], encoding: .utf8) else { return nil }
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        var body = Data(buffer[headerEnd.upperBound...])
        let length = Int(headers["content-length"] ?? "0") ?? 0
        if headers["expect"]?.lowercased() == "100-continue", body.count < length {
            writeAll(fd, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while body.count < length {
            guard readSome(fd, &chunk, into: &body) else { return nil }
        }
        return ReceivedRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    /// Reads what is available (waiting up to 5 s); `false` on close, error or
    /// stop.
    private func readSome(_ fd: Int32, _ chunk: inout [UInt8], into buffer: inout Data) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && !isStopping {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 20) > 0 {
                let count = recv(fd, &chunk, chunk.count, 0)
                if count <= 0 { return false }
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
        }
        return false
    }

    /// Writes `data`; `false` if the client went away first.
    @discardableResult
    fileprivate func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
                #else
                let flags: Int32 = 0
                #endif
                let written = send(fd, raw.baseAddress! + offset, raw.count - offset, flags)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    // MARK: Routes

    static func route(_ request: ReceivedRequest) -> CannedResponse {
        let json = [("Content-Type", "application/json")]
        let segments = request.path.split(separator: "/")
        switch (request.method, segments.first.map(String.init) ?? "") {
        case ("GET", "hello"):
            return CannedResponse(status: 200, headers: json, body: Data(#"{"message":"hello","created_at":"2024-05-01T12:00:00Z"}"#.utf8))
        case (_, "echo"):
            let object: [String: Any] = [
                "method": request.method,
                "path": request.path,
                "query": request.query,
                "headers": request.headers,
                "body": String(decoding: request.body, as: UTF8.self),
            ]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return CannedResponse(status: 200, headers: json, body: data)
        case ("GET", "status") where segments.count == 2:
            let code = Int(segments[1]) ?? 500
            var headers = [("Content-Type", "text/plain")]
            if let retryAfter = query(request.query)["retry_after"] {
                headers.append(("Retry-After", retryAfter))
            }
            return CannedResponse(status: code, headers: headers, body: Data("status \(code)".utf8))
        case ("GET", "slow"):
            let milliseconds = Double(query(request.query)["ms"] ?? "1000") ?? 1000
            return CannedResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Data("slow".utf8), delay: milliseconds / 1000)
        case ("GET", "repos") where request.path == "/repos/octocat/hello":
            let body = #"{"id":1296269,"full_name":"octocat/hello","owner":{"login":"octocat","avatar_url":"https://avatars.example/u/583231"},"stargazers_count":80,"updated_at":"2024-05-01T12:00:00.250Z"}"#
            return CannedResponse(status: 200, headers: json, body: Data(body.utf8))
        case (_, "cut") where segments.count > 1 && segments[1] == "headers":
            // The connection closes in the middle of the header block:
            // FoundationNetworking's "Transfer completed, but there's no response".
            return CannedResponse(status: 200, writer: { connection in
                _ = connection.write("HTTP/1.1 200 OK\r\nContent-Le")
            })
        case (_, "cut") where segments.count > 1 && segments[1] == "chunked":
            // A chunk announced, then the connection closes in its middle.
            return CannedResponse(status: 200, writer: { connection in
                _ = connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nok")
            })
        case (_, "once") where segments.count == 2:
            // Cut the first time only (see `handle`).
            return CannedResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Data("ok".utf8), cut: segments[1] == "body" ? .midBody : .beforeResponse)
        case (_, "cut"):
            // `/cut/body`: half the promised body, then the connection closes;
            // `/cut/head`: closed before any response.
            let midBody = segments.count > 1 && segments[1] == "body"
            return CannedResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Data(repeating: UInt8(ascii: "x"), count: 1000), cut: midBody ? .midBody : .beforeResponse)
        case ("GET", "bytes"):
            // `n` bytes of `x`, after `ms` milliseconds; `length=none` sends no
            // Content-Length (the body ends at the close).
            let parameters = query(request.query)
            let count = Int(parameters["n"] ?? "0") ?? 0
            let milliseconds = Double(parameters["ms"] ?? "0") ?? 0
            return CannedResponse(
                status: Int(parameters["status"] ?? "200") ?? 200, headers: [("Content-Type", "text/plain")],
                body: Data(repeating: UInt8(ascii: "x"), count: count), delay: milliseconds / 1000,
                closeDelimited: parameters["length"] == "none", chunkDelay: (Double(parameters["drip_ms"] ?? "0") ?? 0) / 1000
            )
        case ("GET", "text"):
            return CannedResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Data("just text".utf8))
        case ("GET", "redirect"):
            let parameters = query(request.query)
            return CannedResponse(status: Int(parameters["status"] ?? "302") ?? 302, headers: [("Location", parameters["to"] ?? "/hello")])
        case ("GET", "loop"):
            return CannedResponse(status: 302, headers: [("Location", "/loop")])
        case ("GET", "garbage"):
            return CannedResponse(status: 200, writer: { connection in
                _ = connection.write("SSH-2.0-OpenSSH_9.2\r\nnot HTTP at all\r\n\r\n")
                _ = connection.wait(0.2)
            })
        case ("GET", "slowloris"):
            let milliseconds = Double(query(request.query)["ms"] ?? "5000") ?? 5000
            return CannedResponse(status: 200, writer: { connection in
                guard connection.write("HTTP/1.1 200 OK\r\n") else { return }
                var elapsed = 0.0
                while elapsed < milliseconds / 1000 {
                    guard connection.wait(0.1), connection.write("X-Slow: \(Int(elapsed * 1000))\r\n") else {
                        connection.server.record(.clientClosed(connection.request.path))
                        return
                    }
                    elapsed += 0.1
                }
            })
        case ("GET", "events"):
            return eventStream(request, contentType: segments.count > 1 && segments[1] == "json" ? "application/json" : "text/event-stream")
        case ("GET", "ndjson"):
            let parameters = query(request.query)
            let count = Int(parameters["n"] ?? "3") ?? 3
            let gap = (Double(parameters["interval_ms"] ?? "0") ?? 0) / 1000
            return CannedResponse(status: 200, writer: { connection in
                guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nConnection: close\r\n\r\n") else { return }
                for index in 1...max(1, count) {
                    guard gap == 0 || connection.wait(gap), connection.write("{\"n\":\(index)}\n") else { return }
                }
                connection.server.record(.answered(connection.request.path))
            })
        case ("GET", "malformed") where segments.count == 2:
            guard let raw = malformedResponses[String(segments[1])] else { break }
            return CannedResponse(status: 200, writer: { connection in
                _ = connection.write(raw)
                _ = connection.wait(0.3)
            })
        case ("GET", "storm"):
            let withEvent = query(request.query)["events"] != "0"
            return CannedResponse(status: 200, writer: { connection in
                _ = connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\nretry: 0\n" + (withEvent ? "data: x\n\n" : "\n"))
            })
        case ("GET", "gzip") where request.path == "/gzip/zeros":
            let body = gzippedZeros(Int(query(request.query)["n"] ?? "0") ?? 0)
            return CannedResponse(status: 200, writer: { connection in
                let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                guard connection.write(head) else { return }
                var offset = 0
                while offset < body.count {
                    let end = min(body.count, offset + 65_536)
                    guard connection.write(body.subdata(in: offset..<end)) else {
                        connection.server.record(.clientClosed(connection.request.path))
                        return
                    }
                    connection.server.countSent(connection.request.path, end - offset)
                    offset = end
                }
                connection.server.record(.answered(connection.request.path))
                _ = connection.wait(2)
            })
        case ("GET", "flood"):
            let parameters = query(request.query)
            let eventSize = Int(parameters["event"] ?? "1024") ?? 1024
            let total = Int(parameters["total"] ?? "") ?? Int.max
            let line = "data: " + String(repeating: "x", count: eventSize) + (parameters["blank"] == "0" ? "\n" : "\n\n")
            let lines = max(1, (256 << 10) / line.utf8.count)
            let piece = Data(String(repeating: line, count: lines).utf8)
            return CannedResponse(status: 200, writer: { connection in
                guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n") else { return }
                var written = 0
                while written < total {
                    guard connection.write(piece) else {
                        connection.server.record(.clientClosed(connection.request.path))
                        return
                    }
                    connection.server.countSent(connection.request.path, piece.count)
                    written += piece.count
                }
                connection.server.record(.answered(connection.request.path))
            })
        default:
            break
        }
        return CannedResponse(status: 404, headers: [("Content-Type", "text/plain")], body: Data("not found".utf8))
    }

    /// `/malformed/<fault>`: responses that break HTTP/1.1, each in one way
    /// (every transport reports them as `.badServerResponse`).
    static let malformedResponses: [String: String] = [
        "status-line": "HTTP/1.1 abc OK\r\nContent-Length: 2\r\n\r\nok",
        "status-code": "HTTP/1.1 2000 OK\r\nContent-Length: 2\r\n\r\nok",
        "version": "HTTP/9.9 200 OK\r\nContent-Length: 2\r\n\r\nok",
        "header-line": "HTTP/1.1 200 OK\r\nno colon here\r\nContent-Length: 2\r\n\r\nok",
        "header-nul": "HTTP/1.1 200 OK\r\nX-Name: a\u{0}z\r\nContent-Length: 2\r\n\r\nok",
        "header-block-1mb": "HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 1 << 20) + "\r\nContent-Length: 2\r\n\r\nok",
        // 5 000 fields of 68 bytes, 340 KB: over libcurl's 300 KiB and SwiftNIO's
        // 80 KiB. (100 000 short fields take FoundationNetworking 12 s of CPU
        // before libcurl's limit stops them: it copies its list of header lines
        // for each new one.)
        "header-fields-5000": "HTTP/1.1 200 OK\r\n"
            + (0..<5_000).map { "X-Field-\(String(100_000 + $0)): " + String(repeating: "v", count: 50) + "\r\n" }.joined()
            + "Content-Length: 2\r\n\r\nok",
        "content-length": "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nok",
        "chunk-size": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n",
        "chunk-size-overflow": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\nok\r\n0\r\n\r\n",
    ]

    private static let gzipLock = NSLock()
    nonisolated(unsafe) private static var gzipCache: [Int: Data] = [:]

    /// ``gzipOfZeros(_:)``, made once per size (under `gzipLock`).
    static func gzippedZeros(_ count: Int) -> Data {
        gzipLock.lock()
        defer { gzipLock.unlock() }
        if let cached = gzipCache[count] { return cached }
        let body = gzipOfZeros(count)
        gzipCache[count] = body
        return body
    }

    /// `/events`: see the type's documentation.
    static func eventStream(_ request: ReceivedRequest, contentType: String) -> CannedResponse {
        let parameters = query(request.query)
        let count = Int(parameters["count"] ?? "3") ?? 3
        let gap = (Double(parameters["interval_ms"] ?? "0") ?? 0) / 1000
        let dropAfter = Int(parameters["drop_after"] ?? "") ?? Int.max
        let padding = String(repeating: "x", count: Int(parameters["pad"] ?? "0") ?? 0)
        let first = (Int(request.headers["last-event-id"] ?? "0") ?? 0) + 1
        if first > count {
            return CannedResponse(status: 204)
        }
        return CannedResponse(status: 200, writer: { connection in
            var head = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n"
            if let retry = parameters["retry"] {
                head += ": a comment\nretry: \(retry)\n\n"
            }
            guard connection.write(head) else { return }
            var sent = 0
            for id in first...count {
                guard gap == 0 || connection.wait(gap), connection.write("id: \(id)\ndata: event \(id)\(padding)\n\n") else {
                    connection.server.record(.clientClosed(connection.request.path))
                    return
                }
                sent += 1
                if sent >= dropAfter && id < count {
                    // Dropped mid-stream: half an event, then the close.
                    _ = connection.write("data: never finished")
                    connection.server.record(.answered(connection.request.path))
                    return
                }
            }
            if parameters["hold"] == "1" {
                while connection.wait(0.05) {}
                connection.server.record(.clientClosed(connection.request.path))
                return
            }
            connection.server.record(.answered(connection.request.path))
        })
    }

    static func query(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            result[name] = value
        }
        return result
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
