import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends typed ``Request``s through an ``HTTPClient`` and turns the responses
/// into their `Response` types, applying the timeout, retry and logging
/// policies.
///
/// Everything it uses is injected through the initializer, so a test builds a
/// session on a stub client and a `TestScheduler`:
///
/// ```swift
/// // The app
/// let session = Session(client: URLSessionHTTPClient(), retryPolicy: .default, timeout: .seconds(15))
/// session.response(for: UserRepositories(user: "octocat"))     // Single<[Repository]>
///     .observe(on: MainScheduler.instance)
///     .subscribe(onSuccess: { repositories in ... }, onFailure: { error in ... })
///     .disposed(by: bag)
///
/// // A test
/// let stub = StubHTTPClient(scheduler: scheduler)
/// stub.stub(.get, "/users/octocat/repos", .json(#"[{"id": 1, "full_name": "octocat/hello"}]"#))
/// let session = Session(client: stub, scheduler: scheduler)
/// ```
///
/// For each subscription ``response(for:)``:
/// 1. builds the `URLRequest` (``Request/makeURLRequest()``); a failure is
///    ``HTTPError/invalidRequest(_:)`` and nothing is sent;
/// 2. sends it, failing an attempt after the request's or the session's
///    timeout (``HTTPError/transport(_:)`` with `URLError(.timedOut)`),
///    counted from when the client hands the request to the network
///    (``HTTPClient/send(_:timeout:scheduler:)``): a request waiting for a
///    free connection to its host is not timed out by the wait while
///    connections to the host come free, and is once a whole timeout passes
///    without one;
/// 3. checks the status against ``Request/acceptableStatusCodes``
///    (``HTTPError/unacceptableStatusCode(_:headers:body:)``);
/// 4. retries steps 2–3 by the request's or the session's ``RetryPolicy``
///    (idempotent methods only, unless the policy allows more);
/// 5. converts the response with ``Request/response(from:)``
///    (``HTTPError/undecodableBody(_:body:)``).
///
/// Disposing the subscription cancels the request in flight or the wait
/// before a retry; a request not yet handed to the network is not sent (see
/// ``URLSessionHTTPClient``).
///
/// **Where responses arrive.** By default, where the client delivers them:
/// ``URLSessionHTTPClient`` on its `URLSession`'s delegate queue (a background
/// queue), a `StubHTTPClient` on its scheduler. A screen observes them on the main
/// queue (`.observe(on: MainScheduler.instance)`, or `asDriver`), or gives the
/// session a `deliveryScheduler`, as APIKit's `callbackQueue` does:
///
/// ```swift
/// let session = Session(deliveryScheduler: MainScheduler.instance)   // every response on the main queue
/// ```
///
/// It is not the default: command-line tools and servers on Linux often never run
/// the main queue (a response waiting for it would never arrive, and a caller that
/// blocks the main thread for a result, `toBlocking()`, would wait forever), and
/// tests in virtual time want the responses at their virtual time. In Swift 6
/// main-actor code, handlers given to `subscribe` never run off the main actor:
/// a response delivered elsewhere is reported (a debug build stops, naming the
/// subscription and this fix) and moved to the main queue.
///
/// ```
/// response(for: r):   --------------(Response|)
/// with a 503 first:   ---#·backoff·-------(Response|)
/// ```
public final class Session: Sendable {
    /// Sends the requests (wrapped in a ``LoggingHTTPClient`` when the session
    /// has a logger).
    public let client: any HTTPClient
    /// Runs timeouts and retry delays.
    public let scheduler: any SchedulerType
    /// The timeout of each attempt for requests that set none, from when the
    /// client hands the attempt to the network; `nil`: only the client's own
    /// (`URLRequest.timeoutInterval`).
    public let timeout: RxTimeInterval?
    /// The retry policy for requests that set none; `nil`: no retries.
    public let retryPolicy: RetryPolicy?
    /// Where ``response(for:)`` and ``send(_:)`` deliver their outcome; `nil`:
    /// where the client delivers it (see "Where responses arrive" above).
    public let deliveryScheduler: (any ImmediateSchedulerType)?

    /// A session.
    ///
    /// - Parameters:
    ///   - client: sends the requests; by default a ``URLSessionHTTPClient``
    ///     on a session of its own with the default configuration.
    ///   - scheduler: runs timeouts and retry delays; by default a concurrent
    ///     dispatch-queue scheduler. Tests pass a `TestScheduler`.
    ///   - timeout: the default per-attempt timeout.
    ///   - retryPolicy: the default retry policy.
    ///   - logger: logs every attempt (a `curl` line, then the outcome).
    ///   - deliveryScheduler: where responses and errors are delivered
    ///     (`MainScheduler.instance` for an app's screens); by default where the
    ///     client delivers them.
    public init(
        client: any HTTPClient = URLSessionHTTPClient(),
        scheduler: any SchedulerType = ConcurrentDispatchQueueScheduler(qos: .default),
        timeout: RxTimeInterval? = nil,
        retryPolicy: RetryPolicy? = nil,
        logger: HTTPLogger? = nil,
        deliveryScheduler: (any ImmediateSchedulerType)? = nil
    ) {
        if let logger {
            self.client = LoggingHTTPClient(client, logger: logger)
        } else {
            self.client = client
        }
        self.scheduler = scheduler
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.deliveryScheduler = deliveryScheduler
    }

    /// Sends `request` when subscribed and succeeds with its `Response`; see
    /// the type's documentation for the steps and the errors (all
    /// ``HTTPError``s).
    ///
    /// ```
    /// response(for: r):   ------(Response|)
    ///                     ------#(HTTPError)
    /// ```
    public func response<R: Request>(for request: R) -> Single<R.Response> {
        // The conversion is `map`'s, written out: `map` over the generic
        // `R.Response` would instantiate the fused pipeline unspecialised in
        // RippleHTTP, 28 KB that every app linking it carried (Performance.md,
        // "RippleHTTP's code that a client does not call"), for one element per
        // request.
        let responses = validatedResponse(for: request)
        return delivered(Observable<R.Response>.create { observer in
            responses.subscribe { event in
                switch event {
                case .next(let response):
                    do {
                        observer.onNext(try request.decodedResponse(from: response))
                    } catch {
                        observer.onError(error)
                    }
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    observer.onCompleted()
                }
            }
        })
    }

    /// Like ``response(for:)`` but stops before converting: the accepted
    /// ``HTTPResponse`` (for headers such as `Link` or `ETag`).
    ///
    /// ```
    /// send(r):   ------(HTTPResponse|)
    /// ```
    public func send<R: Request>(_ request: R) -> Single<HTTPResponse> {
        delivered(validatedResponse(for: request))
    }

    /// `outcome` as a `Single`, on ``deliveryScheduler`` when there is one.
    private func delivered<Value>(_ outcome: Observable<Value>) -> Single<Value> {
        onDeliveryScheduler(outcome).asSingle()
    }

    /// `events` on ``deliveryScheduler`` when there is one (responses and
    /// streamed responses alike).
    package func onDeliveryScheduler<Value>(_ events: Observable<Value>) -> Observable<Value> {
        guard let deliveryScheduler else { return events }
        return events.observe(on: deliveryScheduler)
    }

    private func validatedResponse<R: Request>(for request: R) -> Observable<HTTPResponse> {
        let client = self.client
        let scheduler = self.scheduler
        let timeout = request.timeout ?? self.timeout
        let policy = request.retryPolicy ?? self.retryPolicy
        return Observable.deferred {
            let urlRequest = try request.makeURLRequest()
            let acceptable = request.acceptableStatusCodes
            // The timeout starts when the client hands the request to the
            // network, not when it starts waiting for a connection.
            var attempt = (timeout.map { client.send(urlRequest, timeout: $0, scheduler: scheduler) } ?? client.send(urlRequest))
                .asObservable()
            attempt = attempt.validate(acceptable)
            if let policy, request.method.isIdempotent || policy.retriesNonIdempotentRequests {
                attempt = attempt.retry(policy, scheduler: scheduler)
            }
            return attempt
        }
    }
}
