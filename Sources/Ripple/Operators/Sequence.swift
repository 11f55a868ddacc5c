extension ObservableType {
    /// A sequence of the arguments, sent on `scheduler` (by default on the current
    /// thread's trampoline, before `subscribe` returns), then completion.
    ///
    /// ```
    /// of(1, 2, 3):  (123|)
    /// ```
    @_alwaysEmitIntoClient
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        from(sequence: elements, scheduler: scheduler, site: SiteLiteral("of"))
    }

    /// A sequence of the array's elements, sent on `scheduler`, then completion.
    @_alwaysEmitIntoClient
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        from(sequence: array, scheduler: scheduler, site: SiteLiteral("from"))
    }

    /// A sequence of `sequence`'s elements, sent on `scheduler`, then completion.
    /// The sequence is iterated once per subscriber.
    @_alwaysEmitIntoClient
    public static func from<Source: Swift.Sequence>(
        _ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> where Source.Element == Element {
        from(sequence: sequence, scheduler: scheduler, site: SiteLiteral("from"))
    }

    @_alwaysEmitIntoClient
    static func from<Source: Swift.Sequence>(
        sequence: Source, scheduler: ImmediateSchedulerType, site: SiteLiteral
    ) -> Observable<Element> where Source.Element == Element {
        guard CurrentThreadScheduler.isInstance(scheduler) else {
            return emitting(scheduler: scheduler, site: site, initial: { sequence.makeIterator() }) { iterator in
                iterator.next().map { .next($0) } ?? .completed
            }
        }
        // The common case, as `emitting` builds it but with closures that capture
        // nothing: one object for the observable (`of(x)` inside a `flatMap` is
        // built once per element) instead of a producer and two closure contexts.
        return ValueProducer(sequence, site: site) { sequence, observer in
            let sink = TrampolineEmitterSink(observer: observer, state: sequence.makeIterator()) { iterator in
                iterator.next().map { .next($0) } ?? .completed
            }
            Trampoline.current.pointee.queue.append { sink.run() }
            return sink
        }
    }
}

extension ObservableType {
    /// Builds a source that computes its events one at a time: `step` is called with
    /// the subscriber's state and returns the next event; a terminal event ends the
    /// sequence. On the current-thread scheduler the source emits in a loop that
    /// yields its turn whenever other work is queued on the trampoline (the order
    /// RxSwift's recursive scheduling gives); on other schedulers each event is a
    /// separate scheduled step.
    @_alwaysEmitIntoClient
    static func emitting<State>(
        scheduler: ImmediateSchedulerType,
        site: SiteLiteral,
        initial: @escaping () -> State,
        step: @escaping (inout State) -> Event<Element>
    ) -> Observable<Element> {
        if CurrentThreadScheduler.isInstance(scheduler) {
            return Producer(site: site) { observer in
                let sink = TrampolineEmitterSink(observer: observer, state: initial(), step: step)
                Trampoline.current.pointee.queue.append { sink.run() }
                return sink
            }
        }
        return Producer(site: site) { observer in
            let sink = ForwardingSink(observer: observer)
            sink.setUpstream(disposable: scheduler.scheduleRecursive(initial()) { state, recurse in
                var state = state
                let event = step(&state)
                sink.forward(event)
                if case .next = event {
                    recurse(state)
                }
            })
            return sink
        }
    }
}

/// Emits on the current thread's trampoline (see ``ObservableType/emitting(scheduler:initial:step:)``).
@usableFromInline
final class TrampolineEmitterSink<Element, State>: Sink<Element>, @unchecked Sendable {
    /// Only touched on the subscribing thread, from the trampoline.
    @usableFromInline
    @exclusivity(unchecked)
    final var emitterState: State
    @usableFromInline
    let step: (inout State) -> Event<Element>

    @_alwaysEmitIntoClient
    init(observer: AnyObserver<Element>, state: State, step: @escaping (inout State) -> Event<Element>) {
        self.emitterState = state
        self.step = step
        super.init(observer: observer)
    }

    @_alwaysEmitIntoClient
    func run() {
        let trampoline = Trampoline.current
        while !isDisposed {
            let event = step(&emitterState)
            guard case .next = event else {
                forwardTerminal(event)
                return
            }
            forward(event)
            if Trampoline.hasQueuedWork(trampoline) {
                trampoline.pointee.queue.append { self.run() }
                return
            }
        }
    }
}
