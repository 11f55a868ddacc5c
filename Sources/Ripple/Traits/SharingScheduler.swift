/// Chooses the scheduler on which ``Driver`` and ``Signal`` deliver their
/// elements: the main scheduler in an app, a test scheduler in a test.
///
/// ```swift
/// func testCounter() {
///     let scheduler = TestScheduler(initialClock: 0)
///     SharingScheduler.mock(scheduler: scheduler) {
///         let viewModel = CounterViewModel(...)
///         let res = scheduler.start { viewModel.count }
///         XCTAssertEqual(res.events, [...])
///     }
/// }
/// ```
///
/// The scheduler is chosen when a sharing sequence is created (by `asDriver`,
/// `asSignal`, `Driver.just`, `debounce`, ...), so create the view model inside
/// the `mock` block.
public enum SharingScheduler {
    /// Makes the scheduler for a new sharing sequence. Outside ``mock(scheduler:action:)``
    /// it makes a new `MainScheduler()`.
    ///
    /// On Linux the main scheduler runs work that is scheduled from another
    /// thread only while the main thread runs a `RunLoop` or `dispatchMain()`.
    public static var make: () -> SchedulerType {
        if let factory = taskMock ?? globalMocks.withLock({ $0.last?.factory }) {
            return factory.make
        }
        return { MainScheduler() }
    }

    /// Runs `action` with `scheduler` as the scheduler of every sharing sequence
    /// it creates, then restores the previous one (also when `action` throws).
    ///
    /// - Returns: What `action` returns.
    @_alwaysEmitIntoClient
    @discardableResult
    public static func mock<Result>(scheduler: SchedulerType, action: () throws -> Result) rethrows -> Result {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with `makeScheduler` making the scheduler of every sharing
    /// sequence it creates, then restores the previous one (also when `action`
    /// throws).
    ///
    /// Thread-safe. The mock applies to sequences created on the calling thread
    /// (and in tasks started from it) and, as in RxCocoa, to those created on
    /// other threads while `action` runs. When several mocks run at the same time
    /// on different threads (parallel tests), each mocking thread sees its own
    /// mock, and other threads see the most recent one. Mocks nest.
    ///
    /// - Returns: What `action` returns.
    @discardableResult
    public static func mock<Result>(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Result) rethrows -> Result {
        let factory = SchedulerFactory(makeScheduler)
        let id = AtomicCell.add(&nextMockID, 1, ordering: .relaxed).newValue
        globalMocks.withLock { $0.append((id, factory)) }
        defer {
            globalMocks.withLock { mocks in
                mocks.removeAll { $0.id == id }
            }
        }
        return try $taskMock.withValue(factory, operation: action)
    }

    /// `true` while a mock is active (then the drive/emit family does not check
    /// that it runs on the main thread).
    @usableFromInline
    static var isMocked: Bool {
        taskMock != nil || globalMocks.withLock { !$0.isEmpty }
    }

    /// The mock of the calling thread or task.
    @TaskLocal private static var taskMock: SchedulerFactory?

    /// Every active mock, oldest first: what other threads see.
    private static let globalMocks = LockedState<[(id: Int, factory: SchedulerFactory)]>([])
    @exclusivity(unchecked) private nonisolated(unsafe) static var nextMockID = AtomicCell<Int>(0)
}

/// A scheduler factory that can be stored in a task-local value.
private final class SchedulerFactory: @unchecked Sendable {
    /// Called from whichever thread creates a sharing sequence, as in RxCocoa.
    let make: () -> SchedulerType

    init(_ make: @escaping () -> SchedulerType) {
        self.make = make
    }
}
