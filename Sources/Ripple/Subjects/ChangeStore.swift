/// The storage behind ``ObservableArray`` and ``ObservableSections``: a value
/// under a lock, the subscribers, and the queue that delivers changes in the
/// order the mutations happened.
///
/// ## Ordering
/// A mutation changes the value and computes its change inside one critical
/// section. If nobody is delivering, the mutating thread becomes the *deliverer*:
/// it delivers its change outside the lock, then any change other threads queued
/// meanwhile. Otherwise the change is queued, with the subscribers of that moment,
/// and the current deliverer sends it. So changes reach every subscriber one at a
/// time and in mutation order, no thread waits for another's observers, and an
/// observer that mutates the value (re-entrancy) has its change delivered after
/// the current one reached everybody.
///
/// A subscriber's initial change is a snapshot taken in the same critical section
/// that adds it to the subscribers, so it sees every later change and none that
/// its snapshot already contains. The subscribing thread sends it before
/// `subscribe` returns, even while another thread delivers. Until it has, the
/// subscriber is *catching up*: a deliverer that reaches it parks the change in
/// the subscriber's backlog (under the lock) instead of calling it, and the
/// subscribing thread sends the backlog after the initial change, until it is
/// empty. So the subscriber gets its changes in order and never two at once,
/// and no deliverer ever waits for a subscribing thread (which may be blocked in
/// its observer by a lock that the deliverer's caller holds).
///
/// ## User code
/// Observers run outside the lock. The closures of `batchUpdate` and
/// `removeAll(where:)` run inside it — they are the mutation — with a guard that
/// turns a call back into the same store on that thread (which would deadlock)
/// into a precondition failure that says what happened. A mutation that drops
/// elements (replaces, removes, or throws away a batch) returns them in its
/// result, so that they are released after the lock: an element's `deinit` is
/// user code too, and may use the store (a row model disposing its
/// subscription to the list).
@usableFromInline
package final class ChangeStore<Value, Change>: @unchecked Sendable {
    @usableFromInline
    typealias Observers = ContiguousArray<ChangeSubscription<Change>?>

    /// A queued delivery: a `change` for the `observers` of the moment, or, with
    /// no change, a subscription `retired` while somebody delivered (the
    /// deliverer may be sending to it without holding a reference, see
    /// ``mutate(_:runsUserCode:_:)``, so it is released after that delivery).
    /// A tuple, not a generic enum with payloads: see "State is a tuple" in
    /// docs/Architecture.md.
    @usableFromInline
    typealias Delivery = (change: Change?, observers: Observers, retired: ChangeSubscription<Change>?)

    /// The value, the observers, the deliveries queued, and the thread that last
    /// became the deliverer (not cleared when it stops: only used to spare it
    /// the back-pressure of ``throttle()``). A tuple: see "State is a tuple" in
    /// docs/Architecture.md.
    @usableFromInline
    typealias State = (
        value: Value, observers: Bag<ChangeSubscription<Change>>, queue: RingBuffer<Delivery>, deliverer: UInt
    )

    @usableFromInline
    let state: LockedState<State>

    /// 0 when nobody delivers; otherwise 1 (the deliverer) plus the deliveries
    /// queued and not yet taken. Incremented only under the lock, together with
    /// the queue, so under the lock `wip - 1 == queue.count` whenever `wip > 0`.
    /// The deliverer stops with one compare-and-swap (1 → 0) instead of a second
    /// lock round trip: the uncontended mutation takes the lock once.
    @usableFromInline
    @exclusivity(unchecked) final var wip: AtomicCell<Int>

    /// The deliverer whose turn is ending (0: none), as in the subjects
    /// (``SubjectBase/turnEnding``): its ``DeliveryTurn`` is over and it
    /// finishes what is queued, while mutating
    /// threads wait before mutating (``waitForTurnEnd()``).
    @usableFromInline
    @exclusivity(unchecked) final var turnEnding: AtomicCell<UInt>

    /// How many queued deliveries deliverers have made (stored by the
    /// deliverer, read by threads waiting for it, ``ThrottleWaits``): a slow
    /// deliverer moves it, a stalled one does not (the queue is taken whole, so
    /// its length would not show progress).
    @usableFromInline
    @exclusivity(unchecked) final var progress: AtomicCell<Int>

    /// The thread running user code under the lock (a `batchUpdate` closure), 0 otherwise.
    @usableFromInline
    @exclusivity(unchecked) final var userCodeThread: AtomicCell<UInt>

    /// The name used in precondition messages (`ObservableArray`, ...).
    @usableFromInline
    let typeName: String

    @usableFromInline
    let makeInitial: (Value) -> Change

    @_alwaysEmitIntoClient
    package init(_ value: Value, typeName: String, makeInitial: @escaping (Value) -> Change) {
        wip = AtomicCell(0)
        turnEnding = AtomicCell(0)
        progress = AtomicCell(0)
        userCodeThread = AtomicCell(0)
        state = LockedState((value: value, observers: Bag(), queue: RingBuffer(), deliverer: 0))
        self.typeName = typeName
        self.makeInitial = makeInitial
    }

    /// Stops with a clear message instead of deadlocking when user code running
    /// under the lock (a batch closure) calls back into the store.
    @_alwaysEmitIntoClient
    @inline(__always)
    func checkNotInsideBatch(_ method: StaticString) {
        if AtomicCell.load(&userCodeThread, ordering: .relaxed) == currentThreadID() {
            reentrancyFailure(method)
        }
    }

    @usableFromInline
    func reentrancyFailure(_ method: StaticString) -> Never {
        preconditionFailure(
            "\(typeName).\(method) called from inside the same \(typeName)'s batchUpdate or removeAll(where:) closure; use the batch's own collection instead")
    }

    /// Reads the value under the lock.
    @_alwaysEmitIntoClient
    package func read<Result>(_ method: StaticString, _ body: (Value) -> Result) -> Result {
        checkNotInsideBatch(method)
        return state.withLock { body($0.value) }
    }

    /// Mutates the value; `body` returns the change to deliver (`nil`: nothing
    /// changed) and a result for the caller. `runsUserCode`: `body` calls user
    /// code (see the type's documentation).
    ///
    /// Not `rethrows`: throwing mutations (`batchUpdate`) return their error as
    /// a value and rethrow it with `rethrowing(_:rescue:)`. (With a `rethrows`
    /// signature, the error path crashed in debug builds with Swift 6.3.1:
    /// after the closure threw, execution went on to deliver a change. Not yet
    /// reduced to a compiler bug report; a small reproduction did not crash.)
    @_alwaysEmitIntoClient
    @inline(__always)
    package func mutate<Result>(
        _ method: StaticString, runsUserCode: Bool = false,
        _ body: (inout Value) -> (change: Change?, result: Result)
    ) -> Result {
        checkNotInsideBatch(method)
        let thread = currentThreadID()
        if AtomicCell.load(&turnEnding, ordering: .relaxed) != 0 {
            waitForTurnEnd(thread)
        }
        var queued = 0
        var delivery: Change?
        var recipients = Recipients.nobody
        let result = state.withLock { state -> Result in
            if runsUserCode { AtomicCell.store(&userCodeThread, thread, ordering: .relaxed) }
            let (madeChange, result) = body(&state.value)
            if runsUserCode { AtomicCell.store(&userCodeThread, 0, ordering: .relaxed) }
            guard let change = consume madeChange else { return result }
            if AtomicCell.add(&wip, 1, ordering: .acquiringAndReleasing).oldValue != 0 {
                state.queue.append((change, state.observers.values, nil))
                if state.deliverer != thread { queued = state.queue.count }
                return result
            }
            state.deliverer = thread
            delivery = consume change
            if state.observers.values.count == 1 {
                if let only = state.observers.values[0] { recipients = .sole(Unmanaged.passUnretained(only)) }
            } else if !state.observers.isEmpty {
                recipients = .all(state.observers.values)
            }
            return result
        }
        if let change = consume delivery {
            switch consume recipients {
            case .nobody:
                break
            case .sole(let observer):
                if observer._withUnsafeGuaranteedRef({ AtomicCell.load(&$0.isCatchingUp, ordering: .acquiring) })
                    && park(change, for: observer.takeUnretainedValue()) {
                    break
                }
                if observer._withUnsafeGuaranteedRef({ $0.observer == nil }) {
                    // `subscribe(onNext:...)`'s handlers take the change as it is.
                    observer._withUnsafeGuaranteedRef { $0.sendToHandlers(change) }
                } else {
                    let event = Event.next(consume change)
                    observer._withUnsafeGuaranteedRef { $0.send(event) }
                }
            case .all(let observers):
                // Moved, not copied, into the event, which is built once for
                // every subscriber: a reference to the change's storage fewer to count.
                let event = Event.next(consume change)
                for case let observer? in observers {
                    if AtomicCell.load(&observer.isCatchingUp, ordering: .acquiring), case .next(let change) = event, park(change, for: observer) {
                        continue
                    }
                    observer.send(event)
                }
            }
            drain()
        } else if queued > Self.highWaterMark {
            throttle()
        }
        return result
    }

    /// Who receives a change that its mutating thread delivers itself.
    @usableFromInline
    enum Recipients {
        case nobody
        /// The only subscriber, not retained: a subscription removed while its
        /// store delivers stays in the queue until the delivery is over (see
        /// ``ChangeStore/remove(_:)``), so it outlives the delivery.
        case sole(Unmanaged<ChangeSubscription<Change>>)
        /// A snapshot of the subscribers.
        case all(Observers)
    }

    @_alwaysEmitIntoClient
    func send(_ change: Change, to observers: Observers) {
        for case let observer? in observers {
            if AtomicCell.load(&observer.isCatchingUp, ordering: .acquiring) && park(change, for: observer) {
                continue
            }
            observer.send(change)
        }
    }

    /// A deliverer reached `subscription` while its subscribing thread is still
    /// sending it the initial change (or the backlog after it): parks `change` in
    /// the backlog, which that thread sends next. Returns `false` if the
    /// subscriber caught up meanwhile: the deliverer sends the change itself.
    @usableFromInline
    @inline(never)
    func park(_ change: Change, for subscription: ChangeSubscription<Change>) -> Bool {
        state.withLock { _ in
            // Read and written under the lock: the subscribing thread clears the
            // flag only with an empty backlog, under the same lock.
            guard AtomicCell.load(&subscription.isCatchingUp, ordering: .relaxed) else { return false }
            subscription.backlog.append(change)
            return true
        }
    }

    /// The subscribing thread has sent the initial change: sends what deliverers
    /// parked meanwhile, in order, until nothing is left, then lets deliverers
    /// send to the subscriber again.
    @usableFromInline
    @inline(never)
    func catchUp(_ subscription: ChangeSubscription<Change>) {
        while true {
            let backlog = state.withLock { _ -> [Change] in
                let backlog = subscription.backlog
                if backlog.isEmpty {
                    // Releasing: the deliverer that next sees the flag clear
                    // also sees every send of this thread.
                    AtomicCell.store(&subscription.isCatchingUp, false, ordering: .releasing)
                } else {
                    subscription.backlog = []
                }
                return backlog
            }
            if backlog.isEmpty { return }
            for change in backlog {
                subscription.send(change)
            }
        }
    }

    /// Delivers what was queued while this thread delivered, then stops delivering.
    ///
    /// The whole queue is taken at once: popping one delivery per lock
    /// round trip, the deliverer fell behind two threads mutating in a loop and
    /// the queue grew without bound (measured under ThreadSanitizer).
    @_alwaysEmitIntoClient
    @inline(__always)
    func drain() {
        if !AtomicCell.compareExchange(&wip, expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged {
            drainQueue()
        }
    }

    /// The loop of ``drain()``, apart so that the common case (nothing queued)
    /// stays small where it is inlined.
    ///
    /// The turn is bounded as in the subjects (``SubjectBase/drain(missed:)``):
    /// after a ``DeliveryTurn`` (1 024 changes or about 2 ms), threads that mutate the
    /// store wait (``waitForTurnEnd()``) until this thread has delivered what is
    /// queued and stopped, instead of keeping it delivering for as long as they
    /// mutate.
    @_alwaysEmitIntoClient
    @inline(never)
    func drainQueue() {
        var turn = DeliveryTurn(deliverer: currentThreadID(), progress: &progress)
        defer {
            // After the deliverer stopped (waiting threads stopped waiting when
            // `wip` reached 0).
            turn.finish(mark: &turnEnding)
        }
        while !AtomicCell.compareExchange(&wip, expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged {
            var batch = state.withLock { state -> RingBuffer<Delivery> in
                let batch = state.queue
                state.queue = RingBuffer()
                AtomicCell.subtract(&wip, batch.count, ordering: .relaxed)
                return batch
            }
            while let next = batch.popFirst() {
                turn.delivered(progress: &progress, mark: &turnEnding)
                // A retired subscription is released here, outside the lock.
                if let change = next.change {
                    send(change, to: next.observers)
                }
            }
        }
    }

    /// A thread about to mutate found the deliverer's turn ending: it waits
    /// until the deliverer has stopped, for at most about 10 ms and never for a
    /// thread that waits for it (``ThrottleWaits``), then mutates as usual (and
    /// clears the mark if the deliverer made no progress meanwhile).
    @usableFromInline
    @inline(never)
    func waitForTurnEnd(_ thread: UInt) {
        ThrottleWaits.waitForTurnEnd(marked: &turnEnding) {
            guard AtomicCell.load(&turnEnding, ordering: .acquiring) != 0, AtomicCell.load(&wip, ordering: .acquiring) != 0 else { return nil }
            return state.withLock { state in
                state.deliverer == thread ? nil : (AtomicCell.load(&progress, ordering: .relaxed), state.deliverer)
            }
        }
    }

    /// Deliveries queued beyond which mutating threads are slowed down.
    @usableFromInline
    static var highWaterMark: Int { 1024 }

    /// Soft back-pressure, as in the subjects (``ThrottleWaits``): a thread that
    /// queued a change far behind the deliverer yields the CPU until the queue
    /// has drained to half the high-water mark, for at most about 10 ms per call,
    /// and never while the deliverer waits for it (two arrays whose observers
    /// mutate each other from two threads).
    @usableFromInline
    func throttle() {
        ThrottleWaits.yield {
            state.withLock { state in
                state.queue.count > Self.highWaterMark / 2 ? (AtomicCell.load(&progress, ordering: .relaxed), state.deliverer) : nil
            }
        }
    }

    /// Adds `observer`: it receives the current value as an initial change, then
    /// every change.
    @usableFromInline
    func subscribe(_ observer: AnyObserver<Change>) -> SubscriptionBase {
        subscribe(ChangeSubscription(observer: observer, handlers: nil, store: self))
    }

    /// Adds the handlers of `subscribe(onNext:...)`, called with each change
    /// directly (see ``HandlersProducer``).
    @usableFromInline
    func subscribe(handlers: SubscribeHandlers<Change>) -> SubscriptionBase {
        subscribe(ChangeSubscription(observer: nil, handlers: handlers, store: self))
    }

    /// The initial change is sent here, on the subscribing thread, before this
    /// returns (see the type's documentation). If nobody delivers, this thread
    /// becomes the deliverer, as a mutation does; otherwise the subscriber
    /// catches up with what the deliverer parked meanwhile.
    @usableFromInline
    func subscribe(_ subscription: ChangeSubscription<Change>) -> SubscriptionBase {
        checkNotInsideBatch("changes")
        let (initial, delivers) = state.withLock { state -> (Change, Bool) in
            subscription.key = state.observers.insert(subscription)
            let initial = makeInitial(state.value)
            if AtomicCell.compareExchange(&wip, expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
                state.deliverer = currentThreadID()
                return (initial, true)
            }
            // Set in the critical section that adds the subscriber: every change
            // that reaches it was made later, and finds it catching up.
            AtomicCell.store(&subscription.isCatchingUp, true, ordering: .relaxed)
            return (initial, false)
        }
        subscription.send(initial)
        if delivers {
            drain()
        } else {
            catchUp(subscription)
        }
        return subscription
    }

    @usableFromInline
    func remove(_ subscription: ChangeSubscription<Change>) {
        let removed = state.withLock { state -> ChangeSubscription<Change>? in
            guard let key = subscription.key else { return nil }
            subscription.key = nil
            guard let removed = state.observers.remove(forKey: key) else { return nil }
            // Down to one subscriber (or none): drop the tombstones, so that the
            // one left is found by `mutate` as the only one. The store never
            // iterates the bag in place, only snapshots of it.
            if state.observers.count <= 1 { state.observers.compact() }
            // A deliverer may be sending to `removed` without a reference of its
            // own: it releases it after the delivery. The increment comes first so
            // that the deliverer cannot stop (`wip` 1 -> 0) without seeing it.
            if AtomicCell.add(&wip, 1, ordering: .acquiringAndReleasing).oldValue != 0 {
                state.queue.append((nil, [], removed))
                return nil
            }
            // Nobody delivers, and only a deliverer decrements `wip` outside the lock.
            AtomicCell.subtract(&wip, 1, ordering: .relaxed)
            return removed
        }
        // Released here, outside the lock: releasing runs the observer's deinit.
        _ = removed
    }

    /// The stream of changes: each subscriber receives the current value as an
    /// initial change, then every change. `subscribe(onNext:...)` is handed to
    /// the store directly (see ``HandlersProducer``); any other subscriber
    /// through its observer.
    package var changes: Observable<Change> {
        HandlersProducer { [self] _, downstream in
            switch downstream {
            case .observer(let observer): subscribe(observer)
            case .handlers(let handlers): subscribe(handlers: handlers)
            }
        }
    }

    /// The number of subscribers (for tests and diagnostics).
    package var subscriberCount: Int {
        state.withLock { $0.observers.count }
    }
}

/// One subscriber of a ``ChangeStore``.
@usableFromInline
final class ChangeSubscription<Change>: SubscriptionBase, @unchecked Sendable {
    /// The observer of any subscriber but `subscribe(onNext:...)`; `nil` for
    /// that one, which `onNext` and `handlersSubscription` stand for.
    @usableFromInline
    let observer: AnyObserver<Change>?

    /// The handlers of `subscribe(onNext:...)`, called without an `Event` and an
    /// observer closure in between (see ``HandlersProducer``). A change stream
    /// never ends, so `onNext` and the handlers' subscription are all it needs:
    /// kept as two fields, read in place (no copy of the handlers per change).
    @usableFromInline
    let onNext: ((Change) -> Void)?

    /// The subscription `subscribe(onNext:...)` returned; `nil` with an `observer`.
    @usableFromInline
    let handlersSubscription: ClosureSubscription?

    /// Removes this subscription from its store; `nil` once it did. It holds
    /// the store strongly, until disposal (as a subject's subscriptions do): a
    /// weak reference gave the store a side table, which made every retain of the
    /// store on the mutation path take the slow path.
    @usableFromInline
    @exclusivity(unchecked)
    var removeFromStore: ((ChangeSubscription<Change>) -> Void)?

    /// The key in the store's bag; guarded by the store's lock.
    @usableFromInline
    var key: BagKey?

    /// `true` while the subscribing thread sends the initial change, and the
    /// changes deliverers parked meanwhile (see ``ChangeStore``). Set and cleared
    /// under the store's lock; deliverers read it without the lock first.
    @usableFromInline
    @exclusivity(unchecked) final var isCatchingUp: AtomicCell<Bool>

    /// The changes parked while catching up; guarded by the store's lock.
    var backlog: [Change] = []

    @_alwaysEmitIntoClient
    init<Value>(observer: AnyObserver<Change>?, handlers: SubscribeHandlers<Change>?, store: ChangeStore<Value, Change>) {
        isCatchingUp = AtomicCell(false)
        self.observer = observer
        self.onNext = handlers?.onNext
        self.handlersSubscription = handlers?.subscription
        self.removeFromStore = { store.remove($0) }
        super.init()
    }

    /// Calls the handlers of `subscribe(onNext:...)` (only when `observer` is
    /// `nil`) unless either subscription is disposed.
    @_alwaysEmitIntoClient
    @inline(__always)
    func sendToHandlers(_ change: Change) {
        if !isDisposed && !handlersSubscription.unsafelyUnwrapped.isDisposed {
            onNext?(change)
        }
    }

    /// Sends a change unless disposed. Only the store's deliverer calls it, one
    /// call at a time.
    @_alwaysEmitIntoClient
    func send(_ change: Change) {
        guard let observer else { return sendToHandlers(change) }
        if !isDisposed {
            observer.on(.next(change))
        }
    }

    /// Sends an event that holds a change unless disposed (the fast path of
    /// ``ChangeStore/mutate(_:runsUserCode:_:)``, which builds the event once).
    @_alwaysEmitIntoClient
    func send(_ event: Event<Change>) {
        guard let observer else {
            // A change stream never ends: only `.next` reaches here.
            if case .next(let change) = event { sendToHandlers(change) }
            return
        }
        if !isDisposed {
            observer.on(event)
        }
    }

    /// Runs once, on the disposing thread: the only access to `removeFromStore`
    /// after `init`.
    @usableFromInline
    override func disposeResources() {
        let remove = removeFromStore
        removeFromStore = nil
        remove?(self)
    }
}

/// The value of `result`, or its error thrown again, from a `rethrows` function
/// whose throwing closure ran inside ``ChangeStore/mutate(_:runsUserCode:_:)``.
/// `rescue` is `{ throw $0 }` at the call site, which lets the `rethrows`
/// function rethrow an error its parameter threw earlier.
@_alwaysEmitIntoClient
package func rethrowing<Value>(_ result: Result<Value, any Error>, rescue: (any Error) throws -> Value) rethrows -> Value {
    switch result {
    case .success(let value): return value
    case .failure(let error): return try rescue(error)
    }
}
