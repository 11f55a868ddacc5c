import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Settings of a streamed response (``RippleHTTP/Session/events(for:options:)-(R,_)``,
/// ``RippleHTTP/Session/jsonLines(for:options:)``).
///
/// ```swift
/// var options = EventStreamOptions()
/// options.reconnectionTime = .seconds(1)       // until the server sends `retry:`
/// options.lastEventID = savedID                // resume where the app left off
/// session.events(for: LiveUpdates(), options: options)
/// ```
///
/// **Reconnection waits.** A stream reconnects after the reconnection time
/// (the server's `retry:`, else ``reconnectionTime``), never sooner than
/// ``minimumReconnectionTime``. When connections keep ending without
/// delivering an event, each wait doubles (from that time, up to
/// ``maximumReconnectionTime``), spread by ``reconnectionJitter``; the first
/// connection that delivers an event resets it. A server that answers
/// `retry: 0` and closes is not hammered.
///
/// ```
/// retry: 0, one event per connection:   wait 0.5 s, 0.5 s, 0.5 s, ...
/// retry: 0, connections with no event:  wait 0.5 s, then 0.5–1 s, 1–2 s, 2–4 s, ... 15–30 s, 15–30 s, ...
/// ```
public struct EventStreamOptions: Sendable {
    /// How long to wait before reconnecting after a connection ended, until
    /// the server sets its own time with `retry:`. Default: 3 s.
    public var reconnectionTime: RxTimeInterval
    /// The shortest wait before any reconnection or retry, whatever the
    /// server asks (`retry: 0`) and whatever ``reconnectionTime`` or the
    /// retry policy say. Default: 0.5 s (Firefox's floor).
    public var minimumReconnectionTime: RxTimeInterval
    /// The longest a backed-off wait grows (connections that keep ending
    /// without an event); a longer reconnection time (the server's `retry:`)
    /// is still honoured. Default: 30 s.
    public var maximumReconnectionTime: RxTimeInterval
    /// Spreads backed-off waits downwards, never below the reconnection time:
    /// with a factor `f`, a wait `w` becomes a value in `w × (1 - f) ... w`.
    /// Default: `.proportional(0.5)`. `.none` waits exactly `w`; a fixed or
    /// seeded random source makes the waits repeatable in tests.
    public var reconnectionJitter: RetryPolicy.Jitter
    /// Whether an event stream reconnects when its connection ends (for an
    /// idempotent request). Default: `true`. Newline-delimited JSON never
    /// does: it has no way to resume.
    public var reconnects: Bool
    /// The last event ID to resume from (sent as `Last-Event-ID` on the
    /// first connection). Default: `nil`.
    public var lastEventID: String?
    /// The longest line accepted, in bytes; a longer one fails the stream
    /// with ``EventStreamError/lineTooLong(limit:)``. Default: 1 MiB.
    public var maximumLineLength: Int
    /// The most data one server-sent event may carry, in bytes
    /// (``EventStreamError/eventTooLarge(limit:)``). Default: 8 MiB.
    public var maximumEventSize: Int
    /// How long a connection may stay silent before it counts as lost (and
    /// is reconnected): the `URLRequest`'s `timeoutInterval`, in seconds.
    /// Default: 300 (servers send comments as heartbeats well within it).
    public var idleTimeout: TimeInterval

    /// Options; see the properties for the defaults.
    public init(
        reconnectionTime: RxTimeInterval = .seconds(3), reconnects: Bool = true, lastEventID: String? = nil,
        maximumLineLength: Int = 1 << 20, maximumEventSize: Int = 8 << 20, idleTimeout: TimeInterval = 300,
        minimumReconnectionTime: RxTimeInterval = .milliseconds(500), maximumReconnectionTime: RxTimeInterval = .seconds(30),
        reconnectionJitter: RetryPolicy.Jitter = .proportional(0.5)
    ) {
        self.reconnectionTime = reconnectionTime
        self.minimumReconnectionTime = minimumReconnectionTime
        self.maximumReconnectionTime = maximumReconnectionTime
        self.reconnectionJitter = reconnectionJitter
        self.reconnects = reconnects
        self.lastEventID = lastEventID
        self.maximumLineLength = maximumLineLength
        self.maximumEventSize = maximumEventSize
        self.idleTimeout = idleTimeout
    }
}

extension Session {
    /// The Server-Sent Events (`text/event-stream`) of `request`, each
    /// delivered as soon as its blank line arrives, reconnecting when the
    /// connection ends.
    ///
    /// - The request asks for `text/event-stream` (`Accept`, `Cache-Control:
    ///   no-cache`); a reconnection sends the last event ID as
    ///   `Last-Event-ID`.
    /// - A `2xx` response must be `text/event-stream`
    ///   (``EventStreamError/notAnEventStream(contentType:)``); `204 No
    ///   Content` completes the stream (the server says there is nothing
    ///   more); another status the request does not accept is
    ///   `HTTPError/unacceptableStatusCode(_:headers:body:)`.
    /// - **Reconnection.** When the connection ends (the body ends, or the
    ///   connection is lost), it reconnects after the reconnection time (the
    ///   server's `retry:`, or ``EventStreamOptions/reconnectionTime``), at
    ///   least ``EventStreamOptions/minimumReconnectionTime`` (0.5 s), backed
    ///   off with jitter while connections keep ending without an event (see
    ///   ``EventStreamOptions``).
    ///   A failed attempt (no connection, a timeout, a retried status such as
    ///   `503`) is retried by the request's or the session's `RetryPolicy`
    ///   (`RetryPolicy/default` if neither has one), waiting the longer of
    ///   its delay and the reconnection time; when the policy gives up, the
    ///   stream fails with the error. Requests that are not idempotent (a
    ///   `POST` that starts a completion) neither reconnect nor retry: their
    ///   stream completes when the body ends.
    /// - The session's (or request's) timeout bounds the wait for each
    ///   connection's response head, counted from when the client sends it;
    ///   a connection silent for ``EventStreamOptions/idleTimeout`` is lost.
    /// - A line or an event over the limits fails the stream with an
    ///   ``EventStreamError``: nothing is buffered without bound.
    /// - Disposing closes the connection (or cancels the wait).
    ///
    /// Events arrive one at a time on the session's
    /// `Session/deliveryScheduler` when it has one, else on the client's
    /// thread (`URLSessionHTTPClient`: its delegate queue;
    /// `AsyncHTTPClientTransport`: a SwiftNIO event loop, which must not
    /// block); use `observe(on:)` to move them.
    ///
    /// ```
    /// server:            --e1--e2--x             --e3--...      (x: connection lost)
    /// events(for: r):    --e1--e2----·retry·----(Last-Event-ID: 2)--e3--...
    /// server (204):      --|
    /// events(for: r):    --|
    /// ```
    public func events<R: Request>(for request: R, options: EventStreamOptions = EventStreamOptions()) -> Observable<ServerSentEvent> {
        streamed(request, options: options, reconnects: options.reconnects, format: { Session.eventStreamFormat(options) }, output: { $0 })
    }

    /// ``events(for:options:)-(R,_)`` with the state of the connection between the
    /// events: each connection attempt (with the last event ID it resumes
    /// after), its acceptance by the server, and each wait before the next
    /// attempt (with the reason), for a "Reconnecting…" indicator.
    ///
    /// ```
    /// server:                    --e1---x           --e2--
    /// eventStream(for: r):       c-o-e1---(w 3 s)---c-o-e2--      c: .connecting, o: .connected, w: .waiting
    /// ```
    public func eventStream<R: Request>(for request: R, options: EventStreamOptions = EventStreamOptions()) -> Observable<EventStreamUpdate> {
        streamed(
            request, options: options, reconnects: options.reconnects, format: { Session.eventStreamFormat(options) },
            output: { .event($0) },
            status: { status in
                switch status {
                case .connecting(let attempt, let request):
                    return .connecting(attempt: attempt, lastEventID: request.value(forHTTPHeaderField: "Last-Event-ID"))
                case .connected:
                    return .connected
                case .waiting(let delay, let error):
                    return .waiting(seconds: delay, error: error)
                }
            })
    }

    /// The options' reconnection waits as the machine applies them.
    private static func backoff(_ options: EventStreamOptions) -> ReconnectionBackoff {
        ReconnectionBackoff(
            minimum: options.minimumReconnectionTime.seconds.flatMap { $0.isFinite ? $0 : nil } ?? 0,
            maximum: options.maximumReconnectionTime.seconds ?? 0,
            jitter: options.reconnectionJitter)
    }

    private static func eventStreamFormat(_ options: EventStreamOptions) -> EventStreamFormat {
        EventStreamFormat(
            parser: ServerSentEventParser(
                maximumLineLength: options.maximumLineLength, maximumEventSize: options.maximumEventSize, lastEventID: options.lastEventID),
            defaultReconnectionDelay: options.reconnectionTime.seconds.flatMap { $0.isFinite ? $0 : nil } ?? 0)
    }

    /// ``events(for:options:)-(R,_)`` for a `URLRequest` (its method and headers
    /// as they are; `GET` by default).
    ///
    /// ```
    /// events(for: URLRequest(url: feed)):   --e1--e2--...
    /// ```
    public func events(for request: URLRequest, options: EventStreamOptions = EventStreamOptions()) -> Observable<ServerSentEvent> {
        events(for: PreparedRequest(urlRequest: request), options: options)
    }

    /// The newline-delimited JSON (`application/x-ndjson`, JSON Lines) body
    /// of `request`, each line decoded as the request's `Response` (with its
    /// `Request/decoder` at its `Request/decodingKeyPath`) and delivered
    /// as soon as its line ends; completes when the body ends.
    ///
    /// Blank lines are skipped; a last line without `\n` counts. A line that
    /// does not decode fails the stream with
    /// `HTTPError/undecodableBody(_:body:)` (the line as body); a line
    /// longer than ``EventStreamOptions/maximumLineLength`` with
    /// ``EventStreamError/lineTooLong(limit:)``. Failed attempts before the
    /// response are retried as in ``events(for:options:)-(R,_)``; once values have
    /// been delivered, a lost connection fails the stream (NDJSON cannot
    /// resume). Values arrive where ``events(for:options:)-(R,_)``'s events do.
    ///
    /// ```
    /// body:              {"n":1}\n{"n":2}\n{"n":3}|
    /// jsonLines(for: r): --(n 1)--(n 2)--(n 3)--|
    /// ```
    public func jsonLines<R: Request>(for request: R, options: EventStreamOptions = EventStreamOptions()) -> Observable<R.Response>
    where R.Response: Decodable {
        streamed(
            request, options: options, reconnects: false,
            format: {
                JSONLinesFormat<R.Response>(maximumLineLength: options.maximumLineLength, decoder: request.decoder, keyPath: request.decodingKeyPath)
            },
            output: { $0 })
    }

    /// A streamed subscription of `request` in `format`.
    private func streamed<R: Request, Format: StreamFormat, Output>(
        _ request: R, options: EventStreamOptions, reconnects: Bool, format: @escaping () -> Format,
        output: @escaping (Format.Element) -> Output, status: ((StreamingRun<Format, Output>.Status) -> Output)? = nil
    ) -> Observable<Output> {
        let client = self.client
        let scheduler = self.scheduler
        let timeout = request.timeout ?? self.timeout
        let idempotent = request.method.isIdempotent
        let policy = request.retryPolicy ?? self.retryPolicy ?? .default
        let stream = Observable<Output>.create { observer in
            var urlRequest: URLRequest
            do {
                urlRequest = try request.makeURLRequest()
            } catch {
                observer.onError(error)
                return Disposables.create()
            }
            if let problem = policy.invalidSetting {
                observer.onError(HTTPError.invalidRequest("invalid RetryPolicy: \(problem)"))
                return Disposables.create()
            }
            urlRequest.timeoutInterval = options.idleTimeout
            let machine = StreamingMachine(
                format: format(), request: urlRequest, acceptable: request.acceptableStatusCodes,
                retryPolicy: idempotent || policy.retriesNonIdempotentRequests ? policy : nil,
                reconnects: reconnects && idempotent, backoff: Session.backoff(options))
            let run = StreamingRun(
                machine: machine, client: client, scheduler: scheduler, timeout: timeout, observer: observer, output: output, status: status)
            run.start()
            return Disposables.create { run.dispose() }
        }
        return onDeliveryScheduler(stream)
    }
}

/// What ``RippleHTTP/Session/eventStream(for:options:)`` delivers: the events, and the
/// state of the connection between them.
public enum EventStreamUpdate: Sendable {
    /// Connection number `attempt` (from 1) is being opened, resuming after
    /// `lastEventID` (sent as `Last-Event-ID`) when there is one.
    case connecting(attempt: Int, lastEventID: String?)
    /// The server accepted the connection: events follow.
    case connected
    /// An event.
    case event(ServerSentEvent)
    /// The connection ended (`error` is `nil`) or failed; the next attempt
    /// starts in `seconds` (the reconnection time, or the retry policy's
    /// delay).
    case waiting(seconds: TimeInterval, error: Error?)

    /// The event, or `nil` for a change of the connection.
    public var event: ServerSentEvent? {
        if case .event(let event) = self { return event }
        return nil
    }
}

/// A `URLRequest` as a `Request`: sent as it is.
@usableFromInline
struct PreparedRequest: Request {
    @usableFromInline
    typealias Response = Void
    let urlRequest: URLRequest

    @usableFromInline
    var baseURL: URL { urlRequest.url ?? URL(fileURLWithPath: "/") }
    @usableFromInline
    var method: HTTPMethod { HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET") }

    @usableFromInline
    func intercept(_ built: URLRequest) throws -> URLRequest {
        guard urlRequest.url?.scheme != nil else {
            throw HTTPError.invalidRequest("the URL \(String(reflecting: urlRequest.url?.absoluteString ?? "")) has no scheme")
        }
        return urlRequest
    }
}
