import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a streamed body becomes elements, for ``StreamingMachine``: Server-Sent
/// Events (``EventStreamFormat``) and newline-delimited JSON
/// (``JSONLinesFormat``) are the two. A value type: no lock, no I/O.
protocol StreamFormat: Sendable {
    associatedtype Element

    /// The request of the next connection (the first, or a reconnection).
    func prepare(_ request: URLRequest) -> URLRequest
    /// Checks an accepted (2xx) response's head; an error rejects the
    /// stream (it is not retried).
    func accept(_ head: HTTPURLResponse) -> Error?
    /// Decodes `chunk`, appending the elements it completes; on a thrown
    /// error, `elements` holds those before it.
    mutating func decode(_ chunk: Data, into elements: inout [Element]) throws
    /// The connection ended (`complete`: the body ended normally, not cut
    /// by an error): appends what the end completes, discards the rest.
    mutating func endOfStream(complete: Bool, into elements: inout [Element]) throws
    /// How long to wait before reconnecting after the connection ended, in
    /// seconds; `nil`: the format does not resume (the stream ends with the
    /// body).
    var reconnectionDelay: TimeInterval? { get }
}

/// `text/event-stream`: ``ServerSentEventParser``, with `Last-Event-ID` and
/// `retry:` for reconnections.
struct EventStreamFormat: StreamFormat {
    var parser: ServerSentEventParser
    /// The reconnection time until the server sets one, in seconds; `nil`:
    /// no reconnection.
    let defaultReconnectionDelay: TimeInterval?

    func prepare(_ request: URLRequest) -> URLRequest {
        var request = request
        if request.value(forHTTPHeaderField: "Accept") == nil {
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        }
        if request.value(forHTTPHeaderField: "Cache-Control") == nil {
            request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        }
        request.setValue(parser.lastEventID, forHTTPHeaderField: "Last-Event-ID")
        return request
    }

    func accept(_ head: HTTPURLResponse) -> Error? {
        let contentType = head.value(forHTTPHeaderField: "Content-Type")
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        return mediaType == "text/event-stream" ? nil : EventStreamError.notAnEventStream(contentType: contentType)
    }

    mutating func decode(_ chunk: Data, into elements: inout [ServerSentEvent]) throws {
        try parser.parse(chunk, into: &elements)
    }

    /// An event without its blank line is discarded, even at a normal end.
    mutating func endOfStream(complete: Bool, into elements: inout [ServerSentEvent]) {
        parser.finish()
    }

    var reconnectionDelay: TimeInterval? {
        guard let defaultReconnectionDelay else { return nil }
        return parser.reconnectionTime.map { TimeInterval($0) / 1000 } ?? defaultReconnectionDelay
    }
}

/// Newline-delimited JSON (`application/x-ndjson`, JSON Lines): one JSON
/// value per line, decoded as `Value`; blank lines are skipped, a `\r`
/// before the `\n` is dropped. A line that does not decode is
/// `HTTPError/undecodableBody(_:body:)` (with that line as the body).
@usableFromInline
struct JSONLinesFormat<Value: Decodable>: StreamFormat {
    var scanner: LineScanner
    let decoder: JSONDecoder
    let keyPath: String?

    @usableFromInline
    init(maximumLineLength: Int, decoder: JSONDecoder, keyPath: String?) {
        scanner = LineScanner(maximumLineLength: maximumLineLength, carriageReturnEndsLine: false)
        self.decoder = decoder
        self.keyPath = keyPath
    }

    func prepare(_ request: URLRequest) -> URLRequest {
        var request = request
        if request.value(forHTTPHeaderField: "Accept") == nil {
            request.setValue("application/x-ndjson, application/jsonl;q=0.9, application/json;q=0.8", forHTTPHeaderField: "Accept")
        }
        return request
    }

    /// Any content type: NDJSON is served as `application/x-ndjson`,
    /// `application/jsonl`, `application/json` or `text/plain`; the lines
    /// say whether it is JSON.
    func accept(_ head: HTTPURLResponse) -> Error? { nil }

    mutating func decode(_ chunk: Data, into elements: inout [Value]) throws {
        let limit = scanner.maximumLineLength
        let decoder = self.decoder, keyPath = self.keyPath ?? ""
        // `withUnsafeBytes` rethrows untyped errors: carry the outcome out.
        let outcome = chunk.withUnsafeBytes { bytes in
            Result { () throws -> Bool in
                try scanner.scan(bytes) { line in
                    try JSONLinesFormat.decodeLine(line, decoder: decoder, keyPath: keyPath, into: &elements)
                }
            }
        }
        if try !outcome.get() {
            throw EventStreamError.lineTooLong(limit: limit)
        }
    }

    /// A last line without its `\n` still counts when the body ended
    /// normally.
    mutating func endOfStream(complete: Bool, into elements: inout [Value]) throws {
        guard complete else {
            scanner.reset()
            return
        }
        let decoder = self.decoder, keyPath = self.keyPath ?? ""
        try scanner.flush { line in
            try JSONLinesFormat.decodeLine(line, decoder: decoder, keyPath: keyPath, into: &elements)
        }
    }

    private static func decodeLine(
        _ line: UnsafeRawBufferPointer, decoder: JSONDecoder, keyPath: String, into elements: inout [Value]
    ) throws {
        var end = line.count
        if end > 0, line[end - 1] == LineScanner.carriageReturn { end -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: line[0..<end])
        guard text.contains(where: { !JSONLinesFormat.isWhitespace($0) }) else { return }
        let data = Data(text)
        do {
            elements.append(try decoder.decode(Value.self, from: data, keyPath: keyPath))
        } catch {
            throw HTTPError.undecodableBody(error, body: HTTPError.bodyPrefix(data))
        }
    }

    var reconnectionDelay: TimeInterval? { nil }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
