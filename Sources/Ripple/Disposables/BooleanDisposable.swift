import Synchronization

/// A disposable that only records whether it has been disposed.
public final class BooleanDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    private let disposed: Atomic<Bool>

    /// A disposable that is not disposed yet.
    public override init() {
        disposed = Atomic(false)
        super.init()
    }

    /// A disposable whose initial state is `isDisposed`.
    public init(isDisposed: Bool) {
        disposed = Atomic(isDisposed)
        super.init()
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    /// Marks the disposable as disposed.
    public func dispose() {
        disposed.store(true, ordering: .releasing)
    }
}
