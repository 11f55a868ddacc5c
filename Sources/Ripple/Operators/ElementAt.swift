extension ObservableType {
    /// Passes on only the element at zero-based position `index`, then completes
    /// and disposes the source.
    ///
    /// Fails with `RxError.argumentOutOfRange` if the source completes before
    /// reaching `index`, or at once if `index` is negative. Fails with the source.
    ///
    /// ```
    /// source:         --a--b--c--|
    /// element(at: 1): -----(b|)
    /// element(at: 5): -----------#   (argumentOutOfRange)
    /// ```
    public func element(at index: Int, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        guard index >= 0 else { return .error(RxError.argumentOutOfRange("element(at:)", "index", index, minimum: 0)) }
        let source = asObservable()
        return Producer(site: SiteLiteral("element", file, line)) { observer in
            let sink = ElementAtSink(index: index, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

final class ElementAtSink<Element>: Sink<Element>, @unchecked Sendable {
    /// Only touched by serialized upstream events.
    private var remaining: Int
    private let index: Int

    init(index: Int, observer: AnyObserver<Element>) {
        remaining = index
        self.index = index
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if remaining == 0 {
                forwardNext(element)
                forwardCompleted()
            } else {
                remaining -= 1
            }
        case .error:
            forwardTerminal(event)
        case .completed:
            let received = index - remaining
            forwardError(RxError.argumentOutOfRange(RxError.OutOfRangeArgument(
                operation: "element(at:)", name: "index", value: index,
                requirement: "the sequence completed after \(received) element\(received == 1 ? "" : "s")"
            )))
        }
    }
}
