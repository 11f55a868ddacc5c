import Foundation
import Ripple

/// Compares two errors: equal if they are of the same `Equatable` type and `==`,
/// otherwise if they have the same type and the same description.
///
/// `RxError.argumentOutOfRange` without a detail (RxSwift's spelling, as tests
/// write it) equals every `RxError.argumentOutOfRange(_:)`, whatever its detail.
func errorsAreEqual(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    if case .argumentOutOfRange(let left)? = lhs as? RxError, case .argumentOutOfRange(let right)? = rhs as? RxError {
        let unspecified = RxError.OutOfRangeArgument()
        return left == unspecified || right == unspecified || left == right
    }
    if let equatable = (lhs as Any) as? any Equatable, let result = isEqual(equatable, rhs) {
        return result
    }
    return type(of: lhs) == type(of: rhs) && String(reflecting: lhs) == String(reflecting: rhs)
}

private func isEqual<Left: Equatable>(_ lhs: Left, _ rhs: Any) -> Bool? {
    guard let rhs = rhs as? Left else { return false }
    return lhs == rhs
}

extension Event: Equatable where Element: Equatable {
    /// Events are equal when they are the same kind with equal elements; errors are
    /// equal when they are `==` (for `Equatable` errors) or have the same type and
    /// description.
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.next(let left), .next(let right)): return left == right
        case (.error(let left), .error(let right)): return errorsAreEqual(left, right)
        case (.completed, .completed): return true
        default: return false
        }
    }
}

extension MaybeEvent: Equatable where Element: Equatable {
    /// Compared like ``Event``.
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.success(let left), .success(let right)): return left == right
        case (.error(let left), .error(let right)): return errorsAreEqual(left, right)
        case (.completed, .completed): return true
        default: return false
        }
    }
}

extension CompletableEvent: Equatable {
    /// Compared like ``Event``.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.error(let left), .error(let right)): return errorsAreEqual(left, right)
        case (.completed, .completed): return true
        default: return false
        }
    }
}

/// `Result` equality that compares errors like `Event` does (for `SingleEvent`).
public func == <Element: Equatable>(lhs: SingleEvent<Element>, rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let left), .success(let right)): return left == right
    case (.failure(let left), .failure(let right)): return errorsAreEqual(left, right)
    default: return false
    }
}
