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
    /// Next to a `map` or another `filter` it joins that operator instead of adding
    /// one: `map { }.filter { }`, `filter { }.map { }` and `filter { }.filter { }`
    /// each run as a single step per element, with the same results, errors and
    /// disposal as the separate operators.
    ///
    /// Always inlined, like `map`.
    @inlinable
    @inline(__always)
    public func filter(
        _ predicate: @escaping (Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        let source = asObservable()
        let site = SiteLiteral("filter", file, line)
        guard source.kind == .map || source.kind == .filter else {
            return source.filtered(predicate, site: site)
        }
        // Always a new observable: the one it joins may still be reachable (a
        // weak or unowned reference, which uniqueness checks do not see), and
        // changing it in place would change what that holder subscribes to, and
        // race with it.
        let fusible = unsafeDowncast(source, to: FusibleProducer<Element>.self)
        return fusible.fusion.appendingFilter(fusible, predicate, site)
    }

    /// Drops every element and passes on only the terminal event.
    ///
    /// ```
    /// source:           --1--2--3--|
    /// ignoreElements(): -----------|
    /// ```
    public func ignoreElements(file: StaticString = #fileID, line: UInt = #line) -> Observable<Never> {
        let source = asObservable()
        return Producer(site: SiteLiteral("ignoreElements", file, line)) { observer in
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
/// ``ObservableType/filterNil(file:line:)`` be declared for sequences of optionals.
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
    @inlinable
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
    @inlinable
    @_disfavoredOverload
    public func filterNil(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element.Wrapped> {
        asObservable().compactMapped(site: SiteLiteral("filterNil", file, line)) { $0.optional }
    }
}

extension Observable {
    /// The `filter` operator itself. A `filter` applied next joins its predicate;
    /// a `map` applied next runs it in its own sink (see ``OperatorFusion``).
    @inlinable
    @inline(never)
    final func filtered(
        _ predicate: @escaping (Element) throws -> Bool, site: SiteLiteral, laterSite: SiteLiteral = .none
    ) -> Observable<Element> {
        // As in `fusedMap`: functions that capture nothing and read the producer's
        // fields; one allocation per `filter`.
        // `subscribe(onNext:...)` right after: the predicate runs in the handlers'
        // observer, no sink (see ``HandlersProducer``).
        let subscribeHandlers: (HandlersProducer<Element>, SubscribeHandlers<Element>) -> SubscriptionBase? = { producer, handlers in
            let step = unsafeDowncast(producer, to: FilterProducer<Element>.self)
            // Only reached while subscriptions are not recorded (see `subscribe(onNext:...)`).
            return step.source.subscribe(sink: handlers.observer(filter: step.predicate), recorded: false)
        }
        let fusion = OperatorFusion<Element>(
            appendingFilter: { producer, next, site in
                let step = unsafeDowncast(producer, to: FilterProducer<Element>.self)
                let predicate = step.predicate
                return step.source.filtered({ try predicate($0) && next($0) }, site: step.siteLiteral, laterSite: site)
            },
            stepOnJust: { producer in
                let step = unsafeDowncast(producer, to: FilterProducer<Element>.self)
                guard step.source.kind == .just else { return nil }
                return { producer in
                    let step = unsafeDowncast(producer, to: FilterProducer<Element>.self)
                    let element = unsafeDowncast(step.source, to: JustProducer<Element>.self).element
                    return try step.predicate(element) ? element : nil
                }
            }
        )
        return FilterProducer(source: self, predicate: predicate, sites: (site, laterSite), fusion: fusion, subscribeHandlers: subscribeHandlers) { producer, observer in
            let step = unsafeDowncast(producer, to: FilterProducer<Element>.self)
            let sink = FilterSink(predicate: step.predicate, observer: observer)
            sink.setUpstream(step.source.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

/// The observable of `filter` (see ``Observable/filtered(_:)``): its source and
/// predicate as fields, which a following `map` joins (``FilterMapSink``).
@usableFromInline
final class FilterProducer<Element>: FusibleProducer<Element>, @unchecked Sendable {
    @usableFromInline
    let source: Observable<Element>
    @usableFromInline
    let predicate: (Element) throws -> Bool
    /// The site of a second `filter` fused into this one, if any.
    @usableFromInline
    let laterSite: SiteLiteral

    @inlinable
    init(
        source: Observable<Element>,
        predicate: @escaping (Element) throws -> Bool,
        sites: (first: SiteLiteral, later: SiteLiteral),
        fusion: OperatorFusion<Element>,
        subscribeHandlers: @escaping (HandlersProducer<Element>, SubscribeHandlers<Element>) -> SubscriptionBase?,
        _ subscribeHandler: @escaping (FieldProducer<Element>, AnyObserver<Element>) -> SubscriptionBase?
    ) {
        self.source = source
        self.predicate = predicate
        laterSite = sites.later
        super.init(kind: .filter, site: sites.first, fusion: fusion, subscribeHandlers: subscribeHandlers, subscribeHandler)
    }

    override var graphOperators: [SiteLiteral] {
        laterSite.isNone ? [siteLiteral] : [siteLiteral, laterSite]
    }
}

@usableFromInline
final class FilterSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline
    let predicate: (Element) throws -> Bool

    @inlinable
    init(predicate: @escaping (Element) throws -> Bool, observer: AnyObserver<Element>) {
        self.predicate = predicate
        super.init(observer: observer)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                if try predicate(element) {
                    forwardNext(element)
                }
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
