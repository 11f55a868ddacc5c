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

    /// The current value, the error that ended the subject, and whether it was
    /// disposed (a tuple: see "State is a tuple" in docs/Architecture.md).
    @usableFromInline
    typealias Snapshot = (value: Element?, error: Swift.Error?, isDisposed: Bool)

    /// The current value, readable from any thread.
    @usableFromInline
    let snapshot: LockedState<Snapshot>

    /// Creates a subject whose current value is `value`.
    @_alwaysEmitIntoClient
    public init(value: Element) {
        snapshot = LockedState((value: value, error: nil, isDisposed: false))
        super.init()
    }

    /// The current value.
    ///
    /// - Throws: The error the subject terminated with, or `RxError.disposed` after
    ///   ``SubjectBase/dispose()``. After `.completed` the last value is returned.
    @_alwaysEmitIntoClient
    public func value() throws -> Element {
        let snapshot = self.snapshot.withLock { $0 }
        if snapshot.isDisposed { throw RxError.disposed(object: self) }
        if let error = snapshot.error { throw error }
        guard let value = snapshot.value else { throw RxError.disposed(object: self) }
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
        snapshot.withLock { $0.value = element }
        deliver(event)
    }

    @usableFromInline
    override func process(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            storeAndDeliver(element, event)
        case .error(let error):
            snapshot.withLock { $0.error = error }
            terminate(with: event)
        case .completed:
            terminate(with: event)
        }
    }

    @usableFromInline
    override func subscribeOwned(_ subscription: SubjectSubscription<Element>) {
        // `isStopped` first, the event out of line: see SubjectBase.subscribeOwned.
        if isStopped && sendStopEvent(to: subscription) { return }
        addObserver(subscription)
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
        snapshot.withLock {
            $0.isDisposed = true
            $0.value = nil
        }
    }

    /// Returns the subject itself.
    @_alwaysEmitIntoClient
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }
}
