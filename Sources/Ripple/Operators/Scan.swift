extension ObservableType {
    /// Emits each intermediate result of folding the elements with `accumulator`,
    /// starting from `seed` (each subscriber starts from its own copy).
    ///
    /// Completes with the source; fails with the source or when `accumulator`
    /// throws.
    ///
    /// ```
    /// source:               --1--2--3--|
    /// scan(0) { $0 + $1 }:  --1--3--6--|
    /// ```
    @inlinable
    @inline(never)
    public func scan<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Accumulate> {
        scan(into: seed, accumulator: { accumulate, element in
            accumulate = try accumulator(accumulate, element)
        }, file: file, line: line)
    }

    /// Like ``scan(_:accumulator:file:line:)``, with an accumulator that mutates the
    /// accumulated value in place.
    @inlinable
    @inline(never)
    public func scan<Accumulate>(
        into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Accumulate> {
        let source = asObservable()
        return Producer(site: SiteLiteral("scan", file, line)) { observer in
            let sink = ScanSink(seed: seed, accumulator: accumulator, observer: observer)
            sink.setUpstream(source.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

@usableFromInline
final class ScanSink<Element, Accumulate>: Sink<Accumulate>, @unchecked Sendable {
    /// Only touched by serialized upstream events.
    @usableFromInline
    @exclusivity(unchecked)
    final var accumulate: Accumulate
    @usableFromInline
    let accumulator: (inout Accumulate, Element) throws -> Void

    @inlinable
    init(seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void, observer: AnyObserver<Accumulate>) {
        self.accumulate = seed
        self.accumulator = accumulator
        super.init(observer: observer)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                try accumulator(&accumulate, element)
                forwardNext(accumulate)
            } catch {
                forwardError(error)
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}
