import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleHTTPTesting
import RippleTest
import XCTest

final class StubHTTPClientTests: HTTPTestCase {
    func get(_ stub: StubHTTPClient, _ path: String, method: HTTPMethod = .get) -> Result<HTTPResponse, Error>? {
        outcome(of: stub.send(try! URLRequest(method: method, url: URL(string: "https://stub.test\(path)")!)))
    }

    func testMatchingByMethodAndPath() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/users/ann", .text("ann"))
        stub.stub(.get, "/users/*/repos", .text("repos"))
        stub.stub(.get, "/files/**", .text("files"))
        stub.stub(.post, "/users/ann", .status(201))
        XCTAssertEqual(try get(stub, "/users/ann")?.get().text, "ann")
        XCTAssertEqual(try get(stub, "/users/ann?x=1")?.get().text, "ann", "the query is ignored")
        XCTAssertEqual(try get(stub, "/users/bob/repos")?.get().text, "repos")
        XCTAssertEqual(try get(stub, "/files/a/b/c")?.get().text, "files")
        XCTAssertEqual(try get(stub, "/users/ann", method: .post)?.get().statusCode, 201)
        let unmatched = try get(stub, "/users/bob/repos/extra")?.get()
        XCTAssertEqual(unmatched?.statusCode, 404)
        XCTAssertEqual(unmatched?.text, "No stub for GET /users/bob/repos/extra")
        XCTAssertEqual(try get(stub, "/users/ann", method: .delete)?.get().statusCode, 404)
        XCTAssertEqual(stub.unmatchedRequests.count, 2)
        XCTAssertEqual(stub.requests.count, 7)
        XCTAssertEqual(stub.requests(.get, "/users/*/repos").count, 1)
        XCTAssertEqual(stub.requests(.get, "/users/ann").count, 2)
        // A later stub wins.
        stub.stub(.get, "/users/ann", .text("new"))
        XCTAssertEqual(try get(stub, "/users/ann")?.get().text, "new")
    }

    func testCannedResponses() throws {
        struct User: Codable, Equatable { let id: Int }
        let stub = StubHTTPClient()
        stub.stub(.get, "/json", .json(#"{"id":1}"#, statusCode: 202, headers: ["ETag": "x"]))
        stub.stub(.get, "/encodable", .json(User(id: 2)))
        stub.stub(.get, "/bad-encodable", .json(Double.nan))
        stub.stub(.get, "/status", .status(418, headers: ["X": "y"], body: "teapot"))
        stub.stub(.get, "/raw", StubResponse(statusCode: 200, headers: ["Content-Type": "image/png"], body: Data([1, 2])))
        stub.stub(.get, "/fail", .failure(.timedOut))
        stub.stub(.get, "/bad-status", .status(-1))

        let json = try XCTUnwrap(try get(stub, "/json")?.get())
        XCTAssertEqual(json.statusCode, 202)
        XCTAssertEqual(json.headers["content-type"], "application/json")
        XCTAssertEqual(json.headers["etag"], "x")
        XCTAssertEqual(try json.decode(User.self), User(id: 1))
        XCTAssertEqual(try get(stub, "/encodable")?.get().decode(User.self), User(id: 2))
        XCTAssertEqual(try get(stub, "/bad-encodable")?.get().statusCode, 500)
        XCTAssertEqual(try get(stub, "/status")?.get().text, "teapot")
        XCTAssertEqual(try get(stub, "/raw")?.get().data, Data([1, 2]))
        XCTAssertEqual(httpError(get(stub, "/fail"))?.urlError?.code, .timedOut)
        XCTAssertNotNil(get(stub, "/bad-status"), "a status Foundation refuses is still an outcome")

        stub.unmatchedResponse = .status(599)
        XCTAssertEqual(try get(stub, "/nothing")?.get().statusCode, 599)
        XCTAssertEqual(stub.unmatchedResponse.delay, nil)
    }

    func testSequencesAndHandlers() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/flaky", sequence: [.status(503), .status(502), .text("ok")])
        XCTAssertEqual(try (0..<5).map { _ in try get(stub, "/flaky")?.get().statusCode }, [503, 502, 200, 200, 200])
        stub.stub(.get, "/empty", sequence: [])
        XCTAssertEqual(try get(stub, "/empty")?.get().statusCode, 404)
        stub.stub(.get, "/echo", handler: { request in .text(request.url?.query ?? "-") })
        XCTAssertEqual(try get(stub, "/echo?a=1")?.get().text, "a=1")
        stub.reset()
        XCTAssertEqual(stub.requests.count, 0)
        XCTAssertEqual(try get(stub, "/echo")?.get().statusCode, 404)
    }

    func testDelaysRunOnTheScheduler() {
        func run(_ path: String) -> [Recorded<Event<String>>] {
            let scheduler = TestScheduler(initialClock: 0)
            let stub = StubHTTPClient(scheduler: scheduler, defaultDelay: .seconds(4))
            stub.stub(.get, "/default", .text("d"))
            stub.stub(.get, "/own", .text("o").delayed(by: .milliseconds(10_000)))
            stub.stub(.get, "/fail", StubResponse.failure(.cannotConnectToHost).delayed(by: .seconds(2)))
            stub.stub(.get, "/immediate", .text("i").delayed(by: .seconds(0)))
            let url = URL(string: "https://stub.test\(path)")!
            return scheduler.start { stub.send(URLRequest(url: url)).asObservable().map(\.text) }.events
        }
        XCTAssertEqual(run("/default"), [.next(204, "d"), .completed(204)])
        XCTAssertEqual(run("/own"), [.next(210, "o"), .completed(210)])
        XCTAssertEqual(run("/fail"), [.error(202, HTTPError.transport(URLError(.cannotConnectToHost)))])
        XCTAssertEqual(run("/immediate"), [.next(200, "i"), .completed(200)], "a zero delay answers synchronously")
    }

    func testNeverAndCancellationRecording() {
        let stub = StubHTTPClient()
        stub.stub(.get, "/never", .never)
        stub.stub(.get, "/now", .text("now"))
        let events = Recorder<SingleEvent<HTTPResponse>>()
        let subscription = stub.send(URLRequest(url: URL(string: "https://stub.test/never")!)).subscribe { events.append($0) }
        XCTAssertEqual(stub.cancelledRequests.count, 0)
        subscription.dispose()
        XCTAssertEqual(stub.cancelledRequests.map { $0.url?.path }, ["/never"])
        XCTAssertTrue(events.values.isEmpty)
        // An answered request is not a cancellation.
        stub.send(URLRequest(url: URL(string: "https://stub.test/now")!)).subscribe { events.append($0) }.dispose()
        XCTAssertEqual(events.values.count, 1)
        XCTAssertEqual(stub.cancelledRequests.count, 1)
        // `.never` as a delay also never answers.
        stub.stub(.get, "/forever", .text("x").delayed(by: .never))
        stub.send(URLRequest(url: URL(string: "https://stub.test/forever")!)).subscribe { events.append($0) }.dispose()
        XCTAssertEqual(events.values.count, 1)
        XCTAssertEqual(stub.cancelledRequests.count, 2)
    }

    func testHandlersAndObserversMayCallBackIntoTheStub() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/count", handler: { _ in .text("\(stub.requests.count)") })
        XCTAssertEqual(try get(stub, "/count")?.get().text, "1")
        var inner: String?
        _ = stub.send(URLRequest(url: URL(string: "https://stub.test/count")!)).subscribe(onSuccess: { _ in
            inner = try? self.get(stub, "/count")?.get().text
        })
        XCTAssertEqual(inner, "3")
    }

    func testRealTimeDefaultScheduler() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/later", .text("later").delayed(by: .milliseconds(20)))
        XCTAssertEqual(try get(stub, "/later")?.get().text, "later")
    }
}
