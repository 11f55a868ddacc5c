import Foundation

/// Converts between `Date`s and the virtual clock of a ``HistoricalScheduler``:
/// the identity.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType, Sendable {
    /// Virtual time is real time.
    public typealias VirtualTimeUnit = RxTime
    /// Virtual intervals are seconds.
    public typealias VirtualTimeIntervalUnit = TimeInterval

    /// Creates the converter.
    public init() {}

    @_alwaysEmitIntoClient
    public func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime { virtualTime }
    @_alwaysEmitIntoClient
    public func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit { time }
    @_alwaysEmitIntoClient
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval {
        virtualTimeInterval
    }
    @_alwaysEmitIntoClient
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit { timeInterval }
    @_alwaysEmitIntoClient
    public func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit {
        time.addingTimeInterval(offset)
    }
    @_alwaysEmitIntoClient
    public func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison {
        switch lhs.compare(rhs) {
        case .orderedAscending: return .lessThan
        case .orderedDescending: return .greaterThan
        case .orderedSame: return .equal
        }
    }
}

/// A virtual-time scheduler whose clock is a `Date`: for replaying historical
/// data or simulating days in a test.
public class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>, @unchecked Sendable {
    /// A scheduler whose clock starts at `initialClock` (the Unix epoch by default).
    public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
        super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}
