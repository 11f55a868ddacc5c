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
    @_alwaysEmitIntoClient
    @inline(never)
    public func scan<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        // A step of its own rather than `scan(into:)` with a closure around
        // `accumulator`: that closure's context was one more object per `scan`.
        appending(ScanStep(seed: seed, accumulator: .returning(accumulator)), site: SiteLiteral("scan"))
    }

    /// Like ``scan(_:accumulator:)``, with an accumulator that mutates the
    /// accumulated value in place.
    @_alwaysEmitIntoClient
    @inline(never)
    public func scan<Accumulate>(
        into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void
    ) -> Observable<Accumulate> {
        appending(ScanStep(seed: seed, accumulator: .inPlace(accumulator)), site: SiteLiteral("scan"))
    }
}

/// The step of `scan` (see ``PipelineStep``): its state is the accumulated
/// value, a copy of the seed for each subscription, which the accumulator
/// replaces or changes in place (unchanged when it throws).
@usableFromInline
struct ScanStep<Element, Accumulate>: PipelineStep {
    /// The accumulator in the form it was given: stored as it is, since wrapping
    /// one form in the other took a closure context, an object per `scan`.
    @usableFromInline
    enum Accumulator {
        case returning((Accumulate, Element) throws -> Accumulate)
        case inPlace((inout Accumulate, Element) throws -> Void)
    }

    @usableFromInline
    let seed: Accumulate
    @usableFromInline
    let accumulator: Accumulator

    @_alwaysEmitIntoClient
    init(seed: Accumulate, accumulator: Accumulator) {
        self.seed = seed
        self.accumulator = accumulator
    }

    @_alwaysEmitIntoClient
    func start() -> Accumulate {
        seed
    }

    @_alwaysEmitIntoClient
    func next(_ element: Element, _ accumulate: inout Accumulate) throws -> StepResult<Accumulate> {
        switch accumulator {
        case .returning(let accumulator):
            accumulate = try accumulator(accumulate, element)
        case .inPlace(let accumulator):
            try accumulator(&accumulate, element)
        }
        return (accumulate, false)
    }
}
