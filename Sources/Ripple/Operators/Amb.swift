extension ObservableType {
    /// Mirrors whichever of this sequence and `right` sends an event first (an
    /// element, an error or a completion); the other one is disposed at that
    /// moment.
    ///
    /// Completes or fails when the winner does.
    ///
    /// ```
    /// self:   -----1---2--|
    /// right:  ---a----b----c--|
    /// amb:    ---a----b----c--|      (right was first; self is disposed)
    /// ```
    @_alwaysEmitIntoClient
    public func amb<O2: ObservableType>(_ right: O2) -> Observable<Element> where O2.Element == Element {
        AmbFactory.make([asObservable(), right.asObservable()], site: SiteLiteral("amb"))
    }

    /// Mirrors whichever of the sequences sends an event first (an element, an
    /// error or a completion); all the others are disposed at that moment. The
    /// sources are subscribed in order, and the later ones are not subscribed at
    /// all if an earlier one sends an event while being subscribed.
    ///
    /// Completes or fails when the winner does. With no sources at all, the
    /// result never emits anything (as in RxSwift).
    ///
    /// ```
    /// a:    -----1---2--|
    /// b:    ---x----y--|
    /// c:    ------------5--|
    /// amb:  ---x----y--|
    /// ```
    @_alwaysEmitIntoClient
    public static func amb<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        AmbFactory.make(Array(sequence), site: SiteLiteral("amb"))
    }
}

@usableFromInline
enum AmbFactory {
    @_alwaysEmitIntoClient
    @usableFromInline
    static func make<Element>(_ sources: [Observable<Element>], site: SiteLiteral) -> Observable<Element> {
        if sources.isEmpty {
            return .never()
        }
        return Producer(site: site) { observer in
            let sink = AmbSink(observer: observer)
            sink.run(sources: sources)
            return sink
        }
    }
}

/// The engine of `amb`. The race is decided by one compare-and-swap on `winner`;
/// after that only the winner's events pass, and they are serialized by the
/// winner's own contract, so no lock sits on the event path. The losers'
/// subscriptions are removed from `subscriptions` (and so disposed) by the
/// thread that won.
@usableFromInline
final class AmbSink<Element>: Sink<Element>, @unchecked Sendable {
    /// The index of the winning source, or -1 while undecided.
    @exclusivity(unchecked) private final var winner = AtomicCell<Int>(-1)
    private let subscriptions = CompositeDisposable()
    /// The key of each source's subscription in `subscriptions`. Written in
    /// `run(sources:)` before any source is subscribed, only read afterwards.
    private var keys: [CompositeDisposable.DisposeKey?] = []

    @usableFromInline
    func run(sources: [Observable<Element>]) {
        let inners = sources.indices.map { index in
            CombiningSubscription<Element> { [self] event, _ in
                on(event, from: index)
            }
        }
        keys = inners.map { subscriptions.insert($0) }
        for (index, source) in sources.enumerated() {
            // A source that won while being subscribed has disposed the others.
            if isDisposed || AtomicCell.load(&winner, ordering: .acquiring) != -1 { return }
            inners[index].subscribe(to: source)
        }
    }

    private func on(_ event: Event<Element>, from index: Int) {
        var current = AtomicCell.load(&winner, ordering: .acquiring)
        if current == -1 {
            let (exchanged, original) = AtomicCell.compareExchange(&winner, expected: -1, desired: index, ordering: .acquiringAndReleasing)
            if exchanged {
                current = index
                for (loser, key) in keys.enumerated() where loser != index {
                    if let key {
                        subscriptions.remove(for: key)
                    }
                }
            } else {
                current = original
            }
        }
        guard current == index else { return }
        forward(event)
    }

    override func disposeResources() {
        subscriptions.dispose()
    }
}
