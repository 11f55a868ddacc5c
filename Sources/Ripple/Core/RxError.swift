import Foundation

/// The errors Ripple's own operators produce.
public enum RxError: Swift.Error, CustomDebugStringConvertible, @unchecked Sendable {
    /// An unknown error.
    case unknown
    /// An operation was performed on a disposed object (for example subscribing to a
    /// disposed subject).
    case disposed(object: AnyObject)
    /// An arithmetic overflow.
    case overflow
    /// An argument was out of its accepted range (for example a negative count).
    ///
    /// Ripple's operators say which argument of which call: `take(-1)` fails with
    /// "Argument out of range: count = -1 in take(_:); it must be 0 or more." Match
    /// the case as in RxSwift, without the detail: `catch RxError.argumentOutOfRange`,
    /// `case .argumentOutOfRange:`; ``argumentOutOfRange`` is the value without a
    /// detail, for code that throws it.
    case argumentOutOfRange(OutOfRangeArgument)
    /// A sequence that had to contain at least one element was empty.
    case noElements
    /// A sequence that had to contain at most one element contained more.
    case moreThanOneElement
    /// A timeout operator's time elapsed before the next event.
    case timeout

    /// A description worded as in RxSwift.
    public var debugDescription: String {
        switch self {
        case .unknown:
            return "Unknown error occurred."
        case .disposed(let object):
            return "Object `\(object)` was already disposed."
        case .overflow:
            return "Arithmetic overflow occurred."
        case .argumentOutOfRange(let argument):
            guard let name = argument.name else { return "Argument out of range." }
            return "Argument out of range: \(name) = \(argument.value) in \(argument.operation); \(argument.requirement)."
        case .noElements:
            return "Sequence doesn't contain any elements."
        case .moreThanOneElement:
            return "Sequence contains more than one element."
        case .timeout:
            return "Sequence timeout."
        }
    }
}

extension RxError {
    /// An argument out of its accepted range, with no detail: what RxSwift's
    /// payload-free `RxError.argumentOutOfRange` is, for code that throws it.
    ///
    /// Ripple's own operators fail with a detailed value of the same case; the two
    /// match the same patterns, and RippleTest's event comparisons treat them as
    /// equal.
    public static var argumentOutOfRange: RxError { .argumentOutOfRange(OutOfRangeArgument()) }

    /// The detail of ``RxError/argumentOutOfRange(_:)``: which argument of which
    /// call, and what it must be.
    public struct OutOfRangeArgument: Sendable, Hashable {
        /// The operation, as Swift names it: `"take(_:)"`, `"buffer(timeSpan:count:scheduler:)"`.
        public var operation: String
        /// The argument's name (`"count"`), or `nil` when nothing more is known.
        public var name: String?
        /// The value it had, as text: `"-1"`.
        public var value: String
        /// What it must be, as a clause: `"it must be 0 or more"`.
        public var requirement: String

        /// No detail: what ``RxError/argumentOutOfRange`` holds.
        public init() {
            self.operation = ""
            self.name = nil
            self.value = ""
            self.requirement = ""
        }

        /// The detail of an invalid argument.
        ///
        /// - Parameters:
        ///   - operation: The operation, as Swift names it: `"take(_:)"`.
        ///   - name: The argument's name: `"count"`.
        ///   - value: The value it had.
        ///   - requirement: What it must be, as a clause: `"it must be 0 or more"`.
        public init(operation: String, name: String, value: some Any, requirement: String) {
            self.operation = operation
            self.name = name
            self.value = String(describing: value)
            self.requirement = requirement
        }
    }

    /// An ``argumentOutOfRange(_:)`` error for a count or an index below `minimum`.
    @usableFromInline
    static func argumentOutOfRange(_ operation: String, _ name: String, _ value: Int, minimum: Int) -> RxError {
        .argumentOutOfRange(OutOfRangeArgument(
            operation: operation, name: name, value: value, requirement: "it must be \(minimum) or more"
        ))
    }
}

extension RxError: CustomStringConvertible {
    /// Same as ``debugDescription``.
    public var description: String { debugDescription }
}

extension RxError: LocalizedError {
    /// Same as ``debugDescription``, so that `localizedDescription` says what went
    /// wrong (on Linux it would otherwise be "The operation could not be completed").
    public var errorDescription: String? { debugDescription }
}
