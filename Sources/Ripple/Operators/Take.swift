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
    public func take(_ count: Int) -> Observable<Element> {
        guard count > 0 else {
            return count == 0 ? .empty() : .error(RxError.argumentOutOfRange("take(_:)", "count", count, minimum: 0))
        }
        let source = asObservable()
        return Producer { observer in
            let sink = TakeCountSink(remaining: count, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
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
