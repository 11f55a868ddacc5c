import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One subscription to ``URLSessionHTTPClient/send(_:)`` or
/// ``URLSessionHTTPClient/stream(_:whenStarted:)``: waits for a connection
/// slot, hands the request to `URLSession` unless it was disposed first,
/// follows redirects by the client's ``RedirectPolicy``, and passes the
/// response to its ``ResponseReceiver`` (which collects it within the size
/// limit, or streams it).
///
/// ```
/// waiting ──slot──▶ scheduled ──start (delegate queue)──▶ running ──complete──▶ finished
///    │                  │                                    │
///    └─dispose─▶ disposed (nothing sent)                     └─dispose─▶ task cancelled, nothing delivered
/// ```
final class URLSessionTaskRun: @unchecked Sendable {
    enum Phase {
        case waiting
        case scheduled
        case running(URLSessionDataTask)
        case finished
        case disposed
    }

    private let lock = NSLock()
    private var phase = Phase.waiting
    /// The request as last sent (redirects replace it).
    private var current: URLRequest
    private var redirects = 0
    /// Why the transfer was stopped by the client (a refused redirect, not
    /// an HTTP response), reported instead of the cancellation.
    private var stopReason: HTTPError?

    private let client: URLSessionHTTPClient
    private let receiver: ResponseReceiver
    private let slot: ConnectionSlot
    private let started: @Sendable () -> Void

    init(client: URLSessionHTTPClient, request: URLRequest, started: @escaping @Sendable () -> Void, receiver: ResponseReceiver) {
        self.client = client
        self.current = request
        self.started = started
        self.receiver = receiver
        slot = ConnectionSlot(limiter: client.limiter, url: request.url)
        // The client (and so its session) lives as long as a request that
        // may still start: a session is never used after its client
        // invalidated it.
    }

    /// Asks for a connection slot.
    func begin() {
        slot.acquire { [self] in granted() }
    }

    private func granted() {
        lock.lock()
        guard case .waiting = phase else {
            // Disposed while the slot was being granted.
            lock.unlock()
            slot.release()
            return
        }
        phase = .scheduled
        lock.unlock()
        // Started from the delegate queue, not from `subscribe`: a dispose
        // that comes right after the subscription (before this operation
        // runs) sends nothing at all.
        client.session.delegateQueue.addOperation { [self] in start() }
    }

    private func start() {
        lock.lock()
        guard case .scheduled = phase else {
            lock.unlock()
            slot.release()
            return
        }
        let task: URLSessionDataTask
        if let events = client.events {
            task = client.session.dataTask(with: current)
            events.register(task, self)
        } else {
            task = client.session.dataTask(with: current) { [self] data, response, error in
                completedWithHandler(data: data, response: response, error: error)
            }
            // The session's delegate is not Ripple's: a task delegate applies
            // the redirect policy (FoundationNetworking asks it about
            // redirects, though not about data).
            task.delegate = URLSessionRedirectGuard(run: self)
        }
        phase = .running(task)
        // Resumed under the lock that `dispose` takes: the check above and the
        // hand-over are one step, so a disposed request is never sent.
        task.resume()
        lock.unlock()
        started()
    }

    /// The subscription was disposed: nothing is delivered from now on; a
    /// waiting request leaves the queue, a running one is cancelled.
    func dispose() {
        receiver.dispose()
        lock.lock()
        let previous = phase
        switch previous {
        case .waiting, .scheduled:
            phase = .disposed
        case .running, .finished, .disposed:
            break
        }
        lock.unlock()
        switch previous {
        case .waiting:
            // Out of the queue; if the slot was granted meanwhile, `granted`
            // sees `.disposed` and gives it back.
            slot.withdraw()
        case .running(let task):
            task.cancel()
        case .scheduled, .finished, .disposed:
            break
        }
    }

    // MARK: Task events (on the session's delegate queue)

    /// A redirect: what the policy says to send next (`nil`: stop here). A
    /// refused redirect is not cancelled here (FoundationNetworking traps if
    /// a task is cancelled before its redirect callback returns): the `3xx`
    /// that follows is refused at its head, which cancels the task.
    func redirect(_ response: HTTPURLResponse) -> URLRequest? {
        lock.lock()
        let decision = client.redirectPolicy.decide(
            after: current, status: response.statusCode, location: response.value(forHTTPHeaderField: "Location"),
            responseURL: response.url, redirects: redirects)
        switch decision {
        case .follow(let next):
            current = next
            redirects += 1
            lock.unlock()
            return next
        case .deliver:
            lock.unlock()
            return nil
        case .fail(let error):
            stopReason = error
            lock.unlock()
            return nil
        }
    }

    /// The final response's head; `false`: cancel the task.
    func receivedHead(_ response: URLResponse) -> Bool {
        lock.lock()
        let stopped = stopReason != nil
        lock.unlock()
        if stopped { return false }
        guard let response = response as? HTTPURLResponse else {
            lock.lock()
            stopReason = .notHTTPResponse(response)
            lock.unlock()
            return false
        }
        return receiver.head(response)
    }

    /// Bytes of the body; `false`: cancel the task.
    func received(_ data: Data) -> Bool {
        receiver.body(data)
    }

    func completed(error: Error?) {
        lock.lock()
        let reason = stopReason
        if case .running = phase {
            phase = .finished
        }
        lock.unlock()
        slot.release()
        // Delivered outside the lock.
        receiver.finish(reason ?? error.map(URLSessionHTTPClient.transportFailure))
    }

    /// A session without Ripple's delegate reports the whole response at
    /// the end.
    private func completedWithHandler(data: Data?, response: URLResponse?, error: Error?) {
        if error == nil, let response {
            if receivedHead(response), let data {
                _ = received(data)
            }
        }
        lock.lock()
        if error == nil, response == nil, stopReason == nil {
            stopReason = .notHTTPResponse(nil)
        }
        lock.unlock()
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
    private let lock = NSLock()
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
        if run(for: dataTask)?.received(data) == false {
            dataTask.cancel()
        }
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
