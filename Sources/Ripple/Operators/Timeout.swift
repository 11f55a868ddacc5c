extension ObservableType {
    /// Fails with `RxError.timeout` if `dueTime` passes without an element: from
    /// the subscription until the first element, and between two elements.
    ///
    /// Completes or fails with the source if it terminates in time. The timer
    /// starts before the source is subscribed.
    ///
    /// ```
    /// source:                  --1--2---------3--|
    /// timeout(5, scheduler):   --1--2----#           (RxError.timeout)
    /// ```
    @_alwaysEmitIntoClient
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        timeout(dueTime, other: Observable<Element>.error(RxError.timeout), scheduler: scheduler)
    }

    /// Like ``timeout(_:scheduler:)-(RxTimeInterval,_)``, but when the time passes, disposes the
    /// source and continues with `other` (subscribed at that moment) instead of
    /// failing.
    ///
    /// ```
    /// source:                         --1--2---------3--|
    /// other:                                    a--b--|
    /// timeout(5, other:, scheduler):  --1--2----a--b--|
    /// ```
    @_alwaysEmitIntoClient
    public func timeout<Source: ObservableConvertibleType>(
        _ dueTime: RxTimeInterval, other: Source, scheduler: SchedulerType
    ) -> Observable<Element> where Source.Element == Element {
        let source = asObservable()
        let other = other.asObservable()
        return Producer(site: SiteLiteral("timeout")) { observer in
            let sink = TimeoutSink(dueTime: dueTime, other: other, scheduler: scheduler, observer: observer)
            sink.run(source)
            return sink
        }
    }
}

@usableFromInline
final class TimeoutSink<Element>: Sink<Element>, @unchecked Sendable {
    /// `id` is bumped by every event of the source; a timer wins only if it is
    /// unchanged (a tuple: see "State is a tuple" in docs/Architecture.md).
    private typealias State = (id: UInt64, switched: Bool)

    private let dueTime: RxTimeInterval
    private let other: Observable<Element>
    private let scheduler: SchedulerType
    private let state: LockedState<State>
    private let subscription: SerialDisposable
    private let timer: SerialDisposable

    @usableFromInline
    init(dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType, observer: AnyObserver<Element>) {
        state = LockedState((id: 0, switched: false))
        subscription = SerialDisposable()
        timer = SerialDisposable()
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
        super.init(observer: observer)
    }

    @usableFromInline
    func run(_ source: Observable<Element>) {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        startTimer()
        let sourceSubscription = source.subscribe(sink: AnyObserver { [self] event in onSource(event) })
        original.setDisposable(sourceSubscription ?? Disposables.create())
    }

    private func onSource(_ event: Event<Element>) {
        let wins = state.withLock { state -> Bool in
            if state.switched { return false }
            state.id &+= 1
            return true
        }
        guard wins else { return }
        switch event {
        case .next(let element):
            forwardNext(element)
            startTimer()
        case .error, .completed:
            forwardTerminal(event)
        }
    }

    private func startTimer() {
        let id = state.withLock { $0.id }
        timer.disposable = scheduler.scheduleRelative(id, dueTime: dueTime) { [self] id in
            let wins = state.withLock { state -> Bool in
                if state.switched || state.id != id { return false }
                state.switched = true
                return true
            }
            if wins {
                let replacement = SingleAssignmentDisposable()
                subscription.disposable = replacement
                let otherSubscription = other.subscribe(sink: AnyObserver { [self] event in forward(event) })
                replacement.setDisposable(otherSubscription ?? Disposables.create())
            }
            return Disposables.create()
        }
    }

    override func disposeResources() {
        subscription.dispose()
        timer.dispose()
    }
}
