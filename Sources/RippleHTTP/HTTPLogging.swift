import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The request as a `curl` command line you can paste into a shell.
    ///
    /// ```
    /// curl -X POST -H 'Content-Type: application/json' --data-binary '{"name":"Ripple"}' 'https://api.example.com/items'
    /// ```
    ///
    /// Header fields are sorted by name; the values of `redactingHeaders`
    /// (compared case-insensitively) are replaced by `<redacted>`. A body that
    /// is not UTF-8 is replaced by a note of its size.
    @_alwaysEmitIntoClient
    public func curlCommand(redactingHeaders: Set<String> = []) -> String {
        let redacted = Set(redactingHeaders.map { $0.lowercased() })
        var parts = ["curl"]
        let method = httpMethod ?? "GET"
        if method == "HEAD" {
            parts.append("--head")
        } else if method != "GET" || httpBody != nil {
            parts.append("-X \(method)")
        }
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(byKey: { $0.key.lowercased() }) {
            let shown = redacted.contains(name.lowercased()) ? "<redacted>" : value
            parts.append("-H \(URLRequest.shellQuoted("\(name): \(shown)"))")
        }
        if let body = httpBody, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                parts.append("--data-binary \(URLRequest.shellQuoted(text))")
            } else {
                parts.append("--data-binary @- # \(body.count) bytes of binary data not shown")
            }
        }
        // The URL goes before a trailing comment, if any.
        let url = URLRequest.shellQuoted(self.url?.absoluteString ?? "")
        if let last = parts.last, last.contains(" # ") {
            parts.insert(url, at: parts.count - 1)
        } else {
            parts.append(url)
        }
        return parts.joined(separator: " ")
    }

    /// `text` in single quotes, with its single quotes escaped for POSIX shells.
    @usableFromInline
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// One thing an ``HTTPLogger`` reports.
public enum HTTPLogEntry: Sendable, CustomStringConvertible {
    /// A request is being sent; `curl` is its command line.
    case request(URLRequest, curl: String)
    /// A response arrived after `duration` seconds.
    case response(URLRequest, HTTPResponse, duration: TimeInterval)
    /// The request failed after `duration` seconds.
    case failure(URLRequest, Error, duration: TimeInterval)
    /// The subscription was disposed before the outcome, after `duration`
    /// seconds (the request was cancelled).
    case cancelled(URLRequest, duration: TimeInterval)
    /// A streamed response (``HTTPClient/stream(_:whenStarted:)``) ended
    /// after `bytes` bytes of body and `duration` seconds.
    case streamed(URLRequest, HTTPURLResponse, bytes: Int, duration: TimeInterval)

    /// The request the entry is about.
    public var request: URLRequest {
        switch self {
        case .request(let request, _), .response(let request, _, _), .failure(let request, _, _), .cancelled(let request, _),
            .streamed(let request, _, _, _):
            return request
        }
    }

    /// One line: the `curl` command for a request, then
    /// `← 200 OK GET https://… (12 ms, 345 bytes)`,
    /// `← 200 OK GET https://… (stream: 345 bytes in 12 ms)`,
    /// `✕ GET https://… failed after 12 ms: …` or
    /// `✕ GET https://… cancelled after 12 ms`.
    public var description: String {
        let target = "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")"
        switch self {
        case .request(_, let curl):
            return curl
        case .response(_, let response, let duration):
            let reason = HTTPError.reasonPhrase(response.statusCode)
            return "← \(response.statusCode) \(reason) \(target) (\(HTTPLogEntry.milliseconds(duration)), \(response.data.count) bytes)"
        case .failure(_, let error, let duration):
            return "✕ \(target) failed after \(HTTPLogEntry.milliseconds(duration)): \(error)"
        case .cancelled(_, let duration):
            return "✕ \(target) cancelled after \(HTTPLogEntry.milliseconds(duration))"
        case .streamed(_, let response, let bytes, let duration):
            let reason = HTTPError.reasonPhrase(response.statusCode)
            return "← \(response.statusCode) \(reason) \(target) (stream: \(bytes) bytes in \(HTTPLogEntry.milliseconds(duration)))"
        }
    }

    static func milliseconds(_ duration: TimeInterval) -> String {
        "\(Int((duration * 1000).rounded())) ms"
    }
}

/// Reports requests (as `curl` command lines) and their outcomes to a sink of
/// your choice: `print`, `os.Logger`, swift-log, a test's array.
///
/// ```swift
/// let session = Session(client: URLSessionHTTPClient(), logger: .print)
/// // curl -H 'Accept: application/json' 'https://api.github.com/users/octocat/repos?sort=updated'
/// // ← 200 OK GET https://api.github.com/users/octocat/repos?sort=updated (182 ms, 5120 bytes)
///
/// let logger = HTTPLogger { entry in log.debug("\(entry)") }
/// ```
public struct HTTPLogger: Sendable {
    /// Header fields whose values are never logged (compared
    /// case-insensitively).
    public var redactedHeaders: Set<String>
    /// The clock that measures durations.
    public var now: @Sendable () -> Date
    /// Receives the entries (on the thread that sends or answers the request).
    public var sink: @Sendable (HTTPLogEntry) -> Void

    /// A logger sending entries to `sink`. By default `Authorization`,
    /// `Cookie` and `Proxy-Authorization` values are redacted.
    public init(
        redactedHeaders: Set<String> = ["Authorization", "Cookie", "Proxy-Authorization"],
        now: @escaping @Sendable () -> Date = { Date() },
        sink: @escaping @Sendable (HTTPLogEntry) -> Void
    ) {
        self.redactedHeaders = redactedHeaders
        self.now = now
        self.sink = sink
    }

    /// Prints each entry's one-line ``HTTPLogEntry/description``.
    public static let print = HTTPLogger { entry in Swift.print(entry.description) }

    /// Logs what happens to `single`, which sends `request`: the `curl` line on
    /// subscription, then exactly one of response, failure or cancellation.
    @usableFromInline
    func log(_ request: URLRequest, _ single: Single<HTTPResponse>) -> Single<HTTPResponse> {
        log(request, single.asObservable(), onNext: { response, _ in
            { .response(request, response, duration: $0) }
        }, onCompleted: { _, _ in nil })
        .asSingle()
    }

    /// Logs what happens to `stream`, which streams `request`: the `curl`
    /// line on subscription, then exactly one of the end of the stream
    /// (``HTTPLogEntry/streamed(_:_:bytes:duration:)``), failure or
    /// cancellation.
    @usableFromInline
    func log(_ request: URLRequest, _ stream: Observable<HTTPResponsePart>) -> Observable<HTTPResponsePart> {
        log(request, stream, onNext: { part, attempt in
            attempt.record(part)
            return nil
        }, onCompleted: { attempt, duration in
            attempt.head.map { .streamed(request, $0, bytes: attempt.bytes, duration: duration) }
        })
    }

    /// The `curl` line on subscription, then one entry for the outcome:
    /// `onNext` returns how to make it when an element is the outcome (from
    /// the duration), `onCompleted` makes it for the completion.
    private func log<Element>(
        _ request: URLRequest, _ source: Observable<Element>,
        onNext: @escaping (Element, LoggedAttempt) -> ((TimeInterval) -> HTTPLogEntry)?,
        onCompleted: @escaping (LoggedAttempt, TimeInterval) -> HTTPLogEntry?
    ) -> Observable<Element> {
        let logger = self
        return Observable.deferred {
            let attempt = LoggedAttempt()
            return source.do(
                onNext: { element in
                    if let entry = onNext(element, attempt), let duration = attempt.finish(now: logger.now()) {
                        logger.sink(entry(duration))
                    }
                },
                onError: { error in
                    if let duration = attempt.finish(now: logger.now()) {
                        logger.sink(.failure(request, error, duration: duration))
                    }
                },
                onCompleted: {
                    if let duration = attempt.finish(now: logger.now()), let entry = onCompleted(attempt, duration) {
                        logger.sink(entry)
                    }
                },
                onSubscribe: {
                    attempt.start(now: logger.now())
                    logger.sink(.request(request, curl: request.curlCommand(redactingHeaders: logger.redactedHeaders)))
                },
                onDispose: {
                    if let duration = attempt.finish(now: logger.now()) {
                        logger.sink(.cancelled(request, duration: duration))
                    }
                }
            )
        }
    }
}

/// The start time of one logged attempt, whether its outcome was logged, and
/// (for a stream) its head and body size.
final class LoggedAttempt: @unchecked Sendable {
    private let lock = PlatformLock()
    private var startTime: Date?
    private var finished = false
    private var streamHead: HTTPURLResponse?
    private var streamBytes = 0

    /// A part of a streamed response.
    func record(_ part: HTTPResponsePart) {
        lock.lock()
        switch part {
        case .head(let head): streamHead = head
        case .body(let data): streamBytes += data.count
        }
        lock.unlock()
    }

    /// The streamed response's head.
    var head: HTTPURLResponse? {
        lock.lock()
        defer { lock.unlock() }
        return streamHead
    }

    /// The streamed response's body size so far.
    var bytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return streamBytes
    }

    func start(now: Date) {
        lock.lock()
        startTime = now
        lock.unlock()
    }

    /// The duration, the first time only.
    func finish(now: Date) -> TimeInterval? {
        lock.lock()
        defer { lock.unlock() }
        if finished { return nil }
        finished = true
        return now.timeIntervalSince(startTime ?? now)
    }
}

/// An ``HTTPClient`` that logs every request it forwards to another client.
///
/// ```swift
/// let client = URLSessionHTTPClient().logging(to: .print)
/// ```
public struct LoggingHTTPClient: HTTPClient {
    /// The client that sends the requests.
    public let base: any HTTPClient
    /// Where the entries go.
    public let logger: HTTPLogger

    /// Logs the requests sent through `base` to `logger`.
    public init(_ base: any HTTPClient, logger: HTTPLogger) {
        self.base = base
        self.logger = logger
    }

    /// Sends through ``base``: logs the `curl` command on subscription, then
    /// the response, the failure or the cancellation.
    ///
    /// ```
    /// send(request):  ---(response|)     log: curl ..., ← 200 OK ...
    /// ```
    @_alwaysEmitIntoClient
    public func send(_ request: URLRequest) -> Single<HTTPResponse> {
        logger.log(request, base.send(request))
    }

    /// ``send(_:)``, passing `started` on to ``base``.
    @_alwaysEmitIntoClient
    public func send(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Single<HTTPResponse> {
        logger.log(request, base.send(request, whenStarted: started))
    }

    /// Streams through ``base``: logs the `curl` command on subscription,
    /// then the end of the stream (status and bytes), the failure or the
    /// cancellation.
    ///
    /// ```
    /// stream(request):  ---(head)--body--|     log: curl ..., ← 200 OK ... (stream: 345 bytes in 12 ms)
    /// ```
    @_alwaysEmitIntoClient
    public func stream(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Observable<HTTPResponsePart> {
        logger.log(request, base.stream(request, whenStarted: started))
    }
}

extension HTTPClient {
    /// This client, logging each request and its outcome to `logger`.
    ///
    /// ```swift
    /// let client = URLSessionHTTPClient().logging(to: HTTPLogger { print($0) })
    /// ```
    @_alwaysEmitIntoClient
    public func logging(to logger: HTTPLogger) -> LoggingHTTPClient {
        LoggingHTTPClient(self, logger: logger)
    }
}

extension LoggingHTTPClient: ConnectionQueueing {
    @usableFromInline
    func connectionsFreed(for request: URLRequest) -> UInt64? {
        (base as? any ConnectionQueueing)?.connectionsFreed(for: request)
    }
}
