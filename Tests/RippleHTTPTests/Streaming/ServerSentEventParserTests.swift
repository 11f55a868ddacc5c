import Foundation
import RippleHTTP
import RippleHTTPStreaming
import RippleTest
import XCTest

/// `ServerSentEventParser` against the WHATWG rules for parsing and
/// interpreting an event stream, with plain asserts: it is a value type.
final class ServerSentEventParserTests: RippleTestCase {
    /// All the events of `text` fed in one chunk, then the end of the stream.
    private func events(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [ServerSentEvent] {
        events(Data(text.utf8), file: file, line: line)
    }

    private func events(_ bytes: Data, file: StaticString = #filePath, line: UInt = #line) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        do {
            let events = try parser.parse(bytes)
            parser.finish()
            return events
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return []
        }
    }

    func testABlankLineDispatchesTheEventWithItsDataLinesJoinedByLineFeeds() {
        XCTAssertEqual(events("data: first\ndata: second\n\ndata: third\n\n"), [
            ServerSentEvent(data: "first\nsecond"),
            ServerSentEvent(data: "third"),
        ])
    }

    func testTheEventTypeDefaultsToMessageAndLastsOneEvent() {
        XCTAssertEqual(events("event: add\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n"), [
            ServerSentEvent(event: "add", data: "1"),
            ServerSentEvent(data: "2"),
            ServerSentEvent(data: "3"),       // an empty type is "message"
        ])
    }

    func testTheLastEventIDCarriesOverToLaterEventsUntilAnEmptyIDClearsIt() {
        XCTAssertEqual(events("id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 8\ndata: d\n\n"), [
            ServerSentEvent(id: "7", data: "a"),
            ServerSentEvent(id: "7", data: "b"),
            ServerSentEvent(id: nil, data: "c"),
            ServerSentEvent(id: "8", data: "d"),
        ])
    }

    func testAnIDContainingNULIsIgnored() {
        XCTAssertEqual(events("id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n").map(\.id), ["1", "1"])
    }

    func testAnEventWithoutDataIsNotDispatchedButItsIDCounts() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(try parser.parse(Data("id: 5\n\nevent: ping\n\n".utf8)), [])
        XCTAssertEqual(parser.lastEventID, "5")
        XCTAssertEqual(try parser.parse(Data("data: x\n\n".utf8)), [ServerSentEvent(id: "5", data: "x")])
    }

    func testRetryTakesOnlyASCIIDigitsAsMilliseconds() {
        var parser = ServerSentEventParser()
        let events = try? parser.parse(Data("retry: 2500\ndata: a\n\nretry: 1.5\ndata: b\n\nretry: soon\nretry:\ndata: c\n\n".utf8))
        XCTAssertEqual(events, [
            ServerSentEvent(data: "a", retry: 2500),
            ServerSentEvent(data: "b"),
            ServerSentEvent(data: "c"),
        ])
        XCTAssertEqual(parser.reconnectionTime, 2500)
        // A retry without an event still sets the reconnection time, and rides on the next event.
        XCTAssertEqual(try parser.parse(Data("retry: 100\n\ndata: d\n\n".utf8)), [ServerSentEvent(data: "d", retry: 100)])
        XCTAssertEqual(parser.reconnectionTime, 100)
        // Too many digits: the largest interval, not a crash.
        _ = try? parser.parse(Data("retry: 99999999999999999999999999\n".utf8))
        XCTAssertEqual(parser.reconnectionTime, Int.max)
    }

    func testCommentsAndUnknownFieldsAreIgnored() {
        XCTAssertEqual(events(": heartbeat\nfoo: bar\ndata: a\n:data: b\nDATA: c\n\n"), [ServerSentEvent(data: "a")])
    }

    func testOnlyOneSpaceAfterTheColonIsDropped() {
        XCTAssertEqual(events("data:no space\n\ndata:  two spaces\n\ndata: \n\n"), [
            ServerSentEvent(data: "no space"),
            ServerSentEvent(data: " two spaces"),
            ServerSentEvent(data: ""),
        ])
    }

    func testAFieldWithoutAColonHasAnEmptyValue() {
        XCTAssertEqual(events("data\ndata\ndata: x\n\ndata\n\n"), [
            ServerSentEvent(data: "\n\nx"),
            ServerSentEvent(data: ""),
        ])
    }

    func testValuesKeepTheirColons() {
        XCTAssertEqual(events("data: a: b: c\nevent: x:y\n\n"), [ServerSentEvent(event: "x:y", data: "a: b: c")])
    }

    func testLinesEndWithCRLFOrLFOrCR() {
        XCTAssertEqual(events("data: crlf\r\n\r\ndata: lf\n\ndata: cr\r\rdata: mixed\r\ndata: again\n\r"), [
            ServerSentEvent(data: "crlf"),
            ServerSentEvent(data: "lf"),
            ServerSentEvent(data: "cr"),
            ServerSentEvent(data: "mixed\nagain"),
        ])
    }

    func testACRLFSplitBetweenChunksIsOneLineEnd() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(try parser.parse(Data("data: a\r".utf8)), [])
        // The \n belongs to the \r: not a second (blank) line.
        XCTAssertEqual(try parser.parse(Data("\ndata: b\r".utf8)), [])
        XCTAssertEqual(try parser.parse(Data("\n\r\n".utf8)), [ServerSentEvent(data: "a\nb")])
    }

    func testOneByteOrderMarkAtTheStartIsSkipped() {
        XCTAssertEqual(events(Data([0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8))), [ServerSentEvent(data: "a")])
        // A second one is part of the field name: an unknown field.
        XCTAssertEqual(events(Data([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("data: a\n\ndata: b\n\n".utf8))), [ServerSentEvent(data: "b")])
        // Later in the stream it is data.
        XCTAssertEqual(events("data: \u{FEFF}x\n\n"), [ServerSentEvent(data: "\u{FEFF}x")])
    }

    func testAByteOrderMarkSplitAcrossChunksIsStillSkipped() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(try parser.parse(Data([0xEF])), [])
        XCTAssertEqual(try parser.parse(Data([0xBB])), [])
        XCTAssertEqual(try parser.parse(Data([0xBF] + Array("data: a\n\n".utf8))), [ServerSentEvent(data: "a")])
    }

    func testInvalidUTF8BecomesTheReplacementCharacter() {
        XCTAssertEqual(events(Data(Array("data: a".utf8) + [0xFF, 0xC3] + Array("b\n\n".utf8))), [ServerSentEvent(data: "a\u{FFFD}\u{FFFD}b")])
        XCTAssertEqual(events(Data("data: é ✓ 🌊\n\n".utf8)), [ServerSentEvent(data: "é ✓ 🌊")])
    }

    func testAFinalEventWithoutItsBlankLineIsDiscarded() {
        XCTAssertEqual(events("data: a\n\ndata: b\n"), [ServerSentEvent(data: "a")])
        XCTAssertEqual(events("data: a\n\ndata: b"), [ServerSentEvent(data: "a")])
    }

    func testTheEndOfAConnectionKeepsTheLastEventIDAndTheReconnectionTime() {
        var parser = ServerSentEventParser(lastEventID: "3")
        XCTAssertEqual(try parser.parse(Data("retry: 50\ndata: a\n\nid: 9\ndata: cut".utf8)), [ServerSentEvent(id: "3", data: "a", retry: 50)])
        parser.finish()
        // The id of the unfinished event does not count.
        XCTAssertEqual(parser.lastEventID, "3")
        XCTAssertEqual(parser.reconnectionTime, 50)
        // The next connection starts afresh (and may start with a BOM).
        XCTAssertEqual(try parser.parse(Data([0xEF, 0xBB, 0xBF] + Array("data: b\n\n".utf8))), [ServerSentEvent(id: "3", data: "b")])
    }

    func testALineLongerThanTheLimitIsATypedErrorAfterTheEventsBeforeIt() {
        var parser = ServerSentEventParser(maximumLineLength: 16)
        var events: [ServerSentEvent] = []
        XCTAssertThrowsError(try parser.parse(Data("data: short\n\ndata: far too long for the limit\n\n".utf8), into: &events)) { error in
            XCTAssertEqual(error as? EventStreamError, .lineTooLong(limit: 16))
        }
        XCTAssertEqual(events, [ServerSentEvent(data: "short")])
        // An unfinished line is bounded too: it fails before its end arrives.
        var streaming = ServerSentEventParser(maximumLineLength: 16)
        XCTAssertEqual(try streaming.parse(Data("data: 0123456789".utf8)), [])
        XCTAssertThrowsError(try streaming.parse(Data("a".utf8))) { error in
            XCTAssertEqual(error as? EventStreamError, .lineTooLong(limit: 16))
        }
        // At the limit: accepted.
        var exact = ServerSentEventParser(maximumLineLength: 16)
        XCTAssertEqual(try exact.parse(Data("data: 0123456789\n\n".utf8)), [ServerSentEvent(data: "0123456789")])
    }

    func testAnEventWithMoreDataThanTheLimitIsATypedError() {
        var parser = ServerSentEventParser(maximumEventSize: 8)
        XCTAssertEqual(try parser.parse(Data("data: 1234567\n\n".utf8)), [ServerSentEvent(data: "1234567")])
        XCTAssertThrowsError(try parser.parse(Data("data: 1234\ndata: 5678\n\n".utf8))) { error in
            XCTAssertEqual(error as? EventStreamError, .eventTooLarge(limit: 8))
            XCTAssertEqual("\(error)", "Server-sent event too large: more than 8 bytes of data")
        }
    }

    func testEncodedEventsParseBackToThemselves() {
        let originals = [
            ServerSentEvent(id: "1", data: "plain"),
            ServerSentEvent(id: "1", event: "update", data: "two\nlines", retry: 1500),
            ServerSentEvent(id: "2", data: ""),
            ServerSentEvent(id: "2", data: " leading space and trailing\n"),
        ]
        XCTAssertEqual(events(originals.map(\.encoded).joined()), originals)
        XCTAssertEqual(ServerSentEvent(id: "7", data: "a\nb").encoded, "id: 7\ndata: a\ndata: b\n\n")
    }
}
