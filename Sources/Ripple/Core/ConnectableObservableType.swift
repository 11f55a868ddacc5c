/// An observable sequence that shares one subscription to its source between all
/// its subscribers, and subscribes to that source only when ``connect()`` is called.
///
/// Subscribing to a connectable sequence only registers the observer; the source
/// starts producing when somebody connects. Disposing the connection unsubscribes
/// from the source. ``refCount()`` connects automatically while somebody is
/// subscribed.
///
/// ```
/// source:              --1--2--3--4--|
/// publish():               ^connect()
/// subscriber A:        ------2--3--4--|
/// ```
///
/// Conform your own types by implementing `subscribe(_:)` and `connect()`; the
/// operators (``refCount()``, every `ObservableType` operator) come for free.
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the shared subscription to the source, if it is not subscribed
    /// already.
    ///
    /// - Returns: The connection. Dispose it to unsubscribe from the source; the
    ///   subscribers stay subscribed and receive the events of a later connection.
    ///   Calling `connect()` while connected returns the current connection.
    func connect() -> Disposable
}

/// The concrete connectable sequence that ``ObservableType/multicast(_:)``,
/// ``ObservableType/publish()``, ``ObservableType/replay(_:)`` and
/// ``ObservableType/replayAll()`` return.
///
/// It is an ``Observable``, so every operator applies to it; see
/// ``ConnectableObservableType`` for how connecting works.
///
/// ```
/// let published = source.publish()
/// published.subscribe(onNext: { print($0) }).disposed(by: bag)
/// published.connect().disposed(by: bag)      // the source starts here
/// ```
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType, @unchecked Sendable {
    // Subscribed without the trampoline, as RxSwift's connectable observables
    // are (``ObservableKind/direct``).
    @_alwaysEmitIntoClient
    override init() {
        super.init(kind: .direct, site: .none)
    }

    @_alwaysEmitIntoClient
    init(site: SiteLiteral) {
        super.init(kind: .direct, site: site)
    }

    /// Subscribes to the source (once) and shares its events with every subscriber.
    ///
    /// - Returns: The connection; dispose it to unsubscribe from the source.
    @_alwaysEmitIntoClient
    public func connect() -> Disposable {
        fatalError("ConnectableObservable.connect() is abstract; \(type(of: self)) must override it")
    }
}
