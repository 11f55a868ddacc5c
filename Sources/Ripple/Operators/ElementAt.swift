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
    @_alwaysEmitIntoClient
    @inline(never)
    public func element(at index: Int) -> Observable<Element> {
        guard index >= 0 else { return .error(RxError.argumentOutOfRange("element(at:)", "index", index, minimum: 0)) }
        return appending(ElementAtStep(index: index), site: SiteLiteral("element"))
    }
}

/// The step of `element(at:)` (see ``PipelineStep``): its state is how many
/// elements are still to be dropped.
@usableFromInline
struct ElementAtStep<Element>: PipelineStep {
    @usableFromInline
    let index: Int

    @_alwaysEmitIntoClient
    init(index: Int) {
        self.index = index
    }

    @_alwaysEmitIntoClient
    func start() -> Int {
        index
    }

    @_alwaysEmitIntoClient
    func next(_ element: Element, _ remaining: inout Int) -> StepResult<Element> {
        if remaining == 0 {
            return (element, true)
        }
        remaining -= 1
        return (nil, false)
    }

    @_alwaysEmitIntoClient
    func complete(_ remaining: inout Int) throws -> StepResult<Element> {
        let received = index - remaining
        throw RxError.argumentOutOfRange(RxError.OutOfRangeArgument(
            operation: "element(at:)", name: "index", value: index,
            requirement: "the sequence completed after \(received) element\(received == 1 ? "" : "s")"
        ))
    }
}
