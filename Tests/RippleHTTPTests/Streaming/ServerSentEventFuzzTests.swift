import Foundation
import RippleHTTP
import RippleHTTPStreaming
import RippleTest
import XCTest

/// However a stream is cut into chunks, the parser sees the same events:
/// 100 000 seeded random chunkings of one stream that uses every rule (a BOM,
/// the three line ends, comments, multi-line data, ids, retry, multi-byte
/// UTF-8, an invalid byte, a final event without its blank line).
final class ServerSentEventFuzzTests: RippleTestCase {
    static let stream: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((
        ": welcome\r\n"
        + "retry: 1500\r\n"
        + "id: 1\nevent: add\ndata: first\ndata:second line\n\n"
        + "data: café ✓ 🌊\r\r"
        + "id\ndata\ndata: x: y\r\n\r\n"
        + "id: 2\u{0}\nid: 3\nfoo: bar\nretry: 9x\ndata:  spaced\n\n"
        + "event: ping\n\n"
        + "data: "
    ).utf8) + [0xC3, 0x28] + Array("\n\ndata: ".utf8) + [0xE2, 0x82] + Array("\r\ndata: cut off".utf8)

    /// The stream parsed byte by byte: the reference.
    static func reference() throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for byte in stream {
            try parser.parse(Data([byte]), into: &events)
        }
        parser.finish()
        return events
    }

    func testTheReferenceIsWhatTheRulesSay() throws {
        XCTAssertEqual(try Self.reference(), [
            ServerSentEvent(id: "1", event: "add", data: "first\nsecond line", retry: 1500),
            ServerSentEvent(id: "1", data: "café ✓ 🌊"),
            ServerSentEvent(id: nil, data: "\nx: y"),
            ServerSentEvent(id: "3", data: " spaced"),
            // "event: ping" alone dispatches nothing; an invalid byte becomes U+FFFD.
            ServerSentEvent(id: "3", data: "\u{FFFD}("),
            // The last event has no blank line: discarded.
        ])
    }

    func testEveryChunkingGivesTheSameEvents() throws {
        let expected = try Self.reference()
        // Slices of one `Data` share its storage: a chunk costs no allocation.
        let bytes = Data(Self.stream)
        var random = SeededRandomNumberGenerator(seed: 20_241_124)
        var events: [ServerSentEvent] = []
        events.reserveCapacity(expected.count)
        let chunkings = 100_000
        let fresh = ServerSentEventParser()
        for iteration in 0..<chunkings {
            var parser = fresh
            events.removeAll(keepingCapacity: true)
            var offset = 0
            // Mostly small pieces (every split point gets hit), sometimes large ones.
            let maximum = iteration % 10 == 0 ? bytes.count : 16
            while offset < bytes.count {
                let end = min(bytes.count, offset + 1 + random.below(maximum))
                try parser.parse(bytes[offset..<end], into: &events)
                offset = end
            }
            parser.finish()
            if events != expected {
                XCTFail("chunking \(iteration) gave \(events)")
                return
            }
        }
    }

    func testALineTooLongFailsAfterTheSameEventsWhateverTheChunking() {
        let bytes = Array("data: a\n\ndata: 0123456789abcdef\n\ndata: never\n\n".utf8)
        var random = SeededRandomNumberGenerator(seed: 7)
        for _ in 0..<10_000 {
            var parser = ServerSentEventParser(maximumLineLength: 12)
            var events: [ServerSentEvent] = []
            var failure: EventStreamError?
            var offset = 0
            while offset < bytes.count, failure == nil {
                let end = min(bytes.count, offset + 1 + Int(random.below(6)))
                do {
                    try parser.parse(Data(bytes[offset..<end]), into: &events)
                } catch {
                    failure = error
                }
                offset = end
            }
            XCTAssertEqual(events, [ServerSentEvent(data: "a")])
            XCTAssertEqual(failure, .lineTooLong(limit: 12))
        }
    }
}
