/// One event of a Server-Sent Events stream (`text/event-stream`), as
/// ``RippleHTTP/Session/events(for:options:)-(R,_)`` delivers it.
///
/// ```
/// id: 42                    ServerSentEvent(id: "42", event: "update",
/// event: update                             data: "{\"a\":1}\n{\"b\":2}", retry: 3000)
/// retry: 3000
/// data: {"a":1}
/// data: {"b":2}
///
/// ```
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The last event ID when the event was dispatched: the value of the
    /// latest `id:` field, in this event or an earlier one (an empty `id:`
    /// clears it: `nil`). Sent back as `Last-Event-ID` on reconnection.
    public var id: String?
    /// The event type (`event:`); `"message"` when none was given.
    public var event: String
    /// The data: the values of the event's `data:` lines, joined with `\n`.
    public var data: String
    /// The reconnection time (`retry:`, in milliseconds) the stream set since
    /// the previous event, if it set one.
    public var retry: Int?

    /// An event; by default of type `"message"`, without ID and `retry`.
    public init(id: String? = nil, event: String = "message", data: String, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }

    /// The event in the `text/event-stream` format, ending with its blank
    /// line: `id:` (when there is one), `event:` (unless `"message"`),
    /// `retry:`, and one `data:` line per line of ``data``. A line break in
    /// the ID or the type cannot be sent: they are cut there. Written by
    /// `StubHTTPClient` and by servers (the mock GitHub API).
    ///
    /// ```
    /// ServerSentEvent(id: "7", data: "a\nb").encoded   // "id: 7\ndata: a\ndata: b\n\n"
    /// ```
    public var encoded: String {
        func line(_ text: String) -> Substring {
            text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).first ?? ""
        }
        var text = ""
        if let id {
            text += "id: \(line(id))\n"
        }
        if event != "message" {
            text += "event: \(line(event))\n"
        }
        if let retry {
            text += "retry: \(retry)\n"
        }
        for dataLine in data.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            text += "data: \(dataLine)\n"
        }
        return text + "\n"
    }

    /// `message(42): hello`, with the type, the ID when there is one, and
    /// the data.
    public var description: String {
        "\(event)\(id.map { "(\($0))" } ?? ""): \(data)\(retry.map { " [retry \($0) ms]" } ?? "")"
    }
}
