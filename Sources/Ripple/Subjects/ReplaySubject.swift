/// A subject that replays buffered elements to each new subscriber, then
/// forwards later events.
///
/// ```
/// ReplaySubject.create(bufferSize: 2), then onNext(1), onNext(2), onNext(3)
/// late subscriber:   2--3--...
/// ```
///
/// After a terminal event, a new subscriber receives the buffered elements and then
/// the terminal event. After ``SubjectBase/dispose()`` the buffer is dropped and
/// new subscribers receive `RxError.disposed`. Thread-safe.
public final class ReplaySubject<Element>: SubjectBase<Element>, SubjectType, ObserverType, @unchecked Sendable {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = ReplaySubject<Element>

    /// Owner-only: the replay buffer.
    @usableFromInline
    @exclusivity(unchecked)
    final var buffer: RingBuffer<Element>

    /// The maximum number of buffered elements, `nil` for no limit.
    @usableFromInline
    let bufferSize: Int?

    @usableFromInline
    init(bufferSize: Int?) {
        buffer = RingBuffer()
        self.bufferSize = bufferSize
        super.init()
    }

    /// A subject that replays at most `bufferSize` of the latest elements.
    ///
    /// A negative `bufferSize` is reported through ``Hooks/contractViolationHandler``
    /// and treated as `0`.
    @_alwaysEmitIntoClient
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        if bufferSize < 0 {
            Hooks.reportContractViolation("ReplaySubject.create(bufferSize: \(bufferSize)): the buffer size must not be negative; using 0.")
        }
        return ReplaySubject(bufferSize: Swift.max(bufferSize, 0))
    }

    /// A subject that replays every element it has received.
    @_alwaysEmitIntoClient
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: nil)
    }

    /// Sends `event`: a `.next` is buffered and broadcast.
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
        bufferAndDeliver(element, event)
        release()
    }

    /// Owner-only.
    @_alwaysEmitIntoClient
    final func bufferAndDeliver(_ element: Element, _ event: Event<Element>) {
        guard !isStopped else { return }
        if let bufferSize {
            guard bufferSize > 0 else {
                deliver(event)
                return
            }
            if buffer.count == bufferSize {
                _ = buffer.popFirst()
            }
        }
        buffer.append(element)
        deliver(event)
    }

    @usableFromInline
    override func process(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            bufferAndDeliver(element, event)
        case .error, .completed:
            terminate(with: event)
        }
    }

    @usableFromInline
    override func subscribeOwned(_ subscription: SubjectSubscription<Element>) {
        let replayed = buffer.elements
        if stopEvent == nil {
            addObserver(subscription)
        }
        deliveryDepth += 1
        for element in replayed where !subscription.isDisposed {
            subscription.send(.next(element))
        }
        if let stopEvent {
            subscription.send(stopEvent)
            subscription.detach()
        }
        deliveryDepth -= 1
        if deliveryDepth == 0 && !retired.isEmpty {
            finishDelivery()
        }
    }

    @usableFromInline
    override func clearOnDispose() {
        buffer.removeAll()
    }

    /// Returns the subject itself.
    @_alwaysEmitIntoClient
    public func asObserver() -> ReplaySubject<Element> {
        self
    }
}
