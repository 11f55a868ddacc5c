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

    /// What the subject replays, readable from any thread (a tuple: see "State is
    /// a tuple" in docs/Architecture.md):
    ///
    /// - `buffer`: the values delivered last, which a new subscriber receives
    ///   first (at most ``bufferSize``);
    /// - `queued`: the values sent while the subject was busy delivering and not
    ///   delivered yet, in order, so that a subscriber on another thread can be
    ///   sent its replay at once, queued values included (see
    ///   ``enqueueAdd(_:)``);
    /// - `delivered`: how many values were buffered (wrapping), so that such a
    ///   subscriber can tell whether a value was buffered between its reading and
    ///   its addition;
    /// - `ends`: a terminal event was sent or the subject was disposed (values
    ///   sent after it are neither queued here nor replayed).
    @usableFromInline
    typealias Replay = (buffer: RingBuffer<Element>, queued: RingBuffer<Element>, delivered: Int, ends: Bool)

    /// The replay buffer and what is queued for it.
    @usableFromInline
    let replay: LockedState<Replay>

    /// The maximum number of buffered elements, `nil` for no limit.
    @usableFromInline
    let bufferSize: Int?

    @usableFromInline
    init(bufferSize: Int?) {
        replay = LockedState((buffer: RingBuffer(), queued: RingBuffer(), delivered: 0, ends: false))
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

    /// Owner-only. `wasQueued`: the value was sent while the subject was busy, so
    /// it is the first of ``Replay``'s `queued` ones if it was recorded there
    /// (values are recorded in the order they run, and none after a terminal
    /// event, so a value not recorded finds `queued` empty).
    @_alwaysEmitIntoClient
    @inline(__always)
    final func bufferAndDeliver(_ element: Element, _ event: Event<Element>, wasQueued: Bool = false) {
        let isStopped = isStopped
        if bufferSize != 0 {
            let bufferSize = bufferSize
            let evicted = replay.withLock { replay -> Element? in
                if wasQueued {
                    _ = replay.queued.popFirst()  // the event holds the value too
                }
                guard !isStopped else { return nil }
                var evicted: Element?
                if let bufferSize, replay.buffer.count == bufferSize {
                    evicted = replay.buffer.popFirst()
                }
                replay.buffer.append(element)
                replay.delivered &+= 1
                return evicted
            }
            // Released after the lock: its `deinit` may use the subject (see
            // `LockedState`).
            withExtendedLifetime(evicted) {}
        }
        guard !isStopped else { return }
        deliver(event)
    }

    /// Records a value as it is queued (under the queue's lock, so in the order
    /// of delivery), so that a subscriber on another thread can be sent it as
    /// part of its replay before the delivery reaches it.
    @usableFromInline
    override func queuing(_ operation: SubjectOperation<Element>) {
        guard bufferSize != 0, let event = operation.event else { return }
        replay.withLock { replay in
            guard !replay.ends else { return }
            switch event {
            case .next(let element):
                replay.queued.append(element)
            case .error, .completed:
                replay.ends = true
            }
        }
    }

    @usableFromInline
    override func process(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            bufferAndDeliver(element, event, wasQueued: true)
        case .error, .completed:
            guard !isStopped else { return }
            replay.withLock { $0.ends = true }
            terminate(with: event)
        }
    }

    /// A subscription made on another thread during a delivery: that thread sends
    /// it its replay before `subscribe` returns, as in RxSwift, instead of the
    /// delivering thread later (see ``CatchingUpObserver``): the buffer and the
    /// values queued before the subscription, the last ``bufferSize`` of them.
    /// Once a terminal event is queued the subscription is queued as before, and
    /// the delivering thread replays the buffer and the terminal event to it.
    @inline(never)
    @usableFromInline
    override func enqueueAdd(_ subscription: SubjectSubscription<Element>) {
        guard bufferSize != 0, let observer = CatchingUpObserver.install(on: subscription) else {
            super.enqueueAdd(subscription)
            return
        }
        var first: [Element] = []
        let bufferSize = bufferSize
        enqueue((nil, subscription, true)) { [replay] in
            replay.withLock { replay in
                guard !replay.ends else { return }
                first = replay.buffer.elements + replay.queued.elements
                if let bufferSize, first.count > bufferSize {
                    first.removeFirst(first.count - bufferSize)
                }
                // What `delivered` will be when the subscription is added, unless
                // the owner buffers a value of its own meanwhile (see
                // `subscribeOwned`).
                subscription.catchingUpAt = replay.delivered &+ replay.queued.count
            }
        }
        observer.catchUp(subscription, first: first)
    }

    @usableFromInline
    override func subscribeOwned(_ subscription: SubjectSubscription<Element>) {
        // A subscription that caught up was sent the replay it read as it was
        // queued; an owner that had just taken the subject buffers its own value
        // after that reading (a value not buffered yet cannot be read), and the
        // subscription gets that one here.
        let expected = subscription.catchingUpAt
        let replayed = replay.withLock { replay -> [Element] in
            let all = replay.buffer.count
            let count = expected.map { Swift.min(replay.delivered &- $0, all) } ?? all
            return count > 0 ? (all - count..<all).map { replay.buffer[$0] } : []
        }
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
        var released = (RingBuffer<Element>(), RingBuffer<Element>())
        replay.withLock { replay in
            swap(&replay.buffer, &released.0)
            swap(&replay.queued, &released.1)
            replay.ends = true
        }
        // Released after the lock (see `bufferAndDeliver`).
        withExtendedLifetime(released) {}
    }

    /// Returns the subject itself.
    @_alwaysEmitIntoClient
    public func asObserver() -> ReplaySubject<Element> {
        self
    }
}
