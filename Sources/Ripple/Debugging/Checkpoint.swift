extension ObservableType {
    /// Marks this point of the chain in the trace of every error that passes it,
    /// with `description` and the place `checkpoint` was written (Reactor's
    /// `checkpoint`).
    ///
    /// The events pass through unchanged: completes when the source completes,
    /// fails with the source's error. An error that went through checkpoints lists
    /// them, nearest first, in ``Swift/Error/rippleTrace`` and in what the default
    /// ``Hooks/defaultErrorHandler`` prints, even when subscriptions are not
    /// recorded (with ``Hooks/recordsOperatorSites`` on, the trace lists every
    /// operator, checkpoints included). Until an error comes, a checkpoint costs
    /// what any operator costs.
    ///
    /// ```
    /// source:               --a--b--#
    /// checkpoint("search"): --a--b--#     (the error's trace: checkpoint("search") at File.swift:12)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func checkpoint(_ description: String) -> Observable<Element> {
        let source = asObservable()
        let site = SiteLiteral(alwaysCapturing: "checkpoint")
        return CheckpointObservable(description: description, site: site) { observer in
            let sink = CheckpointSink(description: description, site: site, observer: observer)
            sink.setUpstream(source.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

/// The observable of `checkpoint(_:)`: a `Producer` that gives the graph its
/// description.
@usableFromInline
final class CheckpointObservable<Element>: Observable<Element>, @unchecked Sendable {
    @usableFromInline
    let description: String
    @usableFromInline
    let subscribeHandler: (AnyObserver<Element>) -> SubscriptionBase?

    @_alwaysEmitIntoClient
    init(description: String, site: SiteLiteral, subscribeHandler: @escaping (AnyObserver<Element>) -> SubscriptionBase?) {
        self.description = description
        self.subscribeHandler = subscribeHandler
        super.init(site: site)
    }

    @inlinable
    override func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        subscribeHandler(observer)
    }

    override var graphName: String? { description }
}

@usableFromInline
final class CheckpointSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline
    let description: String
    @usableFromInline
    let site: SiteLiteral

    @_alwaysEmitIntoClient
    init(description: String, site: SiteLiteral, observer: AnyObserver<Element>) {
        self.description = description
        self.site = site
        super.init(observer: observer)
    }

    @_alwaysEmitIntoClient
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            forwardNext(element)
        case .error(let error):
            if isDisposed {
                forwardError(error)
            } else {
                ErrorTraces.delivering(error, checkpoint: description, site: site) { forwardError(error) }
            }
        case .completed:
            forwardCompleted()
        }
    }
}

extension PrimitiveSequence {
    /// Marks this point of the chain in the trace of every error that passes it,
    /// with `description` and the place `checkpoint` was written: the `Single`,
    /// `Maybe` and `Completable` form of ``ObservableType/checkpoint(_:)``.
    ///
    /// The outcome passes through unchanged: succeeds or completes as the source
    /// does, fails with the source's error, whose ``Swift/Error/rippleTrace``
    /// lists this checkpoint.
    ///
    /// ```
    /// source:               ----#
    /// checkpoint("load"):   ----#     (the error's trace: checkpoint("load") at File.swift:12)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func checkpoint(_ description: String) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.checkpoint(description))
    }
}
