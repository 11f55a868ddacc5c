extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Runs side effects for the outcome and the subscription's life without
    /// changing the `Completable`.
    ///
    /// `onError` / `onCompleted` run before the outcome is delivered,
    /// `afterError` / `afterCompleted` after it. `onSubscribe` runs before
    /// subscribing to the source, `onSubscribed` after; `onDispose` runs when the
    /// subscription ends (by its outcome or by disposal). If a handler throws, the
    /// `Completable` fails with that error.
    ///
    /// ```
    /// source:                   --|
    /// do(onCompleted: log):     --|      (log runs first)
    /// ```
    @_alwaysEmitIntoClient
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Completable {
        Completable(raw: primitiveSequence.source.do(
            onError: onError, afterError: afterError,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }

    /// Runs `second` after this `Completable` has completed.
    ///
    /// Completes when `second` completes; fails as soon as either fails (`second`
    /// is then not subscribed, or disposed).
    ///
    /// ```
    /// self:            --|
    /// second (cold):     ---|
    /// concat(second):  -----|
    /// ```
    @_alwaysEmitIntoClient
    public func concat(_ second: Completable) -> Completable {
        Completable.concat(primitiveSequence, second)
    }

    /// Runs the `Completable`s of `sequence` one after the other, each subscribed
    /// once the previous one completed.
    ///
    /// Completes when the last one completes (at once for an empty sequence);
    /// fails as soon as one fails, without subscribing to the rest.
    ///
    /// ```
    /// a:        --|
    /// b:          ---|
    /// concat:   -----|
    /// ```
    @_alwaysEmitIntoClient
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Completable
        where Sequence.Element == Completable {
        Completable(raw: Observable.concat(sequence.lazy.map { $0.source }))
    }

    /// Runs the `Completable`s of `collection` one after the other, each
    /// subscribed once the previous one completed.
    ///
    /// Completes when the last one completes (at once for an empty collection);
    /// fails as soon as one fails, without subscribing to the rest.
    ///
    /// ```
    /// a:        --|
    /// b:          ---|
    /// concat:   -----|
    /// ```
    @_alwaysEmitIntoClient
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Completable
        where Collection.Element == Completable {
        Completable(raw: Observable.concat(collection.map { $0.source }))
    }

    /// Runs `sources` one after the other, each subscribed once the previous one
    /// completed.
    ///
    /// Completes when the last one completes (at once without sources); fails as
    /// soon as one fails, without subscribing to the rest.
    ///
    /// ```
    /// a:              --|
    /// b:                ---|
    /// concat(a, b):   -----|
    /// ```
    @_alwaysEmitIntoClient
    public static func concat(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.concat(sources.map { $0.source }))
    }

    /// Runs the `Completable`s of `sources` at the same time.
    ///
    /// Completes when all of them have completed (at once for an empty
    /// collection); fails as soon as one fails, and the others are disposed.
    ///
    /// ```
    /// a:     --|
    /// b:     -----|
    /// zip:   -----|
    /// ```
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(_ sources: Collection) -> Completable
        where Collection.Element == Completable {
        Completable(raw: Observable.merge(sources.map { $0.source }))
    }

    /// Runs the `Completable`s of `sources` at the same time.
    ///
    /// Completes when all of them have completed (at once for an empty array);
    /// fails as soon as one fails, and the others are disposed.
    ///
    /// ```
    /// a:     --|
    /// b:     -----|
    /// zip:   -----|
    /// ```
    @_alwaysEmitIntoClient
    public static func zip(_ sources: [Completable]) -> Completable {
        Completable(raw: Observable.merge(sources.map { $0.source }))
    }

    /// Runs `sources` at the same time.
    ///
    /// Completes when all of them have completed (at once without sources); fails
    /// as soon as one fails, and the others are disposed.
    ///
    /// ```
    /// a:           --|
    /// b:           -----|
    /// zip(a, b):   -----|
    /// ```
    @_alwaysEmitIntoClient
    public static func zip(_ sources: Completable...) -> Completable {
        zip(sources)
    }

    /// RxSwift 4's name for `zip(_:)` on a collection: runs the `Completable`s at
    /// the same time and completes when all have completed.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "zip(_:)")
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Completable
        where Collection.Element == Completable {
        zip(sources)
    }

    /// RxSwift 4's name for `zip(_:)` on an array: runs the `Completable`s at the
    /// same time and completes when all have completed.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "zip(_:)")
    public static func merge(_ sources: [Completable]) -> Completable {
        zip(sources)
    }

    /// RxSwift 4's name for `zip(_:)` on variadic sources: runs them at the same
    /// time and completes when all have completed.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "zip(_:)")
    public static func merge(_ sources: Completable...) -> Completable {
        zip(sources)
    }
}

// MARK: - andThen

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Runs the ``Single`` `second` after this `Completable` has completed.
    ///
    /// Succeeds with `second`'s element; fails as soon as either fails (`second`
    /// is then not subscribed, or disposed).
    ///
    /// ```
    /// self:             --|
    /// second (cold):      ---(1|)
    /// andThen(second):  -----(1|)
    /// ```
    @_alwaysEmitIntoClient
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(raw: andThen(second.source))
    }

    /// Runs the ``Maybe`` `second` after this `Completable` has completed.
    ///
    /// Succeeds with `second`'s element or completes empty with it; fails as soon
    /// as either fails (`second` is then not subscribed, or disposed).
    ///
    /// ```
    /// self:             --|
    /// second (cold):      ---(1|)
    /// andThen(second):  -----(1|)
    /// ```
    @_alwaysEmitIntoClient
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: andThen(second.source))
    }

    /// Runs the `Completable` `second` after this one has completed.
    ///
    /// Completes when `second` completes; fails as soon as either fails (`second`
    /// is then not subscribed, or disposed).
    ///
    /// ```
    /// self:             --|
    /// second (cold):      ---|
    /// andThen(second):  -----|
    /// ```
    @_alwaysEmitIntoClient
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: primitiveSequence.source.concat(second.source, site: SiteLiteral("andThen")))
    }

    /// Subscribes to `second` after this `Completable` has completed and passes on
    /// its events.
    ///
    /// Completes when `second` completes; fails as soon as either fails (`second`
    /// is then not subscribed, or disposed).
    ///
    /// ```
    /// self:             --|
    /// second (cold):      -1-2-|
    /// andThen(second):  ---1-2-|
    /// ```
    @_alwaysEmitIntoClient
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        primitiveSequence.source.elementless(as: Element.self).concat(second, site: SiteLiteral("andThen"))
    }
}

extension Observable where Element == Swift.Never {
    /// This element-less sequence with another element type: its completion and
    /// its error pass through.
    @_alwaysEmitIntoClient
    @usableFromInline
    func elementless<Other>(as type: Other.Type) -> Observable<Other> {
        let source = self
        return Producer(site: SiteLiteral(label: "Completable")) { observer in
            let sink = ForwardingSink(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { event in
                switch event {
                case .next:
                    break
                case .error(let error):
                    sink.forwardError(error)
                case .completed:
                    sink.forwardCompleted()
                }
            }))
            return sink
        }
    }
}
