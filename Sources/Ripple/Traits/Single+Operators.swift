extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Runs side effects for the outcome and the subscription's life without
    /// changing the `Single`.
    ///
    /// `onSuccess` / `onError` run before the outcome is delivered, `afterSuccess`
    /// / `afterError` after it. `onSubscribe` runs before subscribing to the
    /// source, `onSubscribed` after; `onDispose` runs when the subscription ends
    /// (by its outcome or by disposal). If a handler throws, the `Single` fails
    /// with that error.
    ///
    /// ```
    /// source:                  --(1|)
    /// do(onSuccess: log):      --(1|)      (log sees 1 first)
    /// ```
    @_alwaysEmitIntoClient
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        Single(raw: primitiveSequence.source.do(
            onNext: onSuccess, afterNext: afterSuccess,
            onError: onError, afterError: afterError,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }

    /// Transforms the element with `transform`.
    ///
    /// Succeeds with the transformed element; fails with the source, or with the
    /// error `transform` throws.
    ///
    /// ```
    /// source:             --(1|)
    /// map { $0 * 10 }:    --(10|)
    /// ```
    @_alwaysEmitIntoClient
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element with `transform` and keeps the result only when it
    /// is not `nil`: a ``Maybe``.
    ///
    /// Succeeds with a non-`nil` result, completes empty for `nil`; fails with the
    /// source, or with the error `transform` throws.
    ///
    /// ```
    /// source:                  --(1|)      --(2|)
    /// compactMap { odd($0) }:  --(1|)      --|
    /// ```
    @_alwaysEmitIntoClient
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Keeps the element only when it satisfies `predicate`: a ``Maybe``.
    ///
    /// Succeeds with the element when `predicate` returns `true`, completes empty
    /// otherwise; fails with the source, or with the error `predicate` throws.
    ///
    /// ```
    /// source:                 --(2|)      --(3|)
    /// filter { $0.isEven }:   --(2|)      --|
    /// ```
    @_alwaysEmitIntoClient
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// Continues with the `Single` that `selector` returns for the element.
    ///
    /// Succeeds with the inner `Single`'s element; fails with the source, with the
    /// inner `Single`, or with the error `selector` throws. Disposing disposes
    /// whichever is running.
    ///
    /// ```
    /// source:                  --(1|)
    /// selector(1) (cold):        ---(a|)
    /// flatMap(selector):       -----(a|)
    /// ```
    @_alwaysEmitIntoClient
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// Continues with the ``Maybe`` that `selector` returns for the element.
    ///
    /// Succeeds with the inner `Maybe`'s element, completes empty when it does;
    /// fails with the source, with the inner `Maybe`, or with the error `selector`
    /// throws.
    ///
    /// ```
    /// source:                     --(1|)
    /// selector(1) (cold):           ---|
    /// flatMapMaybe(selector):     -----|
    /// ```
    @_alwaysEmitIntoClient
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// Continues with the ``Completable`` that `selector` returns for the element.
    ///
    /// Completes when the inner `Completable` completes; fails with the source,
    /// with the inner `Completable`, or with the error `selector` throws.
    ///
    /// ```
    /// source:                          --(1|)
    /// selector(1) (cold):                ---|
    /// flatMapCompletable(selector):    -----|
    /// ```
    @_alwaysEmitIntoClient
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// When the source fails, succeeds with `element` instead.
    ///
    /// Succeeds with the source's element or with `element`; never fails.
    ///
    /// ```
    /// source:               --#
    /// catchAndReturn(0):    --(0|)
    /// ```
    @_alwaysEmitIntoClient
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// Deprecated spelling of ``catchAndReturn(_:)->Single<Self.Element>``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Single<Element> {
        catchAndReturn(element)
    }
}

// MARK: - zip (collection)

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Waits for every `Single` of `collection` (all subscribed at once) and
    /// succeeds with `resultSelector` applied to their elements, in the
    /// collection's order.
    ///
    /// Fails as soon as one of them fails (the others are disposed), or with the
    /// error `resultSelector` throws. An empty collection succeeds at once with
    /// `resultSelector([])`.
    ///
    /// ```
    /// a:     --(1|)
    /// b:     -----(2|)
    /// zip:   -----(3|)     resultSelector: { $0.reduce(0, +) }
    /// ```
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result
    ) -> Single<Result> where Collection.Element == Single<Element> {
        if collection.isEmpty {
            return Single<Result>.deferred { .just(try resultSelector([])) }
        }
        return Single(raw: Observable.zip(collection.map { $0.source }, resultSelector: resultSelector))
    }

    /// Waits for every `Single` of `collection` (all subscribed at once) and
    /// succeeds with their elements, in the collection's order.
    ///
    /// Fails as soon as one of them fails (the others are disposed). An empty
    /// collection succeeds at once with `[]`.
    ///
    /// ```
    /// a:     --(1|)
    /// b:     -----(2|)
    /// zip:   -----([1, 2]|)
    /// ```
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Single<[Element]> where Collection.Element == Single<Element> {
        if collection.isEmpty {
            return Single<[Element]>.just([])
        }
        return Single(raw: Observable.zip(collection.map { $0.source }))
    }
}
