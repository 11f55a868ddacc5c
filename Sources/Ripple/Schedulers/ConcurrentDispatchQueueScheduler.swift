import Dispatch
import Foundation

/// Runs work on a (possibly concurrent) `DispatchQueue`: work items may run in
/// parallel. `observe(on:)` still delivers one event at a time per subscription.
public final class ConcurrentDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
    @usableFromInline
    let configuration: DispatchQueueConfiguration

    /// The current time.
    public var now: RxTime {
        Date()
    }

    /// A scheduler on `queue`.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: queue, leeway: leeway)
    }

    /// A scheduler on the global queue of `qos`.
    public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway)
    }

    /// Runs `action(state)` on the queue, asynchronously.
    @_alwaysEmitIntoClient
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.schedule(state, action: action)
    }

    /// Runs `action(state)` on the queue after `dueTime`.
    @_alwaysEmitIntoClient
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Runs `action` on the queue every `period`, starting after `startAfter`.
    @_alwaysEmitIntoClient
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
