extension ObservableType {
    /// Each time `sampler` sends an element (or completes), passes on the latest
    /// element the source sent since the previous sample; if there is none,
    /// passes on `defaultValue` if it is not `nil`, otherwise nothing.
    ///
    /// The source is subscribed first, then `sampler`. The result completes at
    /// the first sample after the source has completed (the source's completion
    /// alone does not end it). Fails when the source or `sampler` fails.
    ///
    /// ```
    /// source:                             --1--2-----3-----|
    /// sampler:                            ------x--x--x--x---x--
    /// sample(sampler):                    ------2-----3------|
    /// sample(sampler, defaultValue: 0):   ------2--0--3--0---(0|)
    /// ```
    @_alwaysEmitIntoClient
    public func sample<Source: ObservableConvertibleType>(_ sampler: Source, defaultValue: Element? = nil) -> Observable<Element> {
        let source = asObservable()
        let sampler = sampler.asObservable()
        return Producer(site: SiteLiteral("sample")) { observer in
            let sink = SampleSink<Element>(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { event in
                // The element replaced: released after the lock (see `SerializingSink`).
                var replaced: Element?
                sink.update { state, outbox in
                    switch event {
                    case .next(let element):
                        replaced = element
                        swap(&state.latest, &replaced)
                    case .error: outbox.terminate(event)
                    case .completed: state.sourceCompleted = true
                    }
                }
            }))
            if sink.isDisposed { return sink }
            let samplerSubscription = sampler.subscribe(sink: AnyObserver { event in
                sink.update { state, outbox in
                    switch event {
                    case .next, .completed:
                        if let element = state.latest ?? defaultValue {
                            state.latest = nil
                            outbox.next(element)
                        }
                        if state.sourceCompleted {
                            outbox.terminate(.completed)
                        }
                    case .error(let error):
                        outbox.terminate(.error(error))
                    }
                }
            })
            sink.sampler.setDisposable(samplerSubscription ?? Disposables.create())
            return sink
        }
    }
}

/// `sample`'s state (a tuple: see "State is a tuple" in docs/Architecture.md).
@usableFromInline
typealias SampleState<Element> = (latest: Element?, sourceCompleted: Bool)

@usableFromInline
final class SampleSink<Element>: SerializingSink<SampleState<Element>, Element>, @unchecked Sendable {
    @usableFromInline
    let sampler: SingleAssignmentDisposable

    @usableFromInline
    init(observer: AnyObserver<Element>) {
        sampler = SingleAssignmentDisposable()
        super.init(state: (latest: nil, sourceCompleted: false), observer: observer)
    }

    override func disposeResources() {
        sampler.dispose()
        var dropped: Element?  // released after the lock (see `SerializingSink`)
        withState { swap(&$0.latest, &dropped) }
    }
}
