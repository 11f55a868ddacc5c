import Foundation
import Ripple
import RippleTest
import XCTest

final class VirtualTimeSchedulerTests: RippleTestCase {
    func testRunsInTimeOrderAndStableAtEqualTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        scheduler.scheduleAt(20) { log.append("b@\(scheduler.clock)") }
        scheduler.scheduleAt(10) { log.append("a@\(scheduler.clock)") }
        scheduler.scheduleAt(20) { log.append("c@\(scheduler.clock)") }
        scheduler.start()
        XCTAssertEqual(log, ["a@10", "b@20", "c@20"])
        XCTAssertEqual(scheduler.clock, 20)
    }

    func testAdvanceToRunsOnlyDueWorkAndMovesTheClock() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [Int] = []
        scheduler.scheduleAt(10) { log.append(10) }
        scheduler.scheduleAt(30) { log.append(30) }
        scheduler.advanceTo(20)
        XCTAssertEqual(log, [10])
        XCTAssertEqual(scheduler.clock, 20)
        scheduler.advanceTo(30)
        XCTAssertEqual(log, [10, 30])
    }

    func testStopHaltsStart() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [Int] = []
        scheduler.scheduleAt(10) { log.append(10); scheduler.stop() }
        scheduler.scheduleAt(20) { log.append(20) }
        scheduler.start()
        XCTAssertEqual(log, [10])
        scheduler.start()
        XCTAssertEqual(log, [10, 20])
    }

    func testSleepMovesClockWithoutRunning() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran = false
        scheduler.scheduleAt(5) { ran = true }
        scheduler.sleep(10)
        XCTAssertEqual(scheduler.clock, 10)
        XCTAssertFalse(ran)
    }

    func testRelativeSchedulingUsesResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        var firedAt: Int?
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(300)) { _ in
            firedAt = scheduler.clock
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(firedAt, 300)
    }

    func testScheduleNowRunsOneTickLaterWithProcessingDelay() {
        let scheduler = TestScheduler(initialClock: 100)
        var firedAt: [Int] = []
        _ = scheduler.schedule(()) { _ in firedAt.append(scheduler.clock); return Disposables.create() }
        scheduler.start()
        XCTAssertEqual(firedAt, [101])

        let noDelay = TestScheduler(initialClock: 100, simulateProcessingDelay: false)
        var noDelayFiredAt: [Int] = []
        _ = noDelay.schedule(()) { _ in noDelayFiredAt.append(noDelay.clock); return Disposables.create() }
        noDelay.start()
        XCTAssertEqual(noDelayFiredAt, [100])
    }

    func testDisposedWorkDoesNotRun() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran = false
        let disposable = scheduler.scheduleRelativeVirtual((), dueTime: 10) { _ in ran = true; return Disposables.create() }
        disposable.dispose()
        scheduler.start()
        XCTAssertFalse(ran)
    }

    func testPeriodicSchedulingOnVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        var ticks: [Int] = []
        let disposable = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(5)) { state in
            ticks.append(scheduler.clock)
            return state + 1
        }
        scheduler.advanceTo(32)
        disposable.dispose()
        scheduler.start()
        XCTAssertEqual(ticks, [10, 15, 20, 25, 30])
    }

    func testRecursiveSchedulingWithDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [Int] = []
        _ = scheduler.scheduleRecursive(0, dueTime: .seconds(3)) { count, recurse in
            times.append(scheduler.clock)
            if count < 3 { recurse(count + 1, .seconds(2)) }
        }
        scheduler.start()
        XCTAssertEqual(times, [3, 5, 7, 9])
    }

    func testHistoricalScheduler() {
        let start = Date(timeIntervalSince1970: 1_000)
        let scheduler = HistoricalScheduler(initialClock: start)
        var fired: [Date] = []
        _ = scheduler.scheduleRelative((), dueTime: .seconds(60)) { _ in
            fired.append(scheduler.now)
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(fired, [start.addingTimeInterval(60)])
    }

    func testUsableFromAnotherThread() {
        let done = expectation(description: "background")
        DispatchQueue.global().async {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            let res = scheduler.start { xs.asObservable().map { $0 + 1 } }
            XCTAssertEqual(res.events, [.next(210, 2), .completed(220)])
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }
}
