extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Runs side effects for the outcome and the subscription's life without
    /// changing the `Maybe`. The hooks have RxSwift's names: the element is
    /// `onNext` / `afterNext`.
    ///
    /// `onX` runs before the event is delivered, `afterX` after it. `onSubscribe`
    /// runs before subscribing to the source, `onSubscribed` after; `onDispose`
    /// runs when the subscription ends (by its outcome or by disposal). If a
    /// handler throws, the `Maybe` fails with that error.
    ///
    /// ```
    /// source:                             --(1|)     --|
    /// do(onNext: log, onCompleted: log):  --(1|)     --|    (log sees 1 then
    ///                                                        completed; completed)
    /// ```
    @_alwaysEmitIntoClient
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.do(
            onNext: onNext, afterNext: afterNext,
            onError: onError, afterError: afterError,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }

    /// Transforms the element, if any, with `transform`.
    ///
    /// Succeeds with the transformed element, completes empty when the source
    /// does; fails with the source, or with the error `transform` throws.
    ///
    /// ```
    /// source:             --(1|)      --|
    /// map { $0 * 10 }:    --(10|)     --|
    /// ```
    @_alwaysEmitIntoClient
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element, if any, with `transform` and keeps the result only
    /// when it is not `nil`.
    ///
    /// Succeeds with a non-`nil` result; completes empty for `nil` or when the
    /// source is empty; fails with the source, or with the error `transform`
    /// throws.
    ///
    /// ```
    /// source:                  --(1|)      --(2|)
    /// compactMap { odd($0) }:  --(1|)      --|
    /// ```
    @_alwaysEmitIntoClient
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Keeps the element, if any, only when it satisfies `predicate`.
    ///
    /// Succeeds with the element when `predicate` returns `true`; completes empty
    /// otherwise or when the source is empty; fails with the source, or with the
    /// error `predicate` throws.
    ///
    /// ```
    /// source:                 --(2|)      --(3|)
    /// filter { $0.isEven }:   --(2|)      --|
    /// ```
    @_alwaysEmitIntoClient
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// Continues with the `Maybe` that `selector` returns for the element. An
    /// empty source completes empty without calling `selector`.
    ///
    /// Succeeds with the inner `Maybe`'s element, completes empty when the source
    /// or the inner `Maybe` does; fails with either, or with the error `selector`
    /// throws.
    ///
    /// ```
    /// source:                  --(1|)
    /// selector(1) (cold):        ---(a|)
    /// flatMap(selector):       -----(a|)
    /// ```
    @_alwaysEmitIntoClient
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// A ``Single`` that succeeds with this `Maybe`'s element, or with `default`
    /// when it completes empty.
    ///
    /// Fails with the source.
    ///
    /// ```
    /// source:                 --(1|)     --|
    /// ifEmpty(default: 0):    --(1|)     --(0|)
    /// ```
    @_alwaysEmitIntoClient
    public func ifEmpty(default: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(default: `default`))
    }

    /// Continues with `other` (subscribed at that moment) when this `Maybe`
    /// completes empty.
    ///
    /// Succeeds with the source's element, or as `other` does; completes empty
    /// when `other` does; fails with either.
    ///
    /// ```
    /// source:                     --|
    /// other (cold):                 --(7|)
    /// ifEmpty(switchTo: other):   ----(7|)
    /// ```
    @_alwaysEmitIntoClient
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
    }

    /// Continues with the ``Single`` `other` (subscribed at that moment) when this
    /// `Maybe` completes empty: the result always has an element, so it is a
    /// `Single`.
    ///
    /// Succeeds with the source's element or with `other`'s; fails with either.
    ///
    /// ```
    /// source:                     --|
    /// other (cold):                 --(7|)
    /// ifEmpty(switchTo: other):   ----(7|)
    /// ```
    @_alwaysEmitIntoClient
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
    }

    /// When the source fails, succeeds with `element` instead.
    ///
    /// Succeeds with the source's element or with `element`, completes empty with
    /// the source; never fails.
    ///
    /// ```
    /// source:               --#
    /// catchAndReturn(0):    --(0|)
    /// ```
    @_alwaysEmitIntoClient
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// Deprecated spelling of ``catchAndReturn(_:)->Maybe<Self.Element>``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Maybe<Element> {
        catchAndReturn(element)
    }
}

// MARK: - zip (collection)

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Waits for every `Maybe` of `collection` (all subscribed at once) and
    /// succeeds with `resultSelector` applied to their elements, in the
    /// collection's order.
    ///
    /// Fails as soon as one of them fails (the others are disposed), or with the
    /// error `resultSelector` throws. Completes empty when a `Maybe` completes
    /// empty and every other one has finished; as in RxSwift's `zip`, a `Maybe`
    /// still running keeps the result waiting. An empty collection succeeds at
    /// once with `resultSelector([])`.
    ///
    /// ```
    /// a:     --(1|)              --|
    /// b:     -----(2|)           -----(2|)
    /// zip:   -----(3|)           -----|      resultSelector: { $0.reduce(0, +) }
    /// ```
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result
    ) -> Maybe<Result> where Collection.Element == Maybe<Element> {
        if collection.isEmpty {
            return Maybe<Result>.deferred { .just(try resultSelector([])) }
        }
        return Maybe(raw: Observable.zip(collection.map { $0.source }, resultSelector: resultSelector))
    }

    /// Waits for every `Maybe` of `collection` (all subscribed at once) and
    /// succeeds with their elements, in the collection's order.
    ///
    /// Fails as soon as one of them fails (the others are disposed). Completes
    /// empty when a `Maybe` completes empty and every other one has finished. An
    /// empty collection succeeds at once with `[]`.
    ///
    /// ```
    /// a:     --(1|)                --|
    /// b:     -----(2|)             -----(2|)
    /// zip:   -----([1, 2]|)        -----|
    /// ```
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Maybe<[Element]> where Collection.Element == Maybe<Element> {
        if collection.isEmpty {
            return Maybe<[Element]>.just([])
        }
        return Maybe(raw: Observable.zip(collection.map { $0.source }))
    }
}
