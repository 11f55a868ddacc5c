extension ObservableType {
    /// Combines each element of this sequence with the latest element of `second`
    /// using `resultSelector`. Elements that arrive before `second` has emitted
    /// anything are dropped.
    ///
    /// `second` is subscribed first. Completes when this sequence completes (the
    /// completion of `second` only stops its updates; its last element keeps
    /// being used). Fails as soon as either sequence fails or `resultSelector`
    /// throws; both are then disposed.
    ///
    /// ```
    /// self:            --1-----2--3-----|
    /// second:          ----a--------b|
    /// withLatestFrom:  --------2a-3a----|
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
        _ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType
    ) -> Observable<ResultType> {
        WithLatestFromFactory.make(asObservable(), second.asObservable(), snapshot: { ($0, $1) }, site: SiteLiteral("withLatestFrom"))
            .map({ try resultSelector($0.0, $0.1) })
    }

    /// Emits the latest element of `second` each time this sequence emits.
    /// Elements of this sequence that arrive before `second` has emitted anything
    /// are dropped.
    ///
    /// `second` is subscribed first. Completes when this sequence completes (the
    /// completion of `second` only stops its updates). Fails as soon as either
    /// sequence fails; both are then disposed.
    ///
    /// ```
    /// self:            --1-----2--3-----|
    /// second:          ----a--------b|
    /// withLatestFrom:  --------a--a-----|
    /// ```
    @_alwaysEmitIntoClient
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        WithLatestFromFactory.make(asObservable(), second.asObservable(), snapshot: { $1 }, site: SiteLiteral("withLatestFrom"))
    }
}

/// Builds the withLatestFrom observables. The sink emits snapshots; a result
/// selector, which is user code, is applied by a `map` downstream of the sink:
/// serialized, in order, and outside any lock.
///
/// Visible to callers down to the sink (`@_alwaysEmitIntoClient` methods,
/// `@inlinable` initialisers), so that it is specialised where the operator is
/// applied (unspecialised generic code looks up type metadata at run time on
/// every event).
@usableFromInline
enum WithLatestFromFactory {
    @_alwaysEmitIntoClient
    static func make<First, Second, Snapshot>(
        _ first: Observable<First>, _ second: Observable<Second>, snapshot: @escaping (First, Second) -> Snapshot,
        site: SiteLiteral
    ) -> Observable<Snapshot> {
        Producer(site: site) { observer in
            let sink = WithLatestFromSink(snapshot: snapshot, observer: observer)
            sink.run(first: first, second: second)
            return sink
        }
    }
}

/// `withLatestFrom`'s state: the second source's latest element, and whether a
/// terminal event has been put in the outbox (a tuple: see "State is a tuple"
/// in docs/Architecture.md).
@usableFromInline
typealias WithLatestFromState<Second> = (latest: Second?, terminated: Bool)

@usableFromInline
final class WithLatestFromSink<First, Second, Snapshot>: SerializingSink<WithLatestFromState<Second>, Snapshot>, @unchecked Sendable {
    @usableFromInline let snapshot: (First, Second) -> Snapshot
    @usableFromInline let secondSubscription: SingleAssignmentDisposable

    @_alwaysEmitIntoClient
    init(snapshot: @escaping (First, Second) -> Snapshot, observer: AnyObserver<Snapshot>) {
        secondSubscription = SingleAssignmentDisposable()
        self.snapshot = snapshot
        super.init(state: (latest: nil, terminated: false), observer: observer)
    }

    @_alwaysEmitIntoClient
    func run(first: Observable<First>, second: Observable<Second>) {
        let inner = CombiningSubscription<Second> { [self] event, _ in
            secondOn(event)
        }
        secondSubscription.setDisposable(inner)
        inner.subscribe(to: second)
        if isDisposed { return }
        setUpstream(first.subscribe(sink: AnyObserver { self.firstOn($0) }))
    }

    @_alwaysEmitIntoClient
    func firstOn(_ event: Event<First>) {
        switch event {
        case .next(let element):
            let snapshot = snapshot
            update { state, outbox in
                guard !state.terminated, let latest = state.latest else { return }
                outbox.next(snapshot(element, latest))
            }
        case .error(let error):
            terminate(error: error)
        case .completed:
            terminate(error: nil)
        }
    }

    @_alwaysEmitIntoClient
    func secondOn(_ event: Event<Second>) {
        switch event {
        case .next(let element):
            // The element replaced is released after the lock (its `deinit` is
            // user code, which may send to the first source).
            var element: Second? = element
            update { state, _ in
                swap(&state.latest, &element)
            }
        case .error(let error):
            terminate(error: error)
        case .completed:
            secondSubscription.dispose()
        }
    }

    /// Fails with `error`, or completes if it is `nil`.
    @_alwaysEmitIntoClient
    func terminate(error: Swift.Error?) {
        update { state, outbox in
            guard !state.terminated else { return }
            state.terminated = true
            outbox.terminate(error.map { .error($0) } ?? .completed)
        }
    }

    @inlinable
    override func disposeResources() {
        secondSubscription.dispose()
    }
}
