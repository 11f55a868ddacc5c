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
    case argumentOutOfRange
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
        case .argumentOutOfRange:
            return "Argument out of range."
        case .noElements:
            return "Sequence doesn't contain any elements."
        case .moreThanOneElement:
            return "Sequence contains more than one element."
        case .timeout:
            return "Sequence timeout."
        }
    }
}

extension RxError: CustomStringConvertible {
    /// Same as ``debugDescription``.
    public var description: String { debugDescription }
}
