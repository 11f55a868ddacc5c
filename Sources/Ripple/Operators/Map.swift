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
    @inlinable
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        let source = asObservable()
        return Producer(fusingFilter: { predicate in source.mapFiltered(transform, predicate) }) { observer in
            let sink = MapSink(transform: transform, observer: observer)
            sink.setUpstream(source.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
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
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        let source = asObservable()
        return Producer { observer in
            let sink = CompactMapSink(transform: transform, observer: observer)
            sink.setUpstream(source.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

extension Observable {
    /// `map(transform).filter(predicate)` as one operator (see
    /// ``Producer/filterFusion``). Behaves exactly like the two: an element whose
    /// `transform` or `predicate` throws ends the stream with that error.
    @inlinable
    final func mapFiltered<Result>(
        _ transform: @escaping (Element) throws -> Result,
        _ predicate: @escaping (Result) throws -> Bool
    ) -> Observable<Result> {
        Producer(fusingFilter: { next in
            self.mapFiltered(transform) { try predicate($0) && next($0) }
        }) { observer in
            let sink = MapFilterSink(transform: transform, predicate: predicate, observer: observer)
            sink.setUpstream(self.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

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

/// `map` followed by `filter` in one sink.
@usableFromInline
final class MapFilterSink<Source, Result>: Sink<Result>, @unchecked Sendable {
    @usableFromInline
    let transform: (Source) throws -> Result

    @usableFromInline
    let predicate: (Result) throws -> Bool

    @inlinable
    init(
        transform: @escaping (Source) throws -> Result,
        predicate: @escaping (Result) throws -> Bool,
        observer: AnyObserver<Result>
    ) {
        self.transform = transform
        self.predicate = predicate
        super.init(observer: observer)
    }

    @inlinable
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                let result = try transform(element)
                if try predicate(result) {
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
