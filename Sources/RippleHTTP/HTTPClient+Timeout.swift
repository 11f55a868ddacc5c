import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPClient {
    /// ``send(_:)`` failing with ``HTTPError/transport(_:)``
    /// (`URLError(.timedOut)`) if no response arrives within `timeout` (on
    /// `scheduler`) **after the request was handed to the network** (see
    /// ``send(_:whenStarted:)``): time spent waiting for a connection does not
    /// count while that queue moves. A request that waits for a connection
    /// (``URLSessionHTTPClient``, `AsyncHTTPClientTransport`) fails the same
    /// way once `timeout` passes with no connection to its host coming free:
    /// open streams, or other requests without a timeout, holding every
    /// connection do not hold it for ever. The request is then cancelled. A
    /// `timeout` of zero or less fails with ``HTTPError/invalidRequest(_:)``;
    /// `.never` changes nothing.
    ///
    /// ``Session`` times every attempt this way.
    ///
    /// ```
    /// started:                       ----^
    /// send(r, timeout: 5, s):        ----·····5 s·····#(transport .timedOut)
    /// ```
    @_alwaysEmitIntoClient
    public func send(_ request: URLRequest, timeout: RxTimeInterval, scheduler: SchedulerType) -> Single<HTTPResponse> {
        guard let seconds = timeout.seconds else {
            return .error(HTTPError.invalidRequest("the timeout must be positive (got \(timeout))"))
        }
        if seconds.isInfinite { return send(request) }
        let queue = self as? any ConnectionQueueing
        return Single<HTTPResponse>.create { [self] observer in
            let attempt = TimedAttempt(observer)
            if let queue {
                attempt.watchWait(freed: { queue.connectionsFreed(for: request) }, timeout: timeout, scheduler: scheduler)
            }
            let subscription = self.send(request, whenStarted: {
                attempt.started(scheduler.scheduleRelative((), dueTime: timeout) { _ in
                    attempt.expire()
                    return Disposables.create()
                })
            })
            .subscribe { attempt.finish($0) }
            attempt.subscribed(subscription)
            return Disposables.create { attempt.dispose() }
        }
    }
}

/// A client that keeps requests waiting for a connection
/// (``URLSessionHTTPClient``, `AsyncHTTPClientTransport`, through
/// ``ConnectionLimiter``), so that a timed request can tell a queue that moves
/// from one that does not.
@usableFromInline
protocol ConnectionQueueing: Sendable {
    /// A count that grows each time a connection to `request`'s host comes
    /// free; `nil` if this client does not make requests wait (a wrapper of
    /// one that does not).
    func connectionsFreed(for request: URLRequest) -> UInt64?
}

/// One attempt of ``HTTPClient/send(_:timeout:scheduler:)``: the first of the
/// response and the expiry wins, the other is disposed, the observer hears
/// once. (Written out rather than composed from `merge` and `take(1)`: three
/// operators and a subject per request to express one race.)
@usableFromInline
final class TimedAttempt: @unchecked Sendable {
    private let lock: PlatformLock
    private var observer: ((SingleEvent<HTTPResponse>) -> Void)?
    private var timer: Disposable?
    private var subscription: Disposable?
    /// While the request waits for a connection (no `timer` yet): the check
    /// that fails it if none came free for a whole `timeout`.
    private var waitTimer: Disposable?
    private var done: Bool

    @usableFromInline
    init(_ observer: @escaping (SingleEvent<HTTPResponse>) -> Void) {
        lock = PlatformLock()
        done = false
        self.observer = observer
    }

    /// The request was handed over: `timer` runs the expiry.
    @usableFromInline
    func started(_ timer: Disposable) {
        lock.lock()
        if done {
            lock.unlock()
            timer.dispose()
            return
        }
        self.timer = timer
        let waitTimer = self.waitTimer
        self.waitTimer = nil
        lock.unlock()
        waitTimer?.dispose()
    }

    /// Until the request is handed over, checks every `timeout` whether a
    /// connection to its host came free (`freed` grew); if none did, the
    /// request fails as a timed-out one.
    @usableFromInline
    func watchWait(freed: @escaping @Sendable () -> UInt64?, timeout: RxTimeInterval, scheduler: SchedulerType) {
        guard let seen = freed() else { return }
        armWaitTimer(seen: seen, freed: freed, timeout: timeout, scheduler: scheduler)
    }

    private func armWaitTimer(
        seen: UInt64, freed: @escaping @Sendable () -> UInt64?, timeout: RxTimeInterval, scheduler: SchedulerType
    ) {
        let check = scheduler.scheduleRelative((), dueTime: timeout) { [self] _ in
            let now = freed() ?? seen
            if now == seen {
                expire(onlyWhileWaiting: true)
            } else {
                armWaitTimer(seen: now, freed: freed, timeout: timeout, scheduler: scheduler)
            }
            return Disposables.create()
        }
        lock.lock()
        guard !done, timer == nil else {
            lock.unlock()
            check.dispose()
            return
        }
        waitTimer = check
        lock.unlock()
    }

    /// The request's subscription (an expiry or a dispose may have come first).
    @usableFromInline
    func subscribed(_ subscription: Disposable) {
        lock.lock()
        if done {
            lock.unlock()
            subscription.dispose()
            return
        }
        self.subscription = subscription
        lock.unlock()
    }

    /// The response or the client's error.
    @usableFromInline
    func finish(_ event: SingleEvent<HTTPResponse>) {
        guard let (observer, timer, _) = end() else { return }
        timer?.dispose()
        observer(event)
    }

    /// The timeout: the request is cancelled and the observer hears
    /// `URLError(.timedOut)`. `onlyWhileWaiting`: not if the request was
    /// handed over meanwhile (its own timer runs then).
    @usableFromInline
    func expire(onlyWhileWaiting: Bool = false) {
        guard let (observer, _, subscription) = end(onlyWhileWaiting: onlyWhileWaiting) else { return }
        subscription?.dispose()
        observer(.failure(HTTPError.transport(URLError(.timedOut))))
    }

    @usableFromInline
    func dispose() {
        guard let (_, timer, subscription) = end() else { return }
        timer?.dispose()
        subscription?.dispose()
    }

    /// Marks the attempt done; what was held, or `nil` if it was done already
    /// (or, `onlyWhileWaiting`, handed over).
    private func end(onlyWhileWaiting: Bool = false) -> ((SingleEvent<HTTPResponse>) -> Void, Disposable?, Disposable?)? {
        lock.lock()
        guard !done, !(onlyWhileWaiting && timer != nil), let observer else {
            lock.unlock()
            return nil
        }
        done = true
        let held = (observer, timer, subscription)
        let waitTimer = self.waitTimer
        self.observer = nil
        timer = nil
        subscription = nil
        self.waitTimer = nil
        lock.unlock()
        waitTimer?.dispose()
        return held
    }
}
