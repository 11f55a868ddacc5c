/// Disposes an underlying disposable only once it has been disposed itself *and*
/// every disposable handed out by ``retain()`` has been disposed.
public final class RefCountDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    /// The guarded disposable, whether the primary disposal happened, and the
    /// number of outstanding references (a tuple: see "State is a tuple" in
    /// docs/Architecture.md).
    private typealias State = (disposable: Disposable?, primaryDisposed: Bool, count: Int)

    private let state: LockedState<State>

    /// Guards `disposable`.
    public init(disposable: Disposable) {
        state = LockedState((disposable: disposable, primaryDisposed: false, count: 0))
        super.init()
    }

    /// `true` once the underlying disposable has been disposed.
    public var isDisposed: Bool {
        state.withLock { $0.disposable == nil }
    }

    /// A dependent disposable: the underlying one is not disposed while it lives.
    /// Retaining after the underlying disposable was disposed returns a no-op.
    public func retain() -> Disposable {
        let retained = state.withLock { state -> Bool in
            guard state.disposable != nil else { return false }
            state.count += 1
            return true
        }
        guard retained else { return Disposables.create() }
        return Disposables.create(with: { [self] in release() })
    }

    /// Marks the primary reference as disposed; disposes the underlying disposable
    /// if no dependent is alive.
    public func dispose() {
        let toDispose = state.withLock { state -> Disposable? in
            guard let disposable = state.disposable, !state.primaryDisposed else { return nil }
            state.primaryDisposed = true
            guard state.count == 0 else { return nil }
            state.disposable = nil
            return disposable
        }
        toDispose?.dispose()
    }

    private func release() {
        let toDispose = state.withLock { state -> Disposable? in
            guard let disposable = state.disposable else { return nil }
            state.count -= 1
            guard state.count == 0, state.primaryDisposed else { return nil }
            state.disposable = nil
            return disposable
        }
        toDispose?.dispose()
    }
}
