import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleHTTPStreaming
import RippleHTTPTesting
import RippleTest
import XCTest

/// `Session` with a stub client in virtual time (one tick = one second).
final class SessionTests: HTTPTestCase {
    func testTheRequestIsSentWhenSubscribedAndAgainForEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let stub = StubHTTPClient(scheduler: scheduler)
        stub.stub(.get, "/repos/octocat/hello", .json(repoJSON).delayed(by: .seconds(3)))
        let session = Session(client: stub, scheduler: scheduler)
        let single = session.response(for: RepoRequest())
        XCTAssertEqual(stub.requests.count, 0, "nothing is sent before subscription")
        let res = scheduler.start { single.asObservable().map(\.id) }
        XCTAssertEqual(res.events, [.next(203, 1_296_269), .completed(203)])
        XCTAssertEqual(stub.requests.map { $0.url?.absoluteString }, ["https://api.example.com/repos/octocat/hello"])
        single.subscribe { _ in }.dispose()
        XCTAssertEqual(stub.requests.count, 2)
        XCTAssertEqual(stub.cancelledRequests.count, 1)
    }

    func testDeliverySchedulerDeliversTheOutcomeThere() {
        let scheduler = TestScheduler(initialClock: 0)
        let delivery = TestScheduler(initialClock: 0)
        let stub = StubHTTPClient(scheduler: scheduler)
        stub.stub(.get, "/repos/octocat/hello", .json(repoJSON).delayed(by: .seconds(3)))
        stub.stub(.get, "/repos/octocat/missing", .status(404))
        let session = Session(client: stub, scheduler: scheduler, deliveryScheduler: delivery)
        var outcomes: [String] = []
        let bag = DisposeBag()
        session.response(for: RepoRequest()).subscribe(onSuccess: { outcomes.append("repo \($0.id)") }).disposed(by: bag)
        session.send(RepoRequest(name: "missing")).subscribe(onFailure: { outcomes.append("\($0)") }).disposed(by: bag)
        scheduler.advanceTo(10)
        XCTAssertEqual(outcomes, [], "the outcomes wait for the delivery scheduler")
        delivery.advanceTo(10)
        XCTAssertEqual(outcomes.count, 2, "\(outcomes)")
        XCTAssertTrue(outcomes.contains("repo 1296269"), "\(outcomes)")
        XCTAssertTrue(outcomes.contains { $0.contains("404") }, "\(outcomes)")
    }

    func testResponsesArriveWhereTheClientDeliversThemOrOnTheMainQueueWhenAsked() {
        let stub = StubHTTPClient(scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        stub.stub(.get, "/repos/octocat/hello", .json(repoJSON).delayed(by: .milliseconds(1)))
        let onMainThread = Recorder<Bool>()
        let bag = DisposeBag()
        Session(client: stub).response(for: RepoRequest())
            .subscribe(onSuccess: { _ in onMainThread.append(Thread.isMainThread) })
            .disposed(by: bag)
        Session(client: stub, deliveryScheduler: MainScheduler.instance).response(for: RepoRequest())
            .subscribe(onSuccess: { _ in onMainThread.append(Thread.isMainThread) })
            .disposed(by: bag)
        let deadline = Date().addingTimeInterval(5)
        while onMainThread.values.count < 2 && Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
        }
        XCTAssertEqual(onMainThread.values.sorted { !$0 && $1 }, [false, true])
    }

    func testDisposingCancelsTheRequestAndDeliversNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let stub = StubHTTPClient(scheduler: scheduler)
        stub.stub(.get, "/repos/octocat/hello", .json(repoJSON).delayed(by: .seconds(50)))
        let session = Session(client: stub, scheduler: scheduler)
        let res = scheduler.start(disposed: 230) { session.response(for: RepoRequest()).asObservable().map(\.id) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(stub.cancelledRequests.count, 1)
        scheduler.advanceTo(1000)
        XCTAssertEqual(res.events, [], "the stub's answer was unscheduled")
    }

    func testSessionTimeoutAndPerRequestTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let stub = StubHTTPClient(scheduler: scheduler)
        stub.stub(.get, "/thing", .text("late").delayed(by: .seconds(40)))
        let session = Session(client: stub, scheduler: scheduler, timeout: .seconds(30))
        let request = ConfigurableRequest<String>(convert: \.text)
        let res = scheduler.start { session.response(for: request).asObservable() }
        XCTAssertEqual(res.events, [.error(230, HTTPError.transport(URLError(.timedOut)))])
        XCTAssertEqual(stub.cancelledRequests.count, 1, "the timed-out request was cancelled")

        // The request's own timeout wins over the session's.
        let patient = TestScheduler(initialClock: 0)
        let stub2 = StubHTTPClient(scheduler: patient)
        stub2.stub(.get, "/thing", .text("late").delayed(by: .seconds(40)))
        let session2 = Session(client: stub2, scheduler: patient, timeout: .seconds(30))
        let longer = ConfigurableRequest<String>(timeout: .seconds(60), convert: \.text)
        XCTAssertEqual(patient.start { session2.response(for: longer).asObservable() }.events, [.next(240, "late"), .completed(240)])
        XCTAssertEqual(try longer.makeURLRequest().timeoutInterval, 60, "also given to URLSession")
    }

    func testTheTimeoutCountsFromWhenTheClientStartsTheRequest() {
        // A client that holds each request 20 s (waiting for a connection), then
        // answers 8 s after handing it over. A 10 s timeout is not used up by the wait.
        let scheduler = TestScheduler(initialClock: 0)
        let client = LateStartingClient(scheduler: scheduler, wait: 20, answerAfter: 8)
        let session = Session(client: client, scheduler: scheduler, timeout: .seconds(10))
        let res = scheduler.start { session.response(for: ConfigurableRequest<Int>(convert: \.statusCode)).asObservable() }
        XCTAssertEqual(res.events, [.next(228, 200), .completed(228)])

        // Once started, the timeout still fires: 10 s after the start at 220.
        let slow = TestScheduler(initialClock: 0)
        let slowSession = Session(client: LateStartingClient(scheduler: slow, wait: 20, answerAfter: 30), scheduler: slow, timeout: .seconds(10))
        let timedOut = slow.start { slowSession.response(for: ConfigurableRequest<Int>(convert: \.statusCode)).asObservable() }
        XCTAssertEqual(timedOut.events, [.error(230, HTTPError.transport(URLError(.timedOut)))])

        // A client that starts on subscription (the default of send(_:whenStarted:)) is timed from there.
        let direct = TestScheduler(initialClock: 0)
        let stub = StubHTTPClient(scheduler: direct)
        stub.stub(.get, "/thing", .text("late").delayed(by: .seconds(15)))
        let stubSession = Session(client: stub, scheduler: direct, timeout: .seconds(10))
        XCTAssertEqual(direct.start { stubSession.response(for: ConfigurableRequest<String>(convert: \.text)).asObservable() }.events,
                       [.error(210, HTTPError.transport(URLError(.timedOut)))])
    }

    func testSessionRetriesTransientFailuresOfIdempotentRequests() {
        let scheduler = TestScheduler(initialClock: 0)
        let stub = StubHTTPClient(scheduler: scheduler)
        stub.stub(.get, "/thing", sequence: [
            .status(503).delayed(by: .seconds(1)),
            .status(429, headers: ["Retry-After": "20"]).delayed(by: .seconds(1)),
            .text("done").delayed(by: .seconds(1)),
        ])
        let policy = RetryPolicy(maxRetries: 3, initialDelay: 5)
        let session = Session(client: stub, scheduler: scheduler, retryPolicy: policy)
        let res = scheduler.start { session.response(for: ConfigurableRequest<String>(convert: \.text)).asObservable() }
        // 200 → 503 at 201, backoff 5 → 206 → 429 at 207, Retry-After 20 → 227 → answer at 228.
        XCTAssertEqual(res.events, [.next(228, "done"), .completed(228)])
        XCTAssertEqual(stub.requests.count, 3)
    }

    func testPostIsNotRetriedUnlessThePolicySaysSo() {
        let stub = StubHTTPClient()
        stub.stub(.post, "/thing", .status(503))
        let scheduler = TestScheduler(initialClock: 0)
        let session = Session(client: stub, scheduler: scheduler, retryPolicy: RetryPolicy(maxRetries: 2, initialDelay: 1))
        let post = ConfigurableRequest<Void>(method: .post, convert: { _ in })
        let res = scheduler.start { session.response(for: post).asObservable().map { _ in 0 } }
        XCTAssertEqual(res.events.count, 1)
        XCTAssertEqual(stub.requests.count, 1)

        stub.reset()
        stub.stub(.post, "/thing", .status(503))
        let scheduler2 = TestScheduler(initialClock: 0)
        let eager = ConfigurableRequest<Void>(method: .post, retryPolicy: RetryPolicy(maxRetries: 2, initialDelay: 1, retriesNonIdempotentRequests: true), convert: { _ in })
        _ = scheduler2.start { Session(client: stub, scheduler: scheduler2).response(for: eager).asObservable().map { _ in 0 } }
        XCTAssertEqual(stub.requests.count, 3)
    }

    func testDecodingFailuresAreNotRetried() {
        let stub = StubHTTPClient()
        stub.stub(.get, "/repos/octocat/hello", .json("{}"))
        let scheduler = TestScheduler(initialClock: 0)
        let session = Session(client: stub, scheduler: scheduler, retryPolicy: RetryPolicy(initialDelay: 1))
        let res = scheduler.start { session.response(for: RepoRequest()).asObservable().map(\.id) }
        XCTAssertEqual(res.events.count, 1)
        XCTAssertEqual((res.events.first?.value.error as? HTTPError)?.kind, .undecodableBody)
        XCTAssertEqual(stub.requests.count, 1)
    }

    /// `response(for:)` converts without `map` (Performance.md): the decoding
    /// error is its one event, when the response arrives, and nothing is left
    /// running (`HTTPTestCase` checks the resource counter).
    func testADecodingFailureIsTheOneEventWhenTheResponseArrives() {
        let scheduler = TestScheduler(initialClock: 0)
        let stub = StubHTTPClient(scheduler: scheduler)
        stub.stub(.get, "/repos/octocat/hello", .json(#"{"id":"not a number"}"#).delayed(by: .seconds(3)))
        let session = Session(client: stub, scheduler: scheduler)
        let res = scheduler.start { session.response(for: RepoRequest()).asObservable().map(\.id) }
        XCTAssertEqual(res.events.map(\.time), [203])
        XCTAssertEqual((res.events.first?.value.error as? HTTPError)?.kind, .undecodableBody)
        XCTAssertEqual(stub.requests.count, 1)
        XCTAssertEqual(stub.cancelledRequests.count, 0, "the request had ended; nothing to cancel")
    }

    func testLoggingAsCurlThroughAPluggableSink() {
        let lines = Recorder<String>()
        let clock = Recorder<Int>()
        let logger = HTTPLogger(now: {
            clock.append(0)
            return Date(timeIntervalSince1970: Double(clock.values.count) * 0.25)
        }, sink: { lines.append($0.description) })
        let stub = StubHTTPClient()
        stub.stub(.get, "/search/repositories", .json(#"{"items":[]}"#))
        stub.stub(.post, "/items", .failure(.networkConnectionLost))
        let session = Session(client: stub, logger: logger)
        _ = outcome(of: session.response(for: SearchRequest(keyword: "a b")))
        _ = outcome(of: session.response(for: CreateItem(name: "n")))
        XCTAssertEqual(lines.values, [
            "curl 'https://api.example.com/search/repositories?q=a%20b&offset=0&limit=20'",
            "← 200 OK GET https://api.example.com/search/repositories?q=a%20b&offset=0&limit=20 (250 ms, 12 bytes)",
            #"curl -X POST -H 'Content-Type: application/json' -H 'X-Client: tests' --data-binary '{"name":"n"}' 'https://api.example.com/items'"#,
            "✕ POST https://api.example.com/items failed after 250 ms: HTTP transport failure: the network connection was lost (URLError -1005)",
        ])
    }

    func testLoggingCancellationAndRedaction() {
        let entries = Recorder<HTTPLogEntry>()
        let stub = StubHTTPClient()
        stub.stub(.get, "/thing", .never)
        let client = stub.logging(to: HTTPLogger(now: { Date(timeIntervalSince1970: 0) }, sink: { entries.append($0) }))
        let request = try! URLRequest(method: .get, url: exampleBase.appendingPathComponent("thing"), headers: ["Authorization": "token abc", "Cookie": "s=1"])
        client.send(request).subscribe { _ in }.dispose()
        XCTAssertEqual(entries.values.map(\.description), [
            "curl -H 'Authorization: <redacted>' -H 'Cookie: <redacted>' 'https://api.example.com/thing'",
            "✕ GET https://api.example.com/thing cancelled after 0 ms",
        ])
        XCTAssertEqual(entries.values.map { $0.request.url }, [request.url, request.url])
        XCTAssertEqual(stub.cancelledRequests.count, 1)
        // `HTTPLogger.print` exists for quick debugging.
        XCTAssertTrue(HTTPLogger.print.redactedHeaders.contains("Authorization"))
    }

    func testLoggingAStreamLogsItsEndWithTheBytesItCarried() {
        let lines = Recorder<String>()
        let stub = StubHTTPClient()
        stub.stub(.get, "/live", .eventStream(Observable.of(ServerSentEvent(id: "1", data: "a"), ServerSentEvent(id: "2", data: "b"))))
        stub.stub(.get, "/down", .failure(.cannotConnectToHost))
        let session = Session(
            client: stub, retryPolicy: .never, logger: HTTPLogger(now: { Date(timeIntervalSince1970: 0) }, sink: { lines.append($0.description) }))
        let events = Recorder<String>()
        session.events(for: URLRequest(url: exampleBase.appendingPathComponent("live")), options: EventStreamOptions(reconnects: false))
            .subscribe(onNext: { events.append($0.data) }).dispose()
        session.events(for: URLRequest(url: exampleBase.appendingPathComponent("down")), options: EventStreamOptions(reconnects: false))
            .subscribe(onError: { _ in }).dispose()
        XCTAssertEqual(events.values, ["a", "b"])
        XCTAssertEqual(lines.values, [
            "curl -H 'Accept: text/event-stream' -H 'Cache-Control: no-cache' 'https://api.example.com/live'",
            "← 200 OK GET https://api.example.com/live (stream: 30 bytes in 0 ms)",
            "curl -H 'Accept: text/event-stream' -H 'Cache-Control: no-cache' 'https://api.example.com/down'",
            "✕ GET https://api.example.com/down failed after 0 ms: HTTP transport failure: could not connect to the server (URLError -1004)",
        ])
    }

    func testTheTupleShapedAPIAndConveniences() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/items", handler: { request in .text(request.url?.query ?? "") })
        stub.stub(.delete, "/items/1", handler: { request in .text(request.url?.query ?? "") })
        stub.stub(.post, "/items", handler: { request in .text(String(decoding: request.httpBody ?? Data(), as: UTF8.self)) })
        stub.stub(.put, "/items/1", handler: { request in .text(request.value(forHTTPHeaderField: "Content-Type") ?? "") })
        let items = exampleBase.appendingPathComponent("items")
        let one = items.appendingPathComponent("1")

        let (data, response) = try XCTUnwrap(try outcome(of: stub.response(try URLRequest(method: .get, url: items, parameters: ["q": "a+b"])))?.get())
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "q=a%2Bb")
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(try outcome(of: stub.get(items, parameters: ["page": 2], headers: ["Accept": "*/*"]))?.get().text, "page=2")
        XCTAssertEqual(stub.requests.last?.value(forHTTPHeaderField: "Accept"), "*/*")
        XCTAssertEqual(try outcome(of: stub.delete(one, parameters: ["force": true]))?.get().text, "force=true")
        XCTAssertEqual(try outcome(of: stub.post(items, parameters: ["name": "x y"]))?.get().text, "name=x%20y")
        XCTAssertEqual(try outcome(of: stub.post(items, parameters: ["name": "x y"], encoding: .json))?.get().text, #"{"name":"x y"}"#)
        XCTAssertEqual(try outcome(of: stub.put(one, parameters: ["n": 1]))?.get().text, "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertEqual(try outcome(of: stub.put(one, parameters: ["n": 1], encoding: .json))?.get().text, "application/json")
        XCTAssertEqual(try outcome(of: stub.send("PATCH", items))?.get().statusCode, 404, "no stub for PATCH")
    }

    func testHTTPResponseAccessors() throws {
        let response = try XCTUnwrap(HTTPResponse(url: exampleBase, statusCode: 201, headers: ["B": "2", "a": "1"], data: Data("hé".utf8)))
        XCTAssertEqual(response.statusCode, 201)
        XCTAssertEqual(response.url, exampleBase)
        XCTAssertEqual(response.text, "hé")
        XCTAssertEqual(response.headers.fields.map(\.name).map { $0.lowercased() }, ["a", "b"])
        XCTAssertEqual(response.headers["b"], "2")
        XCTAssertEqual(response.tuple.0, response.data)
        XCTAssertEqual(HTTPResponse(data: Data(), response: response.response).statusCode, 201)
    }
}

/// Holds each request `wait` seconds (as if waiting for a connection), reports
/// the start, then answers `200` after `answerAfter` seconds, in virtual time.
private struct LateStartingClient: HTTPClient {
    let scheduler: TestScheduler
    let wait: Int
    let answerAfter: Int

    func send(_ request: URLRequest) -> Single<HTTPResponse> {
        send(request, whenStarted: {})
    }

    func send(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Single<HTTPResponse> {
        let scheduler = self.scheduler
        let answerAfter = self.answerAfter
        let response = HTTPResponse(url: request.url!, statusCode: 200)!
        return Observable<Int>.timer(.seconds(wait), scheduler: scheduler)
            .flatMap { _ -> Observable<HTTPResponse> in
                started()
                return Observable<Int>.timer(.seconds(answerAfter), scheduler: scheduler).map { _ in response }
            }
            .asSingle()
    }
}
