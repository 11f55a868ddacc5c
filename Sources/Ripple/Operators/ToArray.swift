extension ObservableType {
    /// Collects every element and emits them as one array when the source
    /// completes (an empty array for an empty source). Fails with the source.
    ///
    /// ```
    /// source:     --1--2--3--|
    /// toArray():  -----------([1,2,3]|)
    /// ```
    @_alwaysEmitIntoClient
    public func toArray() -> Single<[Element]> {
        let source = asObservable()
        return Single(raw: Producer(site: SiteLiteral("toArray")) { observer in
            let sink = ToArraySink(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        })
    }
}

@usableFromInline
final class ToArraySink<Element>: Sink<[Element]>, @unchecked Sendable {
    /// Only touched by serialized upstream events.
    private var elements: [Element] = []

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            elements.append(element)
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardNext(elements)
            forwardCompleted()
        }
    }
}
