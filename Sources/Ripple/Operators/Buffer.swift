extension ObservableType {
    /// Collects elements into arrays and sends each array when `count` elements
    /// are collected or `timeSpan` has passed since the previous array was sent
    /// (or since the subscription), whichever comes first. Arrays sent because
    /// of time may be empty.
    ///
    /// When the source completes, the current array (possibly empty) is sent,
    /// then the completion. When it fails, the collected elements are dropped
    /// and the error passed on. A `count` below 1 fails with
    /// `RxError.argumentOutOfRange`.
    ///
    /// ```
    /// source:                                     --1--2--3-----------4---|
    /// buffer(timeSpan: 10, count: 2, scheduler):  -----a---------b--------(c|)
    ///
    /// a = [1, 2] (count reached), b = [3] (time), c = [4] (completion)
    /// ```
    @_alwaysEmitIntoClient
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        guard count > 0 else {
            return .error(RxError.argumentOutOfRange("buffer(timeSpan:count:scheduler:)", "count", count, minimum: 1))
        }
        let source = asObservable()
        return Producer(site: SiteLiteral("buffer")) { observer in
            let sink = BufferSink<Element>(timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer)
            sink.startTimer(windowID: 0)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

/// `buffer(timeSpan:count:scheduler:)`'s state: the elements of the current buffer
/// and the number of its window (a tuple: see "State is a tuple" in
/// docs/Architecture.md).
@usableFromInline
typealias BufferState<Element> = (buffer: [Element], windowID: Int)

@usableFromInline
final class BufferSink<Element>: SerializingSink<BufferState<Element>, [Element]>, @unchecked Sendable {
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let timer: SerialDisposable

    @usableFromInline
    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: AnyObserver<[Element]>) {
        timer = SerialDisposable()
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(state: (buffer: [], windowID: 0), observer: observer)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let count = self.count
            let newWindow = update { state, outbox -> Int? in
                state.buffer.append(element)
                guard state.buffer.count >= count else { return nil }
                return Self.sendBuffer(&state, &outbox)
            }
            if let newWindow {
                startTimer(windowID: newWindow)
            }
        case .error(let error):
            var dropped: [Element] = []  // released after the lock (see `SerializingSink`)
            update { state, outbox in
                swap(&state.buffer, &dropped)
                outbox.terminate(.error(error))
            }
        case .completed:
            update { state, outbox in
                outbox.next(state.buffer)
                state.buffer = []
                outbox.terminate(.completed)
            }
        }
    }

    private static func sendBuffer(_ state: inout BufferState<Element>, _ outbox: inout Outbox) -> Int {
        state.windowID &+= 1
        outbox.next(state.buffer)
        state.buffer = []
        return state.windowID
    }

    @usableFromInline
    func startTimer(windowID: Int) {
        timer.disposable = scheduler.scheduleRelative(windowID, dueTime: timeSpan) { [self] windowID in
            let newWindow = update { state, outbox -> Int? in
                guard state.windowID == windowID else { return nil }
                return Self.sendBuffer(&state, &outbox)
            }
            if let newWindow {
                startTimer(windowID: newWindow)
            }
            return Disposables.create()
        }
    }

    override func disposeResources() {
        timer.dispose()
        var dropped: [Element] = []  // released after the lock (see `SerializingSink`)
        withState { swap(&$0.buffer, &dropped) }
    }
}
