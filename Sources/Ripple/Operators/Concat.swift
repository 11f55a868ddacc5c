import Synchronization

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
    public func concat<Source: ObservableConvertibleType>(_ second: Source, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element>
    where Source.Element == Element {
        let first = asObservable()
        let second = second.asObservable()
        return ConcatObservable(site: SiteLiteral("concat", file, line)) { AnyIterator([first, second].makeIterator()) }
    }

    /// Subscribes to the sequences one after the other, each when the previous
    /// one has completed, and forwards their events. The sequence is iterated
    /// lazily, once per subscriber, so it may be long or even infinite.
    ///
    /// Completes when the last sequence completes (at once if there is none).
    /// Fails as soon as one of them fails.
    ///
    /// ```
    /// a:       --1--|
    /// b:            --2--|   (subscribed when a completes)
    /// concat:  --1----2--|
    /// ```
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        ConcatObservable(site: SiteLiteral("concat", file, line)) { AnyIterator(sequence.makeIterator()) }
    }

    /// Subscribes to the sequences one after the other, each when the previous
    /// one has completed, and forwards their events.
    ///
    /// Completes when the last sequence completes (at once for an empty
    /// collection). Fails as soon as one of them fails.
    ///
    /// ```
    /// a:       --1--|
    /// b:            --2--|   (subscribed when a completes)
    /// concat:  --1----2--|
    /// ```
    public static func concat<Collection: Swift.Collection>(_ collection: Collection, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element>
    where Collection.Element == Observable<Element> {
        ConcatObservable(site: SiteLiteral("concat", file, line)) { AnyIterator(collection.makeIterator()) }
    }

    /// Subscribes to the sequences one after the other, each when the previous
    /// one has completed, and forwards their events.
    ///
    /// Completes when the last sequence completes (at once when there is none).
    /// Fails as soon as one of them fails.
    ///
    /// ```
    /// a:       --1--|
    /// b:            --2--|   (subscribed when a completes)
    /// concat:  --1----2--|
    /// ```
    public static func concat(_ sources: Observable<Element>..., file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        ConcatObservable(site: SiteLiteral("concat", file, line)) { AnyIterator(sources.makeIterator()) }
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
    public func concat(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element.Element> {
        merge(maxConcurrent: 1, file: file, line: line)
    }
}

/// The static `concat` forms and `concat(_ second:)`: the sequences produced by an
/// iterator (made per subscriber), one after the other.
///
/// When the next sequence is itself a `ConcatObservable` (as in
/// `a.concat(b).concat(c)`), its iterator is pushed on a stack instead of being
/// subscribed, so long chains neither nest subscriptions nor recurse.
final class ConcatObservable<Element>: Observable<Element>, @unchecked Sendable {
    let makeIterator: () -> AnyIterator<Observable<Element>>

    init(site: SiteLiteral, makeIterator: @escaping () -> AnyIterator<Observable<Element>>) {
        self.makeIterator = makeIterator
        super.init(site: site)
    }

    override func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        let sink = ConcatSink(iterator: makeIterator(), observer: observer)
        sink.moveNext()
        return sink
    }
}

/// Subscribes to one sequence at a time. Moving to the next sequence is
/// serialized by a work-in-progress counter: a sequence that completes while the
/// previous step is still running (a synchronous source) only bumps the counter,
/// and the running step loops, so a long list of synchronous sources needs
/// constant stack.
final class ConcatSink<Element>: Sink<Element>, @unchecked Sendable {
    /// The iterators still to be drained, innermost last. Touched only by the
    /// thread that holds `pendingSteps` above zero.
    private var iterators: [AnyIterator<Observable<Element>>]
    private let pendingSteps = Atomic<Int>(0)
    private let current = SerialDisposable()

    init(iterator: AnyIterator<Observable<Element>>, observer: AnyObserver<Element>) {
        iterators = [iterator]
        super.init(observer: observer)
    }

    /// Subscribes to the next sequence, or completes if there is none, unless a
    /// step is already running (then that step will do it).
    func moveNext() {
        if pendingSteps.add(1, ordering: .acquiringAndReleasing).oldValue != 0 { return }
        repeat {
            step()
        } while pendingSteps.subtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }

    private func step() {
        if isDisposed {
            iterators.removeAll()
            return
        }
        while let iterator = iterators.last {
            guard let source = iterator.next() else {
                iterators.removeLast()
                continue
            }
            if let nested = source as? ConcatObservable<Element> {
                iterators.append(nested.makeIterator())
                continue
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
            current.disposable = inner
            inner.subscribe(to: source)
            return
        }
        forwardCompleted()
    }

    override func disposeResources() {
        current.dispose()
        // Releases the iterators now, unless a step is running (it will).
        moveNext()
    }
}
