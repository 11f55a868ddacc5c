extension ObservableType {
    /// Drops the first `count` elements and passes on the rest.
    ///
    /// Completes and fails with the source. A negative `count` fails with
    /// `RxError.argumentOutOfRange`.
    ///
    /// ```
    /// source:   --1--2--3--4--|
    /// skip(2):  --------3--4--|
    /// ```
    @inlinable
    @inline(never)
    public func skip(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        guard count >= 0 else { return .error(RxError.argumentOutOfRange("skip(_:)", "count", count, minimum: 0)) }
        let source = asObservable()
        return Producer(site: SiteLiteral("skip", file, line)) { observer in
            let sink = SkipCountSink(remaining: count, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

@usableFromInline
final class SkipCountSink<Element>: Sink<Element>, @unchecked Sendable {
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
            if remaining > 0 {
                remaining -= 1
            } else {
                forwardNext(element)
            }
        case .error, .completed:
            forwardTerminal(event)
        }
    }
}
