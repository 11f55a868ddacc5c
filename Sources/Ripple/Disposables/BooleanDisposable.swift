/// A disposable that only records whether it has been disposed.
public final class BooleanDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    @exclusivity(unchecked) private final var disposed: AtomicCell<Bool>

    /// A disposable that is not disposed yet.
    public override init() {
        disposed = AtomicCell(false)
        super.init()
    }

    /// A disposable whose initial state is `isDisposed`.
    public init(isDisposed: Bool) {
        disposed = AtomicCell(isDisposed)
        super.init()
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        AtomicCell.load(&disposed, ordering: .acquiring)
    }

    /// Marks the disposable as disposed.
    public func dispose() {
        AtomicCell.store(&disposed, true, ordering: .releasing)
    }
}
