import Synchronization

/// The base of every subscription object Ripple creates.
///
/// It owns the subscription to its upstream and an atomic state word, so that
/// `dispose()` may race with the upstream subscription being attached: whichever
/// comes second disposes the upstream. Subclasses release their own resources in
/// ``disposeResources()``, which runs exactly once.
@usableFromInline
class SubscriptionBase: Cancelable, @unchecked Sendable {
    @usableFromInline static var disposedFlag: Int { 1 }
    @usableFromInline static var upstreamFlag: Int { 2 }
    /// ``releaseUpstream()`` ran: the upstream was (or, if it arrives later, will
    /// at once be) disposed, and `dispose()` no longer touches it.
    @usableFromInline static var releasedFlag: Int { 4 }
    /// The first bit a subclass may use in ``lifecycle`` for a slot of its own
    /// (`CatchSink` keeps its replacement's subscription with it).
    @usableFromInline static var firstSubclassFlag: Int { 8 }

    @usableFromInline
    final let lifecycle = Atomic<Int>(0)

    /// Written once, before `upstreamFlag` is published; read by `dispose()` only
    /// after it has observed `upstreamFlag`. A class reference (not a `Disposable`
    /// existential) so that attaching and disposing cost no boxing.
    @usableFromInline
    @exclusivity(unchecked)
    final var upstream: SubscriptionBase?

    @inlinable
    init() {
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    /// `true` once disposed, either explicitly or because the stream terminated.
    @inlinable
    public final var isDisposed: Bool {
        lifecycle.load(ordering: .acquiring) & SubscriptionBase.disposedFlag != 0
    }

    /// Attaches the subscription to the upstream (`nil` when the upstream holds
    /// nothing to release). If this subscription has already been disposed, the
    /// upstream is disposed at once.
    ///
    /// Nothing to attach (`nil`), or an upstream that already disposed itself (a
    /// synchronous source that terminated during `subscribe`), costs no atomic
    /// read-modify-write: there is nothing left for `dispose()` to release.
    @inlinable
    final func setUpstream(_ subscription: SubscriptionBase?) {
        guard let subscription, !subscription.isDisposed else { return }
        upstream = subscription
        let old = lifecycle.bitwiseOr(SubscriptionBase.upstreamFlag, ordering: .acquiringAndReleasing).oldValue
        if old & (SubscriptionBase.disposedFlag | SubscriptionBase.releasedFlag) != 0 {
            upstream = nil
            subscription.dispose()
        }
    }

    /// Disposes the upstream now, while this subscription lives on (`catch`
    /// releases the failed source before subscribing to the replacement). An
    /// upstream attached later (a source that failed while it was being
    /// subscribed) is disposed as soon as it is attached.
    @inlinable
    final func releaseUpstream() {
        let old = lifecycle.bitwiseOr(SubscriptionBase.releasedFlag, ordering: .acquiringAndReleasing).oldValue
        let mask = SubscriptionBase.upstreamFlag | SubscriptionBase.disposedFlag | SubscriptionBase.releasedFlag
        if old & mask == SubscriptionBase.upstreamFlag {
            upstream.take()?.dispose()
        }
    }

    /// Attaches any `Disposable` as the upstream.
    @inlinable
    final func setUpstream(disposable: Disposable) {
        setUpstream(SubscriptionBase.wrap(disposable))
    }

    /// `disposable` as a ``SubscriptionBase``: itself if it is one, else an adapter.
    @usableFromInline
    static func wrap(_ disposable: Disposable) -> SubscriptionBase? {
        // `NopDisposable` first: what scheduled actions usually return, and a cast
        // of a struct to a class asks the runtime for bridging conformances.
        if disposable is NopDisposable {
            return nil
        }
        if let subscription = disposable as? SubscriptionBase {
            return subscription
        }
        return DisposableAdapter(disposable)
    }

    /// Disposes the upstream subscription and this subscription's own resources.
    @inlinable
    @inline(never)
    public final func dispose() {
        // A plain load first: disposing twice (common when a terminal event and the
        // downstream both dispose) then costs no atomic read-modify-write.
        if lifecycle.load(ordering: .relaxed) & SubscriptionBase.disposedFlag != 0 { return }
        let old = lifecycle.bitwiseOr(SubscriptionBase.disposedFlag, ordering: .acquiringAndReleasing).oldValue
        if old & SubscriptionBase.disposedFlag != 0 { return }
        if old & (SubscriptionBase.upstreamFlag | SubscriptionBase.releasedFlag) == SubscriptionBase.upstreamFlag {
            // `take()` moves the reference out: no retain/release pair around the call.
            upstream.take()?.dispose()
        }
        disposeResources()
    }

    /// Releases what a subclass holds besides its upstream. Called once, on the
    /// thread that disposes.
    @usableFromInline
    func disposeResources() {}
}

/// A subscription that forwards events to a downstream observer.
///
/// Operators subclass it: the subclass receives upstream events (through a closure
/// built where the operator was applied, so the code is specialised for the
/// concrete element types), transforms them and calls ``forwardNext(_:)`` or
/// ``forwardTerminal(_:)``. A terminal event disposes the sink, which releases the
/// upstream subscription.
@usableFromInline
class Sink<Output>: SubscriptionBase, @unchecked Sendable {
    @usableFromInline
    let observer: AnyObserver<Output>

    @inlinable
    init(observer: AnyObserver<Output>) {
        self.observer = observer
        super.init()
    }

    /// Forwards an element unless the sink was disposed.
    @inlinable
    @inline(__always)
    final func forwardNext(_ element: Output) {
        if !isDisposed {
            observer.on(.next(element))
        }
    }

    /// Forwards an event unless the sink was disposed; a terminal event also
    /// disposes the sink.
    @inlinable
    final func forward(_ event: Event<Output>) {
        switch event {
        case .next(let element):
            forwardNext(element)
        case .error, .completed:
            forwardTerminal(event)
        }
    }

    /// Forwards a terminal event (unless the sink was disposed), then disposes the
    /// sink. Kept out of line: it is the cold path of every operator.
    @inlinable
    @inline(never)
    final func forwardTerminal(_ event: Event<Output>) {
        if !isDisposed {
            observer.on(event)
        }
        dispose()
    }

    /// Forwards `.error(error)` and disposes.
    @inlinable
    final func forwardError(_ error: Swift.Error) {
        forwardTerminal(.error(error))
    }

    /// Forwards `.completed` and disposes.
    @inlinable
    final func forwardCompleted() {
        forwardTerminal(.completed)
    }
}

/// Holds a foreign `Disposable` (one returned by user code or a scheduler) in the
/// upstream chain.
@usableFromInline
final class DisposableAdapter: SubscriptionBase, @unchecked Sendable {
    @usableFromInline
    let disposable: Disposable

    @usableFromInline
    init(_ disposable: Disposable) {
        self.disposable = disposable
        super.init()
    }

    @usableFromInline
    override func disposeResources() {
        disposable.dispose()
    }
}

/// A sink for operators with several upstreams (merge, combineLatest, zip,
/// flatMap, ...): events may arrive on several threads at once, but must leave
/// one at a time, in the order the operator decided them, without calling the
/// observer while a lock is held.
///
/// Use ``update(_:)``: it runs `body` under the sink's lock with the operator's
/// state and an outbox; events put in the outbox are then delivered, in order,
/// by exactly one thread at a time (whichever thread is not already delivering).
/// A thread that finds another one delivering leaves its events to it and
/// returns, within the bounds of that thread's turn (``DeliveryTurn``): past the
/// turn's allowance it waits until its events have been delivered, or until
/// nobody delivers and it delivers them itself. So one call is never held for
/// long by other threads' events, and re-entrant calls and cycles cannot
/// deadlock (``DeliveryWaits``).
@usableFromInline
class SerializingSink<State, Output>: Sink<Output>, @unchecked Sendable {
    /// Events decided but not yet delivered, in order.
    ///
    /// The first one waits in an inline slot: most updates queue a single event,
    /// which then never touches the ring buffer (whose append and removal cost
    /// more than the rest of an update).
    @usableFromInline
    struct Outbox {
        @usableFromInline var head: Event<Output>?
        @usableFromInline var rest = RingBuffer<Event<Output>>()
        /// Events ever queued: numbers them for ``DeliveryTurn``.
        @usableFromInline var pushed: UInt64 = 0

        @inlinable
        init() {}

        /// Queues an element.
        @inlinable
        mutating func next(_ element: Output) { append(.next(element)) }

        /// Queues a terminal event; later events of this sink are dropped.
        @inlinable
        mutating func terminate(_ event: Event<Output>) { append(event) }

        /// The events queued.
        @inlinable
        var count: Int { (head == nil ? 0 : 1) + rest.count }

        @inlinable
        mutating func append(_ event: Event<Output>) {
            pushed &+= 1
            if head == nil && rest.isEmpty {
                head = event
            } else {
                rest.append(event)
            }
        }

        @inlinable
        mutating func popFirst() -> Event<Output>? {
            if let event = head {
                head = nil
                return event
            }
            return rest.popFirst()
        }

        @inlinable
        mutating func removeAll() {
            head = nil
            rest.removeAll()
        }
    }

    @usableFromInline
    struct Shared {
        @usableFromInline var state: State
        @usableFromInline var outbox = Outbox()
        /// Who delivers the outbox (``DeliveryTurn``). Its `taken` is brought up
        /// to date (``syncTaken()``) before it is consulted: the fast path does not
        /// count the events it takes.
        @usableFromInline var turn = DeliveryTurn()

        @inlinable
        init(state: State) {
            self.state = state
        }

        /// Sets the turn's count of taken events from the outbox; returns the
        /// events queued.
        @inlinable
        mutating func syncTaken() -> Int {
            let pending = outbox.count
            turn.taken = outbox.pushed &- UInt64(pending)
            return pending
        }
    }

    /// Guards `shared`.
    @usableFromInline
    let lock = PlatformLock()

    /// 0 when nobody delivers and the outbox is empty; otherwise the events in the
    /// outbox, plus 1 while a thread delivers. Changed only under the lock, except
    /// that a deliverer that finds nothing queued stops with one compare-and-swap
    /// (1 → 0) instead of a second lock round trip.
    @usableFromInline
    final let wip = Atomic<Int>(0)

    /// Only accessed while `lock` is held, so the run-time exclusivity checks
    /// (which cost a thread-local lookup per access) are switched off.
    @usableFromInline
    @exclusivity(unchecked)
    final var shared: Shared

    @inlinable
    init(state: State, observer: AnyObserver<Output>) {
        shared = Shared(state: state)
        super.init(observer: observer)
    }

    /// Runs `body` with `shared` while holding the lock.
    @inlinable
    @inline(__always)
    final func locked<Result>(_ body: (inout Shared) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&shared)
    }

    /// Runs `body` under the lock, then delivers what it put in the outbox.
    ///
    /// Fast path: when no other thread is delivering, the first queued event is
    /// taken out under the same lock that ran `body`, and the delivery ends with
    /// one compare-and-swap when nothing was queued meanwhile: one lock round trip
    /// per event.
    @inlinable
    final func update<Result>(_ body: (inout State, inout Outbox) throws -> Result) rethrows -> Result {
        var arrival = DeliveryTurn.Arrival.leave
        let (result, first) = try locked { shared -> (Result, Event<Output>?) in
            let queuedBefore = shared.outbox.pushed
            let result = try body(&shared.state, &shared.outbox)
            let count = Int(truncatingIfNeeded: shared.outbox.pushed &- queuedBefore)
            if count == 0 { return (result, nil) }
            if wip.wrappingAdd(count, ordering: .acquiringAndReleasing).oldValue == 0 {
                // Nobody delivers: this thread does (its unit replaces the event it takes).
                shared.turn.begin(currentThreadID(), owing: shared.outbox.pushed)
                return (result, shared.outbox.popFirst())
            }
            arrival = arrive(&shared)
            guard case .deliver = arrival else { return (result, nil) }
            return (result, shared.outbox.popFirst())
        }
        if let first {
            deliver(startingWith: first)
        } else if !arrival.isLeave {
            afterArrival(arrival)
        }
        return result
    }

    /// Lock held: this thread queued events while another thread delivers (or
    /// this one, re-entrantly), or while nobody does but waiting threads' events
    /// are queued. Out of line: the contended path.
    @usableFromInline
    final func arrive(_ shared: inout Shared) -> DeliveryTurn.Arrival {
        let thread = currentThreadID()
        return shared.turn.arrive(thread, pending: shared.syncTaken(), waiting: { DeliveryWaits.waiting(thread, for: $0, mayDefer: $1) })
    }

    /// After this thread queued events that another thread delivers: waits for
    /// them, or records them as a debt (``DeliveryTurn/Arrival``).
    @usableFromInline
    final func afterArrival(_ arrival: DeliveryTurn.Arrival) {
        switch arrival {
        case .leave, .deliver:
            return
        case .owe(let ticket):
            owe(ticket)
        case .wait(let ticket, let recorded):
            waitForTurn(ticket, recorded: recorded)
        }
    }

    /// Waits until the events this thread queued (the last one: `ticket`) have
    /// been taken, or until nobody delivers: then delivers them, and what its
    /// turn owes.
    final func waitForTurn(_ ticket: UInt64, recorded: UInt, paysDebt: Bool = false) {
        let thread = currentThreadID()
        var first: Event<Output>?
        let mustDeliver = DeliveryWaits.awaitTurn(recorded: recorded) { intent in
            locked { shared -> DeliveryTurn.Check in
                _ = shared.syncTaken()
                let check = shared.turn.check(ticket: ticket, thread: thread, intent: intent, paysDebt: paysDebt)
                if case .deliver = check {
                    // This thread's unit replaces the event it takes.
                    first = shared.outbox.popFirst()
                }
                return check
            }
        }
        if mustDeliver, let first {
            deliver(startingWith: first)
        }
    }

    /// This thread, delivering a turn of its own, queued events (the last one:
    /// `ticket`) past the allowance: a debt, waited for once that turn has ended
    /// (``DeliveryWaits``).
    final func owe(_ ticket: UInt64) {
        DeliveryWaits.owe { [self] in
            let waits = locked { shared -> Bool in
                _ = shared.syncTaken()
                return shared.turn.rewait(ticket: ticket)
            }
            if waits {
                waitForTurn(ticket, recorded: 0, paysDebt: true)
            }
        }
    }

    /// Reads the state under the lock.
    @inlinable
    final func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try locked { try body(&$0.state) }
    }

    /// Delivers `first`, then whatever was queued meanwhile, until the turn has
    /// delivered what it owes (``DeliveryTurn``). Only the thread whose turn it is
    /// runs this. Inlinable so that it is specialised with the operator (generic
    /// code here would look up type metadata at run time on every event).
    @inlinable
    final func deliver(startingWith first: Event<Output>) {
        var event = first
        // Once events of waiting threads have been taken, the turn ends under
        // the lock, which wakes them.
        var tookFromWaiters = false
        // Contended only (other threads queued events): when this thread first
        // took the lock to continue; the pace sets the next turns' allowance.
        var contendedSince: ContinuousClock.Instant?
        while true {
            forward(event)
            if event.isStopEvent {
                endAfterTerminal(inTurn: contendedSince != nil)
                return
            }
            // Once contended, the turn ends under the lock (it counts as a turn
            // other threads queued behind, see DeliveryWaits.enterTurn()).
            if contendedSince == nil && !tookFromWaiters
                && wip.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged {
                return
            }
            var wakes = false
            if contendedSince == nil {
                // Other threads queued behind this one (see DeliveryWaits.enterTurn()).
                DeliveryWaits.enterTurn()
            }
            let start = contendedSince ?? ContinuousClock.now
            contendedSince = start
            let next = locked { shared -> Event<Output>? in
                let pending = shared.syncTaken()
                if shared.turn.waiters > 0 { tookFromWaiters = true }
                let taken = shared.turn.take(pending: pending)
                wakes = shared.turn.takeWake()
                if taken == 1 {
                    wip.wrappingSubtract(1, ordering: .relaxed)
                    return shared.outbox.popFirst()
                }
                shared.turn.recordPace(duration: ContinuousClock.now - start)
                // The unit; what is left belongs to waiting threads, which take over.
                wip.wrappingSubtract(1, ordering: .releasing)
                return nil
            }
            if wakes { DeliveryWaits.wake() }
            guard let next else {
                DeliveryWaits.leaveTurn()
                return
            }
            event = next
        }
    }

    /// After a terminal event nothing more is delivered: the queued events are
    /// dropped (they count as delivered) and the turn ends.
    @usableFromInline
    final func endAfterTerminal(inTurn: Bool) {
        let wakes = locked { shared -> Bool in
            let pending = shared.syncTaken()
            shared.outbox.removeAll()
            shared.turn.dropAll(pending: pending)
            _ = shared.turn.take(pending: 0)
            shared.turn.resetAllowance()
            wip.wrappingSubtract(pending + 1, ordering: .releasing)
            return shared.turn.takeWake()
        }
        if wakes {
            DeliveryWaits.wake()
        }
        if inTurn {
            DeliveryWaits.leaveTurn()
        }
    }
}

extension Observable {
    /// ``subscribe(sink:)`` for the synchronous part of a subscription function.
    ///
    /// A subscription function (a ``Producer``'s) only ever runs inside
    /// `subscribe(sink:)`, on the subscribing thread, so that thread's trampoline
    /// is already running: subscribing upstream right away needs no thread-local
    /// lookup. Do not use it anywhere else (an event handler, a scheduled action,
    /// another thread): there, use `subscribe(sink:)`.
    @inlinable
    @inline(__always)
    final func subscribeNested(sink observer: AnyObserver<Element>) -> SubscriptionBase? {
        run(observer)
    }
}
