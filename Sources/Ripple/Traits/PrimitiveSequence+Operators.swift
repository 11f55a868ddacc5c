// The operators every trait (Single, Maybe, Completable) shares. Each one keeps
// the trait: it is the Observable operator of the same name applied to the wrapped
// sequence, whose shape it cannot break.

// MARK: - Creation

extension PrimitiveSequence {
    /// Calls `observableFactory` for each subscriber and subscribes to the sequence
    /// it returns, so that each subscriber gets a fresh one (built at subscription
    /// time, not when `deferred` is called).
    ///
    /// Succeeds, completes or fails as the sequence from the factory does; fails
    /// with the error the factory throws.
    ///
    /// ```swift
    /// let now = Single<Date>.deferred { .just(Date()) }   // the time of each subscription
    /// ```
    ///
    /// ```
    /// subscribed at 200:  factory -> just(200)   --(200|)
    /// subscribed at 300:  factory -> just(300)   --(300|)
    /// ```
    @_alwaysEmitIntoClient
    public static func deferred(
        _ observableFactory: @escaping () throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.deferred { try observableFactory().asObservable() })
    }

    /// Creates a resource for each subscriber, builds the sequence from it, and
    /// disposes the resource when the subscription ends (by its outcome or by
    /// disposal).
    ///
    /// Succeeds, completes or fails as the built sequence does; fails with the
    /// error either factory throws (a resource already created is then disposed).
    ///
    /// ```
    /// resource:         [created ............ disposed]
    /// built sequence:   ---------(1|)
    /// using:            ---------(1|)
    /// ```
    @_alwaysEmitIntoClient
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.using(
            resourceFactory, observableFactory: { try primitiveSequenceFactory($0).asObservable() }
        ))
    }
}

extension PrimitiveSequence where Element: RxAbstractInteger {
    /// Succeeds with `0` once `dueTime` has passed on `scheduler` (a ``Single`` or
    /// a ``Maybe``). Never fails.
    ///
    /// ```
    /// timer(30):  ------------------------------(0|)
    ///             ^ subscribed                  ^ 30 later
    /// ```
    @_alwaysEmitIntoClient
    public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}

// MARK: - Time and scheduling

extension PrimitiveSequence {
    /// Delays the element and the completion by `dueTime` on `scheduler`. An error
    /// is not delayed.
    ///
    /// Succeeds or completes `dueTime` after the source did; fails as soon as the
    /// source fails (a delayed element not delivered yet is dropped).
    ///
    /// ```
    /// source:            --(1|)          --#
    /// delay(3):          -----(1|)       --#
    /// ```
    @_alwaysEmitIntoClient
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
    }

    /// Subscribes to the source only after `dueTime` has passed on `scheduler`.
    ///
    /// Succeeds, completes or fails as the source does once subscribed. Disposing
    /// before `dueTime` cancels the subscription that was scheduled.
    ///
    /// ```
    /// source (cold):              --(1|)
    /// delaySubscription(3):    -----(1|)
    /// ```
    @_alwaysEmitIntoClient
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Delivers the outcome on `scheduler`.
    ///
    /// Succeeds, completes or fails as the source does, on `scheduler`.
    ///
    /// ```
    /// source (thread A):           --(1|)
    /// observe(on: B) (thread B):   ---(1|)
    /// ```
    @_alwaysEmitIntoClient
    public func observe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.observe(on: scheduler))
    }

    /// Deprecated spelling of ``observe(on:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        observe(on: scheduler)
    }

    /// Subscribes to (and disposes) the source on `scheduler`.
    ///
    /// Succeeds, completes or fails as the source does; where the outcome is
    /// delivered depends on the source (use ``observe(on:)`` to choose it).
    ///
    /// ```
    /// subscribe(on: B):   the source's subscription side effects run on B
    /// ```
    @_alwaysEmitIntoClient
    public func subscribe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.subscribe(on: scheduler))
    }

    /// Deprecated spelling of ``subscribe(on:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        subscribe(on: scheduler)
    }

    /// Fails with `RxError.timeout` if the source has not reported its outcome
    /// within `dueTime` of the subscription.
    ///
    /// Succeeds, completes or fails with the source if it does so in time. On
    /// timeout the source is disposed.
    ///
    /// ```
    /// source:                --------(1|)
    /// timeout(5, scheduler): -----#            (RxError.timeout)
    /// ```
    @_alwaysEmitIntoClient
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Like ``timeout(_:scheduler:)``, but when the time passes, disposes the
    /// source and continues with `other` (subscribed at that moment) instead of
    /// failing.
    ///
    /// The outcome is then `other`'s.
    ///
    /// ```
    /// source:                          --------(1|)
    /// other (cold):                         --(2|)
    /// timeout(5, other:, scheduler):   -----------(2|)
    /// ```
    @_alwaysEmitIntoClient
    public func timeout(
        _ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: SchedulerType
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }
}

// MARK: - Errors

extension PrimitiveSequence {
    /// When the source fails, continues with the sequence `handler` returns for
    /// the error.
    ///
    /// Succeeds or completes with the source, or with the replacement; fails with
    /// the replacement's error, or with the error `handler` throws.
    ///
    /// ```
    /// source:                   --#
    /// replacement (cold):         --(2|)
    /// catch { _ in replacement }: ----(2|)
    /// ```
    @_alwaysEmitIntoClient
    public func `catch`(
        _ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.catch { try handler($0).source })
    }

    /// Deprecated spelling of ``catch(_:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(
        _ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        `catch`(handler)
    }

    /// Resubscribes to the source each time it fails, forever.
    ///
    /// Succeeds or completes when an attempt does; never fails.
    ///
    /// ```
    /// source (cold):  --#          (fails twice, then succeeds)
    /// retry():        ------------(1|)
    /// ```
    @_alwaysEmitIntoClient
    public func retry() -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry())
    }

    /// Subscribes to the source up to `maxAttemptCount` times in all, as long as
    /// it fails.
    ///
    /// Succeeds or completes when an attempt does; fails with the last error once
    /// `maxAttemptCount` attempts failed. As in RxSwift, `retry(0)` completes at
    /// once without subscribing (a ``Single`` then reports `RxError.noElements`);
    /// a negative count fails with `RxError.argumentOutOfRange`.
    ///
    /// ```
    /// source (cold):  --#
    /// retry(2):       ----#
    /// ```
    @_alwaysEmitIntoClient
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount))
    }

    /// Resubscribes to the source when the sequence built by `notificationHandler`
    /// sends an element after a failure.
    ///
    /// `notificationHandler` receives the source's errors (those that are
    /// `Error`s; any other error fails the result at once) and is called once per
    /// subscriber. Its next element resubscribes, its completion completes the
    /// result (a ``Single`` then reports `RxError.noElements`), its error fails
    /// it.
    ///
    /// ```
    /// source (cold):                  --#
    /// retry(when: { $0.take(2) }):    ------(1|)   (the third attempt succeeds)
    /// ```
    @_alwaysEmitIntoClient
    public func retry<TriggerObservable: ObservableConvertibleType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Like the typed `retry(when:)`, with the handler receiving every error.
    ///
    /// ```
    /// source (cold):                  --#
    /// retry(when: { $0.take(1) }):    ----(1|)   (the second attempt succeeds)
    /// ```
    @_alwaysEmitIntoClient
    public func retry<TriggerObservable: ObservableConvertibleType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Deprecated spelling of the typed `retry(when:)`.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableConvertibleType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }

    /// Deprecated spelling of `retry(when:)`.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableConvertibleType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }
}

// MARK: - Debugging

extension PrimitiveSequence {
    /// Prints the subscription, the outcome and the disposal of this sequence,
    /// in RxSwift's format (see `ObservableType.debug(_:trimOutput:file:line:function:)`,
    /// which this is).
    ///
    /// The outcome passes through unchanged.
    ///
    /// ```
    /// source:          --(1|)
    /// debug("user"):   --(1|)     prints: subscribed, Event next(1), Event completed, isDisposed
    /// ```
    @_alwaysEmitIntoClient
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}
