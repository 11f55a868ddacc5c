extension ObservableType where Element: Equatable {
    /// Passes on an element only if it differs (`!=`) from the previous element
    /// that was passed on. The first element always passes.
    ///
    /// Completes and fails with the source.
    ///
    /// ```
    /// source:                  --1--1--2--2--1--|
    /// distinctUntilChanged():  --1-----2-----1--|
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: { $0 == $1 })
    }
}

extension ObservableType {
    /// Passes on an element only if its key, computed by `keySelector`, differs
    /// from the key of the previous element that was passed on.
    ///
    /// Completes with the source. Fails with the source or when `keySelector`
    /// throws (the source is then disposed).
    ///
    /// ```
    /// source:                             --"a"--"ab"--"cd"--"e"--|
    /// distinctUntilChanged { $0.count }:  --"a"--"ab"--------"e"--|
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        distinctUntilChanged(keySelector, comparer: { $0 == $1 })
    }

    /// Passes on an element only if `comparer` says it is not equal to the
    /// previous element that was passed on.
    ///
    /// Completes with the source. Fails with the source or when `comparer`
    /// throws.
    ///
    /// ```
    /// source:                                      --1--3--4--6--|
    /// distinctUntilChanged { $0 % 2 == $1 % 2 }:   --1-----4-----|
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: comparer)
    }

    /// Passes on an element only if `comparer` says its key (computed by
    /// `keySelector`) is not equal to the key of the previous element that was
    /// passed on.
    ///
    /// Completes with the source. Fails with the source or when `keySelector` or
    /// `comparer` throws.
    ///
    /// ```
    /// source:                                          --"a"--"B"--"b"--|
    /// distinctUntilChanged({ $0.lowercased() }, ==):   --"a"--"B"-------|
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool
    ) -> Observable<Element> {
        appending(
            DistinctUntilChangedStep(keySelector: keySelector, comparer: comparer),
            site: SiteLiteral("distinctUntilChanged")
        )
    }

    /// Passes on an element only if the property at `keyPath` differs from that
    /// property of the previous element that was passed on.
    ///
    /// Completes and fails with the source.
    ///
    /// ```
    /// source:                               --{id 1}--{id 1}--{id 2}--|
    /// distinctUntilChanged(at: \.id):       --{id 1}----------{id 2}--|
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
        distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: { $0 == $1 })
    }
}

/// The step of `distinctUntilChanged` (see ``PipelineStep``): its state is the
/// key of the last element passed on.
@usableFromInline
struct DistinctUntilChangedStep<Element, Key>: PipelineStep {
    @usableFromInline
    let keySelector: (Element) throws -> Key
    @usableFromInline
    let comparer: (Key, Key) throws -> Bool

    @_alwaysEmitIntoClient
    init(keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) {
        self.keySelector = keySelector
        self.comparer = comparer
    }

    @_alwaysEmitIntoClient
    func start() -> Key? {
        nil
    }

    @_alwaysEmitIntoClient
    func next(_ element: Element, _ currentKey: inout Key?) throws -> StepResult<Element> {
        let key = try keySelector(element)
        if let previous = currentKey, try comparer(previous, key) {
            return (nil, false)
        }
        currentKey = key
        return (element, false)
    }
}
