import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import RippleHTTP
@testable import RippleHTTPStreaming
import RippleTest
import XCTest

/// The transports Ripple ships.
enum TransportKind: String, CaseIterable, Sendable {
    case urlSession
    case asyncHTTPClient

    /// The kinds this build can test (`AsyncHTTPClientTransport` needs the
    /// package trait).
    static var available: [TransportKind] {
        #if AsyncHTTPClient
        return [.urlSession, .asyncHTTPClient]
        #else
        return [.urlSession]
        #endif
    }

    /// A transport of this kind.
    func make(maximumResponseBodySize: Int = URLSessionHTTPClient.defaultMaximumResponseBodySize, maximumConnectionsPerHost: Int = 6,
              redirectPolicy: RedirectPolicy = .default) -> any HTTPClient {
        switch self {
        case .urlSession:
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
            return URLSessionHTTPClient(configuration: configuration, maximumResponseBodySize: maximumResponseBodySize, redirectPolicy: redirectPolicy)
        case .asyncHTTPClient:
            #if AsyncHTTPClient
            return AsyncHTTPClientTransport(
                maximumResponseBodySize: maximumResponseBodySize, maximumConnectionsPerHost: maximumConnectionsPerHost, redirectPolicy: redirectPolicy)
            #else
            fatalError("AsyncHTTPClientTransport needs the AsyncHTTPClient trait")
            #endif
        }
    }
}

/// What every transport guarantees, each test run against each transport
/// (``TransportKind/available``: `URLSessionHTTPClient`, and
/// `AsyncHTTPClientTransport` with the package trait) and a new loopback
/// server: responses, errors as typed ``HTTPError``s for every broken server
/// the earlier rounds met, cancellation, connection limits, timeouts,
/// redirects, streaming, and Server-Sent Events and NDJSON on top. A failure
/// names the transport it happened on.
///
/// (One class looping over the transports rather than a subclass per
/// transport: XCTest on Linux does not run a superclass's test methods in a
/// subclass.)
final class TransportConformanceTests: HTTPTestCase {
    var server: LoopbackHTTPServer!
    /// The transport under test.
    var kind: TransportKind!

    /// Runs `body` once per transport, each time with a new loopback server.
    func forEachTransport(_ body: () throws -> Void) throws {
        for transport in TransportKind.available {
            kind = transport
            server = try LoopbackHTTPServer()
            defer {
                server.stop()
                server = nil
            }
            try body()
        }
        kind = nil
    }

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        let prefix = kind.map { "[\($0.rawValue)] " } ?? ""
        super.recordFailure(withDescription: prefix + description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

    func client(maximumResponseBodySize: Int = URLSessionHTTPClient.defaultMaximumResponseBodySize, maximumConnectionsPerHost: Int = 6,
                redirectPolicy: RedirectPolicy = .default) -> any HTTPClient {
        kind.make(maximumResponseBodySize: maximumResponseBodySize, maximumConnectionsPerHost: maximumConnectionsPerHost, redirectPolicy: redirectPolicy)
    }

    func url(_ path: String, on server: LoopbackHTTPServer? = nil) -> URL {
        URL(string: "\((server ?? self.server).baseURL.absoluteString)\(path)")!
    }

    func transportError(_ single: Single<HTTPResponse>, file: StaticString = #filePath, line: UInt = #line) -> URLError.Code? {
        let error = httpError(outcome(of: single, timeout: 10, file: file, line: line), file: file, line: line)
        XCTAssertEqual(error?.kind, .transport, "\(error.map { "\($0)" } ?? "no error")", file: file, line: line)
        return error?.urlError?.code
    }

    // MARK: Responses

    func testAGetDeliversTheStatusTheHeadersAndTheBody() throws {
        try forEachTransport {
            let response = try XCTUnwrap(outcome(of: client().get(url("/hello")))).get()
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(response.headers["content-type"], "application/json")
            XCTAssertEqual(response.text, #"{"message":"hello","created_at":"2024-05-01T12:00:00Z"}"#)
            XCTAssertEqual(response.url, url("/hello"))
        }
    }

    func testAPostSendsItsMethodHeadersAndBody() throws {
        try forEachTransport {
            let response = try XCTUnwrap(outcome(of: client().post(url("/echo?x=1"), parameters: ["name": "ripple"], encoding: .json, headers: ["X-Test": "yes"]))).get()
            let echo = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
            XCTAssertEqual(echo?["method"] as? String, "POST")
            XCTAssertEqual(echo?["query"] as? String, "x=1")
            XCTAssertEqual(echo?["body"] as? String, #"{"name":"ripple"}"#)
            XCTAssertEqual((echo?["headers"] as? [String: String])?["x-test"], "yes")
            XCTAssertEqual((echo?["headers"] as? [String: String])?["content-type"], "application/json")
        }
    }

    func testAnErrorStatusIsAResponseNotAFailure() throws {
        try forEachTransport {
            let response = try XCTUnwrap(outcome(of: client().get(url("/status/404")))).get()
            XCTAssertEqual(response.statusCode, 404)
            XCTAssertEqual(response.text, "status 404")
        }
    }

    // MARK: Broken servers: typed errors, never a crash

    func testARefusedConnectionIsCannotConnectToHost() throws {
        try forEachTransport {
            let closed = try LoopbackHTTPServer()
            let address = closed.baseURL
            closed.stop()
            XCTAssertEqual(transportError(client().get(address.appendingPathComponent("hello"))), .cannotConnectToHost)
        }
    }

    func testABodyCutShortIsALostConnection() throws {
        try forEachTransport {
            XCTAssertEqual(transportError(client().get(url("/cut/body"))), .networkConnectionLost)
        }
    }

    func testAConnectionClosedBeforeAnyResponseIsALostConnection() throws {
        try forEachTransport {
            XCTAssertEqual(transportError(client().get(url("/cut/head"))), .networkConnectionLost)
        }
    }

    /// The requests the server received for `target` (path and query).
    func received(_ target: String) -> Int {
        server.receivedRequests.filter { $0.target == target }.count
    }

    /// Whether the transport under test sends an idempotent request once
    /// more when its connection closes before any byte of the response.
    /// `AsyncHTTPClientTransport` does, whatever the connection.
    /// FoundationNetworking (libcurl) does only on a kept-alive connection it
    /// reused, never on a new one (these tests' server closes every
    /// connection): there it fails at once ("Empty reply from server").
    /// Darwin's URLSession is not pinned here.
    var resendsOnANewConnection: Bool? {
        switch kind {
        case .asyncHTTPClient: return true
        case .urlSession, .none:
            #if canImport(FoundationNetworking)
            return false
            #else
            return nil
            #endif
        }
    }

    func testAnIdempotentRequestIsSentOnceMoreWhenItsConnectionIsLostBeforeTheResponse() throws {
        try forEachTransport {
            guard let resends = resendsOnANewConnection else { return }
            for method in ["GET", "HEAD", "PUT", "DELETE"] {
                var request = URLRequest(url: url("/once/head?m=\(method)"))
                request.httpMethod = method
                let result = try XCTUnwrap(outcome(of: client().send(request), timeout: 10))
                if resends {
                    XCTAssertEqual(try result.get().statusCode, 200, method)
                    XCTAssertEqual(received("/once/head?m=\(method)"), 2, "\(method): sent, lost, sent again")
                } else {
                    XCTAssertEqual(httpError(result)?.urlError?.code, .networkConnectionLost, method)
                    XCTAssertEqual(received("/once/head?m=\(method)"), 1, method)
                }
            }
        }
    }

    func testARequestLostTwiceBeforeTheResponseFailsAfterOneResend() throws {
        try forEachTransport {
            guard let resends = resendsOnANewConnection else { return }
            XCTAssertEqual(transportError(client().get(url("/cut/head?twice"))), .networkConnectionLost)
            XCTAssertEqual(received("/cut/head?twice"), resends ? 2 : 1)
        }
    }

    func testAPostLostBeforeTheResponseIsNotSentAgain() throws {
        try forEachTransport {
            var request = URLRequest(url: url("/once/head?post"))
            request.httpMethod = "POST"
            request.httpBody = Data("x=1".utf8)
            XCTAssertEqual(transportError(client().send(request)), .networkConnectionLost)
            XCTAssertEqual(received("/once/head?post"), 1, "a POST is never repeated by the transport")
        }
    }

    func testARequestLostAfterTheResponseHeadIsNotSentAgain() throws {
        try forEachTransport {
            XCTAssertEqual(transportError(client().get(url("/once/body?get"))), .networkConnectionLost)
            XCTAssertEqual(received("/once/body?get"), 1, "the response had begun: no resend")
        }
    }

    func testAHeaderBlockCutShortIsALostConnection() throws {
        var tested = 0
        try forEachTransport {
            #if canImport(FoundationNetworking)
            // FoundationNetworking kills the process here ("Transfer completed,
            // but there's no response"): not testable in this process. That is
            // why Linux apps should use AsyncHTTPClientTransport for servers they
            // do not control (docs/Networking.md).
            if kind == .urlSession { return }
            #endif
            tested += 1
            XCTAssertEqual(transportError(client().get(url("/cut/headers"))), .networkConnectionLost)
        }
        if tested == 0 {
            throw XCTSkip("URLSessionHTTPClient on Linux crashes here (FoundationNetworking); build with --traits AsyncHTTPClient to test AsyncHTTPClientTransport")
        }
    }

    func testAnAnswerThatIsNotHTTPIsABadServerResponse() throws {
        try forEachTransport {
            XCTAssertEqual(transportError(client().get(url("/garbage"))), .badServerResponse)
        }
    }

    /// The one table (`TransportFault`, docs/Networking.md): whatever part of
    /// HTTP/1.1 a response breaks, every transport reports
    /// `.badServerResponse`. (FoundationNetworking said `-1002` for a status
    /// line and `-1` for the rest, which became `.networkConnectionLost`.)
    func testEveryResponseThatBreaksHTTPIsABadServerResponse() throws {
        try forEachTransport {
            let client = self.client()
            for fault in LoopbackHTTPServer.malformedResponses.keys.sorted() {
                let error = httpError(outcome(of: client.get(url("/malformed/\(fault)")), timeout: 10))
                XCTAssertEqual(error?.urlError?.code, .badServerResponse, "\(fault): \(error.map { "\($0)" } ?? "no error")")
            }
        }
    }

    func testAChunkCutShortIsALostConnection() throws {
        try forEachTransport {
            XCTAssertEqual(transportError(client().get(url("/cut/chunked"))), .networkConnectionLost)
        }
    }

    func testHeadersThatNeverEndAreCutByTheTimeout() throws {
        try forEachTransport {
            let session = Session(client: client(), scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated), timeout: .milliseconds(500))
            let request = ConfigurableRequest<Void>(baseURL: server.baseURL, path: "slowloris", queryParameters: ["ms": 5000], convert: { _ in })
            let started = Date()
            XCTAssertEqual(httpError(outcome(of: session.response(for: request), timeout: 10))?.urlError?.code, .timedOut)
            XCTAssertLessThan(Date().timeIntervalSince(started), 3)
            XCTAssertTrue(server.wait(for: .clientClosed("/slowloris")), "the connection was closed")
        }
    }

    func testARedirectLoopEndsWithTooManyRedirects() throws {
        try forEachTransport {
            XCTAssertEqual(transportError(client(redirectPolicy: RedirectPolicy(maximumRedirects: 4)).get(url("/loop"))), .httpTooManyRedirects)
            XCTAssertEqual(server.receivedRequests.count, 5, "the first request and 4 redirects")
        }
    }

    func testAHundredMegabyteBodyStopsAtTheLimit() throws {
        try forEachTransport {
            let client = self.client(maximumResponseBodySize: 1_000_000)
            // Announced by Content-Length: stopped at the head. (The body comes in
            // 64 KiB pieces, so that the server notices the close between two.)
            let announced = httpError(outcome(of: client.get(url("/bytes"), parameters: ["n": 100_000_000, "drip_ms": 10]), timeout: 20))
            XCTAssertEqual(announced?.kind, .responseTooLarge)
            XCTAssertTrue(server.wait(for: .clientClosed("/bytes"), timeout: 10), "the client closed the connection")
            XCTAssertFalse(server.happened(.answered("/bytes")))
            // Not announced: counted as it streams in, stopped past the limit.
            let streamed = httpError(outcome(of: client.get(url("/bytes"), parameters: ["n": 100_000_000, "length": "none", "drip_ms": 1]), timeout: 20))
            XCTAssertEqual(streamed?.kind, .responseTooLarge)
            XCTAssertFalse(server.happened(.answered("/bytes")), "the 100 MB were not all sent")
            // At the limit: accepted.
            XCTAssertEqual(try outcome(of: client.get(url("/bytes"), parameters: ["n": 1_000_000, "length": "none"]))?.get().data.count, 1_000_000)
        }
    }

    // MARK: Memory: what a server sends is not piled up

    func skipUnlessResidentMemoryIsReported() throws {
        guard ResidentMemory.isAvailable else { throw XCTSkip("resident memory is read from /proc/self/status (Linux)") }
    }

    /// 128 MiB of zeros in 0.8 MB of gzip, a 1 MiB limit: the issue's 1 GiB
    /// bomb took 1.15 GB resident on `URLSessionHTTPClient` (the body piled
    /// up on the delegate queue behind a `cancel()` that waited for
    /// FoundationNetworking), 66 MB on `AsyncHTTPClientTransport`.
    func testAGzipBombFailsAtTheLimitWithoutBeingInflatedIntoMemory() throws {
        try skipUnlessResidentMemoryIsReported()
        try forEachTransport {
            let client = self.client(maximumResponseBodySize: 1 << 20, maximumConnectionsPerHost: 1)
            let inflated = 128 << 20
            _ = LoopbackHTTPServer.gzippedZeros(inflated)   // made before the measurement
            let started = Date()
            var failedAfter: TimeInterval = 0
            let measured = try ResidentMemory.measurePeak { () -> HTTPError? in
                let error = httpError(outcome(of: client.get(url("/gzip/zeros?n=\(inflated)")), timeout: 60))
                failedAfter = Date().timeIntervalSince(started)
                // The transfer is over (its connection slot free again) when the next request gets through.
                XCTAssertEqual(try outcome(of: client.get(url("/hello")), timeout: 60)?.get().statusCode, 200)
                return error
            }
            let growth = measured.growth ?? 0
            print("[\(kind.rawValue)] gzip bomb (128 MiB in \(LoopbackHTTPServer.gzippedZeros(inflated).count) bytes), limit 1 MiB: "
                + "failed after \(String(format: "%.2f", failedAfter)) s, transfer over after \(String(format: "%.2f", Date().timeIntervalSince(started))) s, "
                + "peak +\(growth >> 20) MiB resident")
            XCTAssertEqual(measured.result?.kind, .responseTooLarge)
            XCTAssertLessThan(growth, (32 << 20) * ResidentMemory.overhead, "resident memory grew by \(growth >> 20) MiB for a 1 MiB limit")
            XCTAssertLessThan(failedAfter, 5, "the error comes when the limit is passed")
        }
    }

    /// 64 KiB events as fast as the socket takes them, a consumer that takes
    /// 5 ms for each (12.5 MiB/s), for 2 s, then a dispose. The issue: the
    /// reading went on at full speed on `URLSessionHTTPClient` and piled the
    /// body up (191–908 MB), still growing after the dispose; here, on
    /// 98dd2ee, +540 MiB with 250 MiB sent.
    ///
    /// After the dispose, `AsyncHTTPClientTransport` closes the connection
    /// at once; FoundationNetworking carries out the cancel when its work
    /// queue is free, which it is not while the server sends faster than it
    /// reads: over loopback it reads the rest of the body (and drops it),
    /// within the same memory bound.
    func testASlowConsumerSlowsTheReadingInsteadOfFillingMemory() throws {
        try skipUnlessResidentMemoryIsReported()
        try forEachTransport {
            let session = Session(client: client(maximumConnectionsPerHost: 1))
            let consumed = Recorder<Int>()
            var closedAfter: TimeInterval?
            var overAfter: TimeInterval = 0
            let measured = try ResidentMemory.measurePeak { () -> Int in
                let subscription = session.events(for: URLRequest(url: url("/flood?event=65536&total=\(96 << 20)")), options: EventStreamOptions(reconnects: false))
                    .subscribe(onNext: { event in
                        usleep(5_000)
                        consumed.append(event.data.utf8.count)
                    })
                _ = waitUntil(timeout: 2) { false }
                let sent = server.bytesSent("/flood")
                let disposed = Date()
                subscription.dispose()
                if server.wait(for: .clientClosed("/flood"), timeout: kind == .urlSession ? 0.5 : 10) {
                    closedAfter = Date().timeIntervalSince(disposed)
                }
                // The transfer is over (its connection slot free again) when the next request gets through.
                XCTAssertEqual(try outcome(of: session.client.get(url("/hello")), timeout: 60)?.get().statusCode, 200)
                overAfter = Date().timeIntervalSince(disposed)
                return sent
            }
            let growth = measured.growth ?? 0
            let consumedBytes = consumed.values.reduce(0, +)
            print("[\(kind.rawValue)] slow consumer for 2 s: consumed \(consumedBytes >> 20) MiB, the server had sent \(measured.result >> 20) MiB, "
                + "peak +\(growth >> 20) MiB resident; after the dispose: connection closed \(closedAfter.map { String(format: "%.2f s", $0) } ?? "by the server") "
                + "(\(server.bytesSent("/flood") >> 20) MiB sent), transfer over after \(String(format: "%.2f", overAfter)) s")
            XCTAssertLessThan(growth, (48 << 20) * ResidentMemory.overhead, "resident memory grew by \(growth >> 20) MiB")
            XCTAssertLessThan(measured.result, consumedBytes + (48 << 20), "the server was not held back")
            if kind == .asyncHTTPClient {
                XCTAssertNotNil(closedAfter, "the server saw the connection close")
            }
        }
    }

    /// One event that never ends: `data:` lines of just under 1 MiB, no blank
    /// line, a 256 MiB body sent as fast as the socket takes it.
    /// `eventTooLarge` at 8 MiB, and what follows is not kept (the issue:
    /// 191–908 MB resident, still growing after the error).
    ///
    /// `AsyncHTTPClientTransport` closes the connection at once.
    /// FoundationNetworking carries out the cancel only when its work queue
    /// is free, which it is not while the data comes faster than it reads
    /// it: over loopback, from a server that writes as fast as it can, it
    /// reads the rest of the body (and drops it) first.
    func testAnEventOverTheSizeLimitEndsTheStreamWithoutFillingMemory() throws {
        try skipUnlessResidentMemoryIsReported()
        try forEachTransport {
            let session = Session(client: client(maximumConnectionsPerHost: 1))
            let errors = Recorder<Error>()
            var closedAfter: TimeInterval?
            var overAfter: TimeInterval = 0
            let measured = try ResidentMemory.measurePeak { () -> Void in
                let subscription = session.events(
                    for: URLRequest(url: url("/flood?event=\((1 << 20) - 64)&blank=0&total=\(256 << 20)")), options: EventStreamOptions(reconnects: false)
                ).subscribe(onError: { errors.append($0) })
                defer { subscription.dispose() }
                guard waitUntil(timeout: 20, { !errors.values.isEmpty }) else { return XCTFail("no error") }
                let failed = Date()
                if server.wait(for: .clientClosed("/flood"), timeout: kind == .urlSession ? 1 : 10) {
                    closedAfter = Date().timeIntervalSince(failed)
                }
                // The transfer is over (its connection slot free again) when the next request gets through.
                XCTAssertEqual(try outcome(of: session.client.get(url("/hello")), timeout: 60)?.get().statusCode, 200)
                overAfter = Date().timeIntervalSince(failed)
            }
            let growth = measured.growth ?? 0
            print("[\(kind.rawValue)] endless event: \(errors.values.first.map { "\($0)" } ?? "no error"), the server sent \(server.bytesSent("/flood") >> 20) MiB, "
                + "peak +\(growth >> 20) MiB resident, connection closed \(closedAfter.map { String(format: "%.2f s", $0) } ?? "by the server") after the error, "
                + "transfer over after \(String(format: "%.2f", overAfter)) s")
            XCTAssertEqual(errors.values.first as? EventStreamError, .eventTooLarge(limit: 8 << 20))
            XCTAssertLessThan(growth, (64 << 20) * ResidentMemory.overhead, "resident memory grew by \(growth >> 20) MiB")
            if kind == .asyncHTTPClient {
                XCTAssertNotNil(closedAfter, "the server saw the connection close")
            }
        }
    }

    func testAThousandConcurrentRequestsAllSucceedWithinTheConnectionLimit() throws {
        try forEachTransport {
            let client = self.client(maximumConnectionsPerHost: 6)
            let results = Recorder<Int>()
            let subscriptions = (0..<1000).map { _ in
                client.get(url("/hello")).subscribe { results.append((try? $0.get().statusCode) ?? -1) }
            }
            XCTAssertTrue(waitUntil(timeout: 60) { results.values.count == 1000 }, "\(results.values.count) of 1000")
            XCTAssertEqual(results.values.filter { $0 != 200 }, [])
            XCTAssertLessThanOrEqual(server.maximumConcurrentRequests, 6)
            subscriptions.forEach { $0.dispose() }
        }
    }

    // MARK: Cancellation and the connection limit

    func testARequestDisposedWhileWaitingForAConnectionIsNeverSent() throws {
        try forEachTransport {
            let client = self.client(maximumConnectionsPerHost: 1)
            let first = Recorder<Int>()
            let slow = client.get(url("/slow"), parameters: ["ms": 300]).subscribe { first.append((try? $0.get().statusCode) ?? -1) }
            XCTAssertTrue(server.wait(for: .received("/slow")))
            client.get(url("/hello")).subscribe { _ in }.dispose()
            XCTAssertEqual(try outcome(of: client.get(url("/text")))?.get().text, "just text")
            XCTAssertEqual(first.values, [200])
            XCTAssertEqual(server.receivedRequests.map(\.path), ["/slow", "/text"])
            slow.dispose()
        }
    }

    func testWhenStartedComesWhenTheRequestIsHandedOver() throws {
        try forEachTransport {
            let client = self.client(maximumConnectionsPerHost: 1)
            let starts = Recorder<String>()
            let slow = client.send(URLRequest(url: url("/slow?ms=300")), whenStarted: { starts.append("slow") }).subscribe { _ in }
            XCTAssertTrue(waitUntil { starts.values == ["slow"] })
            let queued = client.send(URLRequest(url: url("/hello")), whenStarted: { starts.append("hello") }).subscribe { _ in }
            XCTAssertFalse(waitUntil(timeout: 0.1) { starts.values.count == 2 }, "started while the only connection was busy")
            XCTAssertTrue(waitUntil { starts.values == ["slow", "hello"] })
            // Disposed before its turn: never started.
            let blocker = client.get(url("/slow?ms=300")).subscribe { _ in }
            client.send(URLRequest(url: url("/text")), whenStarted: { starts.append("text") }).subscribe { _ in }.dispose()
            _ = waitUntil(timeout: 0.6) { false }
            XCTAssertFalse(starts.values.contains("text"))
            [slow, queued, blocker].forEach { $0.dispose() }
        }
    }

    func testASessionTimeoutDoesNotCountTheWaitForAConnection() throws {
        try forEachTransport {
            let session = Session(client: client(maximumConnectionsPerHost: 2), scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated), timeout: .seconds(1))
            let request = ConfigurableRequest<String>(baseURL: server.baseURL, path: "bytes", queryParameters: ["n": 2, "ms": 200], convert: \.text)
            let results = Recorder<Result<String, Error>>()
            let subscriptions = (0..<16).map { _ in session.response(for: request).subscribe { results.append($0) } }
            XCTAssertTrue(waitUntil(timeout: 15) { results.values.count == 16 })
            XCTAssertEqual(results.values.compactMap { result -> String? in
                if case .failure(let error) = result { return "\(error)" }
                return nil
            }, [])
            XCTAssertLessThanOrEqual(server.maximumConcurrentRequests, 2)
            subscriptions.forEach { $0.dispose() }
        }
    }

    func testATimedRequestFailsWhenNoConnectionComesFreeWithinItsTimeout() throws {
        try forEachTransport {
            let client = self.client(maximumConnectionsPerHost: 1)
            // The only connection is held for 5 s (as an open stream holds
            // one for as long as it runs) by a request without a timeout.
            let holder = client.get(url("/slow?ms=5000")).subscribe { _ in }
            XCTAssertTrue(server.wait(for: .received("/slow")))
            let session = Session(client: client, scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated), timeout: .milliseconds(500))
            let request = ConfigurableRequest<String>(baseURL: server.baseURL, path: "text", convert: \.text)
            let asked = Date()
            let error = httpError(outcome(of: session.response(for: request), timeout: 4))
            let waited = Date().timeIntervalSince(asked)
            guard case .transport(let cause)? = error else { return XCTFail("\(String(describing: error))") }
            XCTAssertEqual(cause.code, .timedOut)
            XCTAssertGreaterThanOrEqual(waited, 0.45)
            XCTAssertLessThan(waited, 3, "failed after one timeout without a free connection, not when the holder ended")
            XCTAssertFalse(server.receivedRequests.map(\.path).contains("/text"), "never sent")
            holder.dispose()
            // The queue moves again: the same request goes through.
            XCTAssertEqual(try outcome(of: session.response(for: request))?.get(), "just text")
        }
    }

    func testDisposingARunningRequestClosesItsConnection() throws {
        try forEachTransport {
            let delivered = Recorder<Int>()
            let subscription = client().get(url("/slow?ms=3000")).subscribe { _ in delivered.append(1) }
            XCTAssertTrue(server.wait(for: .received("/slow")))
            subscription.dispose()
            XCTAssertTrue(server.wait(for: .clientClosed("/slow")), "the server saw the connection close")
            XCTAssertEqual(delivered.values, [])
        }
    }

    func testTheRequestsTimeoutIntervalLimitsSilence() throws {
        try forEachTransport {
            var request = URLRequest(url: url("/slow?ms=5000"))
            request.timeoutInterval = 1
            let started = Date()
            XCTAssertEqual(transportError(client().send(request)), .timedOut)
            XCTAssertLessThan(Date().timeIntervalSince(started), 4)
        }
    }

    // MARK: Redirects

    func testCredentialsNeverFollowARedirectToAnotherHost() throws {
        try forEachTransport {
            let other = try LoopbackHTTPServer(host: "127.0.0.2")
            defer { other.stop() }
            var policy = RedirectPolicy.default
            policy.sensitiveHeaders = ["X-Api-Key"]
            let client = self.client(redirectPolicy: policy)
            let headers: HTTPHeaders = ["Authorization": "Bearer secret", "Cookie": "session=1", "X-Api-Key": "k", "Accept": "application/json"]
            // To another origin (127.0.0.2): the credentials stay behind.
            let away = try XCTUnwrap(outcome(of: client.get(url("/redirect"), parameters: ["to": url("/echo", on: other).absoluteString], headers: headers))).get()
            XCTAssertEqual(away.url, url("/echo", on: other))
            let arrived = try XCTUnwrap(other.receivedRequests.first?.headers)
            XCTAssertNil(arrived["authorization"])
            XCTAssertNil(arrived["cookie"])
            XCTAssertNil(arrived["x-api-key"])
            XCTAssertEqual(arrived["accept"], "application/json")
            // On the same origin: they follow.
            _ = try XCTUnwrap(outcome(of: client.get(url("/redirect"), parameters: ["to": "/echo"], headers: headers))).get()
            let stayed = try XCTUnwrap(server.receivedRequests.last { $0.path == "/echo" }?.headers)
            XCTAssertEqual(stayed["authorization"], "Bearer secret")
            XCTAssertEqual(stayed["cookie"], "session=1")
            XCTAssertEqual(stayed["x-api-key"], "k")
        }
    }

    func testANeverPolicyDeliversTheRedirect() throws {
        try forEachTransport {
            let response = try XCTUnwrap(outcome(of: client(redirectPolicy: .never).get(url("/redirect"), parameters: ["to": "/hello", "status": 307]))).get()
            XCTAssertEqual(response.statusCode, 307)
            XCTAssertEqual(response.headers["location"], "/hello")
            XCTAssertEqual(server.receivedRequests.map(\.path), ["/redirect"])
        }
    }

    // MARK: Streaming

    func testAStreamDeliversTheBodyAsItArrives() throws {
        try forEachTransport {
            let parts = Recorder<HTTPResponsePart>()
            let done = Recorder<Bool>()
            let subscription = client().stream(URLRequest(url: url("/events?count=3&interval_ms=400")))
                .subscribe(onNext: { parts.append($0) }, onError: { _ in done.append(false) }, onCompleted: { done.append(true) })
            defer { subscription.dispose() }
            XCTAssertTrue(waitUntil { parts.values.compactMap(\.body).contains { String(decoding: $0, as: UTF8.self).contains("event 1") } })
            XCTAssertFalse(server.happened(.answered("/events")), "the first event arrived before the server finished")
            XCTAssertEqual(parts.values.first?.head?.statusCode, 200)
            XCTAssertTrue(waitUntil { done.values == [true] })
            let body = parts.values.compactMap(\.body).reduce(Data(), +)
            XCTAssertEqual(String(decoding: body, as: UTF8.self), "id: 1\ndata: event 1\n\nid: 2\ndata: event 2\n\nid: 3\ndata: event 3\n\n")
        }
    }

    func testServerSentEventsReconnectWithTheLastEventID() throws {
        try forEachTransport {
            let session = Session(client: client(), scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
            let events = Recorder<ServerSentEvent>()
            let completed = Recorder<Bool>()
            // `retry: 50` (below the default floor of 0.5 s, lowered here to keep the test short).
            let options = EventStreamOptions(minimumReconnectionTime: .milliseconds(50))
            let subscription = session.events(for: URLRequest(url: url("/events?count=5&drop_after=2&retry=50")), options: options)
                .subscribe(onNext: { events.append($0) }, onError: { _ in completed.append(false) }, onCompleted: { completed.append(true) })
            defer { subscription.dispose() }
            XCTAssertTrue(waitUntil(timeout: 10) { !completed.values.isEmpty })
            XCTAssertEqual(completed.values, [true], "204 once every event was delivered")
            XCTAssertEqual(events.values.map(\.data), (1...5).map { "event \($0)" })
            XCTAssertEqual(events.values.map(\.id), (1...5).map { "\($0)" })
            XCTAssertEqual(events.values.first?.retry, 50)
            XCTAssertEqual(server.receivedRequests.map { $0.headers["last-event-id"] }, [nil, "2", "4", "5"])
            XCTAssertEqual(server.receivedRequests.first?.headers["accept"], "text/event-stream")
        }
    }

    /// The issue's server: `retry: 0`, then it closes. Without a floor both
    /// transports came back at once: 2 400 to 9 300 connections in 3 to 6 s
    /// (on 98dd2ee here, in these 1.6 s: 293 and 306 connections on
    /// `URLSessionHTTPClient`, 213 and 214 on `AsyncHTTPClientTransport`).
    /// Now: one connection per 0.5 s while each brings an event, and fewer
    /// and fewer while they bring nothing.
    func testAServerThatAsksForNoWaitAndClosesIsNotHammered() throws {
        try forEachTransport {
            let session = Session(client: client(), scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
            let events = Recorder<String>()
            let withEvents = session.events(for: URLRequest(url: url("/storm?events=1"))).subscribe(onNext: { events.append($0.data) })
            let empty = session.events(for: URLRequest(url: url("/storm?events=0"))).subscribe { _ in }
            _ = waitUntil(timeout: 1.6) { false }
            withEvents.dispose()
            empty.dispose()
            let connections = (received("/storm?events=1"), received("/storm?events=0"))
            print("[\(kind.rawValue)] retry: 0 for 1.6 s: \(connections.0) connections with an event each, \(connections.1) without")
            // At 0, 0.5, 1.0 and 1.5 s.
            XCTAssertTrue((3...5).contains(connections.0), "\(connections.0) connections")
            XCTAssertGreaterThanOrEqual(events.values.count, connections.0 - 1)
            // At 0, then after 0.5–1 s, then 1–2 s more.
            XCTAssertTrue((2...3).contains(connections.1), "\(connections.1) connections")
        }
    }

    func testServerSentEventsArriveWhenTheirBlankLineDoes() throws {
        try forEachTransport {
            let session = Session(client: client())
            let events = Recorder<String>()
            let subscription = session.events(for: URLRequest(url: url("/events?count=2&interval_ms=500&hold=1")))
                .subscribe(onNext: { events.append($0.data) })
            defer { subscription.dispose() }
            XCTAssertTrue(waitUntil { events.values == ["event 1"] })
            XCTAssertTrue(waitUntil { events.values == ["event 1", "event 2"] })
        }
    }

    func testDisposingAnEventStreamClosesTheConnection() throws {
        try forEachTransport {
            let session = Session(client: client())
            let events = Recorder<String>()
            let subscription = session.events(for: URLRequest(url: url("/events?count=1&hold=1"))).subscribe(onNext: { events.append($0.data) })
            XCTAssertTrue(waitUntil { events.values == ["event 1"] })
            XCTAssertFalse(server.happened(.clientClosed("/events")))
            subscription.dispose()
            XCTAssertTrue(server.wait(for: .clientClosed("/events")), "the server saw the connection close")
            XCTAssertEqual(server.receivedRequests.count, 1, "no reconnection")
        }
    }

    func testAResponseThatIsNotAnEventStreamFails() throws {
        try forEachTransport {
            let session = Session(client: client())
            let errors = Recorder<String>()
            let subscription = session.events(for: URLRequest(url: url("/events/json"))).subscribe(onError: { errors.append("\($0)") })
            defer { subscription.dispose() }
            XCTAssertTrue(waitUntil { errors.values == ["Not an event stream: Content-Type 'application/json' instead of 'text/event-stream'"] })
        }
    }

    func testLinesOfJSONAreDecodedAsTheyArrive() throws {
        try forEachTransport {
            struct Number: Decodable, Equatable { let n: Int }
            let session = Session(client: client())
            let numbers = Recorder<Int>()
            let completed = Recorder<Bool>()
            // `jsonLines` decodes each line with the request's decoder (`convert` is for whole bodies).
            let request = ConfigurableRequest<Number>(baseURL: server.baseURL, path: "ndjson", queryParameters: ["n": 4, "interval_ms": 20], convert: { _ in Number(n: 0) })
            let subscription = session.jsonLines(for: request)
                .subscribe(onNext: { numbers.append($0.n) }, onCompleted: { completed.append(true) })
            defer { subscription.dispose() }
            XCTAssertTrue(waitUntil { completed.values == [true] })
            XCTAssertEqual(numbers.values, [1, 2, 3, 4])
        }
    }
}
