import Dispatch
import Foundation

extension DispatchQueue {
    private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// `true` when the calling code runs on the main queue.
    @usableFromInline
    static var isMain: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }
}

/// Runs work on the main queue: the scheduler for UI state.
///
/// Work scheduled from the main queue runs immediately, unless other main-queue
/// work of this scheduler is already in progress (then it is queued, so it cannot
/// overtake it); work scheduled from another thread is dispatched asynchronously.
/// ``asyncInstance`` always dispatches.
///
/// On Linux the main queue runs when the main thread runs `dispatchMain()` or a
/// `RunLoop`; a terminal app does one of the two.
///
/// Under `dispatchMain()` on Linux a dispatch worker thread runs the main queue,
/// so work on this scheduler sees `Thread.isMainThread == false`; it is still
/// on the main queue, serialized (`dispatchPrecondition(condition: .onQueue(.main))`
/// and `MainActor.assumeIsolated` pass). Check the queue rather than the thread,
/// or run `RunLoop.main.run()` instead of `dispatchMain()` when code needs the
/// main thread itself.
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    private let mainQueue: DispatchQueue
    @exclusivity(unchecked) private final var numberEnqueued: AtomicCell<Int>

    /// A main scheduler. Use ``instance`` unless you need a separate one.
    public init() {
        numberEnqueued = AtomicCell(0)
        mainQueue = DispatchQueue.main
        super.init(serialQueue: mainQueue)
    }

    /// The shared main scheduler.
    public static let instance = MainScheduler()

    /// A main-queue scheduler that always dispatches asynchronously, even when
    /// called from the main queue.
    public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: DispatchQueue.main)

    /// Stops the program with `errorMessage` if not called on the main queue.
    @_alwaysEmitIntoClient
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        if !DispatchQueue.isMain {
            fatalError(errorMessage ?? "Executing on background thread. Please use `MainScheduler.instance.schedule` to schedule work on main thread.")
        }
    }

    /// Stops the program with `errorMessage` if not called on the main thread.
    @_alwaysEmitIntoClient
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        if !Thread.isMainThread {
            fatalError(errorMessage ?? "Running on background thread.")
        }
    }

    override func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let previous = AtomicCell.add(&numberEnqueued, 1, ordering: .acquiringAndReleasing).oldValue
        if DispatchQueue.isMain && previous == 0 {
            let disposable = action(state)
            AtomicCell.subtract(&numberEnqueued, 1, ordering: .acquiringAndReleasing)
            return disposable
        }
        let cancel = SingleAssignmentDisposable()
        let work = UncheckedSendable((state, action))
        mainQueue.async {
            if !cancel.isDisposed {
                cancel.setDisposable(work.value.1(work.value.0))
            }
            AtomicCell.subtract(&self.numberEnqueued, 1, ordering: .acquiringAndReleasing)
        }
        return cancel
    }
}

/// Runs work on the main queue, immediately when called from it: suited to work
/// that may run concurrently with other main-queue work of Ripple.
public final class ConcurrentMainScheduler: SchedulerType, @unchecked Sendable {
    private let mainScheduler: MainScheduler

    private init(mainScheduler: MainScheduler) {
        self.mainScheduler = mainScheduler
    }

    /// The shared instance.
    public static let instance = ConcurrentMainScheduler(mainScheduler: MainScheduler.instance)

    /// The current time.
    public var now: RxTime {
        mainScheduler.now
    }

    /// Runs `action` now if on the main queue, else dispatches it there.
    @_alwaysEmitIntoClient
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if DispatchQueue.isMain {
            return action(state)
        }
        let cancel = SingleAssignmentDisposable()
        let work = UncheckedSendable((state, action))
        DispatchQueue.main.async {
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        return cancel
    }

    /// Runs `action` on the main queue after `dueTime`.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        mainScheduler.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Runs `action` on the main queue every `period`.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        mainScheduler.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
