import Foundation

/// Runs work on an actor's serial executor, so that `observe(on:)` and
/// `subscribe(on:)` can move a sequence into an actor.
///
/// ```swift
/// actor Library {
///     var titles: [String] = []
///     func add(_ title: String) { titles.append(title) }
/// }
///
/// let library = Library()
/// feed.observe(on: ActorScheduler(library))
///     .subscribe(onNext: { title in
///         library.assumeIsolated { $0.add(title) }   // checked: we are on its executor
///     })
/// ```
///
/// Guarantees:
/// - **Isolation**: every action runs isolated to `actor` (on its executor; for
///   ``mainActor``, the main actor), so `actor.assumeIsolated` holds inside it.
/// - **Order**: actions scheduled with ``schedule(_:action:)`` run one at a time,
///   in the order they were scheduled (a FIFO queue of the scheduler's own, not
///   the order in which tasks happen to reach the actor). Delayed actions join
///   that queue when their delay has passed.
/// - **Always asynchronous**: an action never runs inside the call that schedules
///   it, even when the caller is already on the actor.
/// - **Fairness**: the queue is run in batches of the actions present when a batch
///   starts; other work of the actor can run between batches.
/// - **Cancellation**: disposing the returned disposable before the action starts
///   means it never runs (a delayed action's sleeping task is cancelled); after it
///   has run, disposing disposes what the action returned.
public final class ActorScheduler: SchedulerType, @unchecked Sendable {
    /// The actor whose executor runs the work.
    public let actor: any Actor
    private let priority: TaskPriority?
    private let queue: LockedState<ActorWorkQueue>

    /// A scheduler that runs work isolated to `actor`, in tasks of `priority`.
    public init(_ actor: any Actor, priority: TaskPriority? = nil) {
        queue = LockedState(ActorWorkQueue())
        self.actor = actor
        self.priority = priority
    }

    /// A scheduler on the main actor. Unlike ``MainScheduler`` it never runs work
    /// immediately, and it reaches the main thread through Swift concurrency.
    public static let mainActor = ActorScheduler(MainActor.shared)

    /// The current time.
    public var now: RxTime {
        Date()
    }

    /// Runs `action(state)` on the actor, after the actions scheduled before it.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let item = ActorScheduledItem { action(state) }
        enqueue(item)
        return item
    }

    /// Runs `action(state)` on the actor after `dueTime`.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        guard let nanoseconds = dueTime.actorSchedulerNanoseconds else { return Disposables.create() }
        if nanoseconds <= 0 {
            return schedule(state, action: action)
        }
        let item = ActorScheduledItem { action(state) }
        // The task keeps the scheduler and the item alive until the delay has
        // passed, whether or not the caller keeps the disposable; disposing the
        // item cancels the sleep.
        let timer = Task(priority: priority) { [self] in
            try? await Task.sleep(nanoseconds: UInt64(nanoseconds))
            guard !Task.isCancelled, !item.isDisposed else { return }
            enqueue(item)
        }
        item.attach(timer: timer)
        return item
    }

    private func enqueue(_ item: ActorScheduledItem) {
        let startsDraining = queue.withLock { $0.append(item) }
        if startsDraining {
            startDrainTask()
        }
    }

    private func startDrainTask() {
        Task(priority: priority) { [self] in
            await drain(on: actor)
        }
    }

    /// Runs one batch on the actor's executor (the `isolated` parameter puts this
    /// synchronous function there), then hands over to a new task if work is left.
    private func drain(on actor: isolated any Actor) {
        var batch = queue.withLock { $0.takeBatch() }
        while !batch.isEmpty {
            batch.removeFirst().run()
        }
        if queue.withLock({ $0.finishBatch() }) {
            startDrainTask()
        }
    }
}

/// The scheduler's FIFO queue and whether a drain task owns it. Pure logic: the
/// scheduler calls it under its lock.
struct ActorWorkQueue {
    private var items: [ActorScheduledItem] = []
    private var isDraining = false

    /// Adds an item; returns `true` when the caller must start a drain task.
    mutating func append(_ item: ActorScheduledItem) -> Bool {
        items.append(item)
        if isDraining { return false }
        isDraining = true
        return true
    }

    /// The items to run now, in order.
    mutating func takeBatch() -> ArraySlice<ActorScheduledItem> {
        defer { items.removeAll(keepingCapacity: true) }
        return items[...]
    }

    /// Ends a batch; returns `true` when items arrived meanwhile and another
    /// batch must be started (the drain stays owned until the queue is empty).
    mutating func finishBatch() -> Bool {
        if items.isEmpty {
            isDraining = false
            return false
        }
        return true
    }
}

/// One action of an ``ActorScheduler``: runs once unless disposed first.
@usableFromInline
final class ActorScheduledItem: DisposeBase, Cancelable, @unchecked Sendable {
    private enum State {
        case pending(work: () -> Disposable, timer: Task<Void, Never>?)
        case ran(Disposable)
        case disposed
    }

    private let state: LockedState<State>

    @usableFromInline
    init(_ work: @escaping () -> Disposable) {
        state = LockedState(.pending(work: work, timer: nil))
        super.init()
    }

    @usableFromInline
    var isDisposed: Bool {
        state.withLock { if case .disposed = $0 { return true } else { return false } }
    }

    @usableFromInline
    func attach(timer: Task<Void, Never>) {
        let cancelNow = state.withLock { state -> Bool in
            guard case .pending(let work, _) = state else { return true }
            state = .pending(work: work, timer: timer)
            return false
        }
        if cancelNow {
            timer.cancel()
        }
    }

    /// Runs the work on the calling (actor's) thread, unless disposed.
    func run() {
        let work = state.withLock { state -> (() -> Disposable)? in
            guard case .pending(let work, _) = state else { return nil }
            // Marked as running with a placeholder; the real result is stored below.
            state = .ran(Disposables.create())
            return work
        }
        guard let work else { return }
        let result = work()
        let disposeResult = state.withLock { state -> Bool in
            if case .disposed = state { return true }
            state = .ran(result)
            return false
        }
        if disposeResult {
            result.dispose()
        }
    }

    @usableFromInline
    func dispose() {
        let previous = state.withLock { state -> State in
            defer { state = .disposed }
            return state
        }
        switch previous {
        case .pending(_, let timer):
            timer?.cancel()
        case .ran(let result):
            result.dispose()
        case .disposed:
            break
        }
    }
}

extension DispatchTimeInterval {
    /// The interval in nanoseconds, `Int.max` when that overflows; `nil` for
    /// `.never`.
    var actorSchedulerNanoseconds: Int? {
        func scaled(_ value: Int, _ factor: Int) -> Int {
            let (result, overflow) = value.multipliedReportingOverflow(by: factor)
            return overflow ? (value < 0 ? Int.min : Int.max) : result
        }
        switch self {
        case .seconds(let value): return scaled(value, 1_000_000_000)
        case .milliseconds(let value): return scaled(value, 1_000_000)
        case .microseconds(let value): return scaled(value, 1_000)
        case .nanoseconds(let value): return value
        case .never: return nil
        @unknown default: return nil
        }
    }
}
