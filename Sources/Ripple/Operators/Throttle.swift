import Foundation

extension ObservableType {
    /// Passes on at most one element per `dueTime`.
    ///
    /// An element that arrives when at least `dueTime` has passed since the last
    /// element was passed on goes through at once and starts a new window. With
    /// `latest: true`, the last element that arrives inside a window is passed
    /// on when the window ends (and starts the next window); with
    /// `latest: false`, elements inside a window are dropped.
    ///
    /// When the source completes while an element is waiting for its window to
    /// end, the completion waits for it too; otherwise it is passed on at once.
    /// An error is passed on at once and drops the waiting element.
    ///
    /// ```
    /// source:                                --1-2-3-------4-5---|
    /// throttle(5, scheduler):                --1----3------4----5|
    /// throttle(5, latest: false, scheduler): --1-----------4-----|
    /// ```
    @_alwaysEmitIntoClient
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("throttle")) { observer in
            let sink = ThrottleSink<Element>(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { event in
                switch event {
                case .next(let element):
                    let now = scheduler.now
                    // A pending element replaced or dropped: released after
                    // the lock (see `SerializingSink`).
                    var dropped: Element?
                    let timer = sink.update { state, outbox -> (id: UInt64, dueTime: RxTimeInterval)? in
                        let remaining = state.lastSentTime.map { dueTime.remaining(after: $0, at: now) } ?? .nanoseconds(0)
                        if remaining.isZeroInterval {
                            swap(&state.pending, &dropped)
                            state.lastSentTime = now
                            outbox.next(element)
                            return nil
                        }
                        guard latest else { return nil }
                        let isTimerRunning = state.pending != nil
                        dropped = element
                        swap(&state.pending, &dropped)
                        if isTimerRunning { return nil }
                        state.timerID &+= 1
                        return (state.timerID, remaining)
                    }
                    guard let timer else { return }
                    sink.timer.disposable = scheduler.scheduleRelative(timer.id, dueTime: timer.dueTime) { id in
                        let now = scheduler.now
                        sink.update { state, outbox in
                            guard state.timerID == id else { return }
                            if let pending = state.pending {
                                state.pending = nil
                                state.lastSentTime = now
                                outbox.next(pending)
                            }
                            if state.sourceCompleted {
                                outbox.terminate(.completed)
                            }
                        }
                        return Disposables.create()
                    }
                case .error:
                    var dropped: Element?  // released after the lock
                    sink.update { state, outbox in
                        swap(&state.pending, &dropped)
                        outbox.terminate(event)
                    }
                case .completed:
                    sink.update { state, outbox in
                        if state.pending != nil {
                            state.sourceCompleted = true
                        } else {
                            outbox.terminate(event)
                        }
                    }
                }
            }))
            return sink
        }
    }
}

/// `throttle`'s state (a tuple: see "State is a tuple" in docs/Architecture.md).
@usableFromInline
typealias ThrottleState<Element> = (pending: Element?, lastSentTime: RxTime?, sourceCompleted: Bool, timerID: UInt64)

@usableFromInline
final class ThrottleSink<Element>: SerializingSink<ThrottleState<Element>, Element>, @unchecked Sendable {
    @usableFromInline
    let timer: SerialDisposable

    @usableFromInline
    init(observer: AnyObserver<Element>) {
        timer = SerialDisposable()
        super.init(state: (pending: nil, lastSentTime: nil, sourceCompleted: false, timerID: 0), observer: observer)
    }

    override func disposeResources() {
        timer.dispose()
        var dropped: Element?  // released after the lock (see `SerializingSink`)
        withState { swap(&$0.pending, &dropped) }
    }
}

extension DispatchTimeInterval {
    /// What is left of this interval once the time from `start` to `now` has
    /// passed, in this interval's own unit, rounded up to a whole unit (zero when
    /// nothing is left). `.never` stays `.never`. This is how RxSwift computes the
    /// rest of a throttle window or of a delay.
    @usableFromInline
    func remaining(after start: RxTime, at now: RxTime) -> DispatchTimeInterval {
        func reduce(_ value: Int, unitsPerSecond: Double) -> Int {
            let elapsed = now.timeIntervalSince(start) * unitsPerSecond
            var rest = Double(value) - elapsed
            // A `Date` is a double counted from 2001, precise to about 0.1 µs
            // around today (and around 1970, where virtual clocks start): a
            // difference meant to be whole comes out slightly off. Treat anything
            // within 1 µs of a whole unit as that unit, so that it is not rounded
            // up to one unit more.
            let nearest = rest.rounded()
            if abs(rest - nearest) <= Swift.min(0.5, 1e-6 * unitsPerSecond) { rest = nearest }
            guard rest > 0 else { return 0 }
            guard rest < Double(Int.max) else { return Int.max }
            return Int(rest.rounded(.up))
        }
        switch self {
        case .seconds(let value): return .seconds(reduce(value, unitsPerSecond: 1))
        case .milliseconds(let value): return .milliseconds(reduce(value, unitsPerSecond: 1_000))
        case .microseconds(let value): return .microseconds(reduce(value, unitsPerSecond: 1_000_000))
        case .nanoseconds(let value): return .nanoseconds(reduce(value, unitsPerSecond: 1_000_000_000))
        case .never: return .never
        @unknown default: return self
        }
    }

    /// `true` for a zero (or negative) interval of any unit.
    @usableFromInline
    var isZeroInterval: Bool {
        switch self {
        case .seconds(let value), .milliseconds(let value), .microseconds(let value), .nanoseconds(let value):
            return value <= 0
        case .never:
            return false
        @unknown default:
            return false
        }
    }
}
