import Synchronization

extension ObservableType {
    /// Delivers every event on `scheduler`, in order and one at a time.
    ///
    /// Events are queued as they arrive and drained by one scheduled task at a time,
    /// so a burst costs one scheduling, not one per event. On
    /// `MainScheduler.instance`, events that arrive on the main queue while nothing
    /// is queued are delivered synchronously.
    ///
    /// ```
    /// source (background):      --1--2--|
    /// observe(on: main) (main): --1--2--|
    /// ```
    @inlinable
    @inline(never)
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Producer { observer in
            let sink = ObserveOnSink(scheduler: scheduler, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.enqueue($0) }))
            return sink
        }
    }

    /// Deprecated spelling of ``observe(on:)``.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

/// Queues events and drains them on the scheduler, one scheduled task per burst.
///
/// `@inlinable` (specialised where `observe(on:)` is applied: unspecialised, each
/// event paid for run-time generic metadata lookups). The drain takes the whole
/// queue in one lock round trip by swapping it with a second buffer that only
/// the draining task touches, so a burst of n events costs n + 1 lock round trips
/// on the producer's side plus one per batch on the consumer's, and no
/// allocation once both buffers have grown.
@usableFromInline
final class ObserveOnSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var queue = RingBuffer<Event<Element>>()
        @usableFromInline var isDraining = false

        @inlinable
        init() {}
    }

    @usableFromInline let scheduler: ImmediateSchedulerType
    @usableFromInline let state = LockedState(State())
    @usableFromInline let scheduled = SerialDisposable()

    /// The batch being delivered. Only the draining task touches it (one at a
    /// time: `isDraining`), so exclusivity needs no run-time check.
    @usableFromInline
    @exclusivity(unchecked)
    final var batch = RingBuffer<Event<Element>>()

    @inlinable
    init(scheduler: ImmediateSchedulerType, observer: AnyObserver<Element>) {
        self.scheduler = scheduler
        super.init(observer: observer)
    }

    @inlinable
    func enqueue(_ event: Event<Element>) {
        let startDrain = state.withLock { state -> Bool in
            state.queue.append(event)
            if state.isDraining { return false }
            state.isDraining = true
            return true
        }
        if startDrain && !isDisposed {
            scheduled.disposable = scheduler.schedule(self) { sink in
                sink.drain()
                return Disposables.create()
            }
        }
    }

    @inlinable
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
                forward(event)
            }
        }
        // Disposed mid-batch: drop what is left (outside any lock).
        batch.removeAll()
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
