extension ObservableType {
    /// Combines the sources' elements pairwise by position: the first element of
    /// every source, then the second of every source, and so on, with
    /// `resultSelector`. Elements wait in an unbounded buffer per source until
    /// every source has one.
    ///
    /// Completes when every source has completed, or when a source emits while
    /// every other source has completed without a combination being possible (at
    /// once for an empty collection), as RxSwift's collection `zip` does (its
    /// fixed-arity `zip(_:_:)` waits for every source). Fails as soon as a source
    /// fails or `resultSelector` throws; every source is then disposed.
    ///
    /// ```
    /// a:    --1-----2--3--|
    /// b:    -----x--------y--z--|
    /// zip:  -----1x-------2y-3z-|   (resultSelector: { "\($0[0])\($0[1])" })
    /// ```
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        ZipFactory.collection(collection.map { $0.asObservable() }, site: SiteLiteral("zip"))
            .map(resultSelector)
    }

    /// Emits arrays of the sources' elements combined pairwise by position (in the
    /// collection's order). Elements wait in an unbounded buffer per source until
    /// every source has one.
    ///
    /// Completes when every source has completed, or when a source emits while
    /// every other source has completed without a combination being possible (at
    /// once for an empty collection), as RxSwift's collection `zip` does (its
    /// fixed-arity `zip(_:_:)` waits for every source). Fails as soon as a source
    /// fails.
    ///
    /// ```
    /// a:    --1-----2--3--|
    /// b:    -----x--------y--z--|
    /// zip:  -----A--------B--C--|   A = [1, x], B = [2, y], C = [3, z]
    /// ```
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        ZipFactory.collection(collection.map { $0.asObservable() }, site: SiteLiteral("zip"))
    }
}

/// Builds the zip observables. The sink emits the combined elements; a result
/// selector, which is user code, is applied by a `map` downstream of the sink:
/// serialized, in order, and outside any lock.
///
/// Visible to callers down to the sink (`@_alwaysEmitIntoClient` methods,
/// `@inlinable` initialisers), so that it is specialised where the operator is
/// applied.
@usableFromInline
enum ZipFactory {
    @_alwaysEmitIntoClient
    static func collection<Element>(_ sources: [Observable<Element>], site: SiteLiteral = .none) -> Observable<[Element]> {
        if sources.isEmpty {
            return .empty()
        }
        let count = sources.count
        return Producer(site: site) { observer in
            let sink = ZipSink<[RingBuffer<Element>], [Element]>(
                arity: count, buffers: Array(repeating: RingBuffer(), count: count), rule: .collection,
                dequeue: { buffers in
                    var result: [Element] = []
                    result.reserveCapacity(buffers.count)
                    for index in buffers.indices {
                        result.append(buffers[index].popFirst()!)
                    }
                    return result
                },
                observer: observer)
            for (index, source) in sources.enumerated() {
                sink.subscribe(source, index: index) { $0[index].append($1) }
            }
            return sink
        }
    }
}

/// `zip`'s state: the buffers, the number of elements buffered per source
/// (`counts`), the number of sources with at least one buffered element
/// (`nonEmpty`), which sources are done and how many, and whether a terminal
/// event has been put in the outbox (a tuple: see "State is a tuple" in
/// docs/Architecture.md).
@usableFromInline
typealias ZipState<Buffers> = (
    buffers: Buffers, counts: [Int], nonEmpty: Int, isDone: [Bool], doneCount: Int, terminated: Bool
)

/// The engine of every `zip`: one FIFO buffer per source in `Buffers` (a tuple of
/// ring buffers, or an array for the collection forms); when every buffer has an
/// element, the front elements are dequeued together as a `Snapshot`.
///
/// Completion follows RxSwift 6, whose two implementations differ: the fixed
/// arities (`ZipSink`) complete only when every source has completed, even when
/// a finished source's buffer is empty and nothing can be combined any more; the
/// collection forms (`ZipCollectionTypeSink`) also complete when a source emits
/// while every other source has completed and some buffer is empty.
@usableFromInline
final class ZipSink<Buffers, Snapshot>: SerializingSink<ZipState<Buffers>, Snapshot>, @unchecked Sendable {
    @usableFromInline
    enum CompletionRule: Equatable {
        /// RxSwift's `zip(_:_:...)`: when every source has completed.
        case arity
        /// RxSwift's `zip(_ collection:)`: also when a source emits while all the
        /// others have completed and no combination can be produced.
        case collection
    }

    @usableFromInline let arity: Int
    @usableFromInline let rule: CompletionRule
    @usableFromInline let dequeue: (inout Buffers) -> Snapshot
    @usableFromInline let subscriptions: CompositeDisposable

    @_alwaysEmitIntoClient
    init(
        arity: Int, buffers: Buffers, rule: CompletionRule, dequeue: @escaping (inout Buffers) -> Snapshot,
        observer: AnyObserver<Snapshot>
    ) {
        subscriptions = CompositeDisposable()
        self.arity = arity
        self.rule = rule
        self.dequeue = dequeue
        super.init(
            state: (
                buffers: buffers, counts: Array(repeating: 0, count: arity), nonEmpty: 0,
                isDone: Array(repeating: false, count: arity), doneCount: 0, terminated: false
            ),
            observer: observer)
    }

    /// Subscribes to the source at `index`; `store` appends its element to its
    /// buffer.
    @_alwaysEmitIntoClient
    func subscribe<Source>(_ source: Observable<Source>, index: Int, store: @escaping (inout Buffers, Source) -> Void) {
        let inner = CombiningSubscription<Source> { [self] event, inner in
            on(event, index: index, from: inner, store: store)
        }
        guard let key = subscriptions.insert(inner) else { return }
        inner.key = key
        inner.subscribe(to: source)
    }

    @_alwaysEmitIntoClient
    func on<Source>(
        _ event: Event<Source>, index: Int, from inner: CombiningSubscription<Source>, store: (inout Buffers, Source) -> Void
    ) {
        switch event {
        case .next(let element):
            let arity = arity
            let rule = rule
            let dequeue = dequeue
            update { state, outbox in
                guard !state.terminated else { return }
                store(&state.buffers, element)
                state.counts[index] += 1
                if state.counts[index] == 1 {
                    state.nonEmpty += 1
                }
                if state.nonEmpty == arity {
                    outbox.next(dequeue(&state.buffers))
                    state.nonEmpty = 0
                    for source in 0..<arity {
                        state.counts[source] -= 1
                        if state.counts[source] > 0 {
                            state.nonEmpty += 1
                        }
                    }
                } else if rule == .collection && state.doneCount - (state.isDone[index] ? 1 : 0) == arity - 1 {
                    // Every other source has completed and one of them has nothing
                    // left: no combination can ever be produced.
                    state.terminated = true
                    outbox.terminate(.completed)
                }
            }
        case .error(let error):
            // The cold paths are calls (Architecture.md, "Several upstreams").
            updateOutOfLine { state, outbox in
                guard !state.terminated else { return }
                state.terminated = true
                outbox.terminate(.error(error))
            }
        case .completed:
            let arity = arity
            updateOutOfLine { state, outbox in
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
    }

    @inlinable
    override func disposeResources() {
        subscriptions.dispose()
    }
}
