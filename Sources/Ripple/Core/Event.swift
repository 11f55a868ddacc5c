/// A single notification of an observable sequence.
///
/// A sequence sends any number of ``next(_:)`` events followed by at most one
/// terminal event, ``error(_:)`` or ``completed``. Nothing is delivered after a
/// terminal event:
///
/// ```
/// next* (error | completed)?
/// ```
@frozen
public enum Event<Element> {
    /// The next element of the sequence.
    case next(Element)
    /// The sequence failed with `error`; no further events follow.
    case error(Swift.Error)
    /// The sequence finished successfully; no further events follow.
    case completed
}

extension Event: Sendable where Element: Sendable {}

extension Event: CustomDebugStringConvertible {
    /// `next(1)`, `error(...)` or `completed`, as RxSwift prints them.
    public var debugDescription: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

extension Event {
    /// `true` for `.error` and `.completed`.
    @_alwaysEmitIntoClient
    public var isStopEvent: Bool {
        switch self {
        case .next: return false
        case .error, .completed: return true
        }
    }

    /// The element of a `.next` event, `nil` otherwise.
    @_alwaysEmitIntoClient
    public var element: Element? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error of an `.error` event, `nil` otherwise.
    @_alwaysEmitIntoClient
    public var error: Swift.Error? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// `true` only for `.completed`.
    @_alwaysEmitIntoClient
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Transforms the element of a `.next` event; an error thrown by `transform`
    /// becomes an `.error` event. Terminal events pass through unchanged.
    @_alwaysEmitIntoClient
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        switch self {
        case .next(let element):
            do { return .next(try transform(element)) } catch { return .error(error) }
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }
}

/// A type that can be turned into an ``Event`` (used by `dematerialize()`).
public protocol EventConvertible {
    /// The element type of the event.
    associatedtype Element
    /// The event this value represents.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    public var event: Event<Element> { self }
}
