import Foundation
import GitHubActivity
import GitHubKit
import Ripple
import RippleHTTP
import RippleHTTPStreaming
import RippleHTTPTesting
import RippleTest
import TerminalUI
import XCTest

/// What a user of `activity` sees on an in-memory terminal while the live
/// events arrive, the connection drops and the stream resumes: the server is
/// a `StubHTTPClient` whose event streams are marbles in virtual time
/// (1 tick = 1 ms, a frame = 100 ms).
final class ActivityScreenTests: XCTestCase {
    let timing = MarbleTiming(ticksPerFrame: 100, origin: 0)
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    lazy var stub = StubHTTPClient(scheduler: scheduler)
    lazy var session = Session(client: stub, scheduler: scheduler, retryPolicy: RetryPolicy(maxRetries: 1, initialDelay: 1))
    let request = LiveEventsRequest(owner: "ann", name: "kit", baseURL: URL(string: "http://mock.test")!)

    func event(_ id: Int, _ type: String, actor: String, payload: String = "{}", retry: Int? = nil) -> ServerSentEvent {
        let data = #"{"actor":{"login":"\#(actor)"},"created_at":"2024-05-01T12:00:0\#(id)Z","id":"\#(id)","payload":\#(payload),"repo":{"name":"ann/kit"},"type":"\#(type)"}"#
        return ServerSentEvent(id: String(id), event: type, data: data, retry: retry)
    }

    func script(_ marbles: String) throws -> TestableObservable<ServerSentEvent> {
        try scheduler.createColdObservable(marbles, values: [
            "a": event(1, "WatchEvent", actor: "bo", payload: #"{"action":"started"}"#, retry: 2000),
            "b": event(2, "IssuesEvent", actor: "cy", payload: #"{"action":"opened","issue":{"number":12}}"#),
            "c": event(3, "PushEvent", actor: "di", payload: #"{"size":3}"#),
            "x": ServerSentEvent(id: "4", data: "not json"),
        ], error: URLError(.networkConnectionLost), timing: timing)
    }

    func withScreen(_ body: (VirtualTerminal, () -> Int) throws -> Void) rethrows {
        try SharingScheduler.mock(scheduler: scheduler) {
            let terminal = VirtualTerminal(size: TerminalSize(rows: 10, columns: 90))
            let drops = Counter()
            let screen = ActivityScreen(
                host: terminal, viewModel: ActivityViewModel(updates: session.eventStream(for: request)), repository: "ann/kit",
                source: "test server", drop: { drops.increment() })
            let binding = TerminalApp.bind(screen, to: terminal) {}
            defer { binding.dispose() }
            // Each state reaches the screen one tick after the previous one (Driver).
            scheduler.advanceTo(50)
            try body(terminal, { drops.value })
        }
    }

    func testEventsShowNewestFirstAndADroppedConnectionShowsItsReconnection() throws {
        stub.stub(.get, "/repos/ann/kit/events/live", sequence: [.eventStream(try script("-a-b-#")), .eventStream(try script("-c-x"))])
        withScreen { terminal, drops in
            XCTAssertEqual(terminal.screen.lines[0], "Live activity  ·  ann/kit  ·  test server")
            XCTAssertEqual(terminal.screen.lines[1], "● live  ·  0 events  ·  connection 1")
            XCTAssertEqual(terminal.screen.lines[3], "Waiting for the first event…")
            XCTAssertEqual(terminal.screen.lines[9], "d drop the connection  q quit")

            scheduler.advanceTo(350)
            XCTAssertEqual(terminal.screen.lines[1], "● live  ·  2 events  ·  connection 1  ·  last event 2")
            XCTAssertEqual(terminal.screen.lines[3], "12:00:02  #2  cy opened issue #12")
            XCTAssertEqual(terminal.screen.lines[4], "12:00:01  #1  bo starred the repository")

            // Lost at 500; the server said `retry: 2000`.
            scheduler.advanceTo(600)
            XCTAssertEqual(terminal.screen.lines[1], "○ connection lost, reconnecting in 2.0 s  ·  2 events  ·  connection 1  ·  last event 2")
            XCTAssertEqual(terminal.screen.lines[3], "12:00:02  #2  cy opened issue #12", "the events stay")

            // At 2500 the second connection resumes after event 2.
            scheduler.advanceTo(2700)
            XCTAssertEqual(terminal.screen.lines[1], "● live  ·  3 events  ·  connection 2  ·  last event 3")
            XCTAssertEqual(terminal.screen.lines[3], "12:00:03  #3  di pushed 3 commits")
            XCTAssertEqual(stub.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") }, [nil, "2"])

            // An event whose data is not an event is counted, not shown.
            scheduler.advanceTo(2900)
            XCTAssertEqual(terminal.screen.lines[1], "● live  ·  3 events  ·  connection 2  ·  last event 4  ·  1 skipped")

            terminal.press(.character("d"))
            scheduler.advanceTo(2910)
            XCTAssertEqual(drops(), 1, "d asks the server to drop the connection")
        }
    }

    func testAServerThatKeepsFailingEndsWithTheReason() {
        stub.stub(.get, "/repos/ann/kit/events/live", .status(503))
        withScreen { terminal, _ in
            // The policy's 1 s, or the reconnection time (3 s by default) if longer.
            XCTAssertEqual(terminal.screen.lines[1], "○ HTTP 503, reconnecting in 3.0 s  ·  0 events  ·  connection 1")
            scheduler.advanceTo(4000)
            XCTAssertEqual(terminal.screen.lines[1], "✕ gave up: HTTP 503  ·  0 events  ·  connection 2")
        }
    }

    func testNoContentMeansTheFeedEnded() {
        stub.stub(.get, "/repos/ann/kit/events/live", .status(204))
        withScreen { terminal, _ in
            XCTAssertEqual(terminal.screen.lines[1], "■ the server has no more events  ·  0 events  ·  connection 1")
        }
    }
}

/// A counter closures can bump.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
