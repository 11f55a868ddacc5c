/// A ``ReplaySubject`` that can neither error nor complete.
public final class ReplayRelay<Element>: ObservableType, @unchecked Sendable {
    @usableFromInline
    let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) {
        self.subject = subject
        subject.graphLabel = SiteLiteral(label: "ReplayRelay")
    }

    /// A relay that replays at most `bufferSize` of the latest elements.
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.create(bufferSize: bufferSize))
    }

    /// A relay that replays every element.
    public static func createUnbounded() -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.createUnbounded())
    }

    /// Buffers and broadcasts `element`.
    @_alwaysEmitIntoClient
    public func accept(_ element: Element) {
        subject.onNext(element)
    }

    /// Subscribes `observer`; it receives the buffered elements first.
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
