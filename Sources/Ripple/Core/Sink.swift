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
    @exclusivity(unchecked) final var lifecycle: AtomicCell<Int>

    /// Written once, before `upstreamFlag` is published; read by `dispose()` only
    /// after it has observed `upstreamFlag`. A class reference (not a `Disposable`
    /// existential) so that attaching and disposing cost no boxing.
    @usableFromInline
    @exclusivity(unchecked)
    final var upstream: SubscriptionBase?

    @_alwaysEmitIntoClient
    init() {
        lifecycle = AtomicCell(0)
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    /// `true` once disposed, either explicitly or because the stream terminated.
    @_alwaysEmitIntoClient
    public final var isDisposed: Bool {
        AtomicCell.load(&lifecycle, ordering: .acquiring) & SubscriptionBase.disposedFlag != 0
    }

    /// Attaches the subscription to the upstream (`nil` when the upstream holds
    /// nothing to release). If this subscription has already been disposed, the
    /// upstream is disposed at once.
    ///
    /// Nothing to attach (`nil`), or an upstream that already disposed itself (a
    /// synchronous source that terminated during `subscribe`), costs no atomic
    /// read-modify-write: there is nothing left for `dispose()` to release.
    @_alwaysEmitIntoClient
    final func setUpstream(_ subscription: SubscriptionBase?) {
        guard let subscription, !subscription.isDisposed else { return }
        upstream = subscription
        let old = AtomicCell.bitwiseOr(&lifecycle, SubscriptionBase.upstreamFlag, ordering: .acquiringAndReleasing).oldValue
        if old & (SubscriptionBase.disposedFlag | SubscriptionBase.releasedFlag) != 0 {
            upstream = nil
            subscription.dispose()
        }
    }

    /// Disposes the upstream now, while this subscription lives on (`catch`
    /// releases the failed source before subscribing to the replacement). An
    /// upstream attached later (a source that failed while it was being
    /// subscribed) is disposed as soon as it is attached.
    @_alwaysEmitIntoClient
    final func releaseUpstream() {
        let old = AtomicCell.bitwiseOr(&lifecycle, SubscriptionBase.releasedFlag, ordering: .acquiringAndReleasing).oldValue
        let mask = SubscriptionBase.upstreamFlag | SubscriptionBase.disposedFlag | SubscriptionBase.releasedFlag
        if old & mask == SubscriptionBase.upstreamFlag {
            upstream.take()?.dispose()
        }
    }

    /// Attaches any `Disposable` as the upstream.
    @_alwaysEmitIntoClient
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
    @_alwaysEmitIntoClient
    @inline(never)
    public final func dispose() {
        // A plain load first: disposing twice (common when a terminal event and the
        // downstream both dispose) then costs no atomic read-modify-write.
        if AtomicCell.load(&lifecycle, ordering: .relaxed) & SubscriptionBase.disposedFlag != 0 { return }
        let old = AtomicCell.bitwiseOr(&lifecycle, SubscriptionBase.disposedFlag, ordering: .acquiringAndReleasing).oldValue
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

    @_alwaysEmitIntoClient
    init(observer: AnyObserver<Output>) {
        self.observer = observer
        super.init()
    }

    /// Forwards an element unless the sink was disposed.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func forwardNext(_ element: Output) {
        if !isDisposed {
            observer.on(.next(element))
        }
    }

    /// Forwards an event unless the sink was disposed; a terminal event also
    /// disposes the sink.
    @_alwaysEmitIntoClient
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
    @_alwaysEmitIntoClient
    @inline(never)
    final func forwardTerminal(_ event: Event<Output>) {
        if !isDisposed {
            observer.on(event)
        }
        dispose()
    }

    /// Forwards `.error(error)` and disposes.
    @_alwaysEmitIntoClient
    final func forwardError(_ error: Swift.Error) {
        forwardTerminal(.error(error))
    }

    /// Forwards `.completed` and disposes.
    @_alwaysEmitIntoClient
    final func forwardCompleted() {
        forwardTerminal(.completed)
    }
}

/// Holds a foreign `Disposable` (one returned by user code or a scheduler) in the
/// upstream chain.
@usableFromInline
final class DisposableAdapter: SubscriptionBase, @unchecked Sendable {
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
/// returns: nobody blocks on a delivery, so re-entrant calls and cycles cannot
/// deadlock.
///
/// `body` must not release a user's value either: releasing the last reference
/// runs its `deinit`, user code that may send to this sink again (another
/// source of a `combineLatest`, say) and would deadlock on the lock. A value
/// the state replaces or drops is swapped into a variable of the caller's,
/// released after `update` returns.
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
        @usableFromInline var rest: RingBuffer<Event<Output>>
        /// The path the queued error had on the thread that queued it (see
        /// ``ErrorTraces``): another thread may be the one that delivers it.
        @usableFromInline var errorTrail: ErrorTraces.Trail?

        @_alwaysEmitIntoClient
        init() {
            rest = RingBuffer()
        }

        /// Queues an element.
        @_alwaysEmitIntoClient
        #if CompactPipelines
        @inline(__always)  // compiled once: one type lookup fewer per call
        #endif
        mutating func next(_ element: Output) { append(.next(element)) }

        /// Queues the elements of a pipeline's run on a `just`, in order.
        @_alwaysEmitIntoClient
        mutating func next(elementsOf run: PipelineRun<Output>) {
            if let first = run.first {
                next(first)
                if let second = run.second {
                    next(second)
                }
            }
        }

        /// Queues a terminal event; later events of this sink are dropped.
        @_alwaysEmitIntoClient
        mutating func terminate(_ event: Event<Output>) {
            if case .error(let error) = event {
                errorTrail = ErrorTraces.trail(of: error)
            }
            append(event)
        }

        @_alwaysEmitIntoClient
        #if CompactPipelines
        @inline(__always)  // compiled once: one type lookup fewer per call
        #endif
        mutating func append(_ event: Event<Output>) {
            if head == nil && rest.isEmpty {
                head = event
            } else {
                appendToRest(event)
            }
        }

        /// The ring buffer's part of ``append(_:)``, out of line: a second
        /// queued event is rare, and the buffer's append (growth, copy on write)
        /// would otherwise be compiled at every place an operator queues an event.
        @_alwaysEmitIntoClient
        @inline(never)
        mutating func appendToRest(_ event: Event<Output>) {
            rest.append(event)
        }

        @_alwaysEmitIntoClient
        #if CompactPipelines
        @inline(__always)  // compiled once: one type lookup fewer per call
        #endif
        mutating func popFirst() -> Event<Output>? {
            if let event = head {
                head = nil
                return event
            }
            return rest.popFirst()
        }

        @_alwaysEmitIntoClient
        mutating func removeAll() {
            head = nil
            rest.removeAll()
        }
    }

    /// What the lock guards: the operator's state, the events queued for
    /// delivery, whether a thread is delivering them; `endingTurn` is the
    /// deliverer whose turn is ending (0: none, see
    /// ``SerializingSink/deliver(startingWith:)``), `endingProgress` the events
    /// delivered while a turn was ending: what threads waiting for it watch
    /// (``ThrottleWaits``), as the outbox's length also grows with the events of
    /// threads whose waits ran out.
    ///
    /// A tuple, not a struct: see "State is a tuple" in docs/Architecture.md.
    @usableFromInline
    typealias Shared = (state: State, outbox: Outbox, isDelivering: Bool, endingTurn: UInt, endingProgress: Int)

    /// Guards `shared`.
    @usableFromInline
    let lock: PlatformLock

    /// Only accessed while `lock` is held, so the run-time exclusivity checks
    /// (which cost a thread-local lookup per access) are switched off.
    @usableFromInline
    @exclusivity(unchecked)
    final var shared: Shared

    @_alwaysEmitIntoClient
    init(state: State, observer: AnyObserver<Output>) {
        lock = PlatformLock()
        shared = (state: state, outbox: Outbox(), isDelivering: false, endingTurn: 0, endingProgress: 0)
        super.init(observer: observer)
    }

    /// Runs `body` with `shared` while holding the lock.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func locked<Result>(_ body: (inout Shared) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&shared)
    }

    /// Runs `body` under the lock, then delivers what it put in the outbox.
    ///
    /// Fast path: when no other thread is delivering, the first queued event is
    /// taken out under the same lock that ran `body`, so one event costs two lock
    /// round trips in all (this one, and the one that finds the outbox empty and
    /// ends the delivery), not three.
    ///
    /// A thread that queued its events behind another thread's delivery whose
    /// turn is ending waits until that delivery is over (``waitForTurnEnd(of:)``).
    @_alwaysEmitIntoClient
    final func update<Result>(_ body: (inout State, inout Outbox) throws -> Result) rethrows -> Result {
        var endingTurn: UInt = 0
        #if CompactPipelines
        // Compiled once (`flatMapLatest`'s sink, unspecialised): without a
        // closure, this function looks the outbox's and the event's types up
        // once, where the closure would look them up again. Specialised (the
        // default build), the closure's form compiles smaller: without it each
        // operator's update was inlined whole at every call site
        // (docs/Performance.md, "Compact pipelines").
        lock.lock()
        let result: Result
        do {
            result = try body(&shared.state, &shared.outbox)
        } catch {
            lock.unlock()
            throw error
        }
        let first: Event<Output>?
        if shared.isDelivering {
            if shared.endingTurn == 0 && shared.outbox.rest.count >= DeliveryTurn.length {
                // Far behind: the turn ends now (as below).
                shared.endingTurn = Self.unknownDeliverer
            }
            endingTurn = shared.endingTurn
            first = nil
        } else {
            first = shared.outbox.popFirst()
            if first != nil { shared.isDelivering = true }
        }
        lock.unlock()
        #else
        let (result, first) = try locked { shared -> (Result, Event<Output>?) in
            let result = try body(&shared.state, &shared.outbox)
            if shared.isDelivering {
                if shared.endingTurn == 0 && shared.outbox.rest.count >= DeliveryTurn.length {
                    // Far behind: the turn ends now (the deliverer puts its
                    // thread in when it takes its next event).
                    shared.endingTurn = Self.unknownDeliverer
                }
                endingTurn = shared.endingTurn
                return (result, nil)
            }
            guard let first = shared.outbox.popFirst() else { return (result, nil) }
            shared.isDelivering = true
            return (result, first)
        }
        #endif
        if let first {
            deliver(startingWith: first)
        } else if endingTurn != 0 {
            waitForTurnEnd(of: endingTurn)
        }
        return result
    }

    /// ``update(_:)``, called rather than inlined: for an operator's cold paths
    /// (an error, the end of a source), so that each is a call instead of one
    /// more copy of the update's code in every app that uses the operator.
    @_alwaysEmitIntoClient
    @inline(never)
    final func updateOutOfLine(_ body: (inout State, inout Outbox) -> Void) {
        update(body)
    }

    /// `endingTurn` of a turn ended by a thread that found the queue too long,
    /// until the deliverer replaces it with its own thread.
    @usableFromInline
    static var unknownDeliverer: UInt { UInt.max }

    /// Back-pressure on a thread that queued an event behind a delivery whose
    /// turn is ending: it waits until the deliverer has delivered what is queued
    /// and stopped, for at most about 10 ms and never for a thread that waits for
    /// it (``ThrottleWaits``). The deliverer itself (an event sent back into this
    /// sink from downstream) does not wait.
    @usableFromInline
    @inline(never)
    final func waitForTurnEnd(of deliverer: UInt) {
        if deliverer == currentThreadID() { return }
        let stalled = ThrottleWaits.yield {
            locked { shared in
                guard shared.isDelivering, shared.endingTurn != 0 else { return nil }
                let deliverer = shared.endingTurn == Self.unknownDeliverer ? 0 : shared.endingTurn
                return (shared.endingProgress, deliverer)
            }
        }
        if stalled {
            // A stalled deliverer (see ``SubjectBase/waitForTurnEnd()``): nobody
            // waits for the rest of its turn.
            locked { shared in
                if shared.endingTurn == deliverer { shared.endingTurn = 0 }
            }
        }
    }

    /// Reads the state under the lock.
    @_alwaysEmitIntoClient
    final func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try locked { try body(&$0.state) }
    }

    /// Forwards a queued error with the path it had on the thread that queued it
    /// (see ``ErrorTraces``). Out of line: inlined, it cost the event loop about
    /// ten instructions per element (`combinelatest`).
    @_alwaysEmitIntoClient
    @inline(never)
    final func forwardQueuedError(_ event: Event<Output>) {
        let trail = locked { $0.outbox.errorTrail }
        ErrorTraces.resuming(trail) { forward(event) }
    }

    /// Delivers `first`, then whatever was queued meanwhile, until the outbox is
    /// empty. Only the thread that set `isDelivering` runs this. Inlinable so that
    /// it is specialised with the operator (generic code here would look up type
    /// metadata at run time on every event).
    ///
    /// The turn is bounded as in the subjects (``SubjectBase/drain(missed:)``):
    /// after ``DeliveryTurn/length`` events (counted only: this loop runs for
    /// every event, where reading a clock would cost), or once as many are
    /// queued, threads that queue more wait until this thread has delivered
    /// what is queued and stopped (``waitForTurnEnd(of:)``), so that it is not
    /// kept delivering for as long as they produce.
    ///
    /// The loop takes the lock itself rather than through ``locked(_:)``: no
    /// code of its caller runs under it, and without the closure Ripple's own
    /// generic copy of the loop is one function, not two (about 0.6 KB less in
    /// every program; the loop compiled in an app is the same).
    @_alwaysEmitIntoClient
    final func deliver(startingWith first: Event<Output>) {
        var event = first
        var delivered = 0
        while true {
            if case .error = event {
                forwardQueuedError(event)
            } else {
                forward(event)
            }
            if event.isStopEvent {
                locked {
                    $0.outbox.removeAll()
                    $0.isDelivering = false
                    $0.endingTurn = 0
                }
                return
            }
            delivered &+= 1
            lock.lock()
            guard let next = shared.outbox.popFirst() else {
                shared.isDelivering = false
                shared.endingTurn = 0
                lock.unlock()
                return
            }
            // Every `length` events (a waiting thread that saw no progress may
            // have cleared the last mark), or when a thread found the queue too
            // long.
            if delivered & (DeliveryTurn.length - 1) == 0 || shared.endingTurn == Self.unknownDeliverer {
                shared.endingTurn = currentThreadID()
            }
            if shared.endingTurn != 0 { shared.endingProgress &+= 1 }
            lock.unlock()
            event = next
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
    @_alwaysEmitIntoClient
    @inline(__always)
    final func subscribeNested(sink observer: AnyObserver<Element>) -> SubscriptionBase? {
        start(observer, recorded: SubscriptionRecorder.isRecording)
    }
}
