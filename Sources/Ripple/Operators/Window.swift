extension ObservableType {
    /// Splits the elements into windows, each an ``Observable`` that is sent
    /// when it opens: a window closes (completes) and the next one opens when it
    /// has received `count` elements or `timeSpan` has passed since it opened,
    /// whichever comes first. The first window opens at subscription.
    ///
    /// Windows are hot: subscribe to one when you receive it (as `flatMap`
    /// does). When the source completes or fails, the open window and the result
    /// complete or fail. Subscribing to a window keeps the source subscribed,
    /// even after the subscription to the windows was disposed. A `count` below
    /// 1 fails with `RxError.argumentOutOfRange`.
    ///
    /// ```
    /// source:                                     --1-2-3------4--|
    /// window(timeSpan: 6, count: 2, scheduler):   A---B-----C-----|
    /// A (closed by count):                        --1-(2|)
    /// B (closed by time):                             --3---|
    /// C (closed by completion):                             ---4--|
    /// ```
    @_alwaysEmitIntoClient
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        guard count > 0 else {
            return .error(RxError.argumentOutOfRange("window(timeSpan:count:scheduler:)", "count", count, minimum: 1))
        }
        let source = asObservable()
        return Producer(site: SiteLiteral("window")) { observer in
            let sink = WindowSink(timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer)
            sink.run(source)
            return sink
        }
    }
}

/// `window(timeSpan:count:scheduler:)`. The source's events and the timer's
/// ticks are queued and processed one at a time, by whichever thread finds the
/// queue idle, without holding a lock (processing sends events to the windows'
/// observers and to the downstream observer).
@usableFromInline
final class WindowSink<Element>: Sink<Observable<Element>>, @unchecked Sendable {
    // A case whose payload depends on a type parameter is `indirect` where it is not built
    // per event on a hot path (docs/Performance.md, "Boxed payloads").
    private enum Work {
        case start
        indirect case event(Event<Element>)
        case tick(windowID: Int)
    }

    /// The work queued, and whether a thread is processing it (a tuple: see
    /// "State is a tuple" in docs/Architecture.md).
    private typealias Queue = (work: RingBuffer<Work>, isProcessing: Bool)

    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let queue: LockedState<Queue>
    /// The source subscription and the timer; alive while the subscription to
    /// the windows or any subscription to a window is.
    private let resources: CompositeDisposable
    private let sourceSubscription: SingleAssignmentDisposable
    private let timer: SerialDisposable
    private let refCount: RefCountDisposable

    // Only touched while processing the queue (one thread at a time).
    private var window: PublishSubject<Element>
    private var elementCount: Int
    private var windowID: Int
    private var isStopped: Bool

    @usableFromInline
    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: AnyObserver<Observable<Element>>) {
        queue = LockedState((work: RingBuffer(), isProcessing: false))
        resources = CompositeDisposable()
        sourceSubscription = SingleAssignmentDisposable()
        timer = SerialDisposable()
        window = PublishSubject()
        elementCount = 0
        windowID = 0
        isStopped = false
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        refCount = RefCountDisposable(disposable: resources)
        super.init(observer: observer)
        _ = resources.insert(timer)
        _ = resources.insert(sourceSubscription)
    }

    @usableFromInline
    func run(_ source: Observable<Element>) {
        setUpstream(disposable: refCount)
        submit(.start)
        if resources.isDisposed { return }
        let subscription = source.subscribe(sink: AnyObserver { [self] event in submit(.event(event)) })
        sourceSubscription.setDisposable(subscription ?? Disposables.create())
    }

    private func submit(_ work: Work) {
        let processes = queue.withLock { queue -> Bool in
            queue.work.append(work)
            if queue.isProcessing { return false }
            queue.isProcessing = true
            return true
        }
        guard processes else { return }
        while let next = queue.withLock({ queue -> Work? in
            if let work = queue.work.popFirst() { return work }
            queue.isProcessing = false
            return nil
        }) {
            process(next)
        }
    }

    private func process(_ work: Work) {
        guard !isStopped else { return }
        switch work {
        case .start:
            forwardNext(windowObservable(window))
            startTimer(windowID: windowID)
        case .tick(let id):
            guard id == windowID else { return }
            openNextWindow()
        case .event(.next(let element)):
            window.onNext(element)
            elementCount += 1
            if elementCount >= count {
                openNextWindow()
            }
        case .event(let terminal):
            isStopped = true
            window.on(terminal)
            if case .error(let error) = terminal {
                forwardError(error)
            } else {
                forwardCompleted()
            }
            resources.dispose()
        }
    }

    private func openNextWindow() {
        elementCount = 0
        windowID &+= 1
        window.onCompleted()
        window = PublishSubject()
        forwardNext(windowObservable(window))
        startTimer(windowID: windowID)
    }

    private func startTimer(windowID: Int) {
        timer.disposable = scheduler.scheduleRelative(windowID, dueTime: timeSpan) { [self] windowID in
            submit(.tick(windowID: windowID))
            return Disposables.create()
        }
    }

    /// The window's subject, wrapped so that subscribing keeps the source alive.
    private func windowObservable(_ subject: PublishSubject<Element>) -> Observable<Element> {
        let refCount = self.refCount
        return Producer(site: SiteLiteral(label: "window")) { observer in
            let retained = refCount.retain()
            let sink = ForwardingSink(observer: observer)
            sink.setUpstream(disposable: Disposables.create(subject.subscribe(AnyObserver { sink.forward($0) }), retained))
            return sink
        }
    }
}
