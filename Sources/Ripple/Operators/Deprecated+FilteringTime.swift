import Foundation

// RxSwift's deprecated spellings of the filtering, time, error-handling and
// utility operators, forwarding to the current names so that older code keeps
// compiling (with a warning that names the replacement).

/// Deprecated name of ``TakeBehavior``.
@available(*, deprecated, renamed: "TakeBehavior")
public typealias TakeUntilBehavior = TakeBehavior

extension ObservableType {
    /// Deprecated spelling of ``catch(_:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        `catch`(handler)
    }

    /// Deprecated spelling of ``catchAndReturn(_:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        catchAndReturn(element)
    }

    /// Deprecated spelling of ``catch(sequence:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        `catch`(sequence: sequence)
    }

    /// Deprecated spelling of ``take(until:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Source: ObservableConvertibleType>(_ other: Source) -> Observable<Element> {
        take(until: other)
    }

    /// Deprecated spelling of ``take(until:behavior:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "take(until:behavior:)")
    public func takeUntil(_ behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(until: predicate, behavior: behavior)
    }

    /// Deprecated spelling of ``take(while:behavior:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(while: predicate)
    }

    /// Deprecated spelling of ``take(for:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }

    /// Deprecated spelling of ``element(at:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }

    /// Deprecated spelling of ``skip(while:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        skip(while: predicate)
    }

    /// Deprecated spelling of ``skip(until:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Source: ObservableConvertibleType>(_ other: Source) -> Observable<Element> {
        skip(until: other)
    }

    /// Deprecated spelling of the typed `retry(when:)`.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableConvertibleType, Failure: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// Deprecated spelling of `retry(when:)`.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableConvertibleType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }
}

// RxSwift 4's `Foundation.TimeInterval` (seconds) overloads.
extension ObservableType {
    /// Deprecated: pass an `RxTimeInterval` to ``delay(_:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func delay(_ dueTime: Foundation.TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        delay(.rippleSeconds(dueTime), scheduler: scheduler)
    }

    /// Deprecated: pass an `RxTimeInterval` to ``delaySubscription(_:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func delaySubscription(_ dueTime: Foundation.TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        delaySubscription(.rippleSeconds(dueTime), scheduler: scheduler)
    }

    /// Deprecated: pass an `RxTimeInterval` to ``timeout(_:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func timeout(_ dueTime: Foundation.TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        timeout(.rippleSeconds(dueTime), scheduler: scheduler)
    }

    /// Deprecated: pass an `RxTimeInterval` to ``timeout(_:other:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func timeout<Source: ObservableConvertibleType>(
        _ dueTime: Foundation.TimeInterval, other: Source, scheduler: SchedulerType
    ) -> Observable<Element> where Source.Element == Element {
        timeout(.rippleSeconds(dueTime), other: other, scheduler: scheduler)
    }

    /// Deprecated: pass an `RxTimeInterval` to ``skip(_:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func skip(_ duration: Foundation.TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        skip(.rippleSeconds(duration), scheduler: scheduler)
    }

    /// Deprecated: pass an `RxTimeInterval` to ``take(for:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Use take(for: .seconds(2), scheduler:): durations are RxTimeInterval (DispatchTimeInterval) values such as .seconds(2) or .milliseconds(300).")
    public func take(_ duration: Foundation.TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: .rippleSeconds(duration), scheduler: scheduler)
    }

    /// Deprecated: pass an `RxTimeInterval` to ``debounce(_:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func debounce(_ dueTime: Foundation.TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        debounce(.rippleSeconds(dueTime), scheduler: scheduler)
    }

    /// Deprecated: pass an `RxTimeInterval` to ``throttle(_:latest:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func throttle(_ dueTime: Foundation.TimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        throttle(.rippleSeconds(dueTime), latest: latest, scheduler: scheduler)
    }

    /// Deprecated: pass an `RxTimeInterval` to ``buffer(timeSpan:count:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass timeSpan as an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func buffer(timeSpan: Foundation.TimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        buffer(timeSpan: .rippleSeconds(timeSpan), count: count, scheduler: scheduler)
    }

    /// Deprecated: pass an `RxTimeInterval` to ``window(timeSpan:count:scheduler:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, message: "Pass timeSpan as an RxTimeInterval (DispatchTimeInterval): .seconds(2), .milliseconds(300).")
    public func window(timeSpan: Foundation.TimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        window(timeSpan: .rippleSeconds(timeSpan), count: count, scheduler: scheduler)
    }
}

extension DispatchTimeInterval {
    /// `seconds` as a nanosecond interval; not-a-number or out-of-range values
    /// become `.never`, negative ones zero.
    @usableFromInline
    static func rippleSeconds(_ seconds: Foundation.TimeInterval) -> DispatchTimeInterval {
        let nanoseconds = (seconds * 1_000_000_000).rounded()
        guard nanoseconds.isFinite, nanoseconds < Double(Int.max) else { return .never }
        return .nanoseconds(Swift.max(0, Int(nanoseconds)))
    }
}
