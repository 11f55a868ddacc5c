import Foundation

/// A data source that can return the model at an index path: what
/// `rx.modelSelected(_:)` and `rx.model(at:)` ask the data source of a table or
/// collection view bound with `rx.items`. RxCocoa's protocol.
public protocol SectionedViewDataSourceType {
    /// The model shown at `indexPath`; throws ``RxCocoaError/itemsNotYetBound(object:)``
    /// before the first elements arrived. Called on the main actor, where list
    /// views and their data sources live.
    @MainActor
    func model(at indexPath: IndexPath) throws -> Any
}

/// RxCocoa's errors, for the cases RippleCocoa can meet.
public enum RxCocoaError: Error, @unchecked Sendable, CustomDebugStringConvertible {
    /// Unknown error.
    case unknown
    /// An operation the object does not support.
    case invalidOperation(object: Any)
    /// `model(at:)` was asked before the items were bound.
    case itemsNotYetBound(object: Any)
    /// A value of the wrong type.
    case castingError(object: Any, targetType: Any.Type)

    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .invalidOperation(let object): return "Invalid operation was attempted on `\(object)`."
        case .itemsNotYetBound(let object): return "Data source is set, but items are not yet bound to user interface for `\(object)`."
        case .castingError(let object, let targetType): return "Error casting `\(object)` to `\(targetType)`"
        }
    }
}
