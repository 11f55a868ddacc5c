/// Runs work on the current thread, queueing it behind the work already in
/// progress there (a *trampoline*).
///
/// The first piece of work scheduled on a thread runs immediately; anything it
/// schedules, directly or through the sequences it subscribes to, is queued and run
/// in order once it returns. This keeps synchronous sources (`of`, `from`, `range`)
/// from recursing into each other and gives the interleaving RxSwift users know,
/// for example `combineLatest(of(1, 2), of(10, 20))` emits `(1,10), (2,10), (2,20)`.
///
/// Every subscription runs with the trampoline active, as in RxSwift.
public final class CurrentThreadScheduler: ImmediateSchedulerType {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// `true` if `scheduler` is the current-thread scheduler. A metatype
    /// comparison (the class is final and has one instance), where `is` would be a
    /// dynamic cast through the runtime: sources built in hot code (`of(x)` inside a
    /// `flatMap`) ask this every time.
    @_alwaysEmitIntoClient
    static func isInstance(_ scheduler: ImmediateSchedulerType) -> Bool {
        ObjectIdentifier(type(of: scheduler)) == ObjectIdentifier(CurrentThreadScheduler.self)
    }

    /// `true` when no trampoline is running on the current thread, that is, when
    /// work scheduled now would run immediately.
    public static var isScheduleRequired: Bool {
        !Trampoline.current.pointee.isRunning
    }

    /// Runs `action` now if no trampoline is running on this thread (and then
    /// everything it queued), or queues it behind the running work.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let trampoline = Trampoline.current
        if trampoline.pointee.isRunning {
            let task = ScheduledTrampolineTask(state: state, action: action)
            trampoline.pointee.queue.append { task.run() }
            return task
        }
        return Trampoline.run(trampoline) { action(state) }
    }
}

/// A closure queued on the trampoline; disposing it before it runs cancels it,
/// disposing it afterwards disposes what the closure returned.
@usableFromInline
final class ScheduledTrampolineTask<State>: DisposeBase, Cancelable, @unchecked Sendable {
    private var work: (state: State, action: (State) -> Disposable)?
    private let result: SingleAssignmentDisposable

    @usableFromInline
    init(state: State, action: @escaping (State) -> Disposable) {
        result = SingleAssignmentDisposable()
        work = (state, action)
    }

    @usableFromInline
    var isDisposed: Bool {
        result.isDisposed
    }

    @usableFromInline
    func run() {
        guard let work, !result.isDisposed else {
            self.work = nil
            return
        }
        self.work = nil
        result.setDisposable(work.action(work.state))
    }

    @usableFromInline
    func dispose() {
        result.dispose()
    }
}
