@_exported import RippleHTTP
import RippleHTTPStreaming
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A canned answer of a ``StubHTTPClient``: a status code, header fields and
/// a body, or a transport failure, optionally after a delay.
///
/// ```swift
/// .json(#"{"id": 1}"#)                                  // 200, Content-Type: application/json
/// .json(User(id: 1))                                    // an Encodable value
/// .status(503, headers: ["Retry-After": "2"])
/// .text("plain", statusCode: 201)
/// .failure(.notConnectedToInternet)                     // HTTPError.transport
/// .json("[]").delayed(by: .milliseconds(300))           // on the stub's scheduler
/// .never                                                // no answer (cancellation tests)
/// .eventStream(events)                                  // text/event-stream, from an Observable<ServerSentEvent>
/// .stream(chunks, headers: ["Content-Type": "application/x-ndjson"])   // a body from an Observable<Data>
/// ```
public struct StubResponse: @unchecked Sendable {
    // @unchecked: a streamed body is an `Observable`, which is thread-safe
    // but not declared `Sendable`.
    enum Outcome {
        case response(statusCode: Int, headers: HTTPHeaders, body: Data)
        case stream(statusCode: Int, headers: HTTPHeaders, body: Observable<Data>)
        case failure(HTTPError)
        case never
    }

    let outcome: Outcome
    /// The delay before the answer, on the stub's scheduler (`nil`: the
    /// stub's default delay).
    public var delay: RxTimeInterval?

    /// A response with `statusCode`, `headers` and `body`.
    public init(statusCode: Int = 200, headers: HTTPHeaders = [:], body: Data = Data(), delay: RxTimeInterval? = nil) {
        self.outcome = .response(statusCode: statusCode, headers: headers, body: body)
        self.delay = delay
    }

    private init(outcome: Outcome, delay: RxTimeInterval? = nil) {
        self.outcome = outcome
        self.delay = delay
    }

    /// A JSON body given as text (`Content-Type: application/json`).
    public static func json(_ text: String, statusCode: Int = 200, headers: HTTPHeaders = [:]) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: (["Content-Type": "application/json"] as HTTPHeaders).merging(headers), body: Data(text.utf8))
    }

    /// `value` encoded with `encoder` (`Content-Type: application/json`); if it
    /// does not encode, a `500` whose body says why.
    public static func json<Value: Encodable>(
        _ value: Value, statusCode: Int = 200, headers: HTTPHeaders = [:], encoder: JSONEncoder = JSONEncoder()
    ) -> StubResponse {
        do {
            let data = try encoder.encode(value)
            return StubResponse(statusCode: statusCode, headers: (["Content-Type": "application/json"] as HTTPHeaders).merging(headers), body: data)
        } catch {
            return .text("StubResponse.json could not encode \(Value.self): \(error)", statusCode: 500)
        }
    }

    /// A text body (`Content-Type: text/plain; charset=utf-8`).
    public static func text(_ text: String, statusCode: Int = 200, headers: HTTPHeaders = [:]) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: (["Content-Type": "text/plain; charset=utf-8"] as HTTPHeaders).merging(headers), body: Data(text.utf8))
    }

    /// A status code with an optional text body.
    public static func status(_ statusCode: Int, headers: HTTPHeaders = [:], body: String = "") -> StubResponse {
        StubResponse(statusCode: statusCode, headers: headers, body: Data(body.utf8))
    }

    /// A transport failure: `HTTPError.transport(_:)` with `URLError(code)`.
    public static func failure(_ code: URLError.Code) -> StubResponse {
        StubResponse(outcome: .failure(.transport(URLError(code))))
    }

    /// Fails with `error` (any `HTTPError`, e.g. `HTTPError.notHTTPResponse(_:)`).
    public static func failure(_ error: HTTPError) -> StubResponse {
        StubResponse(outcome: .failure(error))
    }

    /// Never answers: the request stays in flight until it is disposed.
    public static let never = StubResponse(outcome: .never)

    /// A response whose body streams: the head at once (after the delay),
    /// then each `Data` of `body` as it comes, on the thread (or the virtual
    /// time) `body` sends it; `body` completing is the end of the body (the
    /// server closed the connection), an error a lost connection (an
    /// `HTTPError` as it is, anything else as `HTTPError.transport(_:)`).
    /// Every request (every reconnection) subscribes `body` anew: a cold
    /// observable replays its script for each.
    ///
    /// With ``StubHTTPClient/send(_:)`` the body is collected until it
    /// completes.
    public static func stream<Body: ObservableType>(_ body: Body, statusCode: Int = 200, headers: HTTPHeaders = [:]) -> StubResponse
    where Body.Element == Data {
        StubResponse(outcome: .stream(statusCode: statusCode, headers: headers, body: body.asObservable()))
    }

    /// A `text/event-stream` response sending each event of `events` (in the
    /// wire format, `ServerSentEvent.encoded`) when `events` sends it: a
    /// script in virtual time for view models that consume
    /// `Session.events(for:)`, written as marbles.
    ///
    /// ```swift
    /// let script = try scheduler.createColdObservable("-a--b--#", values: ["a": ServerSentEvent(id: "1", data: "x"), ...])
    /// stub.stub(.get, "/live", sequence: [.eventStream(script), .eventStream(rest)])   // a reconnection gets `rest`
    /// ```
    ///
    /// `events` completing closes the connection; an error drops it.
    public static func eventStream<Events: ObservableType>(_ events: Events, statusCode: Int = 200, headers: HTTPHeaders = [:]) -> StubResponse
    where Events.Element == ServerSentEvent {
        let headers = (["Content-Type": "text/event-stream", "Cache-Control": "no-cache"] as HTTPHeaders).merging(headers)
        return .stream(events.asObservable().map { Data($0.encoded.utf8) }, statusCode: statusCode, headers: headers)
    }

    /// This answer after `delay` on the stub's scheduler.
    public func delayed(by delay: RxTimeInterval) -> StubResponse {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// The outcome for `request`.
    func result(for request: URLRequest) -> Result<HTTPResponse, Error>? {
        switch outcome {
        case .response(let statusCode, let headers, let body):
            let url = request.url ?? URL(string: "http://stub.invalid/")!
            guard let response = HTTPResponse(url: url, statusCode: statusCode, headers: headers, data: body) else {
                return .failure(HTTPError.notHTTPResponse(nil))
            }
            return .success(response)
        case .stream:
            // Collected by the caller.
            return nil
        case .failure(let error):
            return .failure(error)
        case .never:
            return nil
        }
    }

    /// The head and body of a streamed outcome.
    func streamed(for request: URLRequest) -> (HTTPURLResponse?, Observable<Data>)? {
        guard case .stream(let statusCode, let headers, let body) = outcome else { return nil }
        let url = request.url ?? URL(string: "http://stub.invalid/")!
        return (HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers.dictionary), body)
    }
}

/// An `HTTPClient` for tests: answers by method and path with canned
/// responses, optionally after a delay on a scheduler (a `TestScheduler` for
/// virtual time), and records every request it receives and every request
/// cancelled before its answer.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let stub = StubHTTPClient(scheduler: scheduler)
/// stub.stub(.get, "/users/*/repos", .json(#"[{"id": 1, "name": "hello"}]"#).delayed(by: .seconds(5)))
/// stub.stub(.get, "/flaky", sequence: [.status(503), .status(503), .json("{}")])
///
/// let session = Session(client: stub, scheduler: scheduler)
/// // ... run the code under test ...
/// XCTAssertEqual(stub.requests.map(\.url?.path), ["/users/octocat/repos"])
/// ```
///
/// Matching: the method must be equal; the pattern is compared with the
/// URL's path segment by segment, `*` matching any one segment and a final
/// `**` any rest; the query is ignored (inspect ``requests``, or use a
/// handler). Later stubs win over earlier ones. A request without a stub gets
/// ``unmatchedResponse`` (a `404` saying so).
///
/// Without delay the answer is delivered synchronously on subscription.
public final class StubHTTPClient: HTTPClient, @unchecked Sendable {
    private struct Route {
        let method: HTTPMethod
        let pattern: [Substring]
        let answer: (URLRequest) -> StubResponse
    }

    private struct State {
        var routes: [Route] = []
        var requests: [URLRequest] = []
        var cancelled: [URLRequest] = []
        var unmatched: [URLRequest] = []
        var unmatchedResponse: StubResponse?
        var defaultDelay: RxTimeInterval?
    }

    private let lock = PlatformLock()
    private var state = State()
    /// Runs the delays.
    public let scheduler: any SchedulerType

    /// A stub whose delays run on `scheduler` (by default a concurrent
    /// dispatch-queue scheduler, in real time) and default to `defaultDelay`.
    public init(scheduler: any SchedulerType = ConcurrentDispatchQueueScheduler(qos: .default), defaultDelay: RxTimeInterval? = nil) {
        self.scheduler = scheduler
        state.defaultDelay = defaultDelay
    }

    /// Answers `method` requests whose path matches `pattern` with `response`,
    /// every time.
    public func stub(_ method: HTTPMethod, _ pattern: String, _ response: StubResponse) {
        stub(method, pattern) { _ in response }
    }

    /// Answers matching requests with `sequence`'s responses in order, then
    /// with the last one again (e.g. `[.status(503), .json("{}")]` for a
    /// retry test). An empty sequence answers ``unmatchedResponse``.
    public func stub(_ method: HTTPMethod, _ pattern: String, sequence: [StubResponse]) {
        let index = Counter()
        let fallback = unmatchedResponse
        stub(method, pattern) { _ in
            guard !sequence.isEmpty else { return fallback }
            return sequence[min(index.next(), sequence.count - 1)]
        }
    }

    /// Answers matching requests with what `handler` returns for each (it may
    /// look at the query, headers and body).
    public func stub(_ method: HTTPMethod, _ pattern: String, handler: @escaping (URLRequest) -> StubResponse) {
        let route = Route(method: method, pattern: StubHTTPClient.segments(pattern), answer: handler)
        lock.lock()
        state.routes.append(route)
        lock.unlock()
    }

    /// Removes every stub and every record.
    public func reset() {
        lock.lock()
        let defaultDelay = state.defaultDelay
        state = State()
        state.defaultDelay = defaultDelay
        lock.unlock()
    }

    /// The answer to requests that match no stub. Default: `404` with the
    /// text `No stub for <METHOD> <path>`.
    public var unmatchedResponse: StubResponse {
        get {
            lock.lock()
            defer { lock.unlock() }
            return state.unmatchedResponse ?? .text("No stub for this request", statusCode: 404)
        }
        set {
            lock.lock()
            state.unmatchedResponse = newValue
            lock.unlock()
        }
    }

    /// The delay of responses that set none.
    public var defaultDelay: RxTimeInterval? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return state.defaultDelay
        }
        set {
            lock.lock()
            state.defaultDelay = newValue
            lock.unlock()
        }
    }

    /// Every request received (one per subscription), in order.
    public var requests: [URLRequest] {
        lock.lock()
        defer { lock.unlock() }
        return state.requests
    }

    /// The requests received for `method` and a path matching `pattern`.
    public func requests(_ method: HTTPMethod, _ pattern: String) -> [URLRequest] {
        let segments = StubHTTPClient.segments(pattern)
        return requests.filter { request in
            request.httpMethod == method.rawValue && StubHTTPClient.matches(segments, path: request.url?.path ?? "")
        }
    }

    /// The requests disposed before their answer arrived.
    public var cancelledRequests: [URLRequest] {
        lock.lock()
        defer { lock.unlock() }
        return state.cancelled
    }

    /// The requests that matched no stub.
    public var unmatchedRequests: [URLRequest] {
        lock.lock()
        defer { lock.unlock() }
        return state.unmatched
    }

    /// Records `request` when subscribed and answers it as stubbed.
    ///
    /// ```
    /// send(request):   ---delay---(response|)
    /// ```
    public func send(_ request: URLRequest) -> Single<HTTPResponse> {
        Single.create { [self] observer in
            let response = self.receive(request)
            if response.streamed(for: request) != nil {
                // A streamed body, collected until it ends.
                let collected = HTTPResponseCollector()
                return self.parts(of: response, for: request).subscribe { event in
                    switch event {
                    case .next(let part): collected.add(part)
                    case .error(let error): observer(.failure(error))
                    case .completed: observer(collected.response.map { .success($0) } ?? .failure(HTTPError.notHTTPResponse(nil)))
                    }
                }
            }
            let delay = response.delay ?? self.defaultDelay
            guard let result = response.result(for: request), delay != .never else {
                return Disposables.create { self.recordCancellation(request) }
            }
            guard let delay, StubHTTPClient.isPositive(delay) else {
                observer(result)
                return Disposables.create()
            }
            let answered = Counter()
            let scheduled = self.scheduler.scheduleRelative((), dueTime: delay) { _ in
                _ = answered.next()
                observer(result)
                return Disposables.create()
            }
            return Disposables.create {
                if answered.value == 0 {
                    self.recordCancellation(request)
                }
                scheduled.dispose()
            }
        }
    }

    /// Records `request` when subscribed and answers it as stubbed: the
    /// head, then the body, in one part or (for ``StubResponse/stream(_:statusCode:headers:)``
    /// and ``StubResponse/eventStream(_:statusCode:headers:)``) as it streams.
    /// `started` is called on subscription. A stream disposed before it ends
    /// is recorded in ``cancelledRequests``.
    ///
    /// ```
    /// stream(request):   ---delay---(head)--body--body--|
    /// ```
    public func stream(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Observable<HTTPResponsePart> {
        Observable.deferred { [self] in
            started()
            return self.parts(of: self.receive(request), for: request)
        }
    }

    /// The parts of `response`, after its delay; a dispose before the end is
    /// recorded as a cancellation.
    private func parts(of response: StubResponse, for request: URLRequest) -> Observable<HTTPResponsePart> {
        let delay = response.delay ?? defaultDelay
        let parts: Observable<HTTPResponsePart>
        if delay == .never {
            parts = .never()
        } else if let (head, body) = response.streamed(for: request) {
            guard let head else { return .error(HTTPError.notHTTPResponse(nil)) }
            parts = body
                .filter { !$0.isEmpty }
                .map { HTTPResponsePart.body($0) }
                .catch { error in .error(HTTPError.transport(from: error)) }
                .startWith(.head(head))
        } else {
            switch response.result(for: request) {
            case .success(let answer)?:
                parts = answer.data.isEmpty ? .just(.head(answer.response)) : .of(.head(answer.response), .body(answer.data))
            case .failure(let error)?:
                parts = .error(error)
            case nil:
                parts = .never()
            }
        }
        let delayed: Observable<HTTPResponsePart>
        if let delay, StubHTTPClient.isPositive(delay) {
            delayed = parts.delaySubscription(delay, scheduler: scheduler)
        } else {
            delayed = parts
        }
        return Observable.deferred { [self] in
            let ended = Counter()
            return delayed.do(
                onError: { _ in _ = ended.next() },
                onCompleted: { _ = ended.next() },
                onDispose: {
                    if ended.value == 0 { self.recordCancellation(request) }
                })
        }
    }

    private func receive(_ request: URLRequest) -> StubResponse {
        let path = request.url?.path ?? ""
        lock.lock()
        state.requests.append(request)
        let route = state.routes.last { route in
            route.method.rawValue == request.httpMethod && StubHTTPClient.matches(route.pattern, path: path)
        }
        if route == nil {
            state.unmatched.append(request)
        }
        let unmatched = state.unmatchedResponse
        lock.unlock()
        // The handler is user code: called outside the lock.
        if let route {
            return route.answer(request)
        }
        return unmatched ?? .text("No stub for \(request.httpMethod ?? "GET") \(path)", statusCode: 404)
    }

    private func recordCancellation(_ request: URLRequest) {
        lock.lock()
        state.cancelled.append(request)
        lock.unlock()
    }

    private static func isPositive(_ interval: RxTimeInterval) -> Bool {
        switch interval {
        case .seconds(let amount), .milliseconds(let amount), .microseconds(let amount), .nanoseconds(let amount):
            return amount > 0
        case .never:
            return false
        @unknown default:
            return false
        }
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func matches(_ pattern: [Substring], path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for (index, part) in pattern.enumerated() {
            if part == "**" && index == pattern.count - 1 { return true }
            guard index < segments.count else { return false }
            if part != "*" && part != segments[index] { return false }
        }
        return pattern.count == segments.count
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = PlatformLock()
    private var count = 0

    /// Returns the current count and increments it.
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count - 1
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// The head and body of a streamed stub response, collected for `send`.
final class HTTPResponseCollector: @unchecked Sendable {
    private let lock = PlatformLock()
    private var head: HTTPURLResponse?
    private var body = Data()

    func add(_ part: HTTPResponsePart) {
        lock.lock()
        switch part {
        case .head(let response): head = response
        case .body(let data): body.append(data)
        }
        lock.unlock()
    }

    var response: HTTPResponse? {
        lock.lock()
        defer { lock.unlock() }
        return head.map { HTTPResponse(data: body, response: $0) }
    }
}
