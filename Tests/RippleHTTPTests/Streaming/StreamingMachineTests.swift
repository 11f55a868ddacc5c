import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import RippleHTTP
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

    func machine(policy: RetryPolicy? = RetryPolicy(maxRetries: 2, initialDelay: 0.5), reconnects: Bool = true, lastEventID: String? = nil)
        -> StreamingMachine<EventStreamFormat>
    {
        StreamingMachine(
            format: EventStreamFormat(parser: ServerSentEventParser(lastEventID: lastEventID), defaultReconnectionDelay: 3),
            request: URLRequest(url: url), acceptable: .successful, retryPolicy: policy, reconnects: reconnects)
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
