/// A resource that can be released, most often a subscription.
///
/// Disposing a subscription means "stop listening": no event reaches the observer
/// after `dispose()` has returned, and every resource the subscription held is
/// released. Disposing twice has no further effect.
///
/// ## Sendable
///
/// A disposable is `Sendable`: a subscription is often created on one thread or
/// actor and disposed on another (a `DisposeBag` deallocated elsewhere, a
/// `Task` that cancels it later), so `any Disposable` can be stored in `Sendable`
/// types and captured by `@Sendable` closures. Every Ripple disposable protects its
/// state with a lock or an atomic.
///
/// A type of yours that conforms must be safe to dispose from any thread: a
/// `final class` whose mutable state is behind a lock (declare it
/// `@unchecked Sendable`), a `Sendable` struct, or an actor-free wrapper of
/// Ripple disposables. The protocol is `@preconcurrency`, as Sendable was added
/// after RxSwift's API: in Swift 5 language mode a conformer gets no new
/// diagnostics; in Swift 6 mode the compiler checks the conformance (mutable
/// stored properties are reported as warnings).
@preconcurrency
public protocol Disposable: Sendable {
    /// Releases the resource. Idempotent and thread-safe for every Ripple type.
    func dispose()
}

/// A ``Disposable`` that can tell whether it has already been disposed.
///
/// `Sendable`, like every ``Disposable``.
@preconcurrency
public protocol Cancelable: Disposable {
    /// `true` once ``Disposable/dispose()`` has been called.
    var isDisposed: Bool { get }
}
