extension ObservableType {
    /// Drops the elements that arrive within `duration` of the subscription and
    /// passes on the rest.
    ///
    /// The timer starts before the source is subscribed. Completes and fails with
    /// the source, whenever that happens.
    ///
    /// ```
    /// source:              --1--2--3--4--|
    /// skip(5, scheduler):  --------3--4--|
    /// ```
    @_alwaysEmitIntoClient
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("skip")) { observer in
            let sink = SkipTimeSink(observer: observer)
            sink.timer.setDisposable(scheduler.scheduleRelative(sink, dueTime: duration) { sink in
                AtomicCell.store(&sink.isOpen, true, ordering: .releasing)
                return Disposables.create()
            })
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }

    /// Drops elements while `predicate` returns `true`; from the first element
    /// for which it returns `false` on, passes on everything.
    ///
    /// Completes with the source. Fails with the source or when `predicate`
    /// throws.
    ///
    /// ```
    /// source:                    --1--2--5--1--|
    /// skip(while: { $0 < 3 }):   --------5--1--|
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        appending(SkipWhileStep(predicate: predicate), site: SiteLiteral("skip"))
    }

    /// Drops the source's elements until `other` sends an element; passes on the
    /// rest.
    ///
    /// The source is subscribed first, then `other`. After `other`'s first element
    /// (or its completion) its subscription ends. Fails when the source or
    /// `other` fails. Completes when the source completes after `other` sent an
    /// element; as in RxSwift, if the source completes *before* that, the
    /// subscription ends without any event.
    ///
    /// ```
    /// source:               --1--2--3--4--|
    /// other:                -------x------
    /// skip(until: other):   --------3--4--|
    /// ```
    @_alwaysEmitIntoClient
    public func skip<Source: ObservableConvertibleType>(until other: Source) -> Observable<Element> {
        let source = asObservable()
        let other = other.asObservable()
        return Producer(site: SiteLiteral("skip")) { observer in
            let sink = SkipUntilSink<Element>(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { event in
                let endSilently = sink.update { isOpen, outbox -> Bool in
                    switch event {
                    case .next(let element):
                        if isOpen { outbox.next(element) }
                    case .error:
                        outbox.terminate(event)
                    case .completed:
                        if isOpen {
                            outbox.terminate(event)
                        } else {
                            return true
                        }
                    }
                    return false
                }
                if endSilently {
                    sink.dispose()
                }
            }))
            if sink.isDisposed { return sink }
            let otherSubscription = other.subscribe(sink: AnyObserver { event in
                sink.update { isOpen, outbox in
                    switch event {
                    case .next: isOpen = true
                    case .error(let error): outbox.terminate(.error(error))
                    case .completed: break
                    }
                }
                // One element opens the gate for good, and a completion ends
                // `other` too: either way its subscription, and what `other`'s
                // operators captured, goes now (as in RxSwift).
                sink.other.dispose()
            })
            sink.other.setDisposable(otherSubscription ?? Disposables.create())
            return sink
        }
    }
}

@usableFromInline
final class SkipTimeSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline
    let timer = SingleAssignmentDisposable()
    @usableFromInline
    @exclusivity(unchecked) final var isOpen = AtomicCell<Bool>(false)

    @_alwaysEmitIntoClient
    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if AtomicCell.load(&isOpen, ordering: .acquiring) {
                forwardNext(element)
            }
        case .error, .completed:
            forwardTerminal(event)
        }
    }

    override func disposeResources() {
        timer.dispose()
    }
}

/// The step of `skip(while:)` (see ``PipelineStep``): its state says whether
/// an element has failed the predicate yet; from that element on, everything
/// passes without calling it.
@usableFromInline
struct SkipWhileStep<Element>: PipelineStep {
    @usableFromInline
    let predicate: (Element) throws -> Bool

    @_alwaysEmitIntoClient
    init(predicate: @escaping (Element) throws -> Bool) {
        self.predicate = predicate
    }

    @_alwaysEmitIntoClient
    func start() -> Bool {
        false
    }

    @_alwaysEmitIntoClient
    func next(_ element: Element, _ isPassing: inout Bool) throws -> StepResult<Element> {
        if !isPassing {
            isPassing = try !predicate(element)
        }
        return isPassing ? (element, false) : (nil, false)
    }
}

/// `skip(until:)`: the state is whether `other` has sent an element.
@usableFromInline
final class SkipUntilSink<Element>: SerializingSink<Bool, Element>, @unchecked Sendable {
    @usableFromInline
    let other: SingleAssignmentDisposable

    @usableFromInline
    init(observer: AnyObserver<Element>) {
        other = SingleAssignmentDisposable()
        super.init(state: false, observer: observer)
    }

    override func disposeResources() {
        other.dispose()
    }
}
