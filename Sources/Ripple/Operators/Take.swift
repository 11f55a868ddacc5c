extension ObservableType {
    /// Passes on the first `count` elements, then completes and disposes the source.
    ///
    /// `take(0)` completes immediately without subscribing to the source. A negative
    /// `count` fails with `RxError.argumentOutOfRange`.
    ///
    /// ```
    /// source:   --1--2--3--4--|
    /// take(2):  --1--(2|)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func take(_ count: Int) -> Observable<Element> {
        guard count > 0 else {
            return count == 0 ? .empty() : .error(RxError.argumentOutOfRange("take(_:)", "count", count, minimum: 0))
        }
        return appending(TakeStep(count: count), site: SiteLiteral("take"))
    }
}

/// The step of `take(_:)` (see ``PipelineStep``): its state is the number of
/// elements still to pass on.
@usableFromInline
struct TakeStep<Element>: PipelineStep {
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
        // A re-entrant element, sent while the last one is being delivered.
        guard remaining > 0 else { return (nil, false) }
        remaining -= 1
        return (element, remaining == 0)
    }
}
