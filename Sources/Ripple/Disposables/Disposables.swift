/// Factory methods for common disposables.
public enum Disposables {
    /// A disposable that does nothing when disposed.
    @_alwaysEmitIntoClient
    public static func create() -> Disposable {
        NopDisposable.noOp
    }

    /// A disposable that runs `dispose` once, on the first call to `dispose()`, and
    /// then releases the closure.
    ///
    /// The closure runs on the thread that disposes, which may not be the one that
    /// created it. Like the closures of `subscribe(onDisposed:)` and `do(onDispose:)`
    /// it is not required to be `@Sendable`, so RxSwift code such as
    /// `Disposables.create { cancelled = true }` keeps compiling in both language
    /// modes; the disposable itself is `Sendable` (the closure is taken out under a
    /// lock and called at most once). Capture thread-safe state, or dispose on the
    /// closure's own thread or actor.
    public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both arguments.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes all three arguments.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) -> Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes all arguments.
    public static func create(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposables: Disposable...
    ) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }

    /// A disposable that disposes every element of `disposables`.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        switch disposables.count {
        case 2: return BinaryDisposable(disposables[0], disposables[1])
        default: return CompositeDisposable(disposables: disposables)
        }
    }
}

/// The disposable that does nothing.
@usableFromInline
struct NopDisposable: Disposable, Sendable {
    @usableFromInline
    static let noOp: any Disposable & Sendable = NopDisposable()

    @_alwaysEmitIntoClient
    init() {}

    @_alwaysEmitIntoClient
    func dispose() {}
}

/// Base class of Ripple's disposable objects: counts them in ``Resources``.
public class DisposeBase: @unchecked Sendable {
    init() {
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }
}

/// Runs an action once, then drops it.
@usableFromInline
final class AnonymousDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    @exclusivity(unchecked) private final var disposed: AtomicCell<Bool>
    private let action: LockedState<(() -> Void)?>

    @usableFromInline
    init(_ action: @escaping () -> Void) {
        disposed = AtomicCell(false)
        self.action = LockedState(action)
        super.init()
    }

    @usableFromInline
    var isDisposed: Bool {
        AtomicCell.load(&disposed, ordering: .acquiring)
    }

    @usableFromInline
    func dispose() {
        if AtomicCell.exchange(&disposed, true, ordering: .acquiringAndReleasing) { return }
        let action = self.action.withLock { action -> (() -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }
}

/// Disposes two disposables, once.
@usableFromInline
final class BinaryDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    @exclusivity(unchecked) private final var disposed: AtomicCell<Bool>
    private let pair: LockedState<(Disposable?, Disposable?)>

    @usableFromInline
    init(_ first: Disposable, _ second: Disposable) {
        disposed = AtomicCell(false)
        pair = LockedState((first, second))
        super.init()
    }

    @usableFromInline
    var isDisposed: Bool {
        AtomicCell.load(&disposed, ordering: .acquiring)
    }

    @usableFromInline
    func dispose() {
        if AtomicCell.exchange(&disposed, true, ordering: .acquiringAndReleasing) { return }
        let (first, second) = pair.withLock { pair -> (Disposable?, Disposable?) in
            defer { pair = (nil, nil) }
            return pair
        }
        first?.dispose()
        second?.dispose()
    }
}
