import Foundation

/// Converts between a virtual clock and real time for a ``VirtualTimeScheduler``.
public protocol VirtualTimeConverterType {
    /// A point on the virtual clock.
    associatedtype VirtualTimeUnit
    /// A length of virtual time.
    associatedtype VirtualTimeIntervalUnit

    /// The real time of a virtual time.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// The virtual time of a real time.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// The real length of a virtual interval.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// The virtual length of a real interval.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    /// `time` moved by `offset`.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// Orders two virtual times.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The result of comparing two virtual times.
public enum VirtualTimeComparison: Sendable {
    /// The first time is earlier.
    case lessThan
    /// The times are equal.
    case equal
    /// The first time is later.
    case greaterThan
}

extension VirtualTimeComparison {
    var lessThan: Bool { self == .lessThan }
    var greaterThan: Bool { self == .greaterThan }
    var equal: Bool { self == .equal }
}

/// A scheduler whose clock only moves when told to: work runs in order of its
/// virtual due time (and, at equal times, in the order it was scheduled).
///
/// Subclass it with your own ``VirtualTimeConverterType`` to build custom virtual
/// schedulers; `RippleTest`'s `TestScheduler` is one. It may be used from any
/// thread (no main-thread assertions), but one thread at a time should drive it
/// with ``start()`` or ``advanceTo(_:)``.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType, @unchecked Sendable {
    /// A point on this scheduler's clock.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// A length of virtual time.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private struct State {
        var clock: VirtualTime
        var running = false
        var nextID = 0
        var queue: PriorityQueue<VirtualSchedulerItem<VirtualTime>>
    }

    private let state: LockedState<State>

    /// The converter between virtual and real time.
    public let converter: Converter

    /// A scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.converter = converter
        let compare = converter.compareVirtualTime
        state = LockedState(State(
            clock: initialClock,
            queue: PriorityQueue { lhs, rhs in
                switch compare(lhs.time, rhs.time) {
                case .lessThan: return true
                case .greaterThan: return false
                case .equal: return lhs.id < rhs.id
                }
            }
        ))
    }

    deinit {
        // Pending work refers to the disposables returned for it; cancel it so that
        // nothing outlives the scheduler.
        let pending = state.withLock { state -> [VirtualSchedulerItem<VirtualTime>] in
            var items: [VirtualSchedulerItem<VirtualTime>] = []
            while let item = state.queue.dequeue() { items.append(item) }
            return items
        }
        pending.forEach { $0.dispose() }
    }

    /// The current time, converted to real time.
    public var now: RxTime {
        converter.convertFromVirtualTime(clock)
    }

    /// The current virtual time.
    public var clock: VirtualTime {
        state.withLock { $0.clock }
    }

    /// Schedules `action` to run as soon as possible on the virtual clock.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` `dueTime` after the current virtual time.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        guard dueTime != .never else { return Disposables.create() }
        let time = now.addingDispatchInterval(dueTime)
        let absoluteTime = converter.convertToVirtualTime(time)
        let adjustedTime = adjustScheduledTime(absoluteTime)
        return scheduleAbsoluteVirtual(state, time: adjustedTime, action: action)
    }

    /// Schedules `action` `dueTime` (virtual) after the current virtual time.
    public func scheduleRelativeVirtual<StateType>(
        _ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let time = converter.offsetVirtualTime(clock, offset: dueTime)
        return scheduleAbsoluteVirtual(state, time: time, action: action)
    }

    /// Schedules `action` at the virtual time `time`.
    public func scheduleAbsoluteVirtual<StateType>(
        _ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let compositeDisposable = CompositeDisposable()
        let item = self.state.withLock { schedulerState -> VirtualSchedulerItem<VirtualTime> in
            let item = VirtualSchedulerItem(
                action: {
                    _ = compositeDisposable.insert(action(state))
                },
                time: time,
                id: schedulerState.nextID
            )
            schedulerState.nextID += 1
            schedulerState.queue.enqueue(item)
            return item
        }
        _ = compositeDisposable.insert(item)
        return compositeDisposable
    }

    /// Adjusts the time at which relative work is scheduled. The default returns
    /// `time` unchanged; `TestScheduler` moves work scheduled "now" one tick later.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time
    }

    /// Reports a misuse of the scheduler; the call that was misused does nothing.
    ///
    /// Called for ``start()`` or ``advanceTo(_:)`` while the scheduler is already
    /// running (from one of its own scheduled actions), ``advanceTo(_:)`` to a time
    /// before the clock and ``sleep(_:)`` by a negative interval. The default hands
    /// `message` to ``Hooks/contractViolationHandler``; `RippleTest`'s
    /// `TestScheduler` fails the running test with it.
    open func reportMisuse(_ message: String) {
        Hooks.reportContractViolation(message)
    }

    /// Runs all scheduled work, moving the clock forward, until nothing is left or
    /// ``stop()`` is called.
    ///
    /// Calling it while the scheduler runs (from a scheduled action) is reported
    /// to ``reportMisuse(_:)`` and does nothing.
    public func start() {
        guard beginRunning() else {
            reportMisuse("VirtualTimeScheduler.start() called while the scheduler is already running (from one of its scheduled actions); the call does nothing.")
            return
        }
        while let next = takeNext(notAfter: nil) {
            next.invoke()
            if !isRunning { break }
        }
        state.withLock { $0.running = false }
    }

    /// Runs the work due up to `virtualTime`, then sets the clock to `virtualTime`.
    ///
    /// A time before the clock (the clock never goes back), or a call while the
    /// scheduler runs, is reported to ``reportMisuse(_:)`` and does nothing.
    public func advanceTo(_ virtualTime: VirtualTime) {
        let now = clock
        if converter.compareVirtualTime(virtualTime, now).lessThan {
            reportMisuse("VirtualTimeScheduler.advanceTo(\(virtualTime)) is before the current time \(now): a virtual clock only moves forward; nothing was run.")
            return
        }
        guard beginRunning() else {
            reportMisuse("VirtualTimeScheduler.advanceTo(\(virtualTime)) called while the scheduler is already running (from one of its scheduled actions); the call does nothing.")
            return
        }
        while let next = takeNext(notAfter: virtualTime) {
            next.invoke()
            if !isRunning { break }
        }
        state.withLock {
            if converter.compareVirtualTime(virtualTime, $0.clock).greaterThan {
                $0.clock = virtualTime
            }
            $0.running = false
        }
    }

    /// Moves the clock forward by `virtualInterval` without running anything. A
    /// negative interval is reported and ignored.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let movedBack = state.withLock { state -> Bool in
            let sleepTo = converter.offsetVirtualTime(state.clock, offset: virtualInterval)
            if converter.compareVirtualTime(sleepTo, state.clock).lessThan {
                return true
            }
            state.clock = sleepTo
            return false
        }
        if movedBack {
            reportMisuse("VirtualTimeScheduler.sleep(\(virtualInterval)) would move the clock back; ignored.")
        }
    }

    /// Whether ``start()`` or ``advanceTo(_:)`` is running.
    package var isRunning: Bool {
        state.withLock { $0.running }
    }

    /// Stops ``start()`` or ``advanceTo(_:)`` after the current work item.
    public func stop() {
        state.withLock { $0.running = false }
    }

    private func beginRunning() -> Bool {
        state.withLock {
            if $0.running { return false }
            $0.running = true
            return true
        }
    }

    /// Removes the next live item (due no later than `limit`) and moves the clock to
    /// its time.
    private func takeNext(notAfter limit: VirtualTime?) -> VirtualSchedulerItem<VirtualTime>? {
        state.withLock { state in
            while let front = state.queue.peek() {
                if front.isDisposed {
                    _ = state.queue.dequeue()
                    continue
                }
                if let limit, converter.compareVirtualTime(front.time, limit).greaterThan {
                    return nil
                }
                _ = state.queue.dequeue()
                if converter.compareVirtualTime(front.time, state.clock).greaterThan {
                    state.clock = front.time
                }
                return front
            }
            return nil
        }
    }
}

extension VirtualTimeScheduler: CustomDebugStringConvertible {
    /// The clock and the pending work.
    public var debugDescription: String {
        state.withLock { state in
            "VirtualTimeScheduler(clock: \(state.clock), pending: \(state.queue.count))"
        }
    }
}

/// A unit of work on the virtual clock. It drops its action once run or disposed,
/// so that the action (which refers back to the disposable returned for it) does
/// not keep itself alive.
final class VirtualSchedulerItem<Time>: Cancelable, @unchecked Sendable {
    let time: Time
    let id: Int
    private let action: LockedState<(() -> Void)?>

    init(action: @escaping () -> Void, time: Time, id: Int) {
        self.action = LockedState(action)
        self.time = time
        self.id = id
    }

    var isDisposed: Bool {
        action.withLock { $0 == nil }
    }

    func invoke() {
        let action = self.action.withLock { action -> (() -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    func dispose() {
        action.withLock { $0 = nil }
    }
}

/// A binary min-heap ordered by `isBefore`.
struct PriorityQueue<Element> {
    private var elements: [Element] = []
    private let isBefore: (Element, Element) -> Bool

    init(isBefore: @escaping (Element, Element) -> Bool) {
        self.isBefore = isBefore
    }

    var count: Int { elements.count }

    func peek() -> Element? {
        elements.first
    }

    mutating func enqueue(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard isBefore(elements[child], elements[parent]) else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func dequeue() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let first = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < elements.count && isBefore(elements[left], elements[smallest]) { smallest = left }
            if right < elements.count && isBefore(elements[right], elements[smallest]) { smallest = right }
            if smallest == parent { break }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
