import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleHTTPStreaming
import RippleHTTPTesting
import RippleTest
import XCTest

/// `Session.events(for:)` and `Session.jsonLines(for:)` on a `StubHTTPClient`
/// in virtual time: the event streams are scripted as marbles (1 tick = 1 ms,
/// a marble frame = 10 ms).
final class SessionEventsTests: RippleTestCase {
    struct LiveEvents: Request {
        typealias Response = Void
        var method: HTTPMethod = .get
        var baseURL: URL { URL(string: "http://stub.test")! }
        var path: String { "live" }
    }

    struct Numbers: Request {
        struct Number: Decodable, Equatable { let n: Int }
        typealias Response = Number
        var baseURL: URL { URL(string: "http://stub.test")! }
        var path: String { "numbers" }
    }

    let a = ServerSentEvent(id: "1", data: "a", retry: 500)
    let b = ServerSentEvent(id: "2", data: "b")
    let c = ServerSentEvent(id: "3", data: "c")

    var scheduler: TestScheduler!
    var stub: StubHTTPClient!
    var session: Session!

    override func setUp() {
        super.setUp()
        fresh()
    }

    /// A new scheduler, stub and session (a `TestScheduler` starts once).
    func fresh() {
        scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        stub = StubHTTPClient(scheduler: scheduler)
        session = Session(client: stub, scheduler: scheduler, retryPolicy: RetryPolicy(maxRetries: 2, initialDelay: 1))
    }

    override func tearDown() {
        scheduler = nil
        stub = nil
        session = nil
        super.tearDown()
    }

    func script(_ marbles: String) throws -> TestableObservable<ServerSentEvent> {
        try scheduler.createColdObservable(marbles, values: ["a": a, "b": b, "c": c], error: URLError(.networkConnectionLost))
    }

    func lastEventIDs() -> [String?] {
        stub.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") }
    }

    func testEventsArriveAsScriptedAndALostConnectionReconnectsWithTheLastEventIDAfterTheServersRetryTime() throws {
        stub.stub(.get, "/live", sequence: [.eventStream(try script("-a-b-#")), .eventStream(try script("-c-|")), .status(204)])
        let res = scheduler.start(disposed: 5000) { self.session.events(for: LiveEvents()) }
        XCTAssertEqual(res.events, [
            .next(210, a), .next(230, b),
            // lost at 250; `retry: 500` → the second connection at 750
            .next(760, c),
            // closed at 780 → the third at 1280: 204, the server has no more
            .completed(1280),
        ])
        XCTAssertEqual(lastEventIDs(), [nil, "2", "3"])
        XCTAssertEqual(stub.requests.first?.value(forHTTPHeaderField: "Accept"), "text/event-stream")
    }

    func testEventsAndJSONLinesArriveOnTheSessionsDeliveryScheduler() throws {
        let delivery = TestScheduler(initialClock: 0, resolution: 0.001)
        session = Session(client: stub, scheduler: scheduler, deliveryScheduler: delivery)
        stub.stub(.get, "/live", sequence: [.eventStream(try script("-a-b-|")), .status(204)])
        stub.stub(.get, "/numbers", .text("{\"n\":1}\n{\"n\":2}\n"))
        var received: [String] = []
        let bag = DisposeBag()
        session.events(for: LiveEvents()).subscribe(onNext: { received.append($0.data) }, onCompleted: { received.append("|") })
            .disposed(by: bag)
        session.jsonLines(for: Numbers()).subscribe(onNext: { received.append("n\($0.n)") }).disposed(by: bag)
        scheduler.advanceTo(5000)
        XCTAssertEqual(received, [], "the events wait for the delivery scheduler")
        delivery.advanceTo(100)   // one action per event, a tick apart
        XCTAssertEqual(received.sorted(), ["a", "b", "n1", "n2", "|"].sorted())
        XCTAssertEqual(received.filter { !$0.hasPrefix("n") }, ["a", "b", "|"], "in order")
    }

    func testWithoutRetryFieldTheReconnectionTimeIsTheOptionsOne() throws {
        stub.stub(.get, "/live", sequence: [.eventStream(try script("-b|")), .eventStream(try script("-c-#"))])
        // (100 ms is below the default floor of 0.5 s: lowered to match.)
        var options = EventStreamOptions(reconnectionTime: .milliseconds(100), minimumReconnectionTime: .milliseconds(100))
        options.lastEventID = "0"
        let res = scheduler.start(disposed: 500) { self.session.events(for: LiveEvents(), options: options) }
        // Closed at 220, reconnected at 320; lost at 350, reconnected at 450 (the stub answers the last script again).
        XCTAssertEqual(res.events, [.next(210, b), .next(330, c), .next(460, c)])
        XCTAssertEqual(lastEventIDs(), ["0", "2", "3"])
    }

    func testAFailedConnectionIsRetriedByThePolicyThenTheErrorEndsTheStream() throws {
        stub.stub(.get, "/live", sequence: [.status(503, body: "busy"), .failure(.cannotConnectToHost), .eventStream(try script("-c-|")), .status(502)])
        let res = scheduler.start(disposed: 10_000) {
            self.session.events(for: LiveEvents(), options: EventStreamOptions(reconnectionTime: .milliseconds(300), minimumReconnectionTime: .milliseconds(300)))
        }
        // 503 at 200; retry 1 after max(1 s, 300 ms) = 1200; refused; retry 2 after 2 s = 3200: open;
        // closed at 3230 → reconnect at 3530: 502 → retry 1 (the count restarted) at 4530: 502 again,
        // the sequence's last answer, and the same at 6530: the policy gives up.
        XCTAssertEqual(describe(res.events), [
            "3210: next(message(3): c)",
            "6530: error(Unacceptable HTTP status 502 Bad Gateway)",
        ])
        XCTAssertEqual(stub.requests.count, 6)
    }

    func testRetryZeroWaitsTheFloorAndConnectionsWithoutEventsBackOff() throws {
        let now = ServerSentEvent(id: "1", data: "z", retry: 0)
        let delivering = try scheduler.createColdObservable("-z|", values: ["z": now])
        let empty = try scheduler.createColdObservable("--|", values: ["z": now])
        stub.stub(.get, "/live", sequence: [.eventStream(delivering), .eventStream(empty), .eventStream(empty), .eventStream(delivering), .status(204)])
        var options = EventStreamOptions()
        options.reconnectionJitter = .proportional(0.5, random: { 0.5 })     // takes a quarter off each backed-off wait
        let res = scheduler.start(disposed: 20_000) { self.session.events(for: LiveEvents(), options: options) }
        // z at 210 (`retry: 0`), closed at 220 → 0.5 s, the floor → 720: nothing, closed at 740
        // → 0.5 × 2 × 0.75 = 0.75 s → 1490: nothing, closed at 1510 → 0.5 × 4 × 0.75 = 1.5 s
        // → 3010: z at 3020, closed at 3030 → the event reset the backoff: 0.5 s → 3530: 204.
        XCTAssertEqual(res.events, [.next(210, now), .next(3020, now), .completed(3530)])
        XCTAssertEqual(stub.requests.count, 5)
    }

    func testNoContentOnTheFirstRequestCompletesAtOnce() {
        stub.stub(.get, "/live", .status(204))
        let res = scheduler.start { self.session.events(for: LiveEvents()) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testASuccessThatIsNotAnEventStreamFailsWithoutRetrying() {
        stub.stub(.get, "/live", .json("[]"))
        let res = scheduler.start { self.session.events(for: LiveEvents()) }
        XCTAssertEqual(describe(res.events), ["200: error(Not an event stream: Content-Type 'application/json' instead of 'text/event-stream')"])
        XCTAssertEqual(stub.requests.count, 1)
    }

    func testDisposingClosesTheConnectionOrCancelsTheWait() throws {
        stub.stub(.get, "/live", .eventStream(try script("-a-b-c-|")))
        let res = scheduler.start(disposed: 235) { self.session.events(for: LiveEvents()) }
        XCTAssertEqual(res.events, [.next(210, a), .next(230, b)])
        XCTAssertEqual(stub.cancelledRequests.count, 1, "the stream was closed")
        // Disposed while waiting to reconnect: no other request, ever.
        stub.reset()
        stub.stub(.get, "/live", .eventStream(try script("-a|")))
        let waiting = scheduler.createObserver(ServerSentEvent.self)
        let subscription = session.events(for: LiveEvents()).subscribe(waiting)
        scheduler.advanceTo(scheduler.clock + 100)
        subscription.dispose()
        scheduler.advanceTo(scheduler.clock + 10_000)
        XCTAssertEqual(stub.requests.count, 1)
    }

    func testARequestThatIsNotIdempotentNeitherReconnectsNorRetries() throws {
        stub.stub(.post, "/live", sequence: [.eventStream(try script("-a-b|")), .eventStream(try script("-c|"))])
        let res = scheduler.start { self.session.events(for: LiveEvents(method: .post)) }
        XCTAssertEqual(res.events, [.next(210, a), .next(230, b), .completed(240)])
        fresh()
        stub.stub(.post, "/live", .status(503))
        let failed = scheduler.start(disposed: 9000) { self.session.events(for: LiveEvents(method: .post)) }
        XCTAssertEqual(failed.events.count, 1)
        XCTAssertEqual(stub.requests.count, 1)
    }

    func testTheTimeoutBoundsTheWaitForEachConnectionsHead() throws {
        var session = Session(client: stub, scheduler: scheduler, timeout: .milliseconds(50), retryPolicy: .never)
        stub.stub(.get, "/live", .eventStream(try script("-a-b-c|")).delayed(by: .milliseconds(80)))
        let late = scheduler.start { session.events(for: LiveEvents()) }
        XCTAssertEqual(describe(late.events), ["250: error(HTTP transport failure: the request timed out (URLError -1001))"])
        // Once the head is in, a stream may take as long as it likes.
        fresh()
        session = Session(client: stub, scheduler: scheduler, timeout: .milliseconds(50), retryPolicy: .never)
        stub.stub(.get, "/live", .eventStream(try script("-a-----------b|")).delayed(by: .milliseconds(10)))
        let open = scheduler.start(disposed: 400) { session.events(for: LiveEvents()) }
        XCTAssertEqual(open.events, [.next(220, a), .next(340, b)])
    }

    func testLinesOfJSONAreDecodedAsTheyArrive() throws {
        let chunks = try scheduler.createColdObservable("-x-y-z|", values: [
            "x": Data("{\"n\":1}\n{\"n\"".utf8),
            "y": Data(":2}\n\n".utf8),
            "z": Data("{\"n\":3}".utf8),
        ])
        stub.stub(.get, "/numbers", .stream(chunks, headers: ["Content-Type": "application/x-ndjson"]))
        let res = scheduler.start { self.session.jsonLines(for: Numbers()) }
        XCTAssertEqual(res.events, [
            .next(210, .init(n: 1)), .next(230, .init(n: 2)),
            .next(260, .init(n: 3)), .completed(260),     // the last line has no \n: it counts at the end
        ])
    }

    func testALineOfJSONThatDoesNotDecodeFailsTheStream() {
        stub.stub(.get, "/numbers", .text("{\"n\":1}\n{\"m\":2}\n"))
        let res = scheduler.start { self.session.jsonLines(for: Numbers()) }
        XCTAssertEqual(res.events.count, 2)
        XCTAssertEqual(res.events.first, .next(200, .init(n: 1)))
        guard case .error(let error as HTTPError)? = res.events.last?.value else { return XCTFail("no error") }
        XCTAssertEqual(error.kind, .undecodableBody)
        XCTAssertEqual(error.body, Data("{\"m\":2}".utf8))
    }

    func testAStubbedStreamCollectsIntoOneResponseForSend() throws {
        stub.stub(.get, "/numbers", .stream(Observable.of(Data("{\"n\":".utf8), Data("1}".utf8))))
        let res = scheduler.start { self.session.response(for: Numbers()).asObservable() }
        XCTAssertEqual(res.events, [.next(200, .init(n: 1)), .completed(200)])
    }
}
