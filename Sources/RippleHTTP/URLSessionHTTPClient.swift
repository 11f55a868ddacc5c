import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPClient`` on `URLSession` (FoundationNetworking on Linux).
///
/// - The request is sent after the `Single` is subscribed (from the session's
///   delegate queue); every subscription sends it again.
/// - **Cancellation.** Disposing the subscription delivers nothing from then
///   on. A request that has not been handed to `URLSession` yet (it waits for
///   a connection slot, or for the session's delegate queue, where requests
///   start) is never sent. A request already handed over is cancelled (the
///   connection is closed), but it may have reached the server: disposing a
///   `POST` does not undo it.
/// - **Connections per host.** At most ``maximumConnectionsPerHost`` requests
///   per host are in `URLSession`'s hands at once (the configuration's
///   `httpMaximumConnectionsPerHost`, 6 by default); the others wait, in
///   order, in the client. A request's timeouts (the `URLRequest`'s and a
///   ``Session``'s) start when it is handed to `URLSession`, so time spent
///   waiting for a slot does not count.
/// - **Body size.** A body larger than ``maximumResponseBodySize`` (32 MiB by
///   default) fails with ``HTTPError/responseTooLarge(limit:)`` as soon as the
///   `Content-Length` or the bytes received (decompressed) exceed the limit,
///   and the transfer is cancelled. On a session the client creates, at most
///   1 MiB more waits for the delegate meanwhile (a 1 GiB gzip body with a
///   1 MiB limit: +3 to +29 MiB resident, against 1.15 GB before).
///   FoundationNetworking carries the cancel out when its work queue is free,
///   which it is not while data arrives faster than it reads it (a local
///   server writing as fast as it can, a gzip body inflating): the rest is
///   read and dropped until then. On a session you pass in (which reports
///   the body only when it is complete) the check happens at the end.
/// - **Back-pressure.** On a session the client creates (on Linux), a body
///   that arrives faster than it is delivered (a slow consumer of
///   ``stream(_:whenStarted:)``, a gzip body inflating) makes the reading
///   wait once 1 MiB of it is pending: TCP then slows the server down. All
///   deliveries of one client share its serial delegate queue: an observer
///   that blocks holds back every response of the client.
/// - The request's `timeoutInterval` is honoured (`URLSession` reports
///   ``HTTPError/transport(_:)`` with `URLError(.timedOut)`). FoundationNetworking
///   (Linux) counts it in whole seconds and fails a request with a shorter
///   interval at once, so there the interval is rounded up to whole seconds.
///   For a precise timeout on a Ripple scheduler use ``Session``'s timeout or
///   ``HTTPClient/send(_:timeout:scheduler:)``.
/// - **Redirects** follow ``redirectPolicy``: credentials never follow a
///   redirect to another origin, `https` never redirects to `http`, at most
///   10 redirects by default (see ``RedirectPolicy``), on every session,
///   yours included.
/// - **Streaming.** ``stream(_:whenStarted:)`` delivers the body as it
///   arrives, at the consumer's pace (on a session the client creates; on a
///   session you pass in, whose delegate is yours, the whole body arrives as
///   one part at the end).
/// - The outcome is delivered on the session's delegate queue: no lock is
///   held while your observer runs. Use `observe(on: MainScheduler.instance)`
///   before touching the UI.
///
/// **On Linux, for servers you do not control, use `AsyncHTTPClientTransport`**
/// (the package trait `AsyncHTTPClient`): FoundationNetworking kills the
/// process with `Fatal error: Transfer completed, but there's no response`
/// when a server closes the connection in the middle of the response's header
/// block, and nothing above `URLSession` can catch that.
///
/// On Linux, prefer the initializers that create the session
/// (``init()``, ``init(configuration:maximumResponseBodySize:redirectPolicy:)``): with a
/// `URLCache`, FoundationNetworking crashes the process ("Trying to access a
/// behaviour for a task that in not in the registry") when a task is
/// cancelled just as it completes, which disposing does. The sessions the
/// client creates have no `URLCache` on Linux; a session you pass in keeps
/// its own (`URLSession.shared` has one).
///
/// ```swift
/// let client = URLSessionHTTPClient()
/// client.get(URL(string: "https://api.github.com/users/octocat")!)
///     .subscribe(onSuccess: { print($0.statusCode) })
///     .disposed(by: bag)
/// ```
///
/// ```
/// send(request):  --------(response|)
/// dispose:        ----^                (task cancelled, nothing delivered)
/// ```
public final class URLSessionHTTPClient: HTTPClient, @unchecked Sendable {
    /// The session that runs the data tasks.
    public let session: URLSession
    /// The largest response body accepted, in bytes; a larger one fails with
    /// ``HTTPError/responseTooLarge(limit:)``.
    public let maximumResponseBodySize: Int
    /// How many requests per host (scheme, host and port) are handed to
    /// `URLSession` at once; the others wait in the client, in order. Taken
    /// from the session configuration's `httpMaximumConnectionsPerHost` (a
    /// value of 0 or less means no limit).
    public let maximumConnectionsPerHost: Int
    /// How redirects are followed (credentials dropped across origins, no
    /// downgrade to `http`, a limit).
    public let redirectPolicy: RedirectPolicy
    /// ``maximumResponseBodySize``'s default: 32 MiB.
    public static let defaultMaximumResponseBodySize = 32 * 1024 * 1024

    private let ownsSession: Bool
    let events: URLSessionTaskEvents?
    let limiter: ConnectionLimiter
    /// The delegate queue of a session the client created (it slows the
    /// reading down to the consumer's pace on FoundationNetworking).
    let deliveryQueue: URLSessionDeliveryQueue?
    /// Where a session passed in is asked to create, resume and cancel tasks.
    private let control: DispatchQueue?

    /// A client on a new session with the default configuration
    /// (`URLSessionConfiguration.default`); see
    /// ``init(configuration:maximumResponseBodySize:redirectPolicy:)``.
    public convenience init() {
        self.init(configuration: .default)
    }

    /// A client on `session`, which it does not invalidate.
    ///
    /// The body limit is checked once the body has arrived (the session's
    /// delegate is yours). On Linux, a session with a `URLCache` (such as
    /// `URLSession.shared`) can crash the process when a request is disposed
    /// just as it completes; see the type's documentation.
    public init(
        session: URLSession, maximumResponseBodySize: Int = URLSessionHTTPClient.defaultMaximumResponseBodySize,
        redirectPolicy: RedirectPolicy = .default
    ) {
        self.session = session
        self.redirectPolicy = redirectPolicy
        self.ownsSession = false
        self.events = nil
        self.deliveryQueue = nil
        self.control = DispatchQueue(label: "RippleHTTP.URLSessionHTTPClient.control")
        self.maximumResponseBodySize = max(0, maximumResponseBodySize)
        self.maximumConnectionsPerHost = URLSessionHTTPClient.limit(session.configuration.httpMaximumConnectionsPerHost)
        self.limiter = ConnectionLimiter(limit: maximumConnectionsPerHost)
    }

    /// A client on a new session with `configuration`, invalidated (after its
    /// running tasks finish) when the client is released.
    ///
    /// The session's delegate is the client's (bodies are checked against
    /// `maximumResponseBodySize` as they stream in) and its delegate queue a
    /// serial queue of its own, which on Linux holds the reading back while
    /// 1 MiB of body waits for delivery. On Linux the session has no
    /// `URLCache` (see the type's documentation). `configuration` itself is
    /// not modified.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// configuration.timeoutIntervalForRequest = 10
    /// configuration.httpMaximumConnectionsPerHost = 4
    /// let client = URLSessionHTTPClient(configuration: configuration, maximumResponseBodySize: 1 << 20)
    /// ```
    public init(
        configuration: URLSessionConfiguration, maximumResponseBodySize: Int = URLSessionHTTPClient.defaultMaximumResponseBodySize,
        redirectPolicy: RedirectPolicy = .default
    ) {
        self.redirectPolicy = redirectPolicy
        let configuration = configuration.copy() as! URLSessionConfiguration
        #if canImport(FoundationNetworking)
        // FoundationNetworking looks a data task up in the URLCache on a
        // background queue; a cancel() made during that lookup is carried out
        // after it, and if the task has completed and left the session's
        // registry meanwhile, that is a fatalError. URLSessionStressTests
        // (3 000 requests disposed 0–3 ms after subscription): 8 runs of 8
        // crashed with the cache, after 150 to 2 150 requests; 0 of 10
        // without (30 000 requests). In a plain URLSession reproduction
        // (2 000 cancels per run), cancelling on the serial delegate queue
        // still crashed 3 runs of 3: serialising is no cure.
        configuration.urlCache = nil
        #endif
        let events = URLSessionTaskEvents()
        #if canImport(FoundationNetworking)
        let bound = URLSessionDeliveryQueue.defaultBound
        #else
        let bound = 0
        #endif
        let queue = URLSessionDeliveryQueue(name: "RippleHTTP.URLSessionHTTPClient", bound: bound)
        self.session = URLSession(configuration: configuration, delegate: events, delegateQueue: queue)
        self.ownsSession = true
        self.events = events
        self.deliveryQueue = queue
        self.control = nil
        self.maximumResponseBodySize = max(0, maximumResponseBodySize)
        self.maximumConnectionsPerHost = URLSessionHTTPClient.limit(configuration.httpMaximumConnectionsPerHost)
        self.limiter = ConnectionLimiter(limit: maximumConnectionsPerHost)
    }

    deinit {
        if ownsSession {
            session.finishTasksAndInvalidate()
        }
    }

    private static func limit(_ configured: Int) -> Int {
        configured > 0 ? configured : Int.max
    }

    /// Runs `body`, a call into ``session`` (creating, resuming or
    /// cancelling a task), later on a serial queue of the client's, never on
    /// the caller's thread nor on the delegate queue.
    ///
    /// FoundationNetworking runs each of these calls synchronously on its
    /// work queue, and while a body streams in fast (a gzip body inflating,
    /// a stream faster than its consumer) that queue lets nothing else in
    /// until the data stops (measured: a `cancel()` made 0.1 s into a 1 GiB
    /// gzip body returned 15 s later, when all of it had been inflated). A
    /// `cancel()` made on the delegate queue held every delivery of the
    /// client behind it, and the pieces of the body piled up in the queue:
    /// 1.15 GB resident for a 1 MiB limit.
    func callSession(_ body: @escaping @Sendable () -> Void) {
        if let deliveryQueue {
            deliveryQueue.callSession(body)
        } else {
            control?.async(execute: body)
        }
    }

    /// Sends `request` when subscribed; see the type's documentation.
    ///
    /// ```
    /// send(request):  --------(response|)   or   ----#(HTTPError.transport)
    /// ```
    @_alwaysEmitIntoClient
    public func send(_ request: URLRequest) -> Single<HTTPResponse> {
        send(request, whenStarted: {})
    }

    /// ``send(_:)``, calling `started` when the request is handed to
    /// `URLSession` (after it waited for a connection slot); never if it was
    /// disposed before.
    @_alwaysEmitIntoClient
    public func send(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Single<HTTPResponse> {
        let request = URLSessionHTTPClient.adjusted(request)
        return Single<HTTPResponse>.create { [self] observer in
            let receiver = ResponseReceiver(collectingUpTo: maximumResponseBodySize, observer: observer)
            let run = URLSessionTaskRun(client: self, request: request, started: started, receiver: receiver)
            run.begin()
            return Disposables.create { run.dispose() }
        }
    }

    /// The response as it arrives: the head, then each piece of the body the
    /// session reports, on the session's delegate queue; see
    /// ``HTTPClient/stream(_:whenStarted:)``. Waits for a connection slot,
    /// follows redirects and cancels on dispose as ``send(_:)`` does; the
    /// body has no size limit.
    ///
    /// ```
    /// stream(request):   ---(head)--body--body--|
    /// ```
    @_alwaysEmitIntoClient
    public func stream(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Observable<HTTPResponsePart> {
        let request = URLSessionHTTPClient.adjusted(request)
        return Observable<HTTPResponsePart>.create { [self] observer in
            let receiver = ResponseReceiver(streamingTo: observer.on)
            let run = URLSessionTaskRun(client: self, request: request, started: started, receiver: receiver)
            run.begin()
            return Disposables.create { run.dispose() }
        }
    }

    /// The request as `URLSession` should see it: on FoundationNetworking,
    /// whose timeout truncates to whole seconds (0.5 s would time out at
    /// once), the timeout is rounded up to whole seconds.
    @usableFromInline
    static func adjusted(_ request: URLRequest) -> URLRequest {
        #if canImport(FoundationNetworking)
        let interval = request.timeoutInterval
        if interval.isFinite, interval > 0, interval.rounded(.up) != interval {
            var copy = request
            copy.timeoutInterval = interval.rounded(.up)
            return copy
        }
        #endif
        return request
    }

    /// A failure reported by `URLSession`, as an ``HTTPError`` whose
    /// `URLError` code follows ``TransportFault``'s table, the one every
    /// transport uses.
    ///
    /// FoundationNetworking reports most of libcurl's failures as `-1`
    /// (`.unknown`) with libcurl's message, a connection closed before any
    /// byte as `-1011` ("Empty reply from server") and an answer that is not
    /// HTTP as `-1002` (`.unsupportedURL`, "Received HTTP/0.9 when not
    /// allowed", "Unsupported HTTP version in response"). Darwin reports a
    /// connection lost mid-response as `.networkConnectionLost` (`-1005`),
    /// the code apps and ``RetryPolicy/isTransient(_:)`` handle. So on Linux:
    /// a lost connection becomes `.networkConnectionLost`, a response that
    /// breaks HTTP (its status line, a header line, the size of its header
    /// block, a chunk size) `.badServerResponse`; libcurl's message stays the
    /// description and the original error the `NSUnderlyingErrorKey`.
    static func transportFailure(_ error: Error) -> HTTPError {
        let converted = HTTPError.transport(from: error)
        #if canImport(FoundationNetworking)
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            var userInfo = nsError.userInfo
            let message = "\(userInfo[NSLocalizedDescriptionKey] ?? nsError.localizedDescription)"
            if let fault = TransportFault.foundationNetworking(code: nsError.code, message: message), fault.code.rawValue != nsError.code {
                userInfo[NSUnderlyingErrorKey] = nsError
                return .transport(URLError(fault.code, userInfo: userInfo))
            }
        }
        #endif
        return converted
    }
}

extension URLSessionHTTPClient: ConnectionQueueing {
    @usableFromInline
    func connectionsFreed(for request: URLRequest) -> UInt64? {
        limiter.freedCount(for: request)
    }
}
