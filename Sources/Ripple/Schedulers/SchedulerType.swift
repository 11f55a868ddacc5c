import Dispatch
import Foundation

/// A length of time, as in RxSwift: `.seconds(1)`, `.milliseconds(300)`, ...
public typealias RxTimeInterval = DispatchTimeInterval

/// A point in time, as in RxSwift.
public typealias RxTime = Date

/// Runs units of work.
///
/// Schedulers are `Sendable`: an operator may keep one and use it from any thread.
/// The protocol is `@preconcurrency` (Sendable came after RxSwift's API): a
/// scheduler of yours written in Swift 5 language mode gets no new diagnostics;
/// in Swift 6 mode make it a `final class` whose state is behind a lock
/// (`@unchecked Sendable`), a `Sendable` struct, or an actor-backed type.
@preconcurrency
public protocol ImmediateSchedulerType: Sendable {
    /// Runs `action(state)` as soon as the scheduler allows.
    ///
    /// - Returns: A disposable that cancels the work if it has not run yet.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// A scheduler that knows the time and can run work later and periodically.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's current time.
    var now: RxTime { get }

    /// Runs `action(state)` after `dueTime`.
    func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable

    /// Runs `action` every `period`, the first time after `startAfter`, passing the
    /// state each run returned to the next run.
    func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable
}

extension SchedulerType {
    /// Periodic scheduling built on ``scheduleRelative(_:dueTime:action:)``, for
    /// schedulers that have no native timer.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        let periodic = PeriodicRecursion(scheduler: self, state: state, period: period, action: action)
        return periodic.start(after: startAfter)
    }
}

extension ImmediateSchedulerType {
    /// Schedules `action` so that it can schedule itself again by calling `recurse`
    /// with the next state. Disposing the result stops the recursion.
    public func scheduleRecursive<State>(
        _ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
    ) -> Disposable {
        let recursion = ImmediateRecursion(scheduler: self, action: action)
        recursion.schedule(state)
        return recursion
    }
}

extension SchedulerType {
    /// Schedules `action` after `dueTime`; it can schedule itself again, after
    /// another delay, by calling `recurse`. Disposing the result stops the recursion.
    public func scheduleRecursive<State>(
        _ state: State, dueTime: RxTimeInterval,
        action: @escaping (_ state: State, _ recurse: (State, RxTimeInterval) -> Void) -> Void
    ) -> Disposable {
        let recursion = DelayedRecursion(scheduler: self, action: action)
        recursion.schedule(state, dueTime: dueTime)
        return recursion
    }
}

/// Shared bookkeeping of the recursive schedulers: the scheduled items that have
/// not run yet, so that disposing cancels whatever is queued.
@usableFromInline
class RecursionBase: DisposeBase, Cancelable, @unchecked Sendable {
    /// One scheduled item; its fields are guarded by the recursion's lock.
    private final class Item {
        var key: BagKey?
        var hasStarted = false
    }

    /// The pending work and whether it is disposed (a tuple: see "State is a tuple"
    /// in docs/Architecture.md).
    private typealias State = (pending: Bag<Disposable>, isDisposed: Bool)

    private let state = LockedState<State>((pending: Bag(), isDisposed: false))

    @usableFromInline
    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Schedules one item. `schedule` receives `begin`, which the scheduled work calls
    /// first: it returns `false` when the recursion was disposed and the work must
    /// not run.
    func track(_ schedule: (_ begin: @escaping () -> Bool) -> Disposable) {
        let item = Item()
        let scheduled = schedule { [weak self] in
            guard let self else { return false }
            return self.state.withLock { state in
                if state.isDisposed { return false }
                if let key = item.key { _ = state.pending.remove(forKey: key) }
                item.hasStarted = true
                return true
            }
        }
        let disposeNow = state.withLock { state -> Bool in
            if item.hasStarted { return false }
            if state.isDisposed { return true }
            item.key = state.pending.insert(scheduled)
            return false
        }
        if disposeNow {
            scheduled.dispose()
        }
    }

    @usableFromInline
    func dispose() {
        let pending = state.withLock { state -> [Disposable] in
            if state.isDisposed { return [] }
            state.isDisposed = true
            return state.pending.removeAll()
        }
        pending.forEach { $0.dispose() }
    }
}

@usableFromInline
final class ImmediateRecursion<State>: RecursionBase, @unchecked Sendable {
    private let scheduler: ImmediateSchedulerType
    private let action: (State, (State) -> Void) -> Void

    @usableFromInline
    init(scheduler: ImmediateSchedulerType, action: @escaping (State, (State) -> Void) -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    @usableFromInline
    func schedule(_ state: State) {
        track { begin in
            scheduler.schedule(state) { [self] state in
                if begin() {
                    action(state) { self.schedule($0) }
                }
                return Disposables.create()
            }
        }
    }
}

@usableFromInline
final class DelayedRecursion<State, Scheduler: SchedulerType>: RecursionBase, @unchecked Sendable {
    private let scheduler: Scheduler
    private let action: (State, (State, RxTimeInterval) -> Void) -> Void

    @usableFromInline
    init(scheduler: Scheduler, action: @escaping (State, (State, RxTimeInterval) -> Void) -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    @usableFromInline
    func schedule(_ state: State, dueTime: RxTimeInterval) {
        track { begin in
            scheduler.scheduleRelative(state, dueTime: dueTime) { [self] state in
                if begin() {
                    action(state) { self.schedule($0, dueTime: $1) }
                }
                return Disposables.create()
            }
        }
    }
}

/// Periodic work on a scheduler without a native timer, as RxSwift does it: each
/// tick first schedules the next tick, then runs the action; ticks that arrive
/// while the action runs (on a concurrent scheduler) are run one after another,
/// never in parallel.
@usableFromInline
final class PeriodicRecursion<State, Scheduler: SchedulerType>: @unchecked Sendable {
    private let scheduler: Scheduler
    private let period: RxTimeInterval
    private let action: (State) -> State
    @exclusivity(unchecked) private final var pendingTicks: AtomicCell<Int>
    /// Only touched by the tick that won `pendingTicks`.
    private var state: State

    private enum Command {
        case tick
        case dispatch
    }

    @usableFromInline
    init(scheduler: Scheduler, state: State, period: RxTimeInterval, action: @escaping (State) -> State) {
        pendingTicks = AtomicCell(0)
        self.scheduler = scheduler
        self.state = state
        self.period = period
        self.action = action
    }

    @usableFromInline
    func start(after startAfter: RxTimeInterval) -> Disposable {
        scheduler.scheduleRecursive(Command.tick, dueTime: startAfter) { [self] command, recurse in
            switch command {
            case .tick:
                recurse(.tick, period)
                if AtomicCell.add(&pendingTicks, 1, ordering: .acquiringAndReleasing).oldValue == 0 {
                    runAction(recurse)
                }
            case .dispatch:
                runAction(recurse)
            }
        }
    }

    private func runAction(_ recurse: (Command, RxTimeInterval) -> Void) {
        state = action(state)
        if AtomicCell.subtract(&pendingTicks, 1, ordering: .acquiringAndReleasing).oldValue > 1 {
            recurse(.dispatch, .nanoseconds(0))
        }
    }
}
