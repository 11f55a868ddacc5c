extension ObservableType {
    /// Transforms each element with `transform`.
    ///
    /// Completes when the source completes. Fails when the source fails or when
    /// `transform` throws (the source is then disposed).
    ///
    /// ```
    /// source:           --1--2--3--|
    /// map { $0 * 10 }:  --10-20-30-|
    /// ```
    ///
    /// Next to other synchronous operators (`filter`, `take`, `scan`, ...) it runs
    /// in one pipeline with them (see <doc:Architecture>): one object per
    /// subscription for the whole chain, with the same results, errors and
    /// disposal as the separate operators.
    ///
    /// Always inlined: a tiny entry point, which the site parameters would
    /// otherwise keep out of line (about 50 instructions per `map` in the
    /// `build-3-*` rows of `ripple-compare --instructions`).
    @_alwaysEmitIntoClient
    @inline(__always)
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result
    ) -> Observable<Result> {
        appending(MapStep(transform: transform), site: SiteLiteral("map"))
    }

    /// Transforms each element with `transform` and skips the `nil` results.
    ///
    /// Completes when the source completes; fails when the source fails or
    /// `transform` throws. A step of the pipeline, like ``map(_:)``.
    ///
    /// ```
    /// source:                --"1"--"x"--"3"--|
    /// compactMap { Int($0) }:--1---------3----|
    /// ```
    @_alwaysEmitIntoClient
    @inline(__always)
    public func compactMap<Result>(
        _ transform: @escaping (Element) throws -> Result?
    ) -> Observable<Result> {
        appending(CompactMapStep(transform: transform), site: SiteLiteral("compactMap"))
    }
}

/// The step of `map` (see ``PipelineStep``).
@usableFromInline
struct MapStep<Input, Output>: PipelineStep {
    @usableFromInline
    let transform: (Input) throws -> Output

    @_alwaysEmitIntoClient
    init(transform: @escaping (Input) throws -> Output) {
        self.transform = transform
    }

    @_alwaysEmitIntoClient
    func next(_ input: Input, _ state: inout Void) throws -> StepResult<Output> {
        (try transform(input), false)
    }

    #if CompactPipelines
    @_alwaysEmitIntoClient
    func next(_ input: Input, _ state: inout Void, into output: UnsafeMutablePointer<Output>) throws -> StepFlow {
        output.initialize(to: try transform(input))
        return StepFlow(passes: true, ends: false)
    }

    @_alwaysEmitIntoClient
    func complete(_ state: inout Void, into output: UnsafeMutablePointer<Output>) throws -> StepFlow {
        StepFlow(passes: false, ends: true)
    }
    #endif
}

/// The step of `compactMap` and `filterNil`.
@usableFromInline
struct CompactMapStep<Input, Output>: PipelineStep {
    @usableFromInline
    let transform: (Input) throws -> Output?

    @_alwaysEmitIntoClient
    init(transform: @escaping (Input) throws -> Output?) {
        self.transform = transform
    }

    @_alwaysEmitIntoClient
    func next(_ input: Input, _ state: inout Void) throws -> StepResult<Output> {
        guard let output = try transform(input) else { return (nil, false) }
        return (output, false)
    }

    #if CompactPipelines
    @_alwaysEmitIntoClient
    func next(_ input: Input, _ state: inout Void, into output: UnsafeMutablePointer<Output>) throws -> StepFlow {
        guard let element = try transform(input) else { return StepFlow(passes: false, ends: false) }
        output.initialize(to: element)
        return StepFlow(passes: true, ends: false)
    }

    @_alwaysEmitIntoClient
    func complete(_ state: inout Void, into output: UnsafeMutablePointer<Output>) throws -> StepFlow {
        StepFlow(passes: false, ends: true)
    }
    #endif
}
