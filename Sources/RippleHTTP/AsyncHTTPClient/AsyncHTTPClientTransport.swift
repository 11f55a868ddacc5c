#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// An ``HTTPClient`` on AsyncHTTPClient (SwiftNIO): what server-side Swift
/// uses on Linux, and the transport to use there for servers you do not
/// control. Available with the package trait `AsyncHTTPClient`.
///
/// It behaves as ``URLSessionHTTPClient`` wherever your code could tell
/// (the shared transport conformance suite pins it):
///
/// - The request is sent after the `Single` is subscribed; every
///   subscription sends it again.
/// - **Cancellation.** Disposing delivers nothing from then on. A request
///   still waiting for a connection slot is never sent; one already handed to
///   AsyncHTTPClient is cancelled (its connection closed).
/// - **Connections per host.** At most ``maximumConnectionsPerHost``
///   requests per host (scheme, host, port) are in AsyncHTTPClient's hands;
///   the others wait, in order, in the client, and their timeouts
///   (``HTTPClient/send(_:timeout:scheduler:)``, ``Session``'s) and
///   `whenStarted` start when they are handed over.
/// - **Body size.** A body larger than ``maximumResponseBodySize`` fails
///   with ``HTTPError/responseTooLarge(limit:)``, checked against
///   `Content-Length` and while the body streams in: the transfer stops at
///   once, nothing more is read.
/// - **Redirects** follow ``redirectPolicy`` (Ripple follows them, not
///   AsyncHTTPClient): credentials dropped across origins, no downgrade to
///   `http`, a limit.
/// - **Timeouts.** The `URLRequest`'s `timeoutInterval` is the longest the
///   connection may stay silent (as with `URLSession`), measured to the
///   millisecond.
/// - **Errors** are ``HTTPError``s with the `URLError` codes `URLSession`
///   uses: a refused connection is `.cannotConnectToHost`, a connection
///   lost mid-response (even in the middle of the header block, which
///   crashes FoundationNetworking) `.networkConnectionLost`, a response that
///   is not HTTP `.badServerResponse`, a timeout `.timedOut`, a TLS failure
///   `.secureConnectionFailed`, an unknown host `.cannotFindHost`. No server
///   response, however broken, crashes the process.
/// - **A lost connection.** A connection that closes before any byte of
///   the response (a kept-alive connection the server closed while idle)
///   sends an idempotent request (`GET`, `HEAD`, `OPTIONS`, `PUT`,
///   `DELETE`, `TRACE`) once more; a second loss, a `POST` or `PATCH`, or a
///   loss after the response head fails with `.networkConnectionLost`.
/// - ``stream(_:whenStarted:)`` delivers the body as it arrives.
/// - gzip and deflate bodies are decompressed, as `URLSession` does.
///
/// Everything is delivered on one of the event loop's threads (SwiftNIO):
/// do not block in an observer; use `observe(on:)` to move the work (and
/// `observe(on: MainScheduler.instance)` before touching the UI).
///
/// ```swift
/// // Package.swift: .package(url: "https://github.com/…/Ripple", from: "1.0.0", traits: ["AsyncHTTPClient"])
/// let session = Session(client: AsyncHTTPClientTransport(), timeout: .seconds(15))
/// ```
///
/// ```
/// send(request):  --------(response|)
/// dispose:        ----^                (request cancelled, nothing delivered)
/// ```
public final class AsyncHTTPClientTransport: HTTPClient, @unchecked Sendable {
    /// The AsyncHTTPClient client that runs the requests (created by the
    /// transport, shut down when it is released).
    public let client: AsyncHTTPClient.HTTPClient
    /// The largest response body accepted, in bytes.
    public let maximumResponseBodySize: Int
    /// How many requests per host are handed to AsyncHTTPClient at once.
    public let maximumConnectionsPerHost: Int
    /// How redirects are followed.
    public let redirectPolicy: RedirectPolicy
    /// ``maximumResponseBodySize``'s default: 32 MiB, as
    /// ``URLSessionHTTPClient``'s.
    public static let defaultMaximumResponseBodySize = URLSessionHTTPClient.defaultMaximumResponseBodySize

    let limiter: ConnectionLimiter

    /// A transport on a new AsyncHTTPClient client.
    ///
    /// - Parameters:
    ///   - configuration: AsyncHTTPClient's configuration (TLS, proxy,
    ///     connect timeout, HTTP version, ...). The transport sets three of
    ///     its fields: redirects are not followed by AsyncHTTPClient (Ripple
    ///     follows them by `redirectPolicy`), a connection that cannot be
    ///     established is not retried silently (it fails the request, for a
    ///     ``RetryPolicy`` to decide), and bodies are decompressed.
    ///   - eventLoopGroup: the SwiftNIO threads (by default AsyncHTTPClient's
    ///     shared group).
    ///   - maximumResponseBodySize: the largest body accepted (32 MiB).
    ///   - maximumConnectionsPerHost: requests per host in flight at once (6,
    ///     `URLSession`'s default); the others wait in the client.
    ///   - redirectPolicy: how redirects are followed.
    public init(
        configuration: AsyncHTTPClient.HTTPClient.Configuration = .init(),
        eventLoopGroup: any EventLoopGroup = AsyncHTTPClient.HTTPClient.defaultEventLoopGroup,
        maximumResponseBodySize: Int = AsyncHTTPClientTransport.defaultMaximumResponseBodySize,
        maximumConnectionsPerHost: Int = 6,
        redirectPolicy: RedirectPolicy = .default
    ) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .enabled(limit: .none)
        let perHost = maximumConnectionsPerHost > 0 ? maximumConnectionsPerHost : Int.max
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = min(perHost, 1 << 16)
        client = AsyncHTTPClient.HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        self.maximumResponseBodySize = max(0, maximumResponseBodySize)
        self.maximumConnectionsPerHost = perHost
        self.redirectPolicy = redirectPolicy
        limiter = ConnectionLimiter(limit: perHost)
    }

    deinit {
        // Requests hold the transport: nothing runs any more. The future is
        // not waited for (a deinit may run on an event loop).
        _ = client.shutdown()
    }

    /// Sends `request` when subscribed; see the type's documentation.
    ///
    /// ```
    /// send(request):  --------(response|)   or   ----#(HTTPError.transport)
    /// ```
    public func send(_ request: URLRequest) -> Single<HTTPResponse> {
        send(request, whenStarted: {})
    }

    /// ``send(_:)``, calling `started` when the request is handed to
    /// AsyncHTTPClient (after it waited for a connection slot); never if it
    /// was disposed before.
    public func send(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Single<HTTPResponse> {
        Single<HTTPResponse>.create { [self] observer in
            let receiver = ResponseReceiver(collectingUpTo: maximumResponseBodySize, observer: observer)
            let run = AsyncHTTPClientRun(transport: self, request: request, started: started, receiver: receiver)
            run.begin()
            return Disposables.create { run.dispose() }
        }
    }

    /// The response as it arrives: the head, then each piece of the body
    /// SwiftNIO reads, on the event loop; see
    /// ``HTTPClient/stream(_:whenStarted:)``. The next piece is read once the
    /// observer returns.
    ///
    /// ```
    /// stream(request):   ---(head)--body--body--|
    /// ```
    public func stream(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Observable<HTTPResponsePart> {
        Observable<HTTPResponsePart>.create { [self] observer in
            let receiver = ResponseReceiver(streamingTo: observer.on)
            let run = AsyncHTTPClientRun(transport: self, request: request, started: started, receiver: receiver)
            run.begin()
            return Disposables.create { run.dispose() }
        }
    }

    /// A failure reported by AsyncHTTPClient or SwiftNIO, as an
    /// ``HTTPError`` whose `URLError` code follows ``TransportFault``'s
    /// table, the one every transport uses.
    static func transportFailure(_ error: Error, url: URL?) -> HTTPError {
        if let error = error as? HTTPError { return error }
        guard let fault = fault(of: error) else { return .transport(from: error) }
        var userInfo: [String: Any] = [
            NSUnderlyingErrorKey: error,
            NSLocalizedDescriptionKey: "\(error)",
        ]
        if let url {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        return .transport(URLError(fault.code, userInfo: userInfo))
    }

    /// The fault an AsyncHTTPClient or SwiftNIO error reports; `nil` for an
    /// error of another kind.
    static func fault(of error: Error) -> TransportFault? {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout,
                .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
                return .timedOut
            case .remoteConnectionClosed, .uncleanShutdown, .bodyLengthMismatch:
                return .connectionLost
            case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath:
                return .badURL
            case .cancelled:
                return .cancelled
            case .redirectLimitReached, .redirectCycleDetected:
                return .tooManyRedirects
            default:
                return .malformedResponse
            }
        case let error as IOError:
            return posixFault(error.errnoCode)
        case let error as NIOConnectionError:
            // Every address failed: refused (or unreachable) unless the name
            // did not resolve.
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return .cannotFindHost
            } else if let first = error.connectionErrors.first?.error as? IOError {
                return posixFault(first.errnoCode)
            }
            return .cannotConnect
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return .timedOut
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: return .connectionLost
            default: return .cannotConnect
            }
        case let error as HTTPParserError:
            // The connection closed in the middle of the head or the body; or
            // not an HTTP response: garbage instead of a status line, a header
            // block over SwiftNIO's 80 KiB, a bad chunk size.
            return error == .invalidEOFState ? .connectionLost : .malformedResponse
        case is NIOSSLError, is BoringSSLError:
            return .secureConnectionFailed
        case is SocketAddressError:
            return .cannotFindHost
        default:
            return nil
        }
    }

    private static func posixFault(_ errno: CInt) -> TransportFault {
        switch errno {
        case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL: return .cannotConnect
        case ETIMEDOUT: return .timedOut
        default: return .connectionLost
        }
    }
}

/// One subscription to ``AsyncHTTPClientTransport``: a ``TransportRun``
/// (slot, dispose, end) whose request is handed to AsyncHTTPClient, with
/// redirects followed by the transport's ``RedirectPolicy`` and the request's
/// idle timeout enforced. AsyncHTTPClient calls it (as the request's
/// delegate) on the request's event loop, one callback at a time.
///
/// ```
/// waiting ──slot──▶ starting ──execute──▶ running ──finish/error──▶ finished
///    │                 │                    │ └─3xx followed──▶ running (the next request, same slot)
///    └─dispose─▶ disposed (nothing sent)    └─dispose─▶ cancelled, nothing delivered
/// ```
final class AsyncHTTPClientRun: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = Void

    private let run: TransportRun<AsyncHTTPClient.HTTPClient.Task<Void>>
    // Under `run.withLock`:
    /// The request a followed redirect leads to, sent when the redirect's
    /// own body has been read.
    private var redirectTarget: URLRequest?
    private var lastActivity = NIODeadline.now()
    /// A response head arrived for the current request (a connection lost
    /// after it is never a reason to send the request again).
    private var headArrived = false
    private var idleCheck: Scheduled<Void>?

    private let transport: AsyncHTTPClientTransport

    init(transport: AsyncHTTPClientTransport, request: URLRequest, started: @escaping @Sendable () -> Void, receiver: ResponseReceiver) {
        self.transport = transport
        run = TransportRun(request: request, limiter: transport.limiter, started: started, receiver: receiver) { $0.cancel() }
    }

    /// Asks for a connection slot.
    func begin() {
        run.begin { [self] in
            if execute(run.withLock { $0.current }) {
                run.notifyStarted()
            }
        }
    }

    /// Hands `request` to AsyncHTTPClient; `false` if it was not (disposed,
    /// or a request AsyncHTTPClient refuses, which finishes the run).
    private func execute(_ request: URLRequest) -> Bool {
        let prepared: AsyncHTTPClient.HTTPClient.Request
        do {
            prepared = try AsyncHTTPClientRun.prepare(request)
        } catch {
            finish(AsyncHTTPClientTransport.transportFailure(error, url: request.url))
            return false
        }
        // Not under the lock: AsyncHTTPClient may call the delegate before
        // `execute` returns.
        let task = transport.client.execute(request: prepared, delegate: self, eventLoop: .indifferent, deadline: nil, logger: nil)
        return run.attach(task) {
            lastActivity = .now()
            scheduleIdleCheck(on: task.eventLoop, after: AsyncHTTPClientRun.idleTimeout(of: request))
        }
    }

    /// The subscription was disposed: nothing is delivered from now on; a
    /// waiting request leaves the queue, a running one is cancelled.
    func dispose() {
        run.dispose()
    }

    // MARK: HTTPClientResponseDelegate (on the request's event loop)

    func didReceiveHead(task: AsyncHTTPClient.HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let (decision, url) = run.withLock { state in
            lastActivity = .now()
            headArrived = true
            let decision = state.redirect(
                by: transport.redirectPolicy, status: Int(head.status.code), location: head.headers.first(name: "Location"),
                responseURL: state.current.url)
            if case .follow(let next) = decision { redirectTarget = next }
            return (decision, state.current.url)
        }
        switch decision {
        case .follow:
            break
        case .fail:
            task.cancel()
        case .deliver:
            if let url, let response = AsyncHTTPClientRun.response(head, url: url) {
                if !run.receiver.head(response) { task.cancel() }
            } else {
                run.withLock { $0.stopReason = .notHTTPResponse(nil) }
                task.cancel()
            }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: AsyncHTTPClient.HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let redirecting = run.withLock { _ in
            lastActivity = .now()
            return redirectTarget != nil
        }
        // A followed redirect's own body is read and dropped (the connection
        // stays reusable).
        if !redirecting {
            let data = buffer.withUnsafeReadableBytes { Data($0) }
            if !run.receiver.body(data) { run.stop() }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: AsyncHTTPClient.HTTPClient.Task<Void>, _ error: Error) {
        let (url, resend) = run.withLock { state -> (URL?, URLRequest?) in
            redirectTarget = nil
            // Lost before any byte of the response (a kept-alive connection
            // the server had closed): an idempotent request goes once more,
            // on a connection the pool opens or still trusts, as URLSession
            // does.
            if !headArrived, AsyncHTTPClientRun.isLostBeforeResponse(error), state.resendAfterLostConnection() {
                cancelIdleCheck()
                return (state.current.url, state.current)
            }
            return (state.current.url, nil)
        }
        if let resend {
            _ = execute(resend)
            return
        }
        finish(AsyncHTTPClientTransport.transportFailure(error, url: url))
    }

    /// `error` says the connection closed or reset with no response byte read
    /// (a header block cut short is an `HTTPParserError`: not this).
    static func isLostBeforeResponse(_ error: Error) -> Bool {
        switch error {
        case let error as HTTPClientError:
            return error == .remoteConnectionClosed || error == .uncleanShutdown
        case let error as ChannelError:
            return error == .ioOnClosedChannel || error == .eof || error == .alreadyClosed || error == .outputClosed
        case let error as IOError:
            return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
        default:
            return false
        }
    }

    func didFinishRequest(task: AsyncHTTPClient.HTTPClient.Task<Void>) throws {
        let next = run.withLock { state -> URLRequest? in
            defer { redirectTarget = nil }
            cancelIdleCheck()
            headArrived = false
            return state.stopReason == nil ? redirectTarget : nil
        }
        if let next {
            // The same slot carries the redirected request.
            _ = execute(next)
            return
        }
        finish(nil)
    }

    /// Ends the run once: the slot goes back, the receiver delivers (unless
    /// disposed).
    private func finish(_ error: HTTPError?) {
        run.finish(error) { cancelIdleCheck() }
    }

    // MARK: The idle timeout

    /// The request's `timeoutInterval` (`URLRequest`'s default: 60 s);
    /// `nil` when there is none.
    private static func idleTimeout(of request: URLRequest) -> TimeAmount? {
        let seconds = request.timeoutInterval
        guard seconds.isFinite, seconds > 0 else { return nil }
        return .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
    }

    /// Under `run.withLock`.
    private func cancelIdleCheck() {
        idleCheck?.cancel()
        idleCheck = nil
    }

    /// Under `run.withLock`.
    private func scheduleIdleCheck(on eventLoop: any EventLoop, after timeout: TimeAmount?) {
        guard let timeout else { return }
        idleCheck?.cancel()
        let deadline = lastActivity + timeout
        idleCheck = eventLoop.scheduleTask(deadline: deadline) { [weak self] in
            self?.checkIdle(on: eventLoop, timeout: timeout)
        }
    }

    /// Silent for `timeout`: the request fails with `.timedOut`; otherwise
    /// the check moves to the new deadline.
    private func checkIdle(on eventLoop: any EventLoop, timeout: TimeAmount) {
        let expired = run.withLock { state -> AsyncHTTPClient.HTTPClient.Task<Void>? in
            guard case .running(let task) = state.phase else { return nil }
            if NIODeadline.now() < lastActivity + timeout {
                scheduleIdleCheck(on: eventLoop, after: timeout)
                return nil
            }
            if state.stopReason == nil {
                state.stopReason = .transport(URLError(.timedOut, userInfo: state.current.url.map { [NSURLErrorFailingURLErrorKey: $0] } ?? [:]))
            }
            return task
        }
        expired?.cancel()
    }

    // MARK: Conversions

    /// The AsyncHTTPClient request for `request`: URL, method, header fields
    /// (in order) and body.
    static func prepare(_ request: URLRequest) throws -> AsyncHTTPClient.HTTPClient.Request {
        guard let url = request.url else { throw HTTPClientError.invalidURL }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            // URLSession's answer to a scheme it does not speak.
            throw HTTPError.transport(URLError(.unsupportedURL, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        }
        if request.httpBodyStream != nil {
            throw HTTPError.invalidRequest("AsyncHTTPClientTransport sends httpBody, not httpBodyStream")
        }
        var headers = NIOHTTP1.HTTPHeaders()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(byKey: { $0.key.lowercased() }) {
            headers.add(name: name, value: value)
        }
        let body = request.httpBody.map { AsyncHTTPClient.HTTPClient.Body.bytes($0) }
        return try AsyncHTTPClient.HTTPClient.Request(
            url: url, method: NIOHTTP1.HTTPMethod(rawValue: request.httpMethod ?? "GET"), headers: headers, body: body)
    }

    /// The `HTTPURLResponse` for a response head (repeated fields joined with
    /// `", "`, as Foundation does).
    static func response(_ head: HTTPResponseHead, url: URL) -> HTTPURLResponse? {
        var fields: [String: String] = [:]
        var names: [String: String] = [:]
        for (name, value) in head.headers {
            let key = name.lowercased()
            if let first = names[key] {
                fields[first] = fields[first].map { "\($0), \(value)" } ?? value
            } else {
                names[key] = name
                fields[name] = value
            }
        }
        let version = "HTTP/\(head.version.major).\(head.version.minor)"
        return HTTPURLResponse(url: url, statusCode: Int(head.status.code), httpVersion: version, headerFields: fields)
    }
}

extension AsyncHTTPClientTransport: ConnectionQueueing {
    @usableFromInline
    func connectionsFreed(for request: URLRequest) -> UInt64? {
        limiter.freedCount(for: request)
    }
}
#endif
