/// A ``PublishSubject`` that can neither error nor complete: safe to bind UI
/// state to, because its subscribers can never be terminated by it.
///
/// ```swift
/// let taps = PublishRelay<Void>()
/// taps.accept(())
/// ```
public final class PublishRelay<Element>: ObservableType, @unchecked Sendable {
    @usableFromInline
    let subject: PublishSubject<Element>

    /// Creates a relay.
    public init() {
        subject = PublishSubject()
        subject.graphLabel = SiteLiteral(label: "PublishRelay")
    }

    /// Broadcasts `element` to the current subscribers.
    @_alwaysEmitIntoClient
    public func accept(_ element: Element) {
        subject.onNext(element)
    }

    /// Subscribes `observer`.
    @_alwaysEmitIntoClient
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an ``Observable`` (which never errors or completes).
    @_alwaysEmitIntoClient
    public func asObservable() -> Observable<Element> {
        subject
    }
}
