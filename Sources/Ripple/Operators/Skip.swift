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
    @_alwaysEmitIntoClient
    @inline(never)
    public func skip(_ count: Int) -> Observable<Element> {
        guard count >= 0 else { return .error(RxError.argumentOutOfRange("skip(_:)", "count", count, minimum: 0)) }
        return appending(SkipStep(count: count), site: SiteLiteral("skip"))
    }
}

/// The step of `skip(_:)` (see ``PipelineStep``): its state is the number of
/// elements still to drop.
@usableFromInline
struct SkipStep<Element>: PipelineStep {
    @usableFromInline
    let count: Int

    @_alwaysEmitIntoClient
    init(count: Int) {
        self.count = count
    }

    @_alwaysEmitIntoClient
    func start() -> Int {
        count
    }

    @_alwaysEmitIntoClient
    func next(_ element: Element, _ remaining: inout Int) -> StepResult<Element> {
        guard remaining > 0 else { return (element, false) }
        remaining -= 1
        return (nil, false)
    }
}
