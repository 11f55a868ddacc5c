import Synchronization

/// The base of every subscription object Ripple creates.
///
/// It owns the subscription to its upstream and an atomic state word, so that
/// `dispose()` may race with the upstream subscription being attached: whichever
/// comes second disposes the upstream. Subclasses release their own resources in
/// ``disposeResources()``, which runs exactly once.
@usableFromInline
class SubscriptionBase: Cancelable, @unchecked Sendable {
    @usableFromInline static var disposedFlag: Int { 1 }
    @usableFromInline static var upstreamFlag: Int { 2 }

    @usableFromInline
    final let lifecycle = Atomic<Int>(0)

    /// Written once, before `upstreamFlag` is published; read by `dispose()` only
    /// after it has observed `upstreamFlag`. A class reference (not a `Disposable`
    /// existential) so that attaching and disposing cost no boxing.
    @usableFromInline
    @exclusivity(unchecked)
    final var upstream: SubscriptionBase?

    @inlinable
    init() {
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    /// `true` once disposed, either explicitly or because the stream terminated.
    @inlinable
    public final var isDisposed: Bool {
        lifecycle.load(ordering: .acquiring) & SubscriptionBase.disposedFlag != 0
    }

    /// Attaches the subscription to the upstream (`nil` when the upstream holds
    /// nothing to release). If this subscription has already been disposed, the
    /// upstream is disposed at once.
    @inlinable
    final func setUpstream(_ subscription: SubscriptionBase?) {
        upstream = subscription
        let old = lifecycle.bitwiseOr(SubscriptionBase.upstreamFlag, ordering: .acquiringAndReleasing).oldValue
        if old & SubscriptionBase.disposedFlag != 0 {
            upstream = nil
            subscription?.dispose()
        }
    }

    /// Attaches any `Disposable` as the upstream.
    @inlinable
    final func setUpstream(disposable: Disposable) {
        setUpstream(SubscriptionBase.wrap(disposable))
    }

    /// `disposable` as a ``SubscriptionBase``: itself if it is one, else an adapter.
    @usableFromInline
    static func wrap(_ disposable: Disposable) -> SubscriptionBase? {
        if let subscription = disposable as? SubscriptionBase {
            return subscription
        }
        if disposable is NopDisposable {
            return nil
        }
        return DisposableAdapter(disposable)
    }

    /// Disposes the upstream subscription and this subscription's own resources.
    @inlinable
    @inline(never)
    public final func dispose() {
        let old = lifecycle.bitwiseOr(SubscriptionBase.disposedFlag, ordering: .acquiringAndReleasing).oldValue
        if old & SubscriptionBase.disposedFlag != 0 { return }
        if old & SubscriptionBase.upstreamFlag != 0 {
            let disposable = upstream
            upstream = nil
            disposable?.dispose()
        }
        disposeResources()
    }

    /// Releases what a subclass holds besides its upstream. Called once, on the
    /// thread that disposes.
    @usableFromInline
    func disposeResources() {}
}

/// A subscription that forwards events to a downstream observer.
///
/// Operators subclass it: the subclass receives upstream events (through a closure
/// built where the operator was applied, so the code is specialised for the
/// concrete element types), transforms them and calls ``forwardNext(_:)`` or
/// ``forwardTerminal(_:)``. A terminal event disposes the sink, which releases the
/// upstream subscription.
@usableFromInline
class Sink<Output>: SubscriptionBase, @unchecked Sendable {
    @usableFromInline
    let observer: AnyObserver<Output>

    @inlinable
    init(observer: AnyObserver<Output>) {
        self.observer = observer
        super.init()
    }

    /// Forwards an element unless the sink was disposed.
    @inlinable
    @inline(__always)
    final func forwardNext(_ element: Output) {
        if !isDisposed {
            observer.on(.next(element))
        }
    }

    /// Forwards an event unless the sink was disposed; a terminal event also
    /// disposes the sink.
    @inlinable
    final func forward(_ event: Event<Output>) {
        switch event {
        case .next(let element):
            forwardNext(element)
        case .error, .completed:
            forwardTerminal(event)
        }
    }

    /// Forwards a terminal event (unless the sink was disposed), then disposes the
    /// sink.
    @inlinable
    final func forwardTerminal(_ event: Event<Output>) {
        if !isDisposed {
            observer.on(event)
        }
        dispose()
    }

    /// Forwards `.error(error)` and disposes.
    @inlinable
    final func forwardError(_ error: Swift.Error) {
        forwardTerminal(.error(error))
    }

    /// Forwards `.completed` and disposes.
    @inlinable
    final func forwardCompleted() {
        forwardTerminal(.completed)
    }
}

/// Holds a foreign `Disposable` (one returned by user code or a scheduler) in the
/// upstream chain.
@usableFromInline
final class DisposableAdapter: SubscriptionBase, @unchecked Sendable {
    @usableFromInline
    let disposable: Disposable

    @usableFromInline
    init(_ disposable: Disposable) {
        self.disposable = disposable
        super.init()
    }

    @usableFromInline
    override func disposeResources() {
        disposable.dispose()
    }
}
