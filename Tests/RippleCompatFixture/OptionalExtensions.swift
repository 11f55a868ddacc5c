// Declarations in the shape RxOptional and RxSwiftExt give them, for checking that
// a file importing Ripple and such a library compiles and uses the library's
// `OptionalType` and `filterNil()`. A test-only module, not a product.
import Ripple
import Synchronization

/// An optional value, as the helper libraries declare it.
public protocol OptionalType {
    associatedtype Wrapped
    var value: Wrapped? { get }
}

extension Optional: OptionalType {
    public var value: Wrapped? { self }
}

extension ObservableType where Element: OptionalType {
    /// Unwraps the elements and skips the `nil`s (the helper library's version).
    public func filterNil() -> Observable<Element.Wrapped> {
        FixtureCalls.filterNil.withLock { $0 += 1 }
        return flatMap { element -> Observable<Element.Wrapped> in
            element.value.map { Observable.just($0) } ?? Observable.empty()
        }
    }
}

/// Counts the calls of this module's operators, so that tests can tell which
/// declaration a call resolved to.
public enum FixtureCalls {
    public static let filterNil = Mutex(0)
}
