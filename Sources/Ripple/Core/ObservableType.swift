/// A type that can be turned into an ``Observable``.
public protocol ObservableConvertibleType {
    /// The type of elements in the sequence.
    associatedtype Element

    /// The sequence as an ``Observable``.
    func asObservable() -> Observable<Element>
}

/// A push-based sequence of ``Event``s.
///
/// Conform your own types by implementing only ``subscribe(_:)``: `asObservable()`
/// and every operator come for free.
public protocol ObservableType: ObservableConvertibleType {
    /// Subscribes `observer` to the sequence's events.
    ///
    /// - Returns: A subscription; dispose it to stop receiving events and release
    ///   resources. A sequence that terminates releases its resources by itself.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    /// Wraps this sequence in an ``Observable``.
    // Disfavoured: `Observable`, the subjects and the relays declare their own
    // `asObservable()`, so on them a call finds two candidates, and the type
    // checker tried both in every expression that contains the call: each
    // `relay.asObservable()` doubled the work of the whole expression (a
    // three-source combineLatest of mapped relays with a result closure: 221 358
    // solver scopes, 38 380 with this). The concrete method was already the one
    // chosen; a type that has none still gets this one.
    @_alwaysEmitIntoClient
    @_disfavoredOverload
    public func asObservable() -> Observable<Element> {
        Producer { observer in
            // Guarded like `create`: nothing passes after a terminal event or after
            // the subscription is disposed, whatever the custom type does.
            let sink = AnonymousSink(observer: observer)
            sink.setUpstream(disposable: self.subscribe(AnyObserver { sink.on($0) }))
            return sink
        }
    }
}
