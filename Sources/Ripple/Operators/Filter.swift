extension ObservableType {
    /// Passes on only the elements for which `predicate` returns `true`.
    ///
    /// Completes when the source completes; fails when the source fails or
    /// `predicate` throws.
    ///
    /// ```
    /// source:               --1--2--3--4--|
    /// filter { $0.isEven }: -----2-----4--|
    /// ```
    ///
    /// Next to other synchronous operators (`map`, `take`, `scan`, ...) it runs in
    /// one pipeline with them (see <doc:Architecture>), with the same results,
    /// errors and disposal as the separate operators; right after one of them it
    /// runs in that operator's stage, in the same call per element.
    ///
    /// Always inlined, like `map`.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func filter(
        _ predicate: @escaping (Element) throws -> Bool
    ) -> Observable<Element> {
        let source = asObservable()
        let site = SiteLiteral("filter")
        // After another synchronous operator, the predicate joins its stage: a
        // new stage, nothing that exists is changed (a weak or unowned reference,
        // which uniqueness checks do not see, may still reach the old one).
        if source.kind == .stage {
            let stage = source.asPipeline
            if let joined = stage.appendingPredicate(stage, predicate, site) {
                return joined
            }
        }
        return source.appending(FilterStep(predicate: predicate), site: site)
    }

    /// Drops every element and passes on only the terminal event.
    ///
    /// ```
    /// source:           --1--2--3--|
    /// ignoreElements(): -----------|
    /// ```
    @_alwaysEmitIntoClient
    public func ignoreElements() -> Observable<Never> {
        let source = asObservable()
        return Producer(site: SiteLiteral("ignoreElements")) { observer in
            let sink = ForwardingSink(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { event in
                switch event {
                case .next: break
                case .error(let error): sink.forwardError(error)
                case .completed: sink.forwardCompleted()
                }
            }))
            return sink
        }
    }
}

/// A type that holds an optional value: `Optional` itself. It lets
/// ``ObservableType/filterNil()`` be declared for sequences of optionals.
///
/// Named so that it does not collide with the `OptionalType` protocols of
/// RxOptional and RxSwiftExt, which RxSwift projects often use: with a protocol
/// of that name in Ripple, every unqualified `OptionalType` in a file importing
/// both would be ambiguous.
public protocol OptionalConvertible {
    /// The wrapped type.
    associatedtype Wrapped
    /// The value as an `Optional`.
    var optional: Wrapped? { get }
}

extension Optional: OptionalConvertible {
    /// `self`.
    @_alwaysEmitIntoClient
    public var optional: Wrapped? { self }
}

extension ObservableType where Element: OptionalConvertible {
    /// Unwraps the elements and skips the `nil`s.
    ///
    /// ```
    /// source:      --1--nil--3--|
    /// filterNil(): --1-------3--|
    /// ```
    ///
    /// RxSwift itself has no `filterNil()`; RxOptional and RxSwiftExt do. Ripple's
    /// is disfavoured, so in a file that also imports one of those libraries (or
    /// declares its own `filterNil()`), the call resolves to that one instead of
    /// being ambiguous. Both do the same.
    @_alwaysEmitIntoClient
    @_disfavoredOverload
    public func filterNil() -> Observable<Element.Wrapped> {
        appending(CompactMapStep { $0.optional }, site: SiteLiteral("filterNil"))
    }
}

/// The step of `filter` (see ``PipelineStep``).
@usableFromInline
struct FilterStep<Element>: PipelineStep {
    @usableFromInline
    let predicate: (Element) throws -> Bool

    @_alwaysEmitIntoClient
    init(predicate: @escaping (Element) throws -> Bool) {
        self.predicate = predicate
    }

    @_alwaysEmitIntoClient
    func next(_ element: Element, _ state: inout Void) throws -> StepResult<Element> {
        try predicate(element) ? (element, false) : (nil, false)
    }

    #if CompactPipelines
    @_alwaysEmitIntoClient
    func next(_ input: Element, _ state: inout Void, into output: UnsafeMutablePointer<Element>) throws -> StepFlow {
        guard try predicate(input) else { return StepFlow(passes: false, ends: false) }
        output.initialize(to: input)
        return StepFlow(passes: true, ends: false)
    }

    @_alwaysEmitIntoClient
    func complete(_ state: inout Void, into output: UnsafeMutablePointer<Element>) throws -> StepFlow {
        StepFlow(passes: false, ends: true)
    }
    #endif
}
