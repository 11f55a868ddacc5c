import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleTest
import XCTest

/// `URLSessionHTTPClient` end to end against a loopback server on 127.0.0.1.
final class URLSessionHTTPClientTests: HTTPTestCase {
    var server: LoopbackHTTPServer!
    var client: URLSessionHTTPClient!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try LoopbackHTTPServer()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        client = URLSessionHTTPClient(configuration: configuration)
    }

    override func tearDown() {
        client = nil
        server?.stop()
        server = nil
        super.tearDown()
    }

    func url(_ path: String) -> URL {
        URL(string: "\(server.baseURL.absoluteString)\(path)")!
    }

    func testGetReturnsBodyAndResponse() throws {
        let response = try XCTUnwrap(try outcome(of: client.get(url("/hello")))?.get())
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.headers["content-type"], "application/json")
        XCTAssertEqual(response.text, #"{"message":"hello","created_at":"2024-05-01T12:00:00Z"}"#)
        // The tuple shape.
        let (data, httpResponse) = try XCTUnwrap(try outcome(of: client.response(URLRequest(url: url("/hello"))))?.get())
        XCTAssertEqual(data.count, response.data.count)
        XCTAssertEqual(httpResponse.statusCode, 200)
    }

    func testAnErrorStatusIsAResponseForTheClient() throws {
        let response = try XCTUnwrap(try outcome(of: client.get(url("/status/404")))?.get())
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual(response.text, "status 404")
    }

    func testParametersAndHeadersArriveAsSent() throws {
        struct Echo: Decodable {
            let method: String
            let path: String
            let query: String
            let headers: [String: String]
            let body: String
        }
        let get = try XCTUnwrap(try outcome(of: client.get(url("/echo"), parameters: ["q": "a b&c=d", "name": "café"], headers: ["X-Trace": "t-1"]))?.get())
        let echoed = try get.decode(Echo.self)
        XCTAssertEqual(echoed.method, "GET")
        XCTAssertEqual(echoed.query, "q=a%20b%26c%3Dd&name=caf%C3%A9")
        XCTAssertEqual(echoed.headers["x-trace"], "t-1")

        let post = try XCTUnwrap(try outcome(of: client.post(url("/echo"), parameters: ["name": "Ripple & Co", "stars": 5]))?.get())
        let posted = try post.decode(Echo.self)
        XCTAssertEqual(posted.method, "POST")
        XCTAssertEqual(posted.body, "name=Ripple%20%26%20Co&stars=5")
        XCTAssertEqual(posted.headers["content-type"], "application/x-www-form-urlencoded; charset=utf-8")

        let put = try XCTUnwrap(try outcome(of: client.put(url("/echo"), parameters: ["tags": ["a", "b"]], encoding: .json))?.get())
        let putEcho = try put.decode(Echo.self)
        XCTAssertEqual(putEcho.method, "PUT")
        XCTAssertEqual(putEcho.body, #"{"tags":["a","b"]}"#)
        XCTAssertEqual(putEcho.headers["content-type"], "application/json")

        let delete = try XCTUnwrap(try outcome(of: client.delete(url("/echo"), parameters: ["force": true]))?.get())
        XCTAssertEqual(try delete.decode(Echo.self).query, "force=true")

        // A large body (curl may ask for `Expect: 100-continue`).
        let big = String(repeating: "x", count: 100_000)
        let large = try XCTUnwrap(try outcome(of: client.post(url("/echo"), parameters: ["big": big]))?.get())
        XCTAssertEqual(try large.decode(Echo.self).body.count, "big=".count + 100_000)
    }

    func testTypedRequestThroughASessionEndToEnd() throws {
        let session = Session(client: client)
        var request = RepoRequest()
        request.baseURL = server.baseURL
        let repo = try XCTUnwrap(try outcome(of: session.response(for: request))?.get())
        XCTAssertEqual(repo.fullName, "octocat/hello")
        XCTAssertEqual(repo.owner.avatarUrl.absoluteString, "https://avatars.example/u/583231")
        var avatar = AvatarRequest()
        avatar.baseURL = server.baseURL
        XCTAssertEqual(try outcome(of: session.response(for: avatar))?.get().absoluteString, "https://avatars.example/u/583231")

        let missing = ConfigurableRequest<Void>(baseURL: server.baseURL, path: "status/404", convert: { _ in })
        XCTAssertEqual(httpError(outcome(of: session.response(for: missing)))?.description, "Unacceptable HTTP status 404 Not Found (text/plain): status 404")
        let text = ConfigurableRequest<[String]>(baseURL: server.baseURL, path: "text", convert: { try $0.decode() })
        XCTAssertEqual(httpError(outcome(of: session.response(for: text)))?.kind, .undecodableBody)
    }

    func testRetryAfterFromARealServer() throws {
        // A 503 with Retry-After: 0 is retried at once, then the retries run out.
        let session = Session(client: client, retryPolicy: RetryPolicy(maxRetries: 2, initialDelay: 5))
        let request = ConfigurableRequest<Void>(baseURL: server.baseURL, path: "status/503", queryParameters: ["retry_after": "0"], convert: { _ in })
        let error = httpError(outcome(of: session.response(for: request)))
        XCTAssertEqual(error?.statusCode, 503)
        XCTAssertEqual(error?.headers?["retry-after"], "0")
        XCTAssertEqual(server.receivedRequests.filter { $0.path == "/status/503" }.count, 3)
    }

    func testDisposingCancelsTheRequestAndTheServerSeesTheConnectionClose() {
        let events = Recorder<SingleEvent<HTTPResponse>>()
        let subscription = client.get(url("/slow"), parameters: ["ms": 5000]).subscribe { events.append($0) }
        XCTAssertTrue(server.wait(for: .received("/slow")), "the request started on subscribe")
        subscription.dispose()
        XCTAssertTrue(server.wait(for: .clientClosed("/slow")), "the client closed the connection")
        XCTAssertFalse(server.happened(.answered("/slow")))
        // Nothing arrives afterwards.
        _ = waitUntil(timeout: 0.2) { false }
        XCTAssertTrue(events.values.isEmpty)
    }

    func testNothingIsSentBeforeSubscription() {
        let single = client.get(url("/hello"))
        _ = waitUntil(timeout: 0.1) { false }
        XCTAssertTrue(server.receivedRequests.isEmpty)
        _ = outcome(of: single)
        _ = outcome(of: single)
        XCTAssertEqual(server.receivedRequests.count, 2, "each subscription sends the request")
    }

    func testURLRequestTimeoutIsHonoured() {
        let request = try! URLRequest(method: .get, url: url("/slow"), parameters: ["ms": 5000], timeoutInterval: 1)
        let started = Date()
        let error = httpError(outcome(of: client.send(request), timeout: 5))
        XCTAssertEqual(error?.urlError?.code, .timedOut)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertTrue(elapsed > 0.8 && elapsed < 3, "\(elapsed)")
        XCTAssertTrue(server.wait(for: .clientClosed("/slow")))
    }

    func testASubSecondURLRequestTimeoutDoesNotFireAtOnce() {
        // FoundationNetworking truncates timeouts to whole seconds; the client rounds up.
        let request = try! URLRequest(method: .get, url: url("/slow"), parameters: ["ms": 300], timeoutInterval: 0.5)
        XCTAssertEqual(try outcome(of: client.send(request))?.get().text, "slow")
    }

    func testSessionTimeoutOnARealSchedulerCancelsTheRequest() {
        let session = Session(client: client, scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated), timeout: .milliseconds(300))
        let request = ConfigurableRequest<String>(baseURL: server.baseURL, path: "slow", queryParameters: ["ms": 5000], convert: \.text)
        let error = httpError(outcome(of: session.response(for: request)))
        XCTAssertEqual(error?.urlError?.code, .timedOut)
        XCTAssertTrue(server.wait(for: .clientClosed("/slow")), "the timed-out request was cancelled")
    }

    func testConnectionRefusedIsATransportFailure() throws {
        // A port that was just free: bind, read the port, close.
        let probe = try LoopbackHTTPServer()
        let port = probe.port
        probe.stop()
        let error = httpError(outcome(of: client.get(URL(string: "http://127.0.0.1:\(port)/")!)))
        XCTAssertEqual(error?.kind, .transport)
        XCTAssertEqual(error?.urlError?.code, .cannotConnectToHost)
        XCTAssertTrue(RetryPolicy.isTransient(error!))
    }

    func testAConnectionClosedMidResponseIsALostConnectionAndTransient() {
        for path in ["/cut/body", "/cut/head"] {
            let error = httpError(outcome(of: client.get(url(path))))
            XCTAssertEqual(error?.urlError?.code, .networkConnectionLost, "\(path): \(String(describing: error))")
            XCTAssertTrue(error.map(RetryPolicy.isTransient) ?? false, path)
        }
    }

    func testASessionRetriesAGetCutMidResponseButNotAPost() {
        let session = Session(client: client, retryPolicy: RetryPolicy(maxRetries: 2, initialDelay: 0.01))
        let get = ConfigurableRequest<Void>(baseURL: server.baseURL, path: "cut/body", convert: { _ in })
        XCTAssertEqual(httpError(outcome(of: session.response(for: get)))?.urlError?.code, .networkConnectionLost)
        XCTAssertEqual(server.receivedRequests.filter { $0.method == "GET" }.count, 3, "the GET was tried 3 times")

        var post = ConfigurableRequest<Void>(baseURL: server.baseURL, path: "cut/body", convert: { _ in })
        post.method = .post
        XCTAssertEqual(httpError(outcome(of: session.response(for: post)))?.urlError?.code, .networkConnectionLost)
        XCTAssertEqual(server.receivedRequests.filter { $0.method == "POST" }.count, 1, "a POST is not retried")
    }

    func testANonHTTPURLIsNotAnHTTPResponse() throws {
        // A data: URL gets a plain URLResponse.
        let error = httpError(outcome(of: client.send(URLRequest(url: URL(string: "data:text/plain,hello")!))))
        XCTAssertEqual(error?.kind, .notHTTPResponse)
        XCTAssertEqual(error?.description, "Not an HTTP response: URLResponse from data:text/plain,hello")
    }

    func testObserversMayCallBackIntoTheClientNoLockIsHeld() {
        let done = Recorder<String>()
        let first = Recorder<Disposable>()
        let client = self.client!
        let second = url("/echo")
        first.append(client.get(url("/hello")).subscribe(onSuccess: { _ in
            // Re-entrant: dispose the delivering subscription and send another request.
            first.values.first?.dispose()
            _ = client.get(second).subscribe(onSuccess: { done.append($0.text.isEmpty ? "empty" : "second") })
            done.append("first")
        }))
        XCTAssertTrue(waitUntil { done.values.count == 2 }, "\(done.values)")
        XCTAssertEqual(done.values, ["first", "second"])
    }

    func testLoggingRealRequests() {
        let lines = Recorder<String>()
        let logging = client.logging(to: HTTPLogger { lines.append($0.description) })
        _ = outcome(of: logging.get(url("/hello")))
        XCTAssertEqual(lines.values.first, "curl '\(url("/hello").absoluteString)'")
        XCTAssertTrue(lines.values.last?.hasPrefix("← 200 OK GET \(url("/hello").absoluteString) (") ?? false, "\(lines.values)")
    }

    func testTheInitializers() throws {
        // init(): a session of its own, with the client as its delegate.
        let own = URLSessionHTTPClient()
        XCTAssertFalse(own.session === URLSession.shared)
        XCTAssertEqual(own.session.delegateQueue.maxConcurrentOperationCount, 1)
        XCTAssertEqual(own.maximumConnectionsPerHost, URLSessionConfiguration.default.httpMaximumConnectionsPerHost)
        XCTAssertEqual(own.maximumResponseBodySize, URLSessionHTTPClient.defaultMaximumResponseBodySize)
        XCTAssertEqual(try outcome(of: own.get(url("/hello")))?.get().statusCode, 200)
        // init(session:): the session as it is.
        let shared = URLSessionHTTPClient(session: .shared)
        XCTAssertTrue(shared.session === URLSession.shared)
        XCTAssertEqual(try outcome(of: shared.get(url("/hello")))?.get().statusCode, 200)
        // init(configuration:) copies the configuration; on Linux the session has no URLCache.
        let configuration = URLSessionConfiguration.ephemeral
        let configured = URLSessionHTTPClient(configuration: configuration)
        #if canImport(FoundationNetworking)
        XCTAssertNil(configured.session.configuration.urlCache)
        XCTAssertNotNil(configuration.urlCache, "the caller's configuration is unchanged")
        #endif
        XCTAssertEqual(try outcome(of: configured.get(url("/hello")))?.get().statusCode, 200)
    }
}
