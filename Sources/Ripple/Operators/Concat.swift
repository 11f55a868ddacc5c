extension ObservableType {
    /// Forwards this sequence's elements, then, once it has completed, subscribes
    /// to `second` and forwards its events.
    ///
    /// Completes when `second` completes. Fails as soon as either sequence fails.
    ///
    /// ```
    /// self:           --1--2--|
    /// second:                 --3--|
    /// concat(second): --1--2----3--|
    /// ```
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
    where Source.Element == Element {
        concat(second.asObservable(), site: SiteLiteral("concat"))
    }

    /// ``concat(_:)`` under the name of the operator that applies it (`andThen`).
    @usableFromInline
    func concat(_ second: Observable<Element>, site: SiteLiteral) -> Observable<Element> {
        let first = asObservable()
        return ConcatObservable(site: site) { pending in
            pending.append(.source(second))
            pending.append(.source(first))
        }
    }

    /// Subscribes to the sequences one after the other, each when the previous
    /// one has completed, and forwards their events. The sequence is iterated
    /// lazily, once per subscriber, so it may be long or even infinite; its
    /// iterator (and what it holds) is kept until it is exhausted or the
    /// subscription ends.
    ///
    /// Completes when the last sequence completes (at once if there is none).
    /// Fails as soon as one of them fails.
    ///
    /// ```
    /// a:       --1--|
    /// b:            --2--|   (subscribed when a completes)
    /// concat:  --1----2--|
    /// ```
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        ConcatObservable(site: SiteLiteral("concat")) { pending in
            pending.append(.iterator(AnyIterator(sequence.makeIterator())))
        }
    }

    /// Subscribes to the sequences one after the other, each when the previous
    /// one has completed, and forwards their events. A running subscription
    /// keeps only the sequences it has not finished: each one is released as
    /// soon as the next one is subscribed.
    ///
    /// Completes when the last sequence completes (at once for an empty
    /// collection). Fails as soon as one of them fails.
    ///
    /// ```
    /// a:       --1--|
    /// b:            --2--|   (subscribed when a completes)
    /// concat:  --1----2--|
    /// ```
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element>
    where Collection.Element == Observable<Element> {
        ConcatObservable(site: SiteLiteral("concat")) { pending in
            pending.append(contentsOf: collection.reversed().lazy.map { .source($0) })
        }
    }

    /// Subscribes to the sequences one after the other, each when the previous
    /// one has completed, and forwards their events. A running subscription
    /// keeps only the sequences it has not finished.
    ///
    /// Completes when the last sequence completes (at once when there is none).
    /// Fails as soon as one of them fails.
    ///
    /// ```
    /// a:       --1--|
    /// b:            --2--|   (subscribed when a completes)
    /// concat:  --1----2--|
    /// ```
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        ConcatObservable(site: SiteLiteral("concat")) { pending in
            pending.append(contentsOf: sources.reversed().lazy.map { .source($0) })
        }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Subscribes to the inner sequences one at a time, in arrival order, each
    /// when the previous one has completed; inner sequences that arrive meanwhile
    /// wait. The same as `merge(maxConcurrent: 1)`.
    ///
    /// Completes when the outer sequence and every inner sequence have completed.
    /// Fails as soon as the outer sequence or an inner sequence fails.
    ///
    /// ```
    /// outer:     --a--b--------------|
    /// a:           --1---2|
    /// b:                  --3--4|   (subscribed when a completes)
    /// concat():  ----1---2--3--4-----|
    /// ```
    @_alwaysEmitIntoClient
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

/// The static `concat` forms and `concat(_ second:)`: sequences one after the
/// other.
///
/// Each subscription keeps its own stack of what is still to run (``ConcatPending``),
/// filled by `pushSources` with the first sequence on top. A sequence is popped
/// when it is subscribed, so a running concat holds only the sequences it has
/// not finished (RxSwift's `andThen` and `concat` let a finished source go too:
/// an `andThen` whose first `Completable` completed must not keep what that
/// `Completable` captured).
///
/// When the next sequence is itself a `ConcatObservable` (as in
/// `a.concat(b).concat(c)`), its sources are pushed on the stack instead of being
/// subscribed, so long chains neither nest subscriptions nor recurse.
@usableFromInline
final class ConcatObservable<Element>: Observable<Element>, @unchecked Sendable {
    let pushSources: (inout [ConcatPending<Element>]) -> Void

    @usableFromInline
    init(site: SiteLiteral, pushSources: @escaping (inout [ConcatPending<Element>]) -> Void) {
        self.pushSources = pushSources
        super.init(site: site)
    }

    override func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        var pending: [ConcatPending<Element>] = []
        pushSources(&pending)
        let sink = ConcatSink(pending: pending, observer: observer)
        sink.moveNext()
        return sink
    }
}

/// An entry of a concat subscription's stack: a sequence still to run, or a lazily
/// iterated sequence of them (kept on the stack until its iterator is exhausted).
@usableFromInline
enum ConcatPending<Element> {
    case source(Observable<Element>)
    case iterator(AnyIterator<Observable<Element>>)
}

/// Subscribes to one sequence at a time. Moving to the next sequence is
/// serialized by a work-in-progress counter: a sequence that completes while the
/// previous step is still running (a synchronous source) only bumps the counter,
/// and the running step loops, so a long list of synchronous sources needs
/// constant stack.
final class ConcatSink<Element>: Sink<Element>, @unchecked Sendable {
    /// What is still to run, the next sequence last. Touched only by the thread
    /// that holds `pendingSteps` above zero.
    private var pending: [ConcatPending<Element>]
    @exclusivity(unchecked) private final var pendingSteps = AtomicCell<Int>(0)
    private let current = SerialDisposable()

    init(pending: [ConcatPending<Element>], observer: AnyObserver<Element>) {
        self.pending = pending
        super.init(observer: observer)
    }

    /// Subscribes to the next sequence, or completes if there is none, unless a
    /// step is already running (then that step will do it).
    func moveNext() {
        if AtomicCell.add(&pendingSteps, 1, ordering: .acquiringAndReleasing).oldValue != 0 { return }
        repeat {
            step()
        } while AtomicCell.subtract(&pendingSteps, 1, ordering: .acquiringAndReleasing).newValue != 0
    }

    /// The next sequence to subscribe to, taken off the stack (nested concats
    /// and iterators are unfolded on the way), or `nil` when none is left.
    private func popNext() -> Observable<Element>? {
        while let entry = pending.popLast() {
            let source: Observable<Element>
            switch entry {
            case .source(let next):
                source = next
            case .iterator(let iterator):
                guard let next = iterator.next() else { continue }
                pending.append(entry)
                source = next
            }
            if let nested = source as? ConcatObservable<Element> {
                nested.pushSources(&pending)
                continue
            }
            return source
        }
        return nil
    }

    private func step() {
        if isDisposed {
            pending.removeAll()
            return
        }
        guard let source = popNext() else {
            forwardCompleted()
            return
        }
        let inner = CombiningSubscription<Element> { [self] event, _ in
            switch event {
            case .next(let element):
                forwardNext(element)
            case .error:
                forwardTerminal(event)
            case .completed:
                moveNext()
            }
        }
        // Replacing the finished sequence's subscription releases it.
        current.disposable = inner
        inner.subscribe(to: source)
    }

    override func disposeResources() {
        current.dispose()
        // Releases what is still pending now, unless a step is running (it will).
        moveNext()
    }
}
