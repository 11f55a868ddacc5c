import Foundation

// RxCocoa's deprecated `Foundation.TimeInterval` (seconds) overloads of the
// shared-sequence time operators, forwarding to the `RxTimeInterval` ones so that
// older code keeps compiling (with a warning).

extension SharedSequenceConvertibleType {
    /// Deprecated: pass an `RxTimeInterval` to ``debounce(_:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func debounce(_ dueTime: Foundation.TimeInterval) -> SharedSequence<SharingStrategy, Element> {
        debounce(.rippleSeconds(dueTime))
    }

    /// Deprecated: pass an `RxTimeInterval` to ``throttle(_:latest:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func throttle(_ dueTime: Foundation.TimeInterval, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
        throttle(.rippleSeconds(dueTime), latest: latest)
    }

    /// Deprecated: pass an `RxTimeInterval` to ``delay(_:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func delay(_ dueTime: Foundation.TimeInterval) -> SharedSequence<SharingStrategy, Element> {
        delay(.rippleSeconds(dueTime))
    }
}

extension SharedSequence where Element: RxAbstractInteger {
    /// Deprecated: pass an `RxTimeInterval` to ``interval(_:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public static func interval(_ period: Foundation.TimeInterval) -> SharedSequence<SharingStrategy, Element> {
        interval(.rippleSeconds(period))
    }

    /// Deprecated: pass `RxTimeInterval`s to ``timer(_:period:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass dueTime and period as RxTimeInterval (DispatchTimeInterval) values: .seconds(2), .milliseconds(300).")
    public static func timer(_ dueTime: Foundation.TimeInterval, period: Foundation.TimeInterval) -> SharedSequence<SharingStrategy, Element> {
        timer(.rippleSeconds(dueTime), period: .rippleSeconds(period))
    }
}
