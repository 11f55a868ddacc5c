import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import RippleHTTP
@testable import RippleHTTPStreaming
import RippleTest
import XCTest

/// The decisions of a streamed subscription, as a pure state machine: what a
/// head, a chunk, the end of a connection or a timeout lead to.
final class StreamingMachineTests: RippleTestCase {
    let url = URL(string: "http://stream.test/live")!
    let now = Date(timeIntervalSince1970: 0)

    func head(_ status: Int, _ contentType: String? = "text/event-stream") -> HTTPURLResponse {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: contentType.map { ["Content-Type": $0] } ?? [:])!
    }

    func machine(
        policy: RetryPolicy? = RetryPolicy(maxRetries: 2, initialDelay: 0.5), reconnects: Bool = true, lastEventID: String? = nil,
        backoff: ReconnectionBackoff = .none
    ) -> StreamingMachine<EventStreamFormat> {
        StreamingMachine(
            format: EventStreamFormat(parser: ServerSentEventParser(lastEventID: lastEventID), defaultReconnectionDelay: 3),
            request: URLRequest(url: url), acceptable: .successful, retryPolicy: policy, reconnects: reconnects, backoff: backoff)
    }

    /// `EventStreamOptions`' defaults (0.5 s floor, 30 s ceiling), with the
    /// jitter's draw fixed at `draw`.
    func defaultBackoff(draw: Double) -> ReconnectionBackoff {
        ReconnectionBackoff(minimum: 0.5, maximum: 30, jitter: .proportional(0.5, random: { draw }))
    }

    /// One connection that is accepted, receives `body`, and ends normally:
    /// the wait before the next one.
    func connection(_ machine: inout StreamingMachine<EventStreamFormat>, _ body: String) -> TimeInterval? {
        _ = machine.reconnect()
        _ = machine.receivedHead(head(200), now: now)
        _ = machine.receivedBody(Data(body.utf8), now: now)
        guard case .reconnect(let delay)? = machine.ended(nil, now: now).action else { return nil }
        return delay
    }

    func testTheFirstRequestAsksForAnEventStreamAndAReconnectionSendsTheLastEventID() {
        var machine = machine()
        let first = machine.reconnect()
        XCTAssertEqual(first.value(forHTTPHeaderField: "Accept"), "text/event-stream")
        XCTAssertEqual(first.value(forHTTPHeaderField: "Cache-Control"), "no-cache")
        XCTAssertNil(first.value(forHTTPHeaderField: "Last-Event-ID"))
        _ = machine.receivedHead(head(200), now: now)
        XCTAssertEqual(machine.receivedBody(Data("id: 41\ndata: a\n\nid: 42\ndata: b\n\n".utf8), now: now).elements.map(\.data), ["a", "b"])
        guard case .reconnect(let delay)? = machine.ended(nil, now: now).action else { return XCTFail("no reconnection") }
        XCTAssertEqual(delay, 3)
        XCTAssertEqual(machine.reconnect().value(forHTTPHeaderField: "Last-Event-ID"), "42")
    }

    func testTheServersRetryFieldSetsTheReconnectionDelay() {
        var machine = machine()
        _ = machine.reconnect()
        _ = machine.receivedHead(head(200), now: now)
        _ = machine.receivedBody(Data("retry: 250\n\n".utf8), now: now)
        guard case .reconnect(let delay)? = machine.ended(HTTPError.transport(URLError(.networkConnectionLost)), now: now).action else {
            return XCTFail("no reconnection")
        }
        XCTAssertEqual(delay, 0.25)
    }

    func testNoContentCompletesTheStream() {
        var machine = machine()
        _ = machine.reconnect()
        guard case .complete? = machine.receivedHead(head(204, nil), now: now).action else { return XCTFail("not completed") }
    }

    func testASuccessThatIsNotAnEventStreamFailsWithoutRetry() {
        var machine = machine()
        _ = machine.reconnect()
        guard case .fail(let error)? = machine.receivedHead(head(200, "application/json"), now: now).action else { return XCTFail("not failed") }
        XCTAssertEqual(error as? EventStreamError, .notAnEventStream(contentType: "application/json"))
    }

    func testARetriedStatusWaitsThePolicyOrTheReconnectionTimeWhicheverIsLonger() {
        var machine = machine(policy: RetryPolicy(maxRetries: 1, initialDelay: 5))
        _ = machine.reconnect()
        _ = machine.receivedHead(head(503, "text/plain"), now: now)
        _ = machine.receivedBody(Data("busy".utf8), now: now)
        guard case .reconnect(let delay)? = machine.ended(nil, now: now).action else { return XCTFail("no retry") }
        XCTAssertEqual(delay, 5)
        XCTAssertEqual(machine.failures, 1)
        // The policy's last retry fails too: the error, with the body.
        _ = machine.reconnect()
        _ = machine.receivedHead(head(503, "text/plain"), now: now)
        _ = machine.receivedBody(Data("still busy".utf8), now: now)
        guard case .fail(let error)? = machine.ended(nil, now: now).action else { return XCTFail("not failed") }
        XCTAssertEqual((error as? HTTPError)?.statusCode, 503)
        XCTAssertEqual((error as? HTTPError)?.body, Data("still busy".utf8))
    }

    func testAnUnretriedStatusFails() {
        var machine = machine()
        _ = machine.reconnect()
        _ = machine.receivedHead(head(401, "application/json"), now: now)
        guard case .fail(let error)? = machine.ended(nil, now: now).action else { return XCTFail("not failed") }
        XCTAssertEqual((error as? HTTPError)?.statusCode, 401)
    }

    func testAnOpenConnectionResetsTheFailureCount() {
        var machine = machine(policy: RetryPolicy(maxRetries: 1, initialDelay: 0.1))
        for _ in 0..<3 {
            _ = machine.reconnect()
            guard case .reconnect? = machine.ended(HTTPError.transport(URLError(.cannotConnectToHost)), now: now).action else {
                return XCTFail("no retry")
            }
            _ = machine.reconnect()
            _ = machine.receivedHead(head(200), now: now)
            XCTAssertEqual(machine.failures, 0)
            guard case .reconnect? = machine.ended(nil, now: now).action else { return XCTFail("no reconnection") }
        }
    }

    func testWithoutReconnectionTheEndOfTheBodyCompletesAndALostConnectionFails() {
        var complete = machine(reconnects: false)
        _ = complete.reconnect()
        _ = complete.receivedHead(head(200), now: now)
        guard case .complete? = complete.ended(nil, now: now).action else { return XCTFail("not completed") }
        var lost = machine(reconnects: false)
        _ = lost.reconnect()
        _ = lost.receivedHead(head(200), now: now)
        guard case .fail(let error)? = lost.ended(URLError(.networkConnectionLost), now: now).action else { return XCTFail("not failed") }
        XCTAssertEqual((error as? HTTPError)?.urlError?.code, .networkConnectionLost)
    }

    func testATimeoutBeforeTheHeadIsAFailedAttemptAndIgnoredAfterIt() {
        var machine = machine(policy: nil)
        _ = machine.reconnect()
        guard case .fail(let error)? = machine.timedOut(now: now).action else { return XCTFail("not failed") }
        XCTAssertEqual((error as? HTTPError)?.urlError?.code, .timedOut)
        var open = self.machine(policy: nil)
        _ = open.reconnect()
        _ = open.receivedHead(head(200), now: now)
        XCTAssertNil(open.timedOut(now: now).action)
    }

    // MARK: Reconnection waits: a floor, and backoff while connections bring nothing

    func testRetryZeroIsRaisedToTheFloor() {
        // The server: `retry: 0`, one event, close. Each connection
        // delivered something, so no backoff: the floor alone.
        var machine = machine(backoff: defaultBackoff(draw: 0.5))
        let waits = (0..<5).map { _ in connection(&machine, "retry: 0\ndata: x\n\n") }
        XCTAssertEqual(waits, [0.5, 0.5, 0.5, 0.5, 0.5])
        XCTAssertEqual(machine.barrenConnections, 0)
    }

    func testConnectionsThatEndWithoutAnEventWaitTwiceAsLongEachTimeUpToTheMaximum() {
        var machine = machine(backoff: ReconnectionBackoff(minimum: 0.5, maximum: 30, jitter: .none))
        let waits = (0..<9).map { _ in connection(&machine, "retry: 0\n\n: only a comment\n") }
        XCTAssertEqual(waits, [1, 2, 4, 8, 16, 30, 30, 30, 30])
        XCTAssertEqual(machine.barrenConnections, 9)
    }

    func testAnEventResetsTheBackoff() {
        var machine = machine(backoff: ReconnectionBackoff(minimum: 0.5, maximum: 30, jitter: .none))
        XCTAssertEqual(connection(&machine, "retry: 250\n\n"), 1)
        XCTAssertEqual(connection(&machine, ""), 2)
        XCTAssertEqual(connection(&machine, "data: back\n\n"), 0.5, "an event: the reconnection time (250 ms), raised to the floor")
        XCTAssertEqual(connection(&machine, ""), 1, "the count starts again")
    }

    func testTheJitterSpreadsBackedOffWaitsDownwardsButNeverBelowTheReconnectionTime() {
        // Draws near 1 take the most off: half of each wait, with `.proportional(0.5)`.
        var low = machine(backoff: defaultBackoff(draw: 0.999_999))
        let lowWaits = (0..<7).map { _ in connection(&low, "retry: 0\n\n").map { ($0 * 1000).rounded() / 1000 } }
        XCTAssertEqual(lowWaits, [0.5, 1, 2, 4, 8, 15, 15], "never below the 0.5 s floor; 15 s is half the 30 s ceiling")
        var high = machine(backoff: defaultBackoff(draw: 0))
        XCTAssertEqual((0..<3).map { _ in connection(&high, "retry: 0\n\n") }, [1, 2, 4], "a draw of 0 takes nothing off")
        // The reconnection time (here the machine's default, 3 s) is the base:
        // even a jitter that could take everything off stops there.
        var server = machine(backoff: ReconnectionBackoff(minimum: 0.5, maximum: 30, jitter: .proportional(1, random: { 0.999 })))
        XCTAssertEqual(connection(&server, "\n"), 3)
        XCTAssertEqual(connection(&server, "\n"), 3)
    }

    func testAServersLongerReconnectionTimeIsHonouredAboveTheMaximum() {
        var machine = machine(backoff: ReconnectionBackoff(minimum: 0.5, maximum: 30, jitter: .none))
        XCTAssertEqual(connection(&machine, "retry: 60000\n\n"), 60)
        XCTAssertEqual(connection(&machine, ""), 60, "the ceiling never shortens what the server asked for")
    }

    func testAFailedAttemptWaitsAtLeastTheFloor() {
        var machine = machine(policy: RetryPolicy(maxRetries: 3, initialDelay: 0), backoff: defaultBackoff(draw: 0.5))
        _ = machine.reconnect()
        _ = machine.receivedHead(head(200), now: now)
        _ = machine.receivedBody(Data("retry: 0\n\n".utf8), now: now)
        _ = machine.ended(nil, now: now)
        _ = machine.reconnect()
        guard case .reconnect(let delay)? = machine.ended(HTTPError.transport(URLError(.cannotConnectToHost)), now: now).action else {
            return XCTFail("no retry")
        }
        XCTAssertEqual(delay, 0.5, "a policy without delay and `retry: 0` still wait the floor")
    }

    func testWithoutABackoffTheWaitIsTheReconnectionTime() {
        var machine = machine()
        XCTAssertEqual((0..<3).map { _ in connection(&machine, "retry: 0\n\n") }, [0, 0, 0])
    }

    func testTheBackoffSurvivesAbsurdSettings() {
        let backoff = ReconnectionBackoff(minimum: 0.5, maximum: .infinity, jitter: .proportional(.nan, random: { .nan }))
        XCTAssertEqual(backoff.wait(after: .nan, barrenConnections: 0), 0.5)
        XCTAssertEqual(backoff.wait(after: -1, barrenConnections: 3), 4)
        XCTAssertTrue(backoff.wait(after: 1, barrenConnections: Int.max).isFinite)
        XCTAssertEqual(ReconnectionBackoff(minimum: 0, maximum: 30, jitter: .none).wait(after: 0, barrenConnections: 5), 0)
    }

    func testABrokenStreamFailsAfterTheEventsBeforeIt() {
        var machine = StreamingMachine(
            format: EventStreamFormat(parser: ServerSentEventParser(maximumLineLength: 10), defaultReconnectionDelay: 3),
            request: URLRequest(url: url), acceptable: .successful, retryPolicy: .default, reconnects: true)
        _ = machine.reconnect()
        _ = machine.receivedHead(head(200), now: now)
        let step = machine.receivedBody(Data("data: a\n\ndata: much too long\n".utf8), now: now)
        XCTAssertEqual(step.elements, [ServerSentEvent(data: "a")])
        guard case .fail(let error)? = step.action else { return XCTFail("not failed") }
        XCTAssertEqual(error as? EventStreamError, .lineTooLong(limit: 10))
    }
}

/// Newline-delimited JSON as a stream format.
final class JSONLinesFormatTests: RippleTestCase {
    struct Item: Decodable, Equatable {
        let n: Int
    }

    func decode(_ chunks: [String], complete: Bool = true) throws -> [Item] {
        var format = JSONLinesFormat<Item>(maximumLineLength: 64, decoder: JSONDecoder(), keyPath: nil)
        var items: [Item] = []
        for chunk in chunks {
            try format.decode(Data(chunk.utf8), into: &items)
        }
        try format.endOfStream(complete: complete, into: &items)
        return items
    }

    func testEachLineIsOneValueWhateverTheChunks() throws {
        XCTAssertEqual(try decode(["{\"n\":1}\n{\"n\"", ":2}\r\n\n  \n{\"n\":3}\n"]), [Item(n: 1), Item(n: 2), Item(n: 3)])
    }

    func testALastLineWithoutLineFeedCountsOnlyAtANormalEnd() throws {
        XCTAssertEqual(try decode(["{\"n\":1}\n{\"n\":2}"]), [Item(n: 1), Item(n: 2)])
        XCTAssertEqual(try decode(["{\"n\":1}\n{\"n\":2}"], complete: false), [Item(n: 1)])
    }

    func testALineThatDoesNotDecodeIsAnUndecodableBodyWithThatLine() {
        XCTAssertThrowsError(try decode(["{\"n\":1}\n{\"n\":\"two\"}\n"])) { error in
            XCTAssertEqual((error as? HTTPError)?.kind, .undecodableBody)
            XCTAssertEqual((error as? HTTPError)?.body, Data("{\"n\":\"two\"}".utf8))
        }
    }

    func testALineOverTheLimitIsATypedError() {
        XCTAssertThrowsError(try decode(["{\"n\":1}\n", String(repeating: " ", count: 100)])) { error in
            XCTAssertEqual(error as? EventStreamError, .lineTooLong(limit: 64))
        }
    }

    func testACarriageReturnAloneIsNotALineEnd() throws {
        // JSON allows \r as whitespace between tokens.
        XCTAssertEqual(try decode(["{\"n\":\r1}\n"]), [Item(n: 1)])
    }
}
