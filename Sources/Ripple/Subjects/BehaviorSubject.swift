/// A subject that holds a current value: each new subscriber first receives the
/// current value, then every later event.
///
/// ```
/// BehaviorSubject(value: 0), then onNext(1), onNext(2)
/// subscriber A (at start):  0--1--2
/// subscriber B (after 1):      1--2
/// ```
///
/// After a terminal event, new subscribers receive only that event; after
/// ``SubjectBase/dispose()`` they receive `RxError.disposed`. Thread-safe.
public final class BehaviorSubject<Element>: SubjectBase<Element>, SubjectType, ObserverType, @unchecked Sendable {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = BehaviorSubject<Element>

    /// What the subject holds, readable from any thread (a tuple: see "State is a
    /// tuple" in docs/Architecture.md):
    ///
    /// - `value`: the value delivered last, which a new subscriber receives first;
    /// - `accepted`: the last value sent while the subject was busy delivering and
    ///   not delivered yet (`nil` when none is queued): what ``value()`` returns,
    ///   so that a caller reads back what it sent, as in RxSwift, though the
    ///   delivery waits its turn (see ``SubjectBase``);
    /// - `queued`: the number of values sent and not delivered yet;
    /// - `delivered`: how many values were delivered (wrapping), so that a
    ///   subscriber that catches up can tell whether a value was delivered
    ///   between its reading of the first value and its addition;
    /// - `ends`: a terminal event was sent (values sent after it are ignored);
    /// - `error`, `isDisposed`: how the subject ended.
    @usableFromInline
    typealias Snapshot = (
        queued: Int, delivered: Int, ends: Bool, isDisposed: Bool, error: Swift.Error?, value: Element?,
        accepted: Element?
    )

    /// The current value, readable from any thread.
    @usableFromInline
    let snapshot: LockedState<Snapshot>

    /// Creates a subject whose current value is `value`.
    @_alwaysEmitIntoClient
    public init(value: Element) {
        snapshot = Self.makeSnapshot(value)
        super.init()
    }

    /// The snapshot of a new subject, made in Ripple: made where the subject is
    /// created, for its element type, it took about 500 bytes of code per element
    /// type (the tuple's type is looked up at run time there too).
    @usableFromInline
    static func makeSnapshot(_ value: Element) -> LockedState<Snapshot> {
        LockedState((queued: 0, delivered: 0, ends: false, isDisposed: false, error: nil, value: value, accepted: nil))
    }

    /// The current value: the last one sent, even while its delivery waits for
    /// the one in progress (an observer of the subject that sends it a value,
    /// or another thread sending one during a delivery, reads that value back).
    ///
    /// - Throws: The error the subject terminated with, or `RxError.disposed` after
    ///   ``SubjectBase/dispose()``. After `.completed` the last value is returned.
    @_alwaysEmitIntoClient
    public func value() throws -> Element {
        let (value, error, isDisposed) = snapshot.withLock { ($0.accepted ?? $0.value, $0.error, $0.isDisposed) }
        if isDisposed { throw RxError.disposed(object: self) }
        if let error { throw error }
        guard let value else { throw RxError.disposed(object: self) }
        return value
    }

    /// Sends `event`: a `.next` becomes the current value and is broadcast.
    @_alwaysEmitIntoClient
    public func on(_ event: Event<Element>) {
        // `.next` is handled inline, specialised for the caller's element type.
        guard case .next(let element) = event else {
            emit(event, tracked: true)
            return
        }
        guard tryAcquire() else {
            enqueue((event, nil, false))
            return
        }
        storeAndDeliver(element, event)
        release()
    }

    /// Owner-only.
    @_alwaysEmitIntoClient
    final func storeAndDeliver(_ element: Element, _ event: Event<Element>) {
        guard !isStopped else { return }
        // The value replaced is released after the lock: its `deinit` may use
        // the subject (see `LockedState`).
        var replaced: Element? = element
        snapshot.withLock {
            swap(&$0.value, &replaced)
            $0.delivered &+= 1
        }
        withExtendedLifetime(replaced) {}
        deliver(event)
    }

    /// Records an event as it is queued (under the queue's lock, so in the
    /// order of delivery): a value becomes the one ``value()`` returns, an error
    /// the one it throws, as when the event is delivered at once.
    @usableFromInline
    override func queuing(_ operation: SubjectOperation<Element>) {
        guard let event = operation.event else { return }
        snapshot.withLock { snapshot in
            let isOpen = !snapshot.ends && !snapshot.isDisposed
            switch event {
            case .next(let element):
                snapshot.queued += 1
                if isOpen { snapshot.accepted = element }
            case .error(let error):
                if isOpen { snapshot.error = error }
                snapshot.ends = true
            case .completed:
                snapshot.ends = true
            }
        }
    }

    /// Runs the events queued behind a delivery (a value sent while the subject
    /// was idle is delivered by ``on(_:)`` itself) and the terminal events.
    @usableFromInline
    override func process(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let isStopped = isStopped
            var replaced: Element? = element
            snapshot.withLock { snapshot in
                // The value delivered becomes the one new subscribers receive,
                // in the same step as it stops being queued, so that ``value()``
                // never reads an older one in between.
                if !isStopped {
                    swap(&snapshot.value, &replaced)
                    snapshot.delivered &+= 1
                }
                snapshot.queued -= 1
                if snapshot.queued == 0 { snapshot.accepted = nil }
            }
            // Released after the lock (see `storeAndDeliver`).
            withExtendedLifetime(replaced) {}
            guard !isStopped else { return }
            deliver(event)
        case .error(let error):
            guard !isStopped else { return }
            snapshot.withLock {
                $0.error = error
                $0.ends = true
            }
            terminate(with: event)
        case .completed:
            guard !isStopped else { return }
            snapshot.withLock { $0.ends = true }
            terminate(with: event)
        }
    }

    /// A subscription made on another thread during a delivery: that thread sends
    /// it the value before `subscribe` returns, as in RxSwift, instead of the
    /// delivering thread later (see ``CatchingUpObserver``). The value is the one
    /// the subscription's place in the queue gives it: the last value sent
    /// before it.
    @inline(never)
    @usableFromInline
    override func enqueueAdd(_ subscription: SubjectSubscription<Element>) {
        guard let observer = CatchingUpObserver.install(on: subscription) else {
            super.enqueueAdd(subscription)
            return
        }
        var first: Element?
        enqueue((nil, subscription, true)) { [snapshot] in
            let read = snapshot.withLock { ($0.ends || $0.isDisposed ? nil : $0.accepted ?? $0.value, $0.delivered &+ $0.queued) }
            first = read.0
            // What `delivered` will be when the subscription is added, unless the
            // owner delivers a value of its own meanwhile (see `subscribeOwned`).
            subscription.catchingUpAt = read.1
        }
        observer.catchUp(subscription, first: first.map { [$0] } ?? [])
    }

    @usableFromInline
    override func subscribeOwned(_ subscription: SubjectSubscription<Element>) {
        // `isStopped` first, the event out of line: see SubjectBase.subscribeOwned.
        if isStopped && sendStopEvent(to: subscription) { return }
        addObserver(subscription)
        if let expected = subscription.catchingUpAt {
            // Its thread sent it the value it read as it queued the subscription.
            // An owner that had just taken the subject delivers its own value
            // after that reading (a value not stored yet cannot be read): the
            // subscription gets that one here, after the first.
            let (value, delivered) = snapshot.withLock { ($0.value, $0.delivered) }
            if delivered != expected, let value, !subscription.isDisposed {
                subscription.send(.next(value))
            }
            return
        }
        guard let value = snapshot.withLock({ $0.value }) else { return }
        deliveryDepth += 1
        if !subscription.isDisposed {
            subscription.send(.next(value))
        }
        deliveryDepth -= 1
        if deliveryDepth == 0 && !retired.isEmpty {
            finishDelivery()
        }
    }

    @usableFromInline
    override func clearOnDispose() {
        var released: (Element?, Element?) = (nil, nil)
        snapshot.withLock {
            $0.isDisposed = true
            swap(&$0.value, &released.0)
            swap(&$0.accepted, &released.1)
        }
        // Released after the lock (see `storeAndDeliver`).
        withExtendedLifetime(released) {}
    }

    /// Returns the subject itself.
    @_alwaysEmitIntoClient
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }
}
