import Dispatch
import Foundation

/// Carries a non-`Sendable` value into a `@Sendable` closure when the code
/// guarantees, by construction, that the value is used by one thread at a time
/// (for example, state handed to a serial queue and never touched again by the
/// sender).
@usableFromInline
struct UncheckedSendable<Value>: @unchecked Sendable {
    @usableFromInline
    let value: Value

    @_alwaysEmitIntoClient
    init(_ value: Value) {
        self.value = value
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds; `.never` is `nil`.
    var seconds: TimeInterval? {
        switch self {
        case .seconds(let value): return TimeInterval(value)
        case .milliseconds(let value): return TimeInterval(value) / 1_000
        case .microseconds(let value): return TimeInterval(value) / 1_000_000
        case .nanoseconds(let value): return TimeInterval(value) / 1_000_000_000
        case .never: return nil
        @unknown default: return nil
        }
    }

    /// `true` for a negative amount of time (`.never` is not negative).
    @usableFromInline
    var isNegative: Bool {
        switch self {
        case .seconds(let value), .milliseconds(let value), .microseconds(let value), .nanoseconds(let value):
            return value < 0
        case .never: return false
        @unknown default: return false
        }
    }

    /// The interval as a number of nanoseconds; `.never` is `nil`.
    var nanoseconds: Int? {
        switch self {
        case .seconds(let value): return value.multipliedReportingOverflow(by: 1_000_000_000).partialValue
        case .milliseconds(let value): return value.multipliedReportingOverflow(by: 1_000_000).partialValue
        case .microseconds(let value): return value.multipliedReportingOverflow(by: 1_000).partialValue
        case .nanoseconds(let value): return value
        case .never: return nil
        @unknown default: return nil
        }
    }
}

extension Date {
    /// `self` moved forward by `interval`; `.never` gives `Date.distantFuture`.
    @usableFromInline
    func addingDispatchInterval(_ interval: DispatchTimeInterval) -> Date {
        guard let seconds = interval.seconds else { return .distantFuture }
        return addingTimeInterval(seconds)
    }
}

/// The shared implementation of the dispatch-queue schedulers.
@usableFromInline
struct DispatchQueueConfiguration: Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval

    @usableFromInline
    func schedule<State>(_ state: State, action: @escaping (State) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        let work = UncheckedSendable((state, action))
        queue.async {
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        return cancel
    }

    @usableFromInline
    func scheduleRelative<State>(
        _ state: State, dueTime: DispatchTimeInterval, action: @escaping (State) -> Disposable
    ) -> Disposable {
        guard dueTime != .never else { return Disposables.create() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let compositeDisposable = CompositeDisposable()
        let work = UncheckedSendable((state, action))
        timer.setEventHandler {
            // A one-shot timer: cancelling it releases this handler (and with it the
            // disposable that refers to the timer).
            timer.cancel()
            if compositeDisposable.isDisposed { return }
            _ = compositeDisposable.insert(work.value.1(work.value.0))
        }
        timer.schedule(deadline: .now() + dueTime, leeway: leeway)
        timer.resume()
        _ = compositeDisposable.insert(Disposables.create(with: { timer.cancel() }))
        return compositeDisposable
    }

    @usableFromInline
    func schedulePeriodic<State>(
        _ state: State, startAfter: DispatchTimeInterval, period: DispatchTimeInterval,
        action: @escaping (State) -> State
    ) -> Disposable {
        guard startAfter != .never else { return Disposables.create() }
        // libdispatch traps on a negative repeat interval with no message; say what
        // was wrong instead (`timer`/`interval` turn it into an error event first).
        precondition(!period.isNegative, "schedulePeriodic: period must not be negative (got \(period))")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let cancel = BooleanDisposable()
        // libdispatch never runs one source's handler concurrently with itself, but
        // on a concurrent queue nothing orders one tick's memory accesses before the
        // next's for the thread sanitizer; the (uncontended) lock makes that order
        // explicit for the state and for everything the action delivers downstream.
        let box = LockedState((state, action))
        timer.setEventHandler {
            box.withLock { current in
                if cancel.isDisposed { return }
                current.0 = current.1(current.0)
            }
        }
        if period == .never {
            timer.schedule(deadline: .now() + startAfter, leeway: leeway)
        } else {
            timer.schedule(deadline: .now() + startAfter, repeating: period, leeway: leeway)
        }
        timer.resume()
        return Disposables.create {
            cancel.dispose()
            timer.cancel()
        }
    }
}
