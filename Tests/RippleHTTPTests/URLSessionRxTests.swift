import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import RippleHTTP
import RippleTest
import XCTest

/// RxCocoa's `URLSession.rx` extensions (`response`, `data`, `json`), end to end
/// against a loopback server, with RxCocoa's errors.
final class URLSessionRxTests: HTTPTestCase {
    var server: LoopbackHTTPServer!
    var session: URLSession!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try LoopbackHTTPServer()
        // No URLCache: on Linux, cancelling a task of a session with one can
        // stop the process (see URLSessionHTTPClient).
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 10
        session = URLSession(configuration: configuration)
    }

    override func tearDown() {
        session?.finishTasksAndInvalidate()
        session = nil
        server?.stop()
        server = nil
        super.tearDown()
    }

    private func request(_ path: String) -> URLRequest {
        URLRequest(url: URL(string: "\(server.baseURL.absoluteString)\(path)")!)
    }

    /// The events of `observable`, once it terminated (the test fails after 5 s).
    private func events<Element>(_ observable: Observable<Element>, file: StaticString = #filePath, line: UInt = #line) -> [Event<Element>] {
        let recorder = Recorder<Event<Element>>()
        let subscription = observable.subscribe { recorder.append($0) }
        defer { subscription.dispose() }
        if !waitUntil({ recorder.values.last?.isStopEvent == true }) {
            XCTFail("no terminal event within 5 s", file: file, line: line)
        }
        return recorder.values
    }

    func testResponseSendsTheResponseAndBodyThenCompletes() throws {
        let received = events(session.rx.response(request: request("/hello")))
        XCTAssertEqual(received.count, 2)
        let (response, data) = try XCTUnwrap(received.first?.element)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"message":"hello","created_at":"2024-05-01T12:00:00Z"}"#)
        XCTAssertTrue(received.last?.isCompleted == true)
    }

    func testResponseSucceedsWhateverTheStatusCode() throws {
        let received = events(session.rx.response(request: request("/status/404")))
        let (response, data) = try XCTUnwrap(received.first?.element)
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "status 404")
    }

    func testEachSubscriptionSendsTheRequest() {
        let response = session.rx.response(request: request("/hello"))
        XCTAssertEqual(server.receivedRequests.count, 0, "nothing is sent before a subscription")
        _ = events(response)
        _ = events(response)
        XCTAssertEqual(server.receivedRequests.count, 2)
    }

    func testDataSucceedsWithTheBodyOfA2xxResponse() {
        let received = events(session.rx.data(request: request("/text")))
        XCTAssertEqual(received.first?.element.map { String(decoding: $0, as: UTF8.self) }, "just text")
        XCTAssertTrue(received.last?.isCompleted == true)
    }

    func testDataFailsWithHTTPRequestFailedForAnotherStatus() throws {
        let received = events(session.rx.data(request: request("/status/503")))
        XCTAssertEqual(received.count, 1)
        let error = try XCTUnwrap(received.first?.error as? RxCocoaURLError)
        guard case .httpRequestFailed(let response, let data) = error else {
            return XCTFail("\(error)")
        }
        XCTAssertEqual(response.statusCode, 503)
        XCTAssertEqual(data.map { String(decoding: $0, as: UTF8.self) }, "status 503")
        XCTAssertEqual(error.debugDescription, "HTTP request failed with `503`.")
    }

    func testJSONParsesTheBody() throws {
        let received = events(session.rx.json(request: request("/hello")))
        let object = try XCTUnwrap(received.first?.element as? [String: Any])
        XCTAssertEqual(object["message"] as? String, "hello")
        XCTAssertTrue(received.last?.isCompleted == true)

        let byURL = events(session.rx.json(url: request("/hello").url!))
        XCTAssertEqual((byURL.first?.element as? [String: Any])?["message"] as? String, "hello")
    }

    func testJSONFailsWithDeserializationErrorForABodyThatIsNotJSON() throws {
        let received = events(session.rx.json(request: request("/text")))
        let error = try XCTUnwrap(received.first?.error as? RxCocoaURLError)
        guard case .deserializationError = error else { return XCTFail("\(error)") }
        XCTAssertTrue(error.debugDescription.hasPrefix("Error during deserialization of the response: "))
    }

    func testJSONFailsWithHTTPRequestFailedBeforeParsing() throws {
        let received = events(session.rx.json(request: request("/status/404")))
        let error = try XCTUnwrap(received.first?.error as? RxCocoaURLError)
        guard case .httpRequestFailed(let response, _) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(response.statusCode, 404)
    }

    func testATransportFailureIsURLSessionsOwnError() throws {
        // Nothing listens on the stopped server's port.
        let url = request("/hello").url!
        server.stop()
        server = nil
        let received = events(session.rx.response(request: URLRequest(url: url)))
        XCTAssertEqual(received.count, 1)
        let error = try XCTUnwrap(received.first?.error)
        XCTAssertFalse(error is RxCocoaURLError, "\(error)")
        XCTAssertEqual((error as NSError).domain, NSURLErrorDomain)
    }

    func testDisposingCancelsTheRequest() {
        let recorder = Recorder<Event<Data>>()
        let subscription = session.rx.data(request: request("/slow?ms=3000")).subscribe { recorder.append($0) }
        XCTAssertTrue(server.wait(for: .received("/slow")))
        subscription.dispose()
        XCTAssertTrue(server.wait(for: .clientClosed("/slow")), "the connection is closed")
        XCTAssertEqual(recorder.values.count, 0, "nothing is delivered after dispose")
    }

    func testOutcomeReadsTheCompletionHandlerAsRxCocoaDoes() throws {
        let url = URL(string: "http://example.com")!
        let ok = try XCTUnwrap(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil))
        let plain = URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)

        guard case .failure(let unknown) = Reactive<URLSession>.outcome(data: nil, response: nil, error: nil),
              case .unknown? = unknown as? RxCocoaURLError
        else { return XCTFail("neither a response nor an error is .unknown") }
        guard case .failure(let nonHTTP) = Reactive<URLSession>.outcome(data: Data(), response: plain, error: nil),
              case .nonHTTPResponse? = nonHTTP as? RxCocoaURLError
        else { return XCTFail("a response that is not HTTP is .nonHTTPResponse") }
        guard case .success(let pair) = Reactive<URLSession>.outcome(data: Data("x".utf8), response: ok, error: nil) else {
            return XCTFail("an HTTP response with a body succeeds")
        }
        XCTAssertEqual(pair.response.statusCode, 200)
        XCTAssertEqual(RxCocoaURLError.unknown.debugDescription, "Unknown error has occurred.")
    }

    func testShouldLogRequestIsOffByDefaultAndCanBeSet() {
        XCTAssertFalse(URLSession.rx.shouldLogRequest(request("/hello")))
        let previous = URLSession.rx.shouldLogRequest
        defer { URLSession.rx.shouldLogRequest = previous }
        URLSession.rx.shouldLogRequest = { $0.url?.path == "/text" }
        XCTAssertTrue(URLSession.rx.shouldLogRequest(request("/text")))
        XCTAssertFalse(URLSession.rx.shouldLogRequest(request("/hello")))
        // A logged request (its curl line and outcome are printed) works the same.
        let received = events(session.rx.data(request: request("/text")))
        XCTAssertEqual(received.first?.element.map { String(decoding: $0, as: UTF8.self) }, "just text")
    }
}
