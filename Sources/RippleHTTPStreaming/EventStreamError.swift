/// Why a streamed response (``RippleHTTP/Session/events(for:options:)-(R,_)``,
/// ``RippleHTTP/Session/jsonLines(for:options:)``) was given up: the stream broke a rule or a
/// limit. Transport failures and status codes stay `HTTPError`s.
///
/// ```swift
/// session.events(for: LiveUpdates())
///     .subscribe(onError: { error in
///         if case EventStreamError.lineTooLong(let limit)? = error as? EventStreamError { ... }
///     })
/// ```
public enum EventStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line was longer than the limit (``EventStreamOptions/maximumLineLength``):
    /// the stream is not read further, rather than buffered without bound.
    case lineTooLong(limit: Int)
    /// The `data:` lines of one event added up to more than the limit
    /// (``EventStreamOptions/maximumEventSize``).
    case eventTooLarge(limit: Int)
    /// The response is a success but not `text/event-stream` (its
    /// `Content-Type`, if any): it is not an event stream, and is not retried.
    case notAnEventStream(contentType: String?)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .lineTooLong(let limit):
            return "Event stream line too long: more than \(limit) bytes without a line end"
        case .eventTooLarge(let limit):
            return "Server-sent event too large: more than \(limit) bytes of data"
        case .notAnEventStream(let contentType):
            return "Not an event stream: Content-Type \(contentType.map { "'\($0)'" } ?? "missing") instead of 'text/event-stream'"
        }
    }
}
