extension ObservableType {
    /// Pairs each element with its zero-based position.
    ///
    /// Completes and fails with the source; fails with `RxError.overflow` if the
    /// index would overflow `Int`.
    ///
    /// ```
    /// source:        --a--b--c--|
    /// enumerated():  --(0,a)--(1,b)--(2,c)--|
    /// ```
    @inlinable
    @inline(never)
    public func enumerated(file: StaticString = #fileID, line: UInt = #line) -> Observable<(index: Int, element: Element)> {
        let source = asObservable()
        return Producer(site: SiteLiteral("enumerated", file, line)) { observer in
            let sink = EnumeratedSink(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

@usableFromInline
final class EnumeratedSink<Element>: Sink<(index: Int, element: Element)>, @unchecked Sendable {
    /// Only touched by serialized upstream events.
    @usableFromInline
    @exclusivity(unchecked)
    final var index = 0

    @inlinable
    override init(observer: AnyObserver<(index: Int, element: Element)>) {
        super.init(observer: observer)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            let current = index
            let (next, overflow) = current.addingReportingOverflow(1)
            if overflow {
                forwardError(RxError.overflow)
                return
            }
            index = next
            forwardNext((current, element))
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}
