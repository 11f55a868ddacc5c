/// A disposable whose underlying disposable can be replaced: assigning a new one
/// disposes the previous one. After `dispose()`, anything assigned is disposed
/// immediately.
public final class SerialDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    /// The current disposable and whether this one is disposed (a tuple: see "State
    /// is a tuple" in docs/Architecture.md).
    private typealias State = (current: Disposable?, isDisposed: Bool)

    private let state: LockedState<State>

    /// An empty serial disposable.
    public override init() {
        state = LockedState((current: nil, isDisposed: false))
        super.init()
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// The current underlying disposable. Setting it disposes the previous one (or
    /// the new one, if this object is already disposed).
    public var disposable: Disposable {
        get {
            state.withLock { $0.current } ?? Disposables.create()
        }
        set {
            let toDispose = state.withLock { state -> Disposable? in
                if state.isDisposed { return newValue }
                defer { state.current = newValue }
                return state.current
            }
            toDispose?.dispose()
        }
    }

    /// Disposes the current underlying disposable and everything assigned later.
    public func dispose() {
        let current = state.withLock { state -> Disposable? in
            if state.isDisposed { return nil }
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }
}
