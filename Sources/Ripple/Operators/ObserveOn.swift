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

final class ObserveOnSink<Element>: Sink<Element>, @unchecked Sendable {
    private struct State {
        var queue = RingBuffer<Event<Element>>()
        var isDraining = false
    }

    private let scheduler: ImmediateSchedulerType
    private let state = LockedState(State())
    private let scheduled = SerialDisposable()

    init(scheduler: ImmediateSchedulerType, observer: AnyObserver<Element>) {
        self.scheduler = scheduler
        super.init(observer: observer)
    }

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

    private func drain() {
        while !isDisposed {
            let next = state.withLock { state -> Event<Element>? in
                if let event = state.queue.popFirst() { return event }
                state.isDraining = false
                return nil
            }
            guard let event = next else { return }
            forward(event)
        }
    }

    override func disposeResources() {
        scheduled.dispose()
        state.withLock { $0.queue.removeAll() }
    }
}
