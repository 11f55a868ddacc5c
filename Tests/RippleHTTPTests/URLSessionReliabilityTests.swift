import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import RippleHTTP
import RippleTest
import XCTest

/// `URLSessionHTTPClient`'s guarantees under cancellation, load and large
/// bodies, against a loopback server on 127.0.0.1.
final class URLSessionReliabilityTests: HTTPTestCase {
    var server: LoopbackHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try LoopbackHTTPServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    func url(_ path: String) -> URL {
        URL(string: "\(server.baseURL.absoluteString)\(path)")!
    }

    // MARK: Cancellation

    func testARequestDisposedBeforeItIsHandedToURLSessionIsNeverSent() throws {
        let client = URLSessionHTTPClient(configuration: .ephemeral)
        let session = Session(client: client)
        // Requests start on the client's own queue: held, every request below
        // is disposed before it is handed to URLSession.
        let control = try XCTUnwrap(client.deliveryQueue?.control)
        control.suspend()
        for _ in 0..<24 {
            client.get(url("/hello")).subscribe { _ in }.dispose()
        }
        for _ in 0..<8 {
            let request = ConfigurableRequest<Void>(baseURL: server.baseURL, path: "hello", convert: { _ in })
            session.response(for: request).subscribe { _ in }.dispose()
        }
        control.resume()
        _ = waitUntil(timeout: 0.5) { false }
        XCTAssertEqual(server.receivedRequests.count, 0, "disposed requests reached the server")
        // A request that is not disposed is sent.
        XCTAssertEqual(try outcome(of: client.get(url("/hello")))?.get().statusCode, 200)
        XCTAssertEqual(server.receivedRequests.count, 1)
    }

    func testARequestWaitingForAConnectionLeavesTheQueueWhenDisposed() throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 1
        let client = URLSessionHTTPClient(configuration: configuration)
        let first = Recorder<SingleEvent<HTTPResponse>>()
        let slow = client.get(url("/slow"), parameters: ["ms": 300]).subscribe { first.append($0) }
        XCTAssertTrue(server.wait(for: .received("/slow")))
        client.get(url("/hello")).subscribe { _ in }.dispose()     // waits behind /slow, then leaves
        let third = try XCTUnwrap(outcome(of: client.get(url("/text"))))
        XCTAssertEqual(try third.get().text, "just text")
        XCTAssertEqual(first.values.count, 1, "the slow request finished first: one connection at a time")
        XCTAssertEqual(server.receivedRequests.map(\.path), ["/slow", "/text"])
        slow.dispose()
    }

    // MARK: Timeouts and the connection limit

    func testASessionTimeoutDoesNotCountTheWaitForAConnection() {
        // 16 requests of 200 ms through 2 connections take 1.6 s; each gets 1 s.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 2
        let client = URLSessionHTTPClient(configuration: configuration)
        XCTAssertEqual(client.maximumConnectionsPerHost, 2)
        let session = Session(client: client, scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated), timeout: .seconds(1))
        let request = ConfigurableRequest<String>(baseURL: server.baseURL, path: "bytes", queryParameters: ["n": 2, "ms": 200], convert: \.text)
        let results = Recorder<Result<String, Error>>()
        let subscriptions = (0..<16).map { _ in session.response(for: request).subscribe { results.append($0) } }
        XCTAssertTrue(waitUntil(timeout: 15) { results.values.count == 16 })
        let failures = results.values.compactMap { result -> String? in
            if case .failure(let error) = result { return "\(error)" }
            return nil
        }
        XCTAssertEqual(failures, [], "requests timed out while they waited for a connection")
        XCTAssertEqual(server.receivedRequests.count, 16)
        XCTAssertLessThanOrEqual(server.maximumConcurrentRequests, 2)
        subscriptions.forEach { $0.dispose() }
    }

    func testATimeoutStillFiresForARequestThatStartedAndHangs() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 1
        let client = URLSessionHTTPClient(configuration: configuration)
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let started = Date()
        let error = httpError(outcome(of: client.send(URLRequest(url: url("/slow?ms=5000")), timeout: .milliseconds(300), scheduler: scheduler)))
        XCTAssertEqual(error?.urlError?.code, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertTrue(server.wait(for: .clientClosed("/slow")), "the timed-out request was cancelled")
    }

    // MARK: Body size

    func testABodyOverTheLimitFailsAndStopsTheTransfer() {
        let client = URLSessionHTTPClient(configuration: .ephemeral, maximumResponseBodySize: 100_000)
        // Announced by Content-Length (20 MB, sent over 3 s): stopped at the first bytes.
        let announced = httpError(outcome(of: client.get(url("/bytes"), parameters: ["n": 20_000_000, "drip_ms": 10])))
        XCTAssertEqual(announced?.kind, .responseTooLarge)
        XCTAssertEqual(announced?.description, "HTTP response body too large: more than 100000 bytes")
        XCTAssertTrue(server.wait(for: .clientClosed("/bytes")), "the client closed the connection mid-body")
        XCTAssertFalse(server.happened(.answered("/bytes")))
        // Without Content-Length: counted as it streams in.
        let streamed = httpError(outcome(of: client.get(url("/bytes"), parameters: ["n": 300_000, "length": "none", "drip_ms": 10])))
        XCTAssertEqual(streamed?.kind, .responseTooLarge)
        // At the limit: accepted.
        XCTAssertEqual(try outcome(of: client.get(url("/bytes"), parameters: ["n": 100_000]))?.get().data.count, 100_000)
        XCTAssertEqual(try outcome(of: client.get(url("/bytes"), parameters: ["n": 100_000, "length": "none"]))?.get().data.count, 100_000)
    }

    func testABodyOverTheLimitOnASessionPassedIn() {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let client = URLSessionHTTPClient(session: session, maximumResponseBodySize: 1_000)
        XCTAssertEqual(httpError(outcome(of: client.get(url("/bytes"), parameters: ["n": 1_001])))?.kind, .responseTooLarge)
        XCTAssertEqual(try outcome(of: client.get(url("/bytes"), parameters: ["n": 1_000]))?.get().data.count, 1_000)
    }

    func testAnErrorStatusKeepsOnlyAPrefixOfItsBody() {
        let session = Session(client: URLSessionHTTPClient(configuration: .ephemeral))
        let request = ConfigurableRequest<Void>(baseURL: server.baseURL, path: "bytes", queryParameters: ["n": 1_000_000, "status": 500], convert: { _ in })
        let error = httpError(outcome(of: session.response(for: request)))
        XCTAssertEqual(error?.statusCode, 500)
        XCTAssertEqual(error?.body?.count, HTTPError.maximumBodyPrefix)
    }
}

/// Thousands of requests disposed around the moment they complete. With a
/// `URLCache` on the session, FoundationNetworking crashed the process
/// ("Trying to access a behaviour for a task that in not in the registry") in
/// 8 runs of 8, after 150 to 2 150 requests; the test passes if the process
/// survives. Bounded: at most
/// 3 000 requests and 20 s, all to 127.0.0.1.
final class URLSessionStressTests: HTTPTestCase {
    func testDisposingRequestsAsTheyCompleteNeverCrashes() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let client = URLSessionHTTPClient(configuration: .ephemeral)
        let url = URL(string: "\(server.baseURL.absoluteString)/hello")!
        disposeAroundCompletion(client, url, seed: 7, name: "URLSessionStressTests")
        // The client still works.
        XCTAssertEqual(try outcome(of: client.get(url))?.get().statusCode, 200)
    }
}
