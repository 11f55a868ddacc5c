import Foundation
import Ripple

/// Converts between ``TestTime`` ticks and real time: one tick is `resolution`
/// seconds.
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType, Sendable {
    /// Ticks.
    public typealias VirtualTimeUnit = Int
    /// Ticks.
    public typealias VirtualTimeIntervalUnit = Int

    private let resolution: Double

    init(resolution: Double) {
        if let problem = Self.problem(withResolution: resolution) {
            preconditionFailure(problem)
        }
        self.resolution = resolution
    }

    /// Why `resolution` cannot be a tick's length, or `nil` if it can.
    static func problem(withResolution resolution: Double) -> String? {
        guard resolution.isFinite, resolution > 0 else {
            return "TestScheduler(resolution: \(resolution)): the resolution is the length of one tick in seconds and must be a positive, finite number (1.0 by default)."
        }
        return nil
    }

    /// `seconds / resolution` ticks, rounded to the nearest; values beyond the
    /// range of `Int` saturate at `Int.max` / `Int.min` instead of trapping.
    static func ticks(_ seconds: Double, resolution: Double) -> Int {
        let ticks = (seconds / resolution + 0.5).rounded(.down)
        if ticks.isNaN { return 0 }
        if ticks >= Double(Int.max) { return Int.max }
        if ticks <= Double(Int.min) { return Int.min }
        return Int(ticks)
    }

    public func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime {
        Date(timeIntervalSince1970: TimeInterval(virtualTime) * resolution)
    }

    /// The tick of `time`; times beyond `Int.max` ticks saturate at `Int.max`,
    /// the end of virtual time (work due then never runs before the end of a
    /// test's `start`).
    public func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit {
        Self.ticks(time.timeIntervalSince1970, resolution: resolution)
    }

    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval {
        TimeInterval(virtualTimeInterval) * resolution
    }

    /// The ticks of `timeInterval`, saturating at `Int.max` / `Int.min`.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit {
        Self.ticks(timeInterval, resolution: resolution)
    }

    /// `time + offset`, saturating at `Int.max` / `Int.min` instead of trapping.
    public func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit {
        let (sum, overflow) = time.addingReportingOverflow(offset)
        guard overflow else { return sum }
        return offset > 0 ? Int.max : Int.min
    }

    public func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison {
        if lhs < rhs { return .lessThan }
        if lhs > rhs { return .greaterThan }
        return .equal
    }
}

/// A virtual-time scheduler for tests: create hot and cold observables from
/// recorded events, run the sequence under test, and compare what an observer
/// recorded.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
/// let res = scheduler.start { xs.map { $0 * 10 } }
/// XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .completed(300)])
/// XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
/// ```
///
/// Work scheduled for "now" runs one tick later when `simulateProcessingDelay` is
/// `true` (the default), as in RxTest. The scheduler may be used from any thread;
/// nothing in it asserts the main thread, so Swift Testing's parallel tests work.
open class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>, @unchecked Sendable {
    /// The default times of ``start(created:subscribed:disposed:create:)``.
    public struct Defaults {
        /// When the sequence is created: 100.
        public static let created = 100
        /// When it is subscribed: 200.
        public static let subscribed = 200
        /// When the subscription is disposed: 1000.
        public static let disposed = 1000
    }

    private let simulateProcessingDelay: Bool

    /// A scheduler whose clock starts at `initialClock`; one tick is `resolution`
    /// seconds of real time (for operators that take `RxTimeInterval`s).
    ///
    /// `resolution` must be positive and finite (a precondition). Due times
    /// beyond `Int.max` ticks (`delay(.seconds(Int.max), ...)`) saturate at
    /// `Int.max` rather than overflow.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
    }

    /// An observable that emits `events` at their absolute times, whether or not
    /// anybody is subscribed.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(testScheduler: self, recordedEvents: events)
    }

    /// An observable that emits `events` relative to each subscription's time.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(testScheduler: self, recordedEvents: events)
    }

    /// An observer that records events with this scheduler's clock.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Runs `action` at virtual time `time`.
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at
    /// `disposed`, runs the scheduler, and returns what was recorded.
    ///
    /// Each call needs a scheduler whose clock has not passed `created` and that
    /// is not running: calling it a second time on the same scheduler, or from
    /// one of its scheduled actions, fails the test with a message saying so
    /// (instead of quietly recording nothing). Use a new `TestScheduler` for each
    /// run.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        created: TestTime, subscribed: TestTime, disposed: TestTime, create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        if let problem = startProblem(created: created) {
            reportMisuse(problem)
            return createObserver(Element.self)
        }
        let state = LockedBox<(source: Observable<Element>?, subscription: Disposable?)>((nil, nil))
        let observer = createObserver(Element.self)
        scheduleAt(created) {
            state.value.source = create().asObservable()
        }
        scheduleAt(subscribed) {
            state.value.subscription = state.value.source?.subscribe(observer)
        }
        scheduleAt(disposed) {
            state.value.subscription?.dispose()
            state.value = (nil, nil)
        }
        start()
        return observer
    }

    /// ``start(created:subscribed:disposed:create:)`` with the default creation
    /// (100) and subscription (200) times.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        disposed: TestTime, create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// ``start(created:subscribed:disposed:create:)`` with the default times 100,
    /// 200 and 1000.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        _ create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }

    /// Work scheduled at or before the current time runs at the current time, plus
    /// one tick when `simulateProcessingDelay` is on.
    open override func adjustScheduledTime(_ time: Int) -> Int {
        let now = clock
        guard time <= now else { return time }
        return simulateProcessingDelay && now < Int.max ? now + 1 : now
    }

    /// Fails the running test (XCTest or Swift Testing) with `message`.
    open override func reportMisuse(_ message: String) {
        TestFailure.report(message)
    }

    /// Why ``start(created:subscribed:disposed:create:)`` cannot run now, or `nil`.
    func startProblem(created: TestTime) -> String? {
        if isRunning {
            return "TestScheduler.start was called from inside one of the scheduler's own actions; it cannot run the scheduler again and records nothing. Call start once, from the test."
        }
        let now = clock
        if now > created {
            return "TestScheduler.start was called on a scheduler whose clock is already at \(now), past the creation time \(created) (was start called twice?). Nothing was recorded: use a new TestScheduler for each start."
        }
        return nil
    }
}

/// A lock-protected value.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = PlatformLock()
    private var storage: Value

    init(_ value: Value) {
        storage = value
    }

    var value: Value {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}
