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
    @inlinable
    @inline(never)
    public func distinctUntilChanged(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: { $0 == $1 }, file: file, line: line)
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
    @inlinable
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        distinctUntilChanged(keySelector, comparer: { $0 == $1 }, file: file, line: line)
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
    @inlinable
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: comparer, file: file, line: line)
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
    @inlinable
    @inline(never)
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        // A function that captures nothing and reads the producer's fields: one
        // allocation per `distinctUntilChanged` (see ``FieldProducer``).
        DistinctUntilChangedProducer(site: SiteLiteral("distinctUntilChanged", file, line), source: asObservable(), keySelector: keySelector, comparer: comparer) { producer, observer in
            let step = unsafeDowncast(producer, to: DistinctUntilChangedProducer<Element, Key>.self)
            let sink = DistinctUntilChangedSink(keySelector: step.keySelector, comparer: step.comparer, observer: observer)
            sink.setUpstream(step.source.subscribeNested(sink: AnyObserver { sink.on($0) }))
            return sink
        }
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
    @inlinable
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: { $0 == $1 }, file: file, line: line)
    }
}

/// The observable of `distinctUntilChanged`: its source, key selector and comparer
/// as fields, read by a subscription function that captures nothing (see
/// ``FieldProducer``). A ``Producer`` whose closure captured the three values
/// cost a second allocation, the closure's context, per operator.
@usableFromInline
final class DistinctUntilChangedProducer<Element, Key>: FieldProducer<Element>, @unchecked Sendable {
    @usableFromInline
    let source: Observable<Element>
    @usableFromInline
    let keySelector: (Element) throws -> Key
    @usableFromInline
    let comparer: (Key, Key) throws -> Bool

    @inlinable
    init(
        site: SiteLiteral,
        source: Observable<Element>,
        keySelector: @escaping (Element) throws -> Key,
        comparer: @escaping (Key, Key) throws -> Bool,
        _ subscribeHandler: @escaping (FieldProducer<Element>, AnyObserver<Element>) -> SubscriptionBase?
    ) {
        self.source = source
        self.keySelector = keySelector
        self.comparer = comparer
        super.init(site: site, subscribeHandler)
    }
}

@usableFromInline
final class DistinctUntilChangedSink<Element, Key>: Sink<Element>, @unchecked Sendable {
    @usableFromInline
    let keySelector: (Element) throws -> Key
    @usableFromInline
    let comparer: (Key, Key) throws -> Bool
    /// Only touched by serialized upstream events.
    @usableFromInline
    @exclusivity(unchecked)
    final var currentKey: Key?

    @inlinable
    init(keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool, observer: AnyObserver<Element>) {
        self.keySelector = keySelector
        self.comparer = comparer
        super.init(observer: observer)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                let key = try keySelector(element)
                if let currentKey, try comparer(currentKey, key) {
                    return
                }
                currentKey = key
                forwardNext(element)
            } catch {
                forwardError(error)
            }
        case .error, .completed:
            forwardTerminal(event)
        }
    }
}
