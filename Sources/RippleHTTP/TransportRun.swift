import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where one request of a transport stands, and the decisions every transport
/// makes the same way about it: its connection slot, its hand-over, a
/// dispose, redirects, why the client stopped it. A value with no lock and no
/// threads; ``TransportRun`` owns the lock and does what it returns.
///
/// ```
/// waiting ──granted──▶ starting ──handed over──▶ running(task) ──finish──▶ finished
///    │                    │                        │ └─redirect followed──▶ running(next task)
///    └─dispose─▶ disposed ◀┘                       └─dispose─▶ cancel the task (its end finishes the run)
/// ```
///
/// `Task` is the transport's handle on a request in flight (a
/// `URLSessionDataTask`, an AsyncHTTPClient task).
struct TransportRunState<Task> {
    // A case whose payload depends on a type parameter is `indirect` where it is not built
    // per event on a hot path (docs/Performance.md, "Boxed payloads").
    enum Phase {
        /// Waiting for a connection slot.
        case waiting
        /// The slot is held; the request is being handed over.
        case starting
        /// The transport has the request.
        indirect case running(Task)
        /// The transport is done with it (response, failure or cancellation).
        case finished
        /// Disposed before it was handed over: nothing is sent.
        case disposed
    }

    /// What a dispose asks the run to do.
    enum Disposal {
        /// Leave the limiter's queue (a grant that comes anyway sees
        /// `.disposed` and gives the slot back).
        case withdraw
        /// Cancel the request in flight; the transport's end of it finishes
        /// the run.
        case cancel(Task)
        /// Nothing: the hand-over in progress or the end already happened
        /// sees `.disposed`, or the run is over.
        case nothing
    }

    private(set) var phase = Phase.waiting
    /// The slot was granted and has not been given back.
    private(set) var holdsSlot = false
    /// The request as last sent (a followed redirect replaces it).
    private(set) var current: URLRequest
    /// Redirects followed so far.
    private(set) var redirects = 0
    /// The current request was sent again after its connection was lost
    /// (``resendAfterLostConnection()``): it is not sent a third time.
    private(set) var resent = false
    /// Disposed while running: the task is being cancelled, nothing more is
    /// handed over (no redirect, no resend).
    private(set) var cancelling = false
    /// Why the client stopped the transfer (a refused redirect, a response
    /// that is not HTTP, a timeout): reported instead of the transport's
    /// cancellation error.
    var stopReason: HTTPError?

    init(request: URLRequest) {
        current = request
    }

    /// The limiter granted a slot: `true` to hand the request over, `false`
    /// if it was disposed meanwhile (then give the slot back).
    mutating func granted() -> Bool {
        holdsSlot = true
        guard case .waiting = phase else { return false }
        phase = .starting
        return true
    }

    /// `true` exactly once per granted slot: the caller gives it back to the
    /// limiter.
    mutating func releaseSlot() -> Bool {
        defer { holdsSlot = false }
        return holdsSlot
    }

    /// Whether the current request may be handed over: the slot is held and
    /// the run was neither disposed nor finished.
    var mayHandOver: Bool {
        switch phase {
        case .starting: return true
        case .running: return !cancelling
        case .waiting, .finished, .disposed: return false
        }
    }

    /// The transport took the current request as `task`; `false` if the run
    /// was disposed or finished meanwhile (then cancel `task`).
    mutating func handedOver(_ task: Task) -> Bool {
        guard mayHandOver else { return false }
        phase = .running(task)
        return true
    }

    /// The subscription was disposed.
    mutating func dispose() -> Disposal {
        switch phase {
        case .waiting:
            phase = .disposed
            return .withdraw
        case .starting:
            phase = .disposed
            return .nothing
        case .running(let task):
            if cancelling { return .nothing }
            cancelling = true
            return .cancel(task)
        case .finished, .disposed:
            return .nothing
        }
    }

    /// The client wants no more of the transfer (its receiver is done with
    /// it: over the size limit, or disposed): the task to cancel, the first
    /// time only. Nothing more is handed over.
    mutating func stop() -> Task? {
        guard case .running(let task) = phase, !cancelling else { return nil }
        cancelling = true
        return task
    }

    /// The transport is done with the request.
    mutating func finish() {
        switch phase {
        case .starting, .running: phase = .finished
        case .waiting, .finished, .disposed: break
        }
    }

    /// The connection was lost before any byte of the response head arrived
    /// (typically a kept-alive connection the server had closed): `true` to
    /// send the current request once more, if its method is idempotent (RFC
    /// 9110 §9.2.2), it was not resent already, and nothing stopped or
    /// disposed the run. A second loss, a loss after the head, or a `POST`
    /// ends in the error.
    mutating func resendAfterLostConnection() -> Bool {
        guard !resent, stopReason == nil, mayHandOver,
            HTTPMethod(rawValue: current.httpMethod ?? "GET").isIdempotent
        else { return false }
        resent = true
        return true
    }

    /// What `policy` says a response head with `status` leads to: a followed
    /// redirect becomes the current request, a refused one the stop reason.
    mutating func redirect(by policy: RedirectPolicy, status: Int, location: String?, responseURL: URL?) -> RedirectPolicy.Decision {
        let decision = policy.decide(after: current, status: status, location: location, responseURL: responseURL, redirects: redirects)
        switch decision {
        case .follow(let next):
            current = next
            redirects += 1
            resent = false
        case .fail(let error):
            stopReason = error
        case .deliver:
            break
        }
        return decision
    }
}

/// One subscription to a transport's `send` or `stream`, the part every
/// transport shares: it waits for a slot of the transport's
/// ``ConnectionLimiter``, lets the transport hand the request over unless it
/// was disposed first, cancels it on dispose, gives the slot back exactly
/// once whoever ends the request (the transport's completion, a dispose, a
/// grant that comes too late), and passes the end to the
/// ``ResponseReceiver``. The decisions are ``TransportRunState``'s; this
/// class owns the lock and calls the limiter, the receiver and `cancel`,
/// never under the lock.
///
/// A transport's own run (`URLSessionTaskRun`, `AsyncHTTPClientRun`) holds
/// one, creates the transport's task and maps the transport's callbacks.
/// State it keeps beside this one is read and written only inside
/// ``withLock(_:)`` (one lock per request).
final class TransportRun<Task>: @unchecked Sendable {
    private let lock = PlatformLock()
    private var state: TransportRunState<Task>
    private let limiter: ConnectionLimiter
    private let id: UInt64
    private let host: String
    private let started: @Sendable () -> Void
    private let cancel: @Sendable (Task) -> Void
    /// Where the response goes.
    let receiver: ResponseReceiver

    /// - Parameters:
    ///   - started: called once the transport has the request (`whenStarted`).
    ///   - cancel: cancels a task in flight; the transport then ends it.
    init(
        request: URLRequest, limiter: ConnectionLimiter, started: @escaping @Sendable () -> Void,
        receiver: ResponseReceiver, cancel: @escaping @Sendable (Task) -> Void
    ) {
        state = TransportRunState(request: request)
        self.limiter = limiter
        id = limiter.makeID()
        host = ConnectionLimiter.hostKey(request.url)
        self.started = started
        self.receiver = receiver
        self.cancel = cancel
    }

    /// Runs `body` under the run's lock.
    func withLock<Result>(_ body: (inout TransportRunState<Task>) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// Asks for a connection slot; `handOver` runs when the request holds
    /// one (at once on this thread, or later on the thread that frees one),
    /// never under a lock, and not at all if it was disposed first.
    func begin(handOver: @escaping @Sendable () -> Void) {
        limiter.acquire(id, host: host) { [self] in
            if withLock({ $0.granted() }) {
                handOver()
            } else {
                releaseSlot()
            }
        }
    }

    /// Hands the current request over under the lock that ``dispose()``
    /// takes, so that the check and the hand-over are one step and a
    /// disposed request is never sent: `make` creates and starts the task
    /// (it must not call back into the run on this thread). Not called when
    /// the run was disposed meanwhile (the slot goes back).
    func handOverLocked(_ make: (URLRequest) -> Task) {
        lock.lock()
        guard state.mayHandOver else {
            lock.unlock()
            releaseSlot()
            return
        }
        _ = state.handedOver(make(state.current))
        lock.unlock()
        started()
    }

    /// The request to hand over outside the lock (then
    /// ``attach(_:whileLocked:)`` the task made for it), or `nil` if the run
    /// was disposed meanwhile (the slot goes back).
    func requestToHandOver() -> URLRequest? {
        if let request = withLock({ $0.mayHandOver ? $0.current : nil }) {
            return request
        }
        releaseSlot()
        return nil
    }

    /// Records `task`, the transport's hand-over of the current request made
    /// outside the lock (for a transport that may call back before its call
    /// returns); `whileLocked` runs under the lock when it is kept. `false`:
    /// the run was disposed or finished meanwhile and `task` is cancelled
    /// (the cancellation's end finishes the run and frees the slot).
    func attach(_ task: Task, whileLocked: () -> Void) -> Bool {
        lock.lock()
        guard state.handedOver(task) else {
            lock.unlock()
            cancel(task)
            return false
        }
        whileLocked()
        lock.unlock()
        return true
    }

    /// Calls `whenStarted` (for ``attach(_:whileLocked:)``, once the first
    /// request is handed over).
    func notifyStarted() {
        started()
    }

    /// The subscription was disposed: nothing is delivered from now on; a
    /// waiting request leaves the queue, a running one is cancelled.
    func dispose() {
        receiver.dispose()
        switch withLock({ $0.dispose() }) {
        case .withdraw:
            // `false`: the grant is under way; it sees `.disposed` and gives
            // the slot back.
            _ = limiter.withdraw(id, host: host)
        case .cancel(let task):
            cancel(task)
        case .nothing:
            break
        }
    }

    /// Cancels the running task once, for a receiver that wants no more of
    /// it; the transport's end of it finishes the run.
    func stop() {
        if let task = withLock({ $0.stop() }) {
            cancel(task)
        }
    }

    /// Ends the run (the transport is done with the request): the slot goes
    /// back, the receiver delivers the stop reason if there is one, else
    /// `error` (`nil`: the response), unless it was disposed. `whileLocked`
    /// runs under the lock.
    func finish(_ error: HTTPError?, whileLocked: () -> Void = {}) {
        let reason = withLock { state in
            state.finish()
            whileLocked()
            return state.stopReason
        }
        releaseSlot()
        receiver.finish(reason ?? error)
    }

    private func releaseSlot() {
        if withLock({ $0.releaseSlot() }) {
            limiter.release(host: host)
        }
    }
}
