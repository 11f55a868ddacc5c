extension ObservableType {
    /// Maps each element to an inner sequence with `selector`, subscribes to every
    /// inner sequence at once, and forwards the elements of all of them as they
    /// come.
    ///
    /// Completes when the source and every inner sequence have completed. Fails as
    /// soon as the source, an inner sequence or `selector` fails; the source and
    /// every inner subscription are then disposed.
    ///
    /// ```
    /// source:   --1--------2-------|
    /// inner 1:    --a---b|
    /// inner 2:             --c---d|
    /// flatMap:  ----a---b----c---d-|
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func flatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source
    ) -> Observable<Source.Element> {
        asObservable().merging(.all, site: SiteLiteral("flatMap")) { try selector($0).asObservable() }
    }

    /// Maps an element to an inner sequence with `selector` only when no inner
    /// sequence is running; elements that arrive while one is running are dropped
    /// (`selector` is not called for them).
    ///
    /// Completes when the source and the running inner sequence have completed.
    /// Fails as soon as the source, the inner sequence or `selector` fails.
    ///
    /// ```
    /// source:        --1--2------3----|
    /// inner 1:         --a---b|
    /// inner 3:                   --c|
    /// flatMapFirst:  ----a---b-----c--|   (2 arrived while inner 1 was active)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func flatMapFirst<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source
    ) -> Observable<Source.Element> {
        asObservable().merging(.first, site: SiteLiteral("flatMapFirst")) { try selector($0).asObservable() }
    }

    /// Maps each element to an inner sequence with `selector` and forwards only
    /// the elements of the most recent one: each new element disposes the
    /// previous inner subscription.
    ///
    /// Completes when the source has completed and the latest inner sequence has
    /// completed. Fails as soon as the source, the latest inner sequence or
    /// `selector` fails.
    ///
    /// ```
    /// source:         --1----2-----------|
    /// inner 1:          --a----b---c|
    /// inner 2:               --d---e|
    /// flatMapLatest:  ----a----d---e-----|   (inner 1 is disposed when 2 arrives)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source
    ) -> Observable<Source.Element> {
        #if CompactPipelines
        return asObservable().switchingOnce(site: SiteLiteral("flatMapLatest")) { try selector($0).asObservable() }
        #else
        let source = asObservable()
        return Producer(site: SiteLiteral("flatMapLatest")) { observer in
            let sink = SwitchSink<Element, Source.Element>(
                selector: { try selector($0).asObservable() }, observer: observer)
            sink.run(outer: source)
            return sink
        }
        #endif
    }

    /// Maps each element to an inner sequence with `selector` (when the element
    /// arrives) and subscribes to the inner sequences one at a time, in order:
    /// the next one when the previous one completes.
    ///
    /// Completes when the source and every inner sequence have completed. Fails as
    /// soon as the source, an inner sequence or `selector` fails.
    ///
    /// ```
    /// source:     --1--2--|
    /// inner 1:      --a---b|
    /// inner 2:             --c---d|   (subscribed when inner 1 completes)
    /// concatMap:  ----a---b--c---d|
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func concatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source
    ) -> Observable<Source.Element> {
        asObservable().merging(.limited(1), site: SiteLiteral("concatMap")) { try selector($0).asObservable() }
    }
}
