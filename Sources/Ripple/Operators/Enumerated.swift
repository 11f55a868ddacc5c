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
    @_alwaysEmitIntoClient
    @inline(never)
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        appending(EnumeratedStep(), site: SiteLiteral("enumerated"))
    }
}

/// The step of `enumerated` (see ``PipelineStep``): its state is the next index.
@usableFromInline
struct EnumeratedStep<Element>: PipelineStep {
    @_alwaysEmitIntoClient
    init() {}

    @_alwaysEmitIntoClient
    func start() -> Int {
        0
    }

    @_alwaysEmitIntoClient
    func next(_ element: Element, _ index: inout Int) throws -> StepResult<(index: Int, element: Element)> {
        let current = index
        let (next, overflow) = current.addingReportingOverflow(1)
        if overflow {
            throw RxError.overflow
        }
        index = next
        return ((current, element), false)
    }
}
