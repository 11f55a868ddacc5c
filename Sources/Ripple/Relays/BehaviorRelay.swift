/// A ``BehaviorSubject`` that can neither error nor complete: it always has a
/// ``value``, replayed to each new subscriber.
///
/// ```swift
/// let query = BehaviorRelay(value: "")
/// query.accept("ripple")
/// print(query.value) // "ripple"
/// ```
public final class BehaviorRelay<Element>: ObservableType, @unchecked Sendable {
    @usableFromInline
    let subject: BehaviorSubject<Element>

    /// Creates a relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
        subject.graphLabel = SiteLiteral(label: "BehaviorRelay")
    }

    /// Makes `element` the current value and broadcasts it.
    @_alwaysEmitIntoClient
    public func accept(_ element: Element) {
        subject.onNext(element)
    }

    /// The current value.
    public var value: Element {
        // A relay's subject is never terminated or disposed, so `value()` cannot throw.
        // swiftlint:disable:next force_try
        try! subject.value()
    }

    /// Subscribes `observer`; it receives the current value first.
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
