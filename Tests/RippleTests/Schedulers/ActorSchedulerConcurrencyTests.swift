import Foundation
import Ripple
import RippleTest
import XCTest

/// An actor whose state may only be touched on its executor.
private actor Journal {
    private(set) var entries: [Int] = []

    func record(_ value: Int) {
        entries.append(value)
    }
}

/// Runs the main run loop until `condition` holds (or `timeout` passes).
private func spin(until condition: () -> Bool, timeout: TimeInterval = 10) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() && Date() < deadline {
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.002))
    }
}

final class ActorSchedulerConcurrencyTests: RippleTestCase {
    func testActionsRunIsolatedToTheActorInScheduleOrder() {
        let journal = Journal()
        let scheduler = ActorScheduler(journal)
        let done = expectation(description: "all ran")
        let count = 500
        for value in 0..<count {
            _ = scheduler.schedule(value) { value in
                // Traps unless this runs on the journal's executor.
                journal.assumeIsolated { $0.record(value) }
                if value == count - 1 { done.fulfill() }
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: 10)
        let entries = readEntries(of: journal)
        XCTAssertEqual(entries, Array(0..<count))
    }

    func testEachThreadsActionsKeepTheirOrder() {
        let journal = Journal()
        let scheduler = ActorScheduler(journal)
        let threads = 4
        let perThread = 200
        let done = expectation(description: "all ran")
        done.expectedFulfillmentCount = threads * perThread
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                _ = scheduler.schedule(thread * 10_000 + index) { value in
                    journal.assumeIsolated { $0.record(value) }
                    done.fulfill()
                    return Disposables.create()
                }
            }
        }
        wait(for: [done], timeout: 10)
        let entries = readEntries(of: journal)
        XCTAssertEqual(entries.count, threads * perThread)
        for thread in 0..<threads {
            let mine = entries.filter { $0 / 10_000 == thread }
            XCTAssertEqual(mine, (0..<perThread).map { thread * 10_000 + $0 })
        }
    }

    func testAnActionNeverRunsInsideTheCallThatSchedulesIt() {
        let journal = Journal()
        let scheduler = ActorScheduler(journal)
        let done = expectation(description: "nested ran")
        let log = Recorder<String>()
        _ = scheduler.schedule(()) { _ in
            _ = scheduler.schedule(()) { _ in
                log.append("nested")
                done.fulfill()
                return Disposables.create()
            }
            log.append("outer returns")
            return Disposables.create()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values, ["outer returns", "nested"])
    }

    func testDisposingBeforeTheActionStartsCancelsIt() {
        let journal = Journal()
        let scheduler = ActorScheduler(journal)
        let done = expectation(description: "after")
        let log = Recorder<String>()
        _ = scheduler.schedule(()) { _ in
            // The journal's executor is busy with this action: `cancelled` cannot
            // have started yet.
            let cancelled = scheduler.schedule(()) { _ in
                log.append("cancelled ran")
                return Disposables.create()
            }
            cancelled.dispose()
            _ = scheduler.schedule(()) { _ in
                log.append("after")
                done.fulfill()
                return Disposables.create()
            }
            return Disposables.create()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values, ["after"])
    }

    func testDisposingAfterTheActionRanDisposesWhatItReturned() {
        let scheduler = ActorScheduler(Journal())
        let ran = expectation(description: "ran")
        let inner = BooleanDisposable()
        let scheduled = scheduler.schedule(()) { _ in
            ran.fulfill()
            return inner
        }
        wait(for: [ran], timeout: 10)
        spin(until: { false }, timeout: 0.01)
        scheduled.dispose()
        XCTAssertTrue(inner.isDisposed)
    }

    func testDelayedActionRunsAfterItsDelayAndCanBeCancelled() {
        let journal = Journal()
        let scheduler = ActorScheduler(journal)
        let start = Date()
        let log = Recorder<String>()
        let ran = expectation(description: "delayed ran")
        let cancelled = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
            log.append("cancelled ran")
            return Disposables.create()
        }
        cancelled.dispose()
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(50)) { _ in
            journal.assumeIsolated { $0.record(1) }
            log.append("delayed")
            ran.fulfill()
            return Disposables.create()
        }
        wait(for: [ran], timeout: 10)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.05)
        XCTAssertEqual(log.values, ["delayed"])
    }

    func testObserveOnMovesEventsIntoTheActorInOrder() {
        let journal = Journal()
        let completed = expectation(description: "completed")
        let subscription = Observable.range(start: 0, count: 100)
            .observe(on: ActorScheduler(journal))
            .subscribe(
                onNext: { value in journal.assumeIsolated { $0.record(value) } },
                onCompleted: { completed.fulfill() }
            )
        wait(for: [completed], timeout: 10)
        XCTAssertEqual(readEntries(of: journal), Array(0..<100))
        subscription.dispose()
    }

    func testSubscribeOnSubscribesOnTheActor() {
        let journal = Journal()
        let subscribed = expectation(description: "subscribed")
        let source = Observable<Int>.create { observer in
            journal.assumeIsolated { $0.record(-1) }
            subscribed.fulfill()
            return Disposables.create()
        }
        let subscription = source.subscribe(on: ActorScheduler(journal)).subscribe()
        wait(for: [subscribed], timeout: 10)
        XCTAssertEqual(readEntries(of: journal), [-1])
        subscription.dispose()
    }

    func testMainActorSchedulerRunsOnTheMainThreadAsynchronously() {
        var ranOnMain: [Bool] = []
        let log = Recorder<Int>()
        let scheduled = UncheckedBox<[Bool]>([])
        _ = ActorScheduler.mainActor.schedule(()) { _ in
            MainActor.assumeIsolated { log.append(1) }
            scheduled.value.append(Thread.isMainThread)
            return Disposables.create()
        }
        XCTAssertEqual(log.values, [], "never runs inside schedule, even from the main thread")
        spin(until: { log.values.count == 1 })
        ranOnMain = scheduled.value
        XCTAssertEqual(ranOnMain, [true])
    }

    /// Scheduling and disposing race from several threads: an action runs at most
    /// once, never after a dispose that happened before it started, and
    /// everything is released (the leak check of `RippleTestCase`).
    func testScheduleAndDisposeRacesReleaseEverything() {
        let journal = Journal()
        let scheduler = ActorScheduler(journal)
        let runs = Recorder<Int>()
        let iterations = 400
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<iterations {
                let value = thread * 10_000 + index
                let disposable = index.isMultiple(of: 2)
                    ? scheduler.schedule(value) { value in
                        runs.append(value)
                        return Disposables.create()
                    }
                    : scheduler.scheduleRelative(value, dueTime: .microseconds(index % 7)) { value in
                        runs.append(value)
                        return Disposables.create()
                    }
                if index.isMultiple(of: 3) {
                    disposable.dispose()
                }
            }
        }
        // Every action that was not disposed runs exactly once.
        let expected = Set((0..<4).flatMap { thread in
            (0..<iterations).filter { !$0.isMultiple(of: 3) }.map { thread * 10_000 + $0 }
        })
        spin(until: { Set(runs.values).isSuperset(of: expected) })
        let values = runs.values
        XCTAssertEqual(values.count, Set(values).count, "an action ran twice")
        XCTAssertTrue(Set(values).isSuperset(of: expected))
    }

    private func readEntries(of journal: Journal) -> [Int] {
        let box = UncheckedBox<[Int]>([])
        let read = expectation(description: "read")
        Task {
            box.value = await journal.entries
            read.fulfill()
        }
        wait(for: [read], timeout: 10)
        return box.value
    }
}

/// A value handed between threads that are ordered by other means (an
/// expectation, the main queue).
final class UncheckedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Value

    init(_ value: Value) {
        _value = value
    }

    var value: Value {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
}
