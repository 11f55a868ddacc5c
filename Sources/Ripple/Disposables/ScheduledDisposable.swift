/// Disposes its underlying disposable on a given scheduler (for example, so that a
/// resource is released on the queue that owns it).
public final class ScheduledDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    /// The scheduler the disposal runs on.
    public let scheduler: ImmediateSchedulerType

    @exclusivity(unchecked) private final var disposed: AtomicCell<Bool>
    private let inner: LockedState<Disposable?>

    /// Disposes `disposable` on `scheduler` when this object is disposed.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        disposed = AtomicCell(false)
        self.scheduler = scheduler
        self.inner = LockedState(disposable)
        super.init()
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        AtomicCell.load(&disposed, ordering: .acquiring)
    }

    /// Schedules the disposal of the underlying disposable.
    public func dispose() {
        if AtomicCell.exchange(&disposed, true, ordering: .acquiringAndReleasing) { return }
        _ = scheduler.schedule(self) { scheduled in
            let disposable = scheduled.inner.withLock { inner -> Disposable? in
                defer { inner = nil }
                return inner
            }
            disposable?.dispose()
            return Disposables.create()
        }
    }
}
