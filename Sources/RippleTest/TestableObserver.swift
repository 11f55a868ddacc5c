import Ripple

/// An observer that records each event with the virtual time it arrived at.
public final class TestableObserver<Element>: ObserverType, @unchecked Sendable {
    private let scheduler: TestScheduler
    private let recorded = LockedBox<[Recorded<Event<Element>>]>([])

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// The events received so far, with their times.
    public var events: [Recorded<Event<Element>>] {
        recorded.value
    }

    /// Records `event` at the scheduler's current time.
    public func on(_ event: Event<Element>) {
        let time = scheduler.clock
        recorded.withLock { $0.append(Recorded(time: time, value: event)) }
    }
}
