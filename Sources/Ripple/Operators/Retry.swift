extension ObservableType {
    /// Resubscribes to the source each time it fails, forever.
    ///
    /// Completes when the source completes. Resubscribing to a source that fails
    /// synchronously loops without growing the stack.
    ///
    /// ```
    /// source (cold):  --1--#
    /// retry():        --1----1----1--...
    /// ```
    @_alwaysEmitIntoClient
    public func retry() -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("retry")) { observer in
            let sink = CatchSequenceSink(nextSource: { source }, observer: observer)
            sink.start()
            return sink
        }
    }

    /// Subscribes to the source up to `maxAttemptCount` times in all, as long as
    /// it fails.
    ///
    /// Completes when the source completes; fails with the last error once
    /// `maxAttemptCount` attempts failed. As in RxSwift, `retry(0)` completes at
    /// once without subscribing; a negative count fails with
    /// `RxError.argumentOutOfRange`.
    ///
    /// ```
    /// source (cold):  --1--#
    /// retry(2):       --1----1--#
    /// ```
    @_alwaysEmitIntoClient
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        guard maxAttemptCount >= 0 else {
            return .error(RxError.argumentOutOfRange("retry(_:)", "maxAttemptCount", maxAttemptCount, minimum: 0))
        }
        let source = asObservable()
        return Producer(site: SiteLiteral("retry")) { observer in
            var remaining = maxAttemptCount
            let sink = CatchSequenceSink(nextSource: {
                guard remaining > 0 else { return nil }
                remaining -= 1
                return source
            }, observer: observer)
            sink.start()
            return sink
        }
    }

    /// Resubscribes to the source when the sequence built by `notificationHandler`
    /// sends an element after a failure.
    ///
    /// `notificationHandler` receives the source's errors (those that are
    /// `Failure`s; any other error fails the result at once) and is called once
    /// per subscriber. Each time the source fails, its error is sent to the
    /// handler's sequence; the handler's next element resubscribes, its
    /// completion completes the result and its error fails it.
    ///
    /// ```
    /// source (cold):                                          --1--#
    /// retry(when: { $0.delay(.seconds(2), scheduler: s).take(1) }):
    ///                                                         --1------1--|
    ///
    /// (the first error retries 2 later; the second finds the handler completed)
    /// ```
    @_alwaysEmitIntoClient
    public func retry<TriggerObservable: ObservableConvertibleType, Failure: Swift.Error>(
        when notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable
    ) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("retry")) { observer in
            let sink = RetryWhenSink<Element, TriggerObservable.Element, Failure>(source: source, observer: observer)
            sink.start(trigger: notificationHandler(sink.errors.asObservable()).asObservable())
            return sink
        }
    }

    /// Like the typed `retry(when:)`, with the handler receiving every error.
    ///
    /// ```
    /// source (cold):                 --1--#
    /// retry(when: { $0.take(1) }):   --1----1--|
    /// ```
    @_alwaysEmitIntoClient
    public func retry<TriggerObservable: ObservableConvertibleType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("retry")) { observer in
            let sink = RetryWhenSink<Element, TriggerObservable.Element, Swift.Error>(source: source, observer: observer)
            sink.start(trigger: notificationHandler(sink.errors.asObservable()).asObservable())
            return sink
        }
    }
}

/// `retry(when:)`: errors go to the handler's input; the handler's output
/// decides what happens next.
@usableFromInline
final class RetryWhenSink<Element, Trigger, Failure: Swift.Error>: CatchSequenceSink<Element>, @unchecked Sendable {
    /// The handler's input.
    @usableFromInline
    let errors: PublishSubject<Failure>
    /// The handler's output, shared by the waits for a decision.
    private let notifier: PublishSubject<Trigger>
    private let handlerSubscription: SingleAssignmentDisposable
    /// Listens to `notifier` while waiting for a decision.
    private let decision: SerialDisposable
    /// Identifies the failure whose decision is awaited (`nil`: not waiting).
    private let waitingFor: LockedState<(next: UInt64, current: UInt64?)>

    @usableFromInline
    init(source: Observable<Element>, observer: AnyObserver<Element>) {
        errors = PublishSubject()
        notifier = PublishSubject()
        handlerSubscription = SingleAssignmentDisposable()
        decision = SerialDisposable()
        waitingFor = LockedState((0, nil))
        super.init(nextSource: { source }, observer: observer)
    }

    @usableFromInline
    func start(trigger: Observable<Trigger>) {
        let notifier = self.notifier
        let subscription = trigger.subscribe(sink: AnyObserver { notifier.on($0) })
        handlerSubscription.setDisposable(subscription ?? Disposables.create())
        start()
    }

    override func sourceFailed(_ error: Swift.Error) {
        guard let failure = error as? Failure else {
            forwardError(error)
            return
        }
        current.disposable = Disposables.create()
        let token = waitingFor.withLock { state -> UInt64 in
            state.next &+= 1
            state.current = state.next
            return state.next
        }
        decision.disposable = notifier.subscribe(AnyObserver { [self] event in
            let isCurrent = waitingFor.withLock { state -> Bool in
                guard state.current == token else { return false }
                state.current = nil
                return true
            }
            guard isCurrent else { return }
            switch event {
            case .next:
                subscribeNext()
            case .error(let error):
                forwardError(error)
            case .completed:
                forwardCompleted()
            }
        })
        if !isDisposed {
            errors.onNext(failure)
        }
    }

    override func disposeResources() {
        super.disposeResources()
        handlerSubscription.dispose()
        decision.dispose()
    }
}
