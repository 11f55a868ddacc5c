// Declarations in the shape RxOptional and RxSwiftExt give them, for checking that
// a file importing Ripple and such a library compiles and uses the library's
// `OptionalType` and `filterNil()`. A test-only module, not a product.
import Foundation
import Ripple

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
    public static let filterNil = CallCount()
}

/// A count behind a lock, used like `Mutex<Int>` (`withLock`), which needs
/// macOS 15 / iOS 18 where this module builds for Ripple's minimum.
public final class CallCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    public func withLock<Result>(_ body: (inout Int) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&count)
    }
}
