extension ObservableType {
    /// Combines each element with `obj`, held weakly, through `resultSelector`.
    ///
    /// As in RxSwift, when an element arrives after `obj` has been deallocated,
    /// the result completes (and disposes the source) instead of passing it on.
    /// Completes and fails with the source otherwise.
    ///
    /// ```
    /// source:                                  --1--------2--------3--
    /// withUnretained(self) { ($0.name, $1) }:  --("a",1)--("a",2)--|    (self gone before 3)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out
    ) -> Observable<Out> {
        appending(WithUnretainedStep(object: obj, resultSelector: resultSelector), site: SiteLiteral("withUnretained"))
    }

    /// Pairs each element with `obj`, held weakly; completes when an element
    /// arrives after `obj` has been deallocated.
    ///
    /// ```
    /// source:                --1------2--3--
    /// withUnretained(owner): --(o,1)--(o,2)--|    (owner deallocated before 3)
    /// ```
    ///
    /// ```swift
    /// button.taps
    ///     .withUnretained(self)
    ///     .subscribe(onNext: { owner, _ in owner.save() })
    /// ```
    @_alwaysEmitIntoClient
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Observable<(Object, Element)> {
        withUnretained(obj, resultSelector: { ($0, $1) })
    }
}

/// The step of `withUnretained` (see ``PipelineStep``): `object` is held
/// weakly by the operator (so by every subscription); an element that arrives
/// after it is gone completes the sequence instead.
@usableFromInline
struct WithUnretainedStep<Object: AnyObject, Element, Out>: PipelineStep {
    @usableFromInline
    weak var object: Object?
    @usableFromInline
    let resultSelector: (Object, Element) -> Out

    @_alwaysEmitIntoClient
    init(object: Object, resultSelector: @escaping (Object, Element) -> Out) {
        self.object = object
        self.resultSelector = resultSelector
    }

    @_alwaysEmitIntoClient
    func next(_ element: Element, _ state: inout Void) -> StepResult<Out> {
        guard let object else { return (nil, true) }
        return (resultSelector(object, element), false)
    }
}
