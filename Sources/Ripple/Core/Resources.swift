/// Counts Ripple's live resources so that tests can prove nothing leaked.
///
/// Every observable, subject, subscription (sink) and disposable object Ripple
/// creates increments ``total`` while it is alive. A test records the value before it
/// runs and asserts that the value is the same afterwards; `RippleTest` has helpers
/// that do this and name what leaked.
///
/// Counting is compiled into debug builds only (what `swift test` builds). In
/// release builds the counter is never touched, ``isTracking`` is `false` and
/// ``total`` stays `0`, so production code pays nothing.
public enum Resources {
    /// The number of live Ripple resources (always `0` in release builds).
    public static var total: Int32 {
        Int32(truncatingIfNeeded: AtomicCell.load(&_resourceCount, ordering: .acquiring))
    }

    /// `true` when this build counts resources (debug builds).
    public static var isTracking: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    /// Counts one more live resource and returns the new ``total``.
    ///
    /// Ripple calls it for each object it creates; a type of your own (a
    /// custom `Disposable`, an operator's sink) can be counted the same way,
    /// as RxSwift's `Resources.incrementTotal()` counts it under
    /// `TRACE_RESOURCES`: call this when one is created and
    /// ``decrementTotal()`` when it is released, and a test that leaks one
    /// sees ``total`` above where it started. In release builds it does
    /// nothing and returns `0`.
    ///
    /// ```swift
    /// final class Lease: Disposable {
    ///     init() { _ = Resources.incrementTotal() }
    ///     deinit { _ = Resources.decrementTotal() }
    ///     func dispose() {}
    /// }
    /// ```
    @_alwaysEmitIntoClient
    @inline(__always)
    @discardableResult
    public static func incrementTotal() -> Int32 {
        #if DEBUG
        return Int32(truncatingIfNeeded: AtomicCell.add(&_resourceCount, 1, ordering: .relaxed).newValue)
        #else
        return 0
        #endif
    }

    /// Counts one live resource fewer and returns the new ``total``: the
    /// other half of ``incrementTotal()``. In release builds it does nothing
    /// and returns `0`.
    @_alwaysEmitIntoClient
    @inline(__always)
    @discardableResult
    public static func decrementTotal() -> Int32 {
        #if DEBUG
        return Int32(truncatingIfNeeded: AtomicCell.subtract(&_resourceCount, 1, ordering: .releasing).newValue)
        #else
        return 0
        #endif
    }
}

@usableFromInline
@exclusivity(unchecked) nonisolated(unsafe) var _resourceCount = AtomicCell<Int>(0)
