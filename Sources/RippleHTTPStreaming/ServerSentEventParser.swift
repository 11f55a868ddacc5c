import Foundation

/// Reads a `text/event-stream` body incrementally, by the rules of the
/// WHATWG HTML standard ("Server-sent events": parsing and interpreting an
/// event stream), whatever the chunks it arrives in.
///
/// - UTF-8 (an invalid sequence becomes U+FFFD); one byte order mark at the
///   start of the stream is skipped.
/// - Lines end with `\r\n`, `\n` or `\r`.
/// - A blank line dispatches the event being built: its `data:` values
///   joined with `\n`, its `event:` type (`"message"` by default), the last
///   event ID. An event without data is not dispatched (its `id:` still
///   counts).
/// - `field: value` (one space after the colon is dropped), `field` alone
///   (an empty value); a line starting with `:` is a comment. `id:` with a
///   NUL is ignored; `retry:` must be ASCII digits (milliseconds); other
///   fields are ignored.
/// - ``finish()``: the stream ended; an event without its blank line is
///   discarded.
///
/// A value type with no lock and no I/O (``RippleHTTP/Session/events(for:options:)-(R,_)``
/// feeds it from the network); its memory is bounded: a line longer than
/// ``maximumLineLength`` bytes is ``EventStreamError/lineTooLong(limit:)``,
/// an event with more than ``maximumEventSize`` bytes of data
/// ``EventStreamError/eventTooLarge(limit:)``.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// try parser.parse(Data("data: a\nda".utf8))     // []
/// try parser.parse(Data("ta: b\n\n".utf8))       // [ServerSentEvent(data: "a\nb")]
/// ```
public struct ServerSentEventParser: Sendable {
    /// The longest line accepted, in bytes.
    public var maximumLineLength: Int { scanner.maximumLineLength }
    /// The most bytes of data one event may carry.
    public let maximumEventSize: Int
    /// The last event ID of the last dispatched event (or the one the parser
    /// started with): what a reconnection sends as `Last-Event-ID`.
    public private(set) var lastEventID: String?
    /// The latest reconnection time the stream set (`retry:`), in
    /// milliseconds; `nil` until it sets one.
    public private(set) var reconnectionTime: Int?

    private var scanner: LineScanner
    private var event: EventBuffer

    /// A parser.
    ///
    /// - Parameters:
    ///   - maximumLineLength: the longest line accepted, in bytes
    ///     (default 1 MiB).
    ///   - maximumEventSize: the most bytes of data one event may carry
    ///     (default 8 MiB).
    ///   - lastEventID: the last event ID to start from (a resumed stream).
    public init(maximumLineLength: Int = 1 << 20, maximumEventSize: Int = 8 << 20, lastEventID: String? = nil) {
        event = EventBuffer()
        scanner = LineScanner(maximumLineLength: maximumLineLength, carriageReturnEndsLine: true)
        self.maximumEventSize = max(0, maximumEventSize)
        self.lastEventID = lastEventID
        event.idBuffer = lastEventID
    }

    /// Reads `chunk` and returns the events it completes, in order.
    ///
    /// - Throws: ``EventStreamError/lineTooLong(limit:)`` or
    ///   ``EventStreamError/eventTooLarge(limit:)``; the stream cannot go on.
    public mutating func parse(_ chunk: Data) throws(EventStreamError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try parse(chunk, into: &events)
        return events
    }

    /// Reads `chunk`, appending the events it completes to `events`; on a
    /// thrown error, `events` holds those dispatched before it.
    public mutating func parse(_ chunk: Data, into events: inout [ServerSentEvent]) throws(EventStreamError) {
        let limit = maximumEventSize
        defer {
            lastEventID = event.lastEventID
            reconnectionTime = event.reconnectionTime
        }
        // `withUnsafeBytes` rethrows untyped errors: carry the typed one out.
        let outcome = chunk.withUnsafeBytes { bytes in
            Result { () throws(EventStreamError) -> Bool in
                try ServerSentEventParser.read(bytes, scanner: &scanner, event: &event, limit: limit, into: &events)
            }
        }
        if try !outcome.get() {
            throw .lineTooLong(limit: maximumLineLength)
        }
    }

    /// The stream ended (the connection closed): the unfinished line and
    /// the event being built are discarded. The last event ID and the
    /// reconnection time stay, for the next connection, which may start with
    /// its own byte order mark.
    public mutating func finish() {
        scanner.reset()
        event.discardPending()
    }

    /// `false` when a line was too long.
    private static func read(
        _ bytes: UnsafeRawBufferPointer, scanner: inout LineScanner, event: inout EventBuffer, limit: Int,
        into events: inout [ServerSentEvent]
    ) throws(EventStreamError) -> Bool {
        try scanner.scan(bytes) { (line) throws(EventStreamError) in
            if let dispatched = try event.process(line, maximumEventSize: limit) {
                events.append(dispatched)
            }
        }
    }
}

/// The event being built: the parser's field buffers.
private struct EventBuffer: Sendable {
    var data: [UInt8] = []
    var type: String?
    /// The last event ID buffer (set by `id:`, published on dispatch).
    var idBuffer: String?
    /// The last event ID string (as of the last dispatch).
    var lastEventID: String?
    var reconnectionTime: Int?
    /// `retry:` seen since the last dispatched event.
    var retrySinceEvent: Int?
    /// The next line is the first of a stream (it may start with a BOM).
    var atStreamStart = true

    mutating func discardPending() {
        data.removeAll(keepingCapacity: data.capacity <= 65_536)
        type = nil
        idBuffer = lastEventID
        atStreamStart = true
    }

    /// Interprets one line; returns the event a blank line dispatches.
    ///
    /// Written with indices into the bytes rather than slices and generic
    /// algorithms: in a debug build (where tests and most apps run) the
    /// generic forms cost a metadata lookup per call, 30 times the work
    /// (measured with callgrind on the fuzz test's stream: 1.1 M → 40 k
    /// instructions per chunking).
    mutating func process(_ line: UnsafeRawBufferPointer, maximumEventSize: Int) throws(EventStreamError) -> ServerSentEvent? {
        var start = 0
        let end = line.count
        if atStreamStart {
            atStreamStart = false
            if end >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
                start = 3
            }
        }
        guard start < end else { return dispatch() }
        if line[start] == EventBuffer.colon { return nil }      // a comment
        var colon = start
        while colon < end, line[colon] != EventBuffer.colon { colon += 1 }
        let nameLength = colon - start
        var valueStart = min(colon + 1, end)
        if valueStart < end, colon < end, line[valueStart] == EventBuffer.space { valueStart += 1 }
        let value = UnsafeRawBufferPointer(rebasing: line[valueStart..<end])
        switch (nameLength, line[start]) {
        case (4, UInt8(ascii: "d")) where EventBuffer.matches(line, start, "ata"):
            guard data.count + value.count + 1 <= maximumEventSize else {
                throw EventStreamError.eventTooLarge(limit: maximumEventSize)
            }
            LineScanner.append(value, 0..<value.count, to: &data)
            data.append(LineScanner.lineFeed)
        case (5, UInt8(ascii: "e")) where EventBuffer.matches(line, start, "vent"):
            type = EventBuffer.text(value)
        case (2, UInt8(ascii: "i")) where line[start + 1] == UInt8(ascii: "d"):
            var index = 0
            while index < value.count, value[index] != 0 { index += 1 }
            if index == value.count {
                idBuffer = value.isEmpty ? nil : EventBuffer.text(value)
            }
        case (5, UInt8(ascii: "r")) where EventBuffer.matches(line, start, "etry"):
            guard !value.isEmpty else { return nil }
            var milliseconds = 0
            for index in 0..<value.count {
                let digit = value[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                let (times10, overflow1) = milliseconds.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(digit))
                milliseconds = overflow1 || overflow2 ? Int.max : sum
            }
            reconnectionTime = milliseconds
            retrySinceEvent = milliseconds
        default:
            break       // another field: ignored
        }
        return nil
    }

    /// Whether the bytes after `line[start]` begin with `rest`.
    private static func matches(_ line: UnsafeRawBufferPointer, _ start: Int, _ rest: StaticString) -> Bool {
        let count = rest.utf8CodeUnitCount
        guard start + 1 + count <= line.count else { return false }
        let expected = rest.utf8Start
        for index in 0..<count where line[start + 1 + index] != expected[index] {
            return false
        }
        return true
    }

    /// UTF-8 bytes as a string (invalid sequences become U+FFFD).
    private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = idBuffer
        guard !data.isEmpty else {
            type = nil
            return nil
        }
        let text = data.withUnsafeBytes { EventBuffer.text(UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
        let event = ServerSentEvent(
            id: lastEventID, event: type.flatMap { $0.isEmpty ? nil : $0 } ?? "message", data: text, retry: retrySinceEvent)
        data.removeAll(keepingCapacity: data.capacity <= 65_536)
        type = nil
        retrySinceEvent = nil
        return event
    }

    static let colon = UInt8(ascii: ":")
    static let space = UInt8(ascii: " ")
}
