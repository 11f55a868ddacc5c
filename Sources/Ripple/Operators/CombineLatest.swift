extension ObservableType {
    /// Combines the latest element of every source with `resultSelector` each time
    /// any source emits, once every source has emitted at least once.
    ///
    /// Completes when every source has completed, or when a source emits while
    /// every other source has completed and one of them never emitted (no
    /// combination can ever be produced), as in RxSwift; a source that completes
    /// without emitting does not by itself complete the result. An empty
    /// collection gives `resultSelector([])` and completes at once. Fails as soon
    /// as a source fails or `resultSelector` throws; every source is then
    /// disposed.
    ///
    /// ```
    /// a:              --1-----2--------|
    /// b:              -----x-----y--|
    /// combineLatest:  -----1x-2x-2y----|   (resultSelector: { "\($0[0])\($0[1])" })
    /// ```
    @_alwaysEmitIntoClient
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        CombineLatestFactory.collection(collection.map { $0.asObservable() }, site: SiteLiteral("combineLatest"))
            .map(resultSelector)
    }

    /// Emits an array of the latest element of every source (in the collection's
    /// order) each time any source emits, once every source has emitted at least
    /// once.
    ///
    /// Completes when every source has completed, or when a source emits while
    /// every other source has completed and one of them never emitted, as in
    /// RxSwift; a source that completes without emitting does not by itself
    /// complete the result. An empty collection gives `[]` and completes at once.
    /// Fails as soon as a source fails.
    ///
    /// ```
    /// a:              --1-----2--------|
    /// b:              -----x-----y--|
    /// combineLatest:  -----A--B--C-----|   A = [1, x], B = [2, x], C = [2, y]
    /// ```
    @_alwaysEmitIntoClient
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        CombineLatestFactory.collection(collection.map { $0.asObservable() }, site: SiteLiteral("combineLatest"))
    }
}

/// Builds the combineLatest observables. The sink emits snapshots of the latest
/// values; a result selector, which is user code, is applied by a `map`
/// downstream of the sink: serialized, in order, and outside any lock.
///
/// The factories (and the public entry points) are `@_alwaysEmitIntoClient`, so the sink is
/// specialised for the caller's element types: unspecialised, every event paid
/// for run-time lookups of the tuple and optional type metadata.
@usableFromInline
enum CombineLatestFactory {
    @_alwaysEmitIntoClient
    static func collection<Element>(_ sources: [Observable<Element>], site: SiteLiteral = .none) -> Observable<[Element]> {
        if sources.isEmpty {
            return .just([])
        }
        let count = sources.count
        return Producer(site: site) { observer in
            let sink = CombineLatestSink<[Element?], [Element]>(
                arity: count, values: Array(repeating: nil, count: count),
                snapshot: { $0.map { $0! } }, observer: observer)
            for (index, source) in sources.enumerated() {
                sink.subscribe(source, index: index) { swap(&$0[index], &$1) }
            }
            return sink
        }
    }
}

/// `combineLatest`'s state: the latest values, which sources have one and how
/// many, which sources are done and how many, and whether a terminal event has
/// been put in the outbox (a tuple: see "State is a tuple" in
/// docs/Architecture.md).
@usableFromInline
typealias CombineLatestState<Values> = (
    values: Values, hasValue: [Bool], isDone: [Bool], valueCount: Int, doneCount: Int, terminated: Bool
)

/// The engine of every `combineLatest`: keeps the latest value of each source in
/// `Values` (a tuple of optionals, or an array for the collection forms) and
/// emits a `Snapshot` of them.
///
/// Completion follows RxSwift, the same for the fixed arities and the collection
/// forms: when every source has completed, or when a source emits while all the
/// others have completed without every source having a value. A source that
/// completes without emitting does not by itself complete the result.
///
/// An element costs one lock round trip to record it and decide the snapshot,
/// plus one to end the delivery (see ``SerializingSink/update(_:)``).
@usableFromInline
final class CombineLatestSink<Values, Snapshot>: SerializingSink<CombineLatestState<Values>, Snapshot>, @unchecked Sendable {
    @usableFromInline let arity: Int
    @usableFromInline let snapshot: (Values) -> Snapshot
    @usableFromInline let subscriptions: CompositeDisposable

    @_alwaysEmitIntoClient
    init(arity: Int, values: Values, snapshot: @escaping (Values) -> Snapshot, observer: AnyObserver<Snapshot>) {
        subscriptions = CompositeDisposable()
        self.arity = arity
        self.snapshot = snapshot
        super.init(
            state: (
                values: values, hasValue: Array(repeating: false, count: arity),
                isDone: Array(repeating: false, count: arity), valueCount: 0, doneCount: 0, terminated: false
            ),
            observer: observer)
    }

    /// Subscribes to the source at `index`; `store` swaps its element with the
    /// one in the values, so that the element replaced is released after the
    /// lock (its `deinit` is user code, which may send to another source).
    @_alwaysEmitIntoClient
    func subscribe<Source>(_ source: Observable<Source>, index: Int, store: @escaping (inout Values, inout Source?) -> Void) {
        let inner = CombiningSubscription<Source> { [self] event, inner in
            switch event {
            case .next(let element):
                next(element, index: index, store: store)
            case .error(let error):
                fail(error)
            case .completed:
                complete(index: index, from: inner)
            }
        }
        guard let key = subscriptions.insert(inner) else { return }
        inner.key = key
        inner.subscribe(to: source)
    }

    @_alwaysEmitIntoClient
    func next<Source>(_ element: Source, index: Int, store: (inout Values, inout Source?) -> Void) {
        let arity = arity
        // After the update, the element replaced (released here, after the lock).
        var element: Source? = element
        update { state, outbox in
            guard !state.terminated else { return }
            store(&state.values, &element)
            if !state.hasValue[index] {
                state.hasValue[index] = true
                state.valueCount += 1
            }
            if state.valueCount == arity {
                outbox.next(snapshot(state.values))
            } else if state.doneCount - (state.isDone[index] ? 1 : 0) == arity - 1 {
                // Every other source has completed and one of them never
                // emitted: no combination can ever be produced.
                state.terminated = true
                outbox.terminate(.completed)
            }
        }
    }

    @_alwaysEmitIntoClient
    func fail(_ error: Swift.Error) {
        update { state, outbox in
            guard !state.terminated else { return }
            state.terminated = true
            outbox.terminate(.error(error))
        }
    }

    @_alwaysEmitIntoClient
    func complete<Source>(index: Int, from inner: CombiningSubscription<Source>) {
        let arity = arity
        update { state, outbox in
            guard !state.terminated && !state.isDone[index] else { return }
            state.isDone[index] = true
            state.doneCount += 1
            if state.doneCount == arity {
                state.terminated = true
                outbox.terminate(.completed)
            }
        }
        if let key = inner.key {
            subscriptions.remove(for: key)
        }
    }

    @inlinable
    override func disposeResources() {
        subscriptions.dispose()
    }
}
