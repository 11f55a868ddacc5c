/// A resource that can be released, most often a subscription.
///
/// Disposing a subscription means "stop listening": no event reaches the observer
/// after `dispose()` has returned, and every resource the subscription held is
/// released. Disposing twice has no further effect.
public protocol Disposable {
    /// Releases the resource. Idempotent and thread-safe for every Ripple type.
    func dispose()
}

/// A ``Disposable`` that can tell whether it has already been disposed.
public protocol Cancelable: Disposable {
    /// `true` once ``Disposable/dispose()`` has been called.
    var isDisposed: Bool { get }
}
