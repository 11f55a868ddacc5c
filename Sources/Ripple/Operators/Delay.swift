extension ObservableType {
    /// Shifts every element and the completion later by `dueTime`, keeping the
    /// spacing between them; an error is passed on at once and drops the
    /// elements still waiting.
    ///
    /// The source is subscribed at once (use ``delaySubscription(_:scheduler:)-(RxTimeInterval,_)``
    /// to delay the subscription instead). Each delayed event is delivered in its
    /// own scheduled step, so events that arrived together leave one step apart,
    /// as in RxSwift.
    ///
    /// ```
    /// source:               --1--2----|
    /// delay(3, scheduler):  -----1--2----|
    /// source:               --1--2-#
    /// delay(3, scheduler):  -----1-#
    /// ```
    @_alwaysEmitIntoClient
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("delay")) { observer in
            let sink = DelaySink(dueTime: dueTime, scheduler: scheduler, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

@usableFromInline
final class DelaySink<Element>: Sink<Element>, @unchecked Sendable {
    /// The received events with their arrival time, waiting for their turn; whether
    /// a drain is scheduled or running (`isActive`), and forwarding events right
    /// now (`isRunning`); the source's error (a tuple: see "State is a tuple" in
    /// docs/Architecture.md).
    private typealias State = (
        queue: RingBuffer<(time: RxTime, event: Event<Element>)>, isActive: Bool, isRunning: Bool, error: Swift.Error?
    )

    // A case whose payload depends on a type parameter is `indirect` where it is not built
    // per event on a hot path (docs/Performance.md, "Boxed payloads").
    private enum Step {
        case fail(Swift.Error)
        indirect case forward(Event<Element>)
        case wait(since: RxTime)
        case idle
    }

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let state: LockedState<State>
    private let drain: SerialDisposable

    @usableFromInline
    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: AnyObserver<Element>) {
        state = LockedState((queue: RingBuffer(), isActive: false, isRunning: false, error: nil))
        drain = SerialDisposable()
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .error(let error):
            let deliverNow = state.withLock { state -> Bool in
                state.queue.removeAll()
                state.error = error
                return !state.isRunning
            }
            if deliverNow {
                forwardError(error)
            }
        case .next, .completed:
            let now = scheduler.now
            let startDrain = state.withLock { state -> Bool in
                state.queue.append((now, event))
                if state.isActive { return false }
                state.isActive = true
                return true
            }
            if startDrain {
                drain.disposable = scheduler.scheduleRecursive((), dueTime: dueTime) { [self] _, recurse in
                    drainQueue(recurse)
                }
            }
        }
    }

    /// Forwards the oldest waiting event, then schedules itself for the next one
    /// (its remaining delay), or goes idle.
    private func drainQueue(_ recurse: ((), RxTimeInterval) -> Void) {
        let proceed = state.withLock { state -> Bool in
            if state.error != nil { return false }
            state.isRunning = true
            return true
        }
        guard proceed else { return }
        var hasForwarded = false
        while true {
            let step = state.withLock { state -> Step in
                if let error = state.error { return .fail(error) }
                if !hasForwarded, let first = state.queue.popFirst() { return .forward(first.event) }
                state.isRunning = false
                if hasForwarded, let next = state.queue.first { return .wait(since: next.time) }
                state.isActive = false
                return .idle
            }
            switch step {
            case .fail(let error):
                forwardError(error)
                return
            case .forward(let event):
                hasForwarded = true
                forward(event)
                if event.isStopEvent { return }
            case .wait(let since):
                recurse((), dueTime.remaining(after: since, at: scheduler.now))
                return
            case .idle:
                return
            }
        }
    }

    override func disposeResources() {
        drain.dispose()
        // Moved out and released after the lock: the events may hold the last
        // reference to user objects, whose `deinit` may call back into this chain.
        let dropped = state.withLock { state -> RingBuffer<(time: RxTime, event: Event<Element>)> in
            defer { state.queue = RingBuffer() }
            return state.queue
        }
        withExtendedLifetime(dropped) {}
    }
}
