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

    @_alwaysEmitIntoClient
    @inline(__always)
    static func incrementTotal() {
        #if DEBUG
        AtomicCell.add(&_resourceCount, 1, ordering: .relaxed)
        #endif
    }

    @_alwaysEmitIntoClient
    @inline(__always)
    static func decrementTotal() {
        #if DEBUG
        AtomicCell.subtract(&_resourceCount, 1, ordering: .releasing)
        #endif
    }
}

@usableFromInline
@exclusivity(unchecked) nonisolated(unsafe) var _resourceCount = AtomicCell<Int>(0)
