/// A disposable to which exactly one other disposable is assigned, possibly after
/// it was disposed: in that case the assigned disposable is disposed at once.
///
/// Assigning a second disposable breaks the rule; RxSwift crashes, Ripple reports
/// it through ``Hooks/contractViolationHandler`` and disposes the second one.
public final class SingleAssignmentDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    /// The disposable, whether one was assigned, and whether this one is
    /// disposed (a tuple: see "State is a tuple" in docs/Architecture.md).
    private typealias State = (disposable: Disposable?, isAssigned: Bool, isDisposed: Bool)

    private let state: LockedState<State>

    /// An empty disposable, waiting for ``setDisposable(_:)``.
    public override init() {
        state = LockedState((disposable: nil, isAssigned: false, isDisposed: false))
        super.init()
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Assigns the disposable. If this object was already disposed, `disposable` is
    /// disposed immediately.
    public func setDisposable(_ disposable: Disposable) {
        enum Outcome { case stored, disposeNow, secondAssignment }
        let outcome = state.withLock { state -> Outcome in
            if state.isAssigned { return .secondAssignment }
            state.isAssigned = true
            if state.isDisposed { return .disposeNow }
            state.disposable = disposable
            return .stored
        }
        switch outcome {
        case .stored:
            break
        case .disposeNow:
            disposable.dispose()
        case .secondAssignment:
            Hooks.reportContractViolation("SingleAssignmentDisposable was assigned twice; the second disposable was disposed.")
            disposable.dispose()
        }
    }

    /// Disposes the assigned disposable, or the one assigned later.
    public func dispose() {
        let disposable = state.withLock { state -> Disposable? in
            if state.isDisposed { return nil }
            state.isDisposed = true
            defer { state.disposable = nil }
            return state.disposable
        }
        disposable?.dispose()
    }
}
