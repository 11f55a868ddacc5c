/// An observable sequence with a restricted shape, described by `Trait`:
/// ``Single`` (exactly one element or an error), ``Maybe`` (at most one element)
/// and ``Completable`` (no elements, just completion or an error).
///
/// A primitive sequence wraps an ``Observable``; ``asObservable()`` gives it back
/// with all operators.
public struct PrimitiveSequence<Trait, Element>: @unchecked Sendable {
    @usableFromInline
    let source: Observable<Element>

    /// Wraps `source`, which must respect the trait's shape.
    @_alwaysEmitIntoClient
    init(raw source: Observable<Element>) {
        self.source = source
    }
}

/// A type that is a primitive sequence (used to constrain extensions).
public protocol PrimitiveSequenceType {
    /// The trait describing the sequence's shape.
    associatedtype Trait
    /// The element type.
    associatedtype Element

    /// The sequence itself.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// `self`.
    @_alwaysEmitIntoClient
    public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The sequence as an ``Observable``.
    @_alwaysEmitIntoClient
    public func asObservable() -> Observable<Element> {
        source
    }
}

/// The trait of ``Single``: exactly one element, or an error.
public enum SingleTrait {}

/// A sequence of exactly one element, or an error.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// The outcome of a ``Single``.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

/// The trait of ``Maybe``: one element, no element, or an error.
public enum MaybeTrait {}

/// A sequence of at most one element, or an error.
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// The outcome of a ``Maybe``.
@frozen
public enum MaybeEvent<Element> {
    // `indirect`: built once per `Maybe`; docs/Performance.md, "Boxed payloads".
    /// One element, then completion.
    indirect case success(Element)
    /// Failure.
    case error(Swift.Error)
    /// Completion without an element.
    case completed
}

extension MaybeEvent: Sendable where Element: Sendable {}

/// The trait of ``Completable``: completion or an error, no elements.
public enum CompletableTrait {}

/// A sequence without elements that completes or fails.
public typealias Completable = PrimitiveSequence<CompletableTrait, Swift.Never>

/// The outcome of a ``Completable``.
@frozen
public enum CompletableEvent {
    /// Failure.
    case error(Swift.Error)
    /// Success.
    case completed
}
