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

    /// Guarded by `state`'s lock: read and written only inside `state.withLock`.
    /// Kept out of ``VirtualTimeSchedulerState`` so that the state is not generic:
    /// this class's methods run unspecialised (they are reached through
    /// `SchedulerType`), and a generic state type costs a run-time metadata lookup
    /// on every lock round trip.
    @exclusivity(unchecked)
    private var lockedClock: VirtualTime

    private let state: LockedState<VirtualTimeSchedulerState>

    /// The converter between virtual and real time.
    public let converter: Converter

    /// A scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.converter = converter
        lockedClock = initialClock
        let compare = converter.compareVirtualTime
        state = LockedState<VirtualTimeSchedulerState>((
            running: false, nextID: 0,
            queue: PriorityQueue { lhs, rhs in
                // Every item in this scheduler's queue is a `VirtualSchedulerItem<VirtualTime>`.
                let left = unsafeDowncast(lhs, to: VirtualSchedulerItem<VirtualTime>.self)
                let right = unsafeDowncast(rhs, to: VirtualSchedulerItem<VirtualTime>.self)
                switch compare(left.time, right.time) {
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
        let pending = state.withLock { state -> [VirtualSchedulerItemBase] in
            var items: [VirtualSchedulerItemBase] = []
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
        state.withLock { _ in lockedClock }
    }

    /// Schedules `action` to run as soon as possible on the virtual clock.
    @_alwaysEmitIntoClient
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` `dueTime` after the current virtual time.
    @_alwaysEmitIntoClient
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
    @_alwaysEmitIntoClient
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
        self.state.withLock { schedulerState -> VirtualSchedulerItemBase in
            let item = VirtualSchedulerItem(action: { _ in action(state) }, time: time, id: schedulerState.nextID)
            schedulerState.nextID += 1
            schedulerState.queue.enqueue(item)
            return item
        }
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
        while let next = takeNext(isAfterLimit: { _ in false }) {
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
        let converter = converter
        let isAfterLimit = { (time: VirtualTime) in converter.compareVirtualTime(time, virtualTime).greaterThan }
        while let next = takeNext(isAfterLimit: isAfterLimit) {
            next.invoke()
            if !isRunning { break }
        }
        state.withLock {
            if converter.compareVirtualTime(virtualTime, lockedClock).greaterThan {
                lockedClock = virtualTime
            }
            $0.running = false
        }
    }

    /// Moves the clock forward by `virtualInterval` without running anything. A
    /// negative interval is reported and ignored.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let movedBack = state.withLock { _ -> Bool in
            let sleepTo = converter.offsetVirtualTime(lockedClock, offset: virtualInterval)
            if converter.compareVirtualTime(sleepTo, lockedClock).lessThan {
                return true
            }
            lockedClock = sleepTo
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

    /// Removes the next live item (unless its time `isAfterLimit`) and moves the
    /// clock to its time.
    ///
    /// Works on ``VirtualSchedulerItemBase`` (not generic) and takes the limit as a
    /// closure rather than an optional time: this code runs unspecialised, and
    /// `Optional<VirtualSchedulerItem<VirtualTime>>` or `Optional<VirtualTime>` each
    /// cost a run-time metadata lookup per use.
    private func takeNext(isAfterLimit: (VirtualTime) -> Bool) -> VirtualSchedulerItemBase? {
        state.withLock { state in
            while let front = state.queue.peek() {
                if front.isTaken {
                    _ = state.queue.dequeue()
                    continue
                }
                let time = unsafeDowncast(front, to: VirtualSchedulerItem<VirtualTime>.self).time
                if isAfterLimit(time) {
                    return nil
                }
                _ = state.queue.dequeue()
                if converter.compareVirtualTime(time, lockedClock).greaterThan {
                    lockedClock = time
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
            "VirtualTimeScheduler(clock: \(lockedClock), pending: \(state.queue.count))"
        }
    }
}

/// The state of a ``VirtualTimeScheduler`` behind its lock (a tuple: see "State is
/// a tuple" in docs/Architecture.md). Not generic, and not nested in the generic
/// class (which would make it generic): see `lockedClock`.
typealias VirtualTimeSchedulerState = (running: Bool, nextID: Int, queue: PriorityQueue<VirtualSchedulerItemBase>)

/// A unit of work on the virtual clock, and the disposable returned for it: its
/// `dispose()` cancels the action if it has not run, and disposes what the action
/// returned if it has (``SubscriptionBase`` does the latter, whichever comes
/// first). It drops its action once run or disposed, so that the action (which
/// may refer back to this disposable) does not keep itself alive.
///
/// Whoever first sets `taken` (`invoke()` or `dispose()`) owns `action` from then
/// on; nobody else reads or writes it, so it needs no lock.
@usableFromInline
class VirtualSchedulerItemBase: SubscriptionBase, @unchecked Sendable {
    let id: Int
    @exclusivity(unchecked) private final var taken: AtomicCell<Bool>
    @exclusivity(unchecked)
    private var action: ((VirtualSchedulerItemBase) -> Disposable)?

    init(action: @escaping (VirtualSchedulerItemBase) -> Disposable, id: Int) {
        taken = AtomicCell(false)
        self.action = action
        self.id = id
        super.init()
    }

    /// Run or disposed: the queue drops it.
    final var isTaken: Bool {
        AtomicCell.load(&taken, ordering: .acquiring)
    }

    private final func take() -> ((VirtualSchedulerItemBase) -> Disposable)? {
        guard AtomicCell.compareExchange(&taken, expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return nil
        }
        let action = self.action
        self.action = nil
        return action
    }

    @usableFromInline
    final func invoke() {
        guard let action = take() else { return }
        setUpstream(disposable: action(self))
    }

    override final func disposeResources() {
        _ = take()
    }
}

/// A ``VirtualSchedulerItemBase`` with its due time.
@usableFromInline
final class VirtualSchedulerItem<Time>: VirtualSchedulerItemBase, @unchecked Sendable {
    let time: Time

    @usableFromInline
    init(action: @escaping (VirtualSchedulerItemBase) -> Disposable, time: Time, id: Int) {
        self.time = time
        super.init(action: action, id: id)
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

    @usableFromInline
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
