/// A type that receives the events of an observable sequence.
///
/// Conform your own types by implementing ``on(_:)``; `onNext`, `onError` and
/// `onCompleted` come for free. Ripple never calls `on(_:)` concurrently for one
/// subscription and never after a terminal event.
public protocol ObserverType {
    /// The type of elements the observer accepts.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Sends `.next(element)`.
    @_alwaysEmitIntoClient
    public func onNext(_ element: Element) {
        on(.next(element))
    }

    /// Sends `.completed`.
    @_alwaysEmitIntoClient
    public func onCompleted() {
        on(.completed)
    }

    /// Sends `.error(error)`.
    @_alwaysEmitIntoClient
    public func onError(_ error: Swift.Error) {
        on(.error(error))
    }

    /// Erases this observer to ``AnyObserver``.
    @_alwaysEmitIntoClient
    public func asObserver() -> AnyObserver<Element> {
        AnyObserver(self)
    }

    /// An observer that transforms each element with `transform` before handing it
    /// to this observer. Terminal events pass through unchanged; if `transform`
    /// throws, this observer receives the error.
    @_alwaysEmitIntoClient
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver { event in
            self.on(event.map(transform))
        }
    }
}

/// A type-erased observer: forwards every event to a closure or to another observer.
///
/// `AnyObserver` is also Ripple's internal currency between operators: an operator
/// subscribes to its source with an `AnyObserver` whose closure was built in the
/// caller's module, so the whole event path can be specialised for concrete types.
@frozen
public struct AnyObserver<Element>: ObserverType, @unchecked Sendable {
    /// The closure type that handles an event.
    public typealias EventHandler = (Event<Element>) -> Void

    @usableFromInline
    internal let observer: EventHandler

    /// Creates an observer that hands every event to `eventHandler` (Swift 5
    /// language mode: `eventHandler` runs where the events arrive, as in RxSwift).
    @available(swift, obsoleted: 6)
    @_alwaysEmitIntoClient
    public init(eventHandler: @escaping EventHandler) {
        self.observer = eventHandler
    }

    /// Creates an observer that hands every event to `eventHandler`.
    ///
    /// - Isolation: created in main-actor code in Swift 6 (top-level code, a
    ///   `@MainActor` type), `eventHandler` belongs to the main actor and runs
    ///   there only, as the subscribe family's handlers do: an event that arrives
    ///   elsewhere stops a debug build with a message naming the fix, and is
    ///   reported and delivered on the main queue in a release build (see "Main-actor
    ///   code and background events" in the Swift concurrency guide). Created in
    ///   nonisolated code (every operator's observer), it costs nothing more.
    @available(swift, introduced: 6)
    @_alwaysEmitIntoClient
    public init(eventHandler: @escaping EventHandler, isolation: (any Actor)? = #isolation) {
        if let gate = MainActorGate.forSubscriber(isolation, "AnyObserver.init(eventHandler:)") {
            self.observer = gate.handler(eventHandler)
        } else {
            self.observer = eventHandler
        }
    }

    /// Wraps `observer`.
    @_alwaysEmitIntoClient
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        if let erased = observer as? AnyObserver<Element> {
            self = erased
        } else {
            self.observer = { observer.on($0) }
        }
    }

    /// Forwards `event` to the wrapped handler.
    @_alwaysEmitIntoClient
    public func on(_ event: Event<Element>) {
        observer(event)
    }

    /// Returns `self`.
    @_alwaysEmitIntoClient
    public func asObserver() -> AnyObserver<Element> {
        self
    }
}
