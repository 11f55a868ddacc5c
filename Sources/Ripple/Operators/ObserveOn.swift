extension ObservableType {
    /// Delivers every event on `scheduler`, in order and one at a time.
    ///
    /// Each event is delivered by its own scheduled action, as in RxSwift: on a
    /// `TestScheduler`, `Observable.of(1, 2, 3).observe(on: scheduler)` subscribed
    /// at 200 delivers 1 at 201, 2 at 202, 3 at 203 and the completion at 204, and
    /// a `Single`'s success and its completion are two actions. The same holds on
    /// `CurrentThreadScheduler`, `OperationQueueScheduler`, any virtual-time
    /// scheduler and schedulers you write: other work scheduled on them can run
    /// between two events.
    ///
    /// The one exception is Ripple's dispatch-queue schedulers
    /// (`SerialDispatchQueueScheduler`, `MainScheduler`, their `asyncInstance`s,
    /// `ConcurrentDispatchQueueScheduler` and `ConcurrentMainScheduler`): there,
    /// events that arrive while a delivery is already queued or running are
    /// delivered by that same queue work item, so a burst costs one dispatch, not
    /// one per event. The observer cannot tell (the events, their order and their
    /// queue are the same); only a block that other code submits to the same
    /// queue between two events may run after both instead of between them. On
    /// `MainScheduler.instance`, an event that arrives on the main queue while
    /// nothing is queued is delivered at once.
    ///
    /// After `dispose()` returns, at most one more event can reach the observer:
    /// one whose delivery had already begun on the scheduler (it passed its
    /// disposed check) when `dispose()` was called. Nothing after it is delivered,
    /// and events still queued are dropped. (RxSwift has the same window; closing
    /// it would make `dispose()` wait for the observer, which deadlocks when the
    /// observer waits for the disposing thread.)
    ///
    /// ```
    /// source (background):      --1--2--|
    /// observe(on: main) (main): --1--2--|
    ///
    /// source:                   (123|)                  (at 200, TestScheduler)
    /// observe(on: scheduler):   -1-2-3-|                (201, 202, 203, 204)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("observe(on:)")) { observer in
            let sink = ObserveOnSink(scheduler: scheduler, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.enqueue($0) }))
            return sink
        }
    }

    /// Deprecated spelling of ``observe(on:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

/// `true` for the schedulers on which `observe(on:)` may deliver several events
/// in one scheduled action: Ripple's own dispatch-queue schedulers, whose actions
/// are queue work items that nothing but other queue work can observe. Asked once
/// per subscription.
@usableFromInline
func observeOnBatchesEvents(on scheduler: ImmediateSchedulerType) -> Bool {
    scheduler is SerialDispatchQueueScheduler
        || scheduler is ConcurrentDispatchQueueScheduler
        || scheduler is ConcurrentMainScheduler
}

/// Queues events and delivers them on the scheduler.
///
/// Two ways to drain the queue, chosen once per subscription:
/// - *One event per action* (RxSwift's `ObserveOnSink`), on every scheduler whose
///   timing an observer can see: each action delivers the first queued event
///   and, if more are queued, schedules the next action. The actions are chained
///   with `scheduleRecursive`, which keeps track of the pending one even when a
///   scheduler runs some actions inline and queues others.
/// - *Batches*, on Ripple's dispatch-queue schedulers: one queue work item
///   delivers everything that arrived before it finished. The drain takes the
///   whole queue in one lock round trip by swapping it with a second buffer that
///   only the draining task touches, so a burst of n events costs n + 1 lock
///   round trips on the producer's side plus one per batch on the consumer's,
///   and no allocation once both buffers have grown.
///
/// Visible to callers (`@_alwaysEmitIntoClient` methods, `@inlinable`
/// initialisers; specialised where `observe(on:)` is applied: unspecialised, each
/// event paid for run-time generic metadata lookups).
@usableFromInline
final class ObserveOnSink<Element>: Sink<Element>, @unchecked Sendable {
    /// The queued events, whether a drain is scheduled, and the path of the queued
    /// error so far (see ``ErrorTraces``): carried to the scheduler's thread with
    /// the error (a tuple: see "State is a tuple" in docs/Architecture.md).
    @usableFromInline
    typealias State = (queue: RingBuffer<Event<Element>>, isDraining: Bool, errorTrail: ErrorTraces.Trail?)

    @usableFromInline let scheduler: ImmediateSchedulerType
    @usableFromInline let batches: Bool
    @usableFromInline let state: LockedState<State>
    @usableFromInline let scheduled: SerialDisposable

    /// The batch being delivered. Only the draining task touches it (one at a
    /// time: `isDraining`), so exclusivity needs no run-time check.
    @usableFromInline
    @exclusivity(unchecked)
    final var batch: RingBuffer<Event<Element>>

    @_alwaysEmitIntoClient
    init(scheduler: ImmediateSchedulerType, observer: AnyObserver<Element>) {
        state = LockedState((queue: RingBuffer(), isDraining: false, errorTrail: nil))
        scheduled = SerialDisposable()
        batch = RingBuffer()
        self.scheduler = scheduler
        self.batches = observeOnBatchesEvents(on: scheduler)
        super.init(observer: observer)
    }

    @_alwaysEmitIntoClient
    func enqueue(_ event: Event<Element>) {
        var trail: ErrorTraces.Trail?
        if case .error(let error) = event {
            trail = ErrorTraces.trail(of: error)
        }
        let startDrain = state.withLock { state -> Bool in
            state.queue.append(event)
            if trail != nil {
                state.errorTrail = trail
            }
            if state.isDraining { return false }
            state.isDraining = true
            return true
        }
        guard startDrain && !isDisposed else { return }
        if batches {
            scheduled.disposable = scheduler.schedule(self) { sink in
                sink.drain()
                return Disposables.create()
            }
        } else {
            // The previous chain (if any) has ended: it cleared `isDraining`.
            scheduled.disposable = scheduler.scheduleRecursive(self) { sink, recurse in
                if sink.deliverOne() {
                    recurse(sink)
                }
            }
        }
    }

    /// One action of the one-event-per-action drain: delivers the first queued
    /// event. Returns `true` when more are queued (the caller schedules the next
    /// action); otherwise the drain has ended.
    @_alwaysEmitIntoClient
    func deliverOne() -> Bool {
        if isDisposed { return false }
        let event = state.withLock { state -> Event<Element>? in
            if let event = state.queue.popFirst() { return event }
            state.isDraining = false
            return nil
        }
        guard let event else { return false }
        deliver(event)
        if event.isStopEvent { return false }
        return state.withLock { state -> Bool in
            if state.queue.isEmpty {
                state.isDraining = false
                return false
            }
            return true
        }
    }

    /// The batch drain: delivers until the queue is empty.
    @_alwaysEmitIntoClient
    func drain() {
        while !isDisposed {
            let hasWork = state.withLock { state -> Bool in
                if state.queue.isEmpty {
                    state.isDraining = false
                    return false
                }
                swap(&state.queue, &batch)
                return true
            }
            if !hasWork { return }
            while let event = batch.popFirst() {
                if isDisposed { break }
                deliver(event)
            }
        }
        // Disposed mid-batch: drop what is left (outside any lock).
        batch.removeAll()
    }

    /// Forwards a dequeued event; an error goes on with the path it had on the
    /// thread that queued it.
    @_alwaysEmitIntoClient
    func deliver(_ event: Event<Element>) {
        if case .error = event {
            let trail = state.withLock { $0.errorTrail }
            ErrorTraces.resuming(trail) { forward(event) }
        } else {
            forward(event)
        }
    }

    @inlinable
    override func disposeResources() {
        scheduled.dispose()
        // Moved out and released after the lock: the events may hold the last
        // reference to user objects.
        let dropped = state.withLock { state -> RingBuffer<Event<Element>> in
            defer { state.queue = RingBuffer() }
            return state.queue
        }
        _ = dropped
    }
}
