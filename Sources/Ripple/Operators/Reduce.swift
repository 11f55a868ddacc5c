extension ObservableType {
    /// Folds all elements with `accumulator`, starting from `seed`, and emits the
    /// result when the source completes (the seed if the source was empty).
    ///
    /// Fails with the source or when `accumulator` throws.
    ///
    /// ```
    /// source:                 --1--2--3--|
    /// reduce(0) { $0 + $1 }:  -----------(6|)
    /// ```
    @_alwaysEmitIntoClient
    public func reduce<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        reduce(seed, accumulator: accumulator, mapResult: { $0 })
    }

    /// Like ``reduce(_:accumulator:)``, then transforms the final value with
    /// `mapResult`.
    @_alwaysEmitIntoClient
    @inline(never)
    public func reduce<Accumulate, Result>(
        _ seed: Accumulate,
        accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
        mapResult: @escaping (Accumulate) throws -> Result
    ) -> Observable<Result> {
        let source = asObservable()
        return Producer(site: SiteLiteral("reduce")) { observer in
            let sink = ReduceSink(seed: seed, accumulator: accumulator, mapResult: mapResult, observer: observer)
            sink.setUpstream(source.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

@usableFromInline
final class ReduceSink<Element, Accumulate, Result>: Sink<Result>, @unchecked Sendable {
    /// Only touched by serialized upstream events.
    @usableFromInline
    @exclusivity(unchecked)
    final var accumulate: Accumulate
    @usableFromInline
    let accumulator: (Accumulate, Element) throws -> Accumulate
    @usableFromInline
    let mapResult: (Accumulate) throws -> Result

    @_alwaysEmitIntoClient
    init(
        seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
        mapResult: @escaping (Accumulate) throws -> Result, observer: AnyObserver<Result>
    ) {
        self.accumulate = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
        super.init(observer: observer)
    }

    @_alwaysEmitIntoClient
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                accumulate = try accumulator(accumulate, element)
            } catch {
                forwardError(error)
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            do {
                let result = try mapResult(accumulate)
                forwardNext(result)
                forwardCompleted()
            } catch {
                forwardError(error)
            }
        }
    }
}
