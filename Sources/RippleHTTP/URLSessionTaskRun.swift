import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One subscription to ``URLSessionHTTPClient/send(_:)`` or
/// ``URLSessionHTTPClient/stream(_:whenStarted:)``: a ``TransportRun`` (slot,
/// dispose, end) whose request is handed to `URLSession` from the client's
/// own serial queue (``URLSessionHTTPClient/callSession(_:)``), with
/// redirects followed by the client's ``RedirectPolicy``.
///
/// ```
/// waiting ──slot──▶ starting ──create, attach, resume (client's queue)──▶ running ──complete──▶ finished
///    │                  │                                                   │
///    └─dispose─▶ disposed (nothing sent)                                    └─dispose─▶ task cancelled (client's queue), nothing delivered
/// ```
///
/// No lock is held while `URLSession` is called: FoundationNetworking may
/// make such a call wait for its work queue, and the work queue may be
/// waiting for the delegate queue (``URLSessionDeliveryQueue``), where a
/// dispose could be waiting for the lock.
@usableFromInline
final class URLSessionTaskRun: @unchecked Sendable {
    private let client: URLSessionHTTPClient
    private let run: TransportRun<URLSessionDataTask>

    @usableFromInline
    init(client: URLSessionHTTPClient, request: URLRequest, started: @escaping @Sendable () -> Void, receiver: ResponseReceiver) {
        // The client (and so its session) lives as long as a request that
        // may still start: a session is never used after its client
        // invalidated it.
        self.client = client
        run = TransportRun(request: request, limiter: client.limiter, started: started, receiver: receiver) { [client] task in
            client.callSession { task.cancel() }
        }
    }

    /// Asks for a connection slot.
    @usableFromInline
    func begin() {
        run.begin { [self] in
            // Started from the client's queue, not from `subscribe`: a dispose
            // that comes right after the subscription (before this runs)
            // sends nothing at all.
            client.callSession { [self] in start() }
        }
    }

    /// On the client's queue: creates the task, keeps it unless the run was
    /// disposed meanwhile (then it is cancelled, never resumed), resumes it.
    private func start() {
        // Disposed while waiting for this turn: nothing is created.
        guard let request = run.requestToHandOver() else { return }
        let task: URLSessionDataTask
        if let events = client.events {
            task = client.session.dataTask(with: request)
            events.register(task, self)
        } else {
            task = client.session.dataTask(with: request) { [self] data, response, error in
                completedWithHandler(data: data, response: response, error: error)
            }
            // The session's delegate is not Ripple's: a task delegate applies
            // the redirect policy (FoundationNetworking asks it about
            // redirects, though not about data).
            task.delegate = URLSessionRedirectGuard(run: self)
        }
        // A dispose from now on cancels the task, on this same queue, after
        // the resume below.
        if run.attach(task, whileLocked: {}) {
            task.resume()
            run.notifyStarted()
        }
    }

    /// The subscription was disposed: nothing is delivered from now on; a
    /// waiting request leaves the queue, a running one is cancelled.
    @usableFromInline
    func dispose() {
        run.dispose()
    }

    // MARK: Task events (on the session's delegate queue)

    /// A redirect: what the policy says to send next (`nil`: stop here). A
    /// refused redirect is not cancelled here (FoundationNetworking traps if
    /// a task is cancelled before its redirect callback returns): the `3xx`
    /// that follows is refused at its head, which cancels the task.
    func redirect(_ response: HTTPURLResponse) -> URLRequest? {
        let decision = run.withLock {
            $0.redirect(
                by: client.redirectPolicy, status: response.statusCode,
                location: response.value(forHTTPHeaderField: "Location"), responseURL: response.url)
        }
        if case .follow(let next) = decision { return next }
        return nil
    }

    /// The final response's head; `false`: cancel the task.
    func receivedHead(_ response: URLResponse) -> Bool {
        if run.withLock({ $0.stopReason != nil }) { return false }
        guard let response = response as? HTTPURLResponse else {
            run.withLock { $0.stopReason = .notHTTPResponse(response) }
            return false
        }
        return run.receiver.head(response)
    }

    /// Bytes of the body. When the receiver wants no more (over the size
    /// limit, disposed), the task is cancelled, once.
    func received(_ data: Data) {
        if !run.receiver.body(data) {
            run.stop()
        }
    }

    func completed(error: Error?) {
        run.finish(error.map(URLSessionHTTPClient.transportFailure))
    }

    /// A session without Ripple's delegate reports the whole response at
    /// the end.
    private func completedWithHandler(data: Data?, response: URLResponse?, error: Error?) {
        if error == nil, let response {
            if receivedHead(response), let data {
                _ = run.receiver.body(data)
            }
        }
        if error == nil, response == nil {
            run.withLock { state in
                if state.stopReason == nil { state.stopReason = .notHTTPResponse(nil) }
            }
        }
        completed(error: error)
    }
}

/// The delegate of the sessions ``URLSessionHTTPClient`` creates: routes each
/// task's redirects, head, body and completion to its ``URLSessionTaskRun``,
/// so that bodies are checked against the size limit (or streamed) as they
/// arrive.
///
/// It holds no reference to the client (the session holds its delegate until
/// it is invalidated, which the client does when it is released).
final class URLSessionTaskEvents: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = PlatformLock()
    private var runs: [Int: URLSessionTaskRun] = [:]

    func register(_ task: URLSessionTask, _ run: URLSessionTaskRun) {
        lock.lock()
        runs[task.taskIdentifier] = run
        lock.unlock()
    }

    private func run(for task: URLSessionTask, removing: Bool = false) -> URLSessionTaskRun? {
        lock.lock()
        defer { lock.unlock() }
        return removing ? runs.removeValue(forKey: task.taskIdentifier) : runs[task.taskIdentifier]
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(run(for: task)?.redirect(response))
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let proceed = run(for: dataTask)?.receivedHead(response) ?? false
        completionHandler(proceed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        run(for: dataTask)?.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        run(for: task, removing: true)?.completed(error: error)
    }
}

/// The task delegate of a request on a session passed in to
/// ``URLSessionHTTPClient/init(session:maximumResponseBodySize:redirectPolicy:)``:
/// it applies the client's ``RedirectPolicy``.
final class URLSessionRedirectGuard: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let run: URLSessionTaskRun

    init(run: URLSessionTaskRun) {
        self.run = run
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(run.redirect(response))
    }
}
