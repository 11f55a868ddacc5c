extension ObservableType {
    /// Passes on the first `count` elements, then completes and disposes the source.
    ///
    /// `take(0)` completes immediately without subscribing to the source. A negative
    /// `count` fails with `RxError.argumentOutOfRange`.
    ///
    /// ```
    /// source:   --1--2--3--4--|
    /// take(2):  --1--(2|)
    /// ```
    @inlinable
    @inline(never)
    public func take(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        guard count > 0 else {
            return count == 0 ? .empty() : .error(RxError.argumentOutOfRange("take(_:)", "count", count, minimum: 0))
        }
        // A function that captures nothing and reads the producer's fields: one
        // allocation per `take` (see ``FieldProducer``).
        return TakeProducer(site: SiteLiteral("take", file, line), source: asObservable(), count: count) { producer, observer in
            let step = unsafeDowncast(producer, to: TakeProducer<Element>.self)
            let sink = TakeCountSink(remaining: step.count, observer: observer)
            sink.setUpstream(step.source.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

/// The observable of `take(_:)`: its source and count as fields, read by a
/// subscription function that captures nothing (see ``FieldProducer``). A
/// ``Producer`` whose closure captured them cost a second allocation, the
/// closure's context, per operator.
@usableFromInline
final class TakeProducer<Element>: FieldProducer<Element>, @unchecked Sendable {
    @usableFromInline
    let source: Observable<Element>
    @usableFromInline
    let count: Int

    @inlinable
    init(
        site: SiteLiteral,
        source: Observable<Element>,
        count: Int,
        _ subscribeHandler: @escaping (FieldProducer<Element>, AnyObserver<Element>) -> SubscriptionBase?
    ) {
        self.source = source
        self.count = count
        super.init(site: site, subscribeHandler)
    }
}

@usableFromInline
final class TakeCountSink<Element>: Sink<Element>, @unchecked Sendable {
    /// Only touched by serialized upstream events.
    @usableFromInline
    @exclusivity(unchecked)
    final var remaining: Int

    @inlinable
    init(remaining: Int, observer: AnyObserver<Element>) {
        self.remaining = remaining
        super.init(observer: observer)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard remaining > 0 else { return }
            remaining -= 1
            forwardNext(element)
            if remaining == 0 {
                forwardCompleted()
            }
        case .error, .completed:
            forwardTerminal(event)
        }
    }
}
