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
    /// Next to a `filter` it runs as one operator with it (see ``filter(_:file:line:)``), and
    /// `subscribe(onNext:onError:onCompleted:onDisposed:)` right after it runs the
    /// transform in its own closure: no operator object per subscription.
    ///
    /// Always inlined: a tiny entry point, which the site parameters would
    /// otherwise keep out of line (about 50 instructions per `map` in the
    /// `build-3-*` rows of `ripple-compare --instructions`).
    @inlinable
    @inline(__always)
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Result> {
        let source = asObservable()
        let site = SiteLiteral("map", file, line)
        if source.kind == .filter {
            let filter = unsafeDowncast(source, to: FilterProducer<Element>.self)
            return filter.source.fusedMap(filter: filter.predicate, transform, then: nil, sites: (filter.siteLiteral, site, .none))
        }
        return source.fusedMap(filter: nil, transform, then: nil, sites: (.none, site, .none))
    }

    /// Transforms each element with `transform` and skips the `nil` results.
    ///
    /// Completes when the source completes; fails when the source fails or
    /// `transform` throws.
    ///
    /// ```
    /// source:                --"1"--"x"--"3"--|
    /// compactMap { Int($0) }:--1---------3----|
    /// ```
    @inlinable
    @inline(never)
    public func compactMap<Result>(
        _ transform: @escaping (Element) throws -> Result?, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Result> {
        asObservable().compactMapped(site: SiteLiteral("compactMap", file, line), transform)
    }
}

extension Observable {
    /// `compactMap`, for the operators built on it (`filterNil`).
    @inlinable
    @inline(never)
    final func compactMapped<Result>(site: SiteLiteral, _ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        let source = self
        return Producer(site: site) { observer in
            let sink = CompactMapSink(transform: transform, observer: observer)
            sink.setUpstream(source.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

extension Observable {
    /// `filter(before).map(transform).filter(after)` as one operator, either filter
    /// optional: what `map` builds, and what a `filter` next to it joins (see
    /// ``OperatorFusion``). Behaves exactly like the separate operators: an element
    /// whose predicate or transform throws ends the stream with that error.
    @inlinable
    @inline(never)
    final func fusedMap<Result>(
        filter before: ((Element) throws -> Bool)?,
        _ transform: @escaping (Element) throws -> Result,
        then after: ((Result) throws -> Bool)?,
        sites: (before: SiteLiteral, map: SiteLiteral, after: SiteLiteral)
    ) -> Observable<Result> {
        // The functions below capture nothing (they get the producer and read its
        // fields): one allocation per `map`, the `MapProducer`. Closures that
        // captured the four values cost a context each; measured with
        // `ripple-compare --instructions`, `build-3-*` rows.
        // `subscribe(onNext:...)` right after: the step runs in the handlers'
        // observer, no sink (see ``HandlersProducer``).
        let subscribeHandlers: (HandlersProducer<Result>, SubscribeHandlers<Result>) -> SubscriptionBase? = { producer, handlers in
            let step = unsafeDowncast(producer, to: MapProducer<Element, Result>.self)
            // Only reached while subscriptions are not recorded (see `subscribe(onNext:...)`).
            return step.source.subscribe(
                sink: handlers.observer(filter: step.before, step.transform, then: step.after), recorded: false)
        }
        let fusion = OperatorFusion<Result>(
            appendingFilter: { producer, next, site in
                let step = unsafeDowncast(producer, to: MapProducer<Element, Result>.self)
                guard let after = step.after else {
                    return step.source.fusedMap(filter: step.before, step.transform, then: next, sites: (step.beforeSite, step.siteLiteral, site))
                }
                return step.source.fusedMap(
                    filter: step.before, step.transform, then: { try after($0) && next($0) },
                    sites: (step.beforeSite, step.siteLiteral, site)
                )
            },
            stepOnJust: { producer in
                let step = unsafeDowncast(producer, to: MapProducer<Element, Result>.self)
                guard step.source.kind == .just else { return nil }
                return { producer in
                    let step = unsafeDowncast(producer, to: MapProducer<Element, Result>.self)
                    let just = unsafeDowncast(step.source, to: JustProducer<Element>.self)
                    return try mapStep(just.element, step.before, step.transform, step.after)
                }
            }
        )
        // One sink class per shape, so that the common ones (`map`, `map.filter`)
        // test no optional predicate per element.
        return MapProducer(
            source: self, before: before, transform: transform, after: after, sites: sites,
            fusion: fusion, subscribeHandlers: subscribeHandlers
        ) { producer, observer in
            let step = unsafeDowncast(producer, to: MapProducer<Element, Result>.self)
            if let before = step.before {
                let sink = FilterMapSink(before: before, transform: step.transform, after: step.after, observer: observer)
                sink.setUpstream(step.source.subscribeNested(sink: AnyObserver { sink.on($0) }))
                return sink
            }
            if let after = step.after {
                let sink = MapFilterSink(transform: step.transform, after: after, observer: observer)
                sink.setUpstream(step.source.subscribeNested(sink: AnyObserver { sink.on($0) }))
                return sink
            }
            let sink = MapSink(transform: step.transform, observer: observer)
            sink.setUpstream(step.source.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

/// The observable of a fused `filter(before).map(transform).filter(after)` (see
/// ``Observable/fusedMap(filter:_:then:)``): its source and closures as fields,
/// read by the capture-free functions of ``FieldProducer`` and ``OperatorFusion``.
@usableFromInline
final class MapProducer<Source, Result>: FusibleProducer<Result>, @unchecked Sendable {
    @usableFromInline
    let source: Observable<Source>
    @usableFromInline
    let before: ((Source) throws -> Bool)?
    @usableFromInline
    let transform: (Source) throws -> Result
    @usableFromInline
    let after: ((Result) throws -> Bool)?
    /// The sites of the `filter`s fused before and after the `map` (whose site is
    /// the observable's own).
    @usableFromInline
    let beforeSite: SiteLiteral
    @usableFromInline
    let afterSite: SiteLiteral

    @inlinable
    init(
        source: Observable<Source>,
        before: ((Source) throws -> Bool)?,
        transform: @escaping (Source) throws -> Result,
        after: ((Result) throws -> Bool)?,
        sites: (before: SiteLiteral, map: SiteLiteral, after: SiteLiteral),
        fusion: OperatorFusion<Result>,
        subscribeHandlers: @escaping (HandlersProducer<Result>, SubscribeHandlers<Result>) -> SubscriptionBase?,
        _ subscribeHandler: @escaping (FieldProducer<Result>, AnyObserver<Result>) -> SubscriptionBase?
    ) {
        self.source = source
        self.before = before
        self.transform = transform
        self.after = after
        beforeSite = sites.before
        afterSite = sites.after
        super.init(kind: .map, site: sites.map, fusion: fusion, subscribeHandlers: subscribeHandlers, subscribeHandler)
    }

    override var graphOperators: [SiteLiteral] {
        [beforeSite, siteLiteral, afterSite].filter { !$0.isNone }
    }
}

/// One element through `filter(before).map(transform).filter(after)`: the result,
/// or `nil` if a predicate rejected it. `MapSink` and `MapFilterSink` spell their
/// step out instead: through this function, even with a literal `nil`, the cold
/// range chain measured about 1.3 ns slower per element.
@inlinable
@inline(__always)
func mapStep<Source, Result>(
    _ element: Source,
    _ before: ((Source) throws -> Bool)?,
    _ transform: (Source) throws -> Result,
    _ after: ((Result) throws -> Bool)?
) throws -> Result? {
    if let before, try !before(element) { return nil }
    let result = try transform(element)
    if let after, try !after(result) { return nil }
    return result
}

/// The sink of `map`.
@usableFromInline
final class MapSink<Source, Result>: Sink<Result>, @unchecked Sendable {
    @usableFromInline
    let transform: (Source) throws -> Result

    @inlinable
    init(transform: @escaping (Source) throws -> Result, observer: AnyObserver<Result>) {
        self.transform = transform
        super.init(observer: observer)
    }

    @inlinable
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                forwardNext(try transform(element))
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

/// The sink of `map { }.filter { }` (see ``Observable/fusedMap(filter:_:then:)``).
@usableFromInline
final class MapFilterSink<Source, Result>: Sink<Result>, @unchecked Sendable {
    @usableFromInline
    let transform: (Source) throws -> Result

    @usableFromInline
    let after: (Result) throws -> Bool

    @inlinable
    init(
        transform: @escaping (Source) throws -> Result,
        after: @escaping (Result) throws -> Bool,
        observer: AnyObserver<Result>
    ) {
        self.transform = transform
        self.after = after
        super.init(observer: observer)
    }

    @inlinable
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                let result = try transform(element)
                if try after(result) {
                    forwardNext(result)
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

/// The sink of `filter { }.map { }`, optionally followed by another `filter`
/// (see ``Observable/fusedMap(filter:_:then:)``).
@usableFromInline
final class FilterMapSink<Source, Result>: Sink<Result>, @unchecked Sendable {
    @usableFromInline
    let before: (Source) throws -> Bool

    @usableFromInline
    let transform: (Source) throws -> Result

    @usableFromInline
    let after: ((Result) throws -> Bool)?

    @inlinable
    init(
        before: @escaping (Source) throws -> Bool,
        transform: @escaping (Source) throws -> Result,
        after: ((Result) throws -> Bool)?,
        observer: AnyObserver<Result>
    ) {
        self.before = before
        self.transform = transform
        self.after = after
        super.init(observer: observer)
    }

    @inlinable
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                if let result = try mapStep(element, before, transform, after) {
                    forwardNext(result)
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

@usableFromInline
final class CompactMapSink<Source, Result>: Sink<Result>, @unchecked Sendable {
    @usableFromInline
    let transform: (Source) throws -> Result?

    @inlinable
    init(transform: @escaping (Source) throws -> Result?, observer: AnyObserver<Result>) {
        self.transform = transform
        super.init(observer: observer)
    }

    @inlinable
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                if let result = try transform(element) {
                    forwardNext(result)
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
