// Operators of `Infallible` that combine several sequences. Every source is
// infallible, so the result is too. (The 2–8 arities of `combineLatest` and
// `zip` are in Infallible+Arity.swift.)

extension Infallible {
    /// Merges the elements of all `sources` as they arrive.
    ///
    /// ```
    /// source1:  --1-----3--|
    /// source2:  ----2-----4---|
    /// merge:    --1-2---3-4---|
    /// ```
    ///
    /// Completes when every source has completed.
    @_alwaysEmitIntoClient
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Infallible<Element>
    where Collection.Element == Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of all `sources` as they arrive; completes when every
    /// source has completed.
    ///
    /// ```
    /// merge([a, b]):  --a1-b1--a2--|
    /// ```
    @_alwaysEmitIntoClient
    public static func merge(_ sources: [Infallible<Element>]) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of all `sources` as they arrive; completes when every
    /// source has completed.
    ///
    /// ```
    /// merge(a, b):  --a1-b1--a2--|
    /// ```
    @_alwaysEmitIntoClient
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// The sequences one after the other: each is subscribed when the previous
    /// one completed. Completes after the last one.
    ///
    /// ```
    /// source1:  --1--|
    /// source2:       --2--|
    /// concat:   --1----2--|
    /// ```
    @_alwaysEmitIntoClient
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Infallible<Element>
    where Sequence.Element == Infallible<Element> {
        Infallible(Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// The sequences one after the other; completes after the last one.
    ///
    /// ```
    /// concat([a, b]):  --a1--a2|--b1--|   (b starts when a completed)
    /// ```
    @_alwaysEmitIntoClient
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<Element>
    where Collection.Element == Infallible<Element> {
        Infallible(Observable.concat(collection.map { $0.asObservable() }))
    }

    /// The sequences one after the other; completes after the last one.
    ///
    /// ```
    /// concat(a, b):  --a1--a2|--b1--|
    /// ```
    @_alwaysEmitIntoClient
    public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.concat(sources.map { $0.asObservable() }))
    }

    /// Combines the latest elements of all sources with `resultSelector` each
    /// time one of them emits, once every source has emitted at least once.
    ///
    /// ```
    /// source1:         --1-----2-----|
    /// source2:         -----a-----b--|
    /// combineLatest:   -----1a-2a-2b-|
    /// ```
    ///
    /// Completes when every source has completed (or when no combination can be
    /// produced any more). An empty collection completes at once.
    @_alwaysEmitIntoClient
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) -> Element
    ) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Combines elements of all sources by position with `resultSelector`: the
    /// first of each, then the second of each, and so on.
    ///
    /// ```
    /// source1:  --1-----2--3--|
    /// source2:  -----a--------b--|
    /// zip:      -----1a-------2b-|
    /// ```
    ///
    /// Completes when no combination can be produced any more. An empty
    /// collection completes at once.
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) -> Element
    ) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }
}

extension InfallibleType {
    /// Emits arrays of the latest elements of all sources each time one of them
    /// emits, once every source has emitted at least once.
    ///
    /// ```
    /// source1:         --1-----2-----|
    /// source2:         -----a-----b--|
    /// combineLatest:   -----[1a]-[2a]-[2b]-|
    /// ```
    @_alwaysEmitIntoClient
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Infallible<[Element]> where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible<[Element]>(Observable.combineLatest(collection.map { $0.asObservable() }))
    }

    /// Emits arrays of the elements of all sources combined by position.
    ///
    /// ```
    /// source1:  --1-----2--3--|
    /// source2:  -----a--------b--|
    /// zip:      -----[1a]-----[2b]-|
    /// ```
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Infallible<[Element]> where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible<[Element]>(Observable.zip(collection.map { $0.asObservable() }))
    }

    /// The source's elements, then, once it completed, those of `second`.
    ///
    /// ```
    /// source:         --1--|
    /// second:              --2--|
    /// concat(second): --1----2--|
    /// ```
    @_alwaysEmitIntoClient
    public func concat<Source: InfallibleType>(_ second: Source) -> Infallible<Element> where Source.Element == Element {
        Infallible(asObservable().concat(second.asObservable()))
    }

    /// Combines each element of the source with the latest element of `second`
    /// through `resultSelector`; source elements that arrive before `second` has
    /// emitted are dropped.
    ///
    /// ```
    /// source:               --1-----2--3--|
    /// second:               -----a----b-----
    /// withLatestFrom(second, resultSelector: +):
    ///                       --------2a-3b-|
    /// ```
    ///
    /// Completes when the source completes.
    @_alwaysEmitIntoClient
    public func withLatestFrom<Source: InfallibleType, ResultType>(
        _ second: Source, resultSelector: @escaping (Element, Source.Element) -> ResultType
    ) -> Infallible<ResultType> {
        Infallible<ResultType>(asObservable().withLatestFrom(second, resultSelector: resultSelector))
    }

    /// Emits the latest element of `second` each time the source emits; source
    /// elements that arrive before `second` has emitted are dropped.
    ///
    /// ```
    /// source:                 --1-----2--3--|
    /// second:                 -----a----b-----
    /// withLatestFrom(second): --------a--b--|
    /// ```
    @_alwaysEmitIntoClient
    public func withLatestFrom<Source: InfallibleType>(_ second: Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().withLatestFrom(second))
    }
}
