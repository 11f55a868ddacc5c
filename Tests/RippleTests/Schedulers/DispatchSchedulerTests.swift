import Dispatch
import Foundation
import Ripple
import RippleTest
import XCTest

final class DispatchSchedulerTests: RippleTestCase {
    private let key = DispatchSpecificKey<String>()

    func testSerialSchedulerRunsOnItsQueueInOrder() {
        let queue = DispatchQueue(label: "serial-test")
        queue.setSpecific(key: key, value: "serial")
        let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
        let log = Recorder<String>()
        for index in 0..<100 {
            _ = scheduler.schedule(index) { [key] index in
                log.append("\(index)@\(DispatchQueue.getSpecific(key: key) ?? "?")")
                return Disposables.create()
            }
        }
        XCTAssertTrue(waitUntil { log.values.count == 100 })
        XCTAssertEqual(log.values, (0..<100).map { "\($0)@serial" })
    }

    func testSerialSchedulerInitialisers() {
        var configured = false
        let named = SerialDispatchQueueScheduler(internalSerialQueueName: "named", serialQueueConfiguration: { _ in configured = true })
        XCTAssertTrue(configured)
        let targeted = SerialDispatchQueueScheduler(queue: .global(), internalSerialQueueName: "targeted")
        let qos = SerialDispatchQueueScheduler(qos: .userInitiated)
        let ran = Recorder<Int>()
        for (index, scheduler) in [named, targeted, qos].enumerated() {
            _ = scheduler.schedule(index) { ran.append($0); return Disposables.create() }
        }
        XCTAssertTrue(waitUntil { ran.values.count == 3 })
    }

    func testRelativeSchedulingWaitsAndCanBeCancelled() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let fired = Recorder<String>()
        let start = Date()
        _ = scheduler.scheduleRelative("late", dueTime: .milliseconds(50)) { value in
            fired.append(value)
            return Disposables.create()
        }
        let cancelled = scheduler.scheduleRelative("cancelled", dueTime: .milliseconds(30)) { value in
            fired.append(value)
            return Disposables.create()
        }
        cancelled.dispose()
        XCTAssertTrue(waitUntil { fired.values.count == 1 })
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.045)
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(fired.values, ["late"])
    }

    func testPeriodicScheduling() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "periodic")
        let ticks = Recorder<Int>()
        let disposable = scheduler.schedulePeriodic(0, startAfter: .milliseconds(5), period: .milliseconds(5)) { state in
            ticks.append(state)
            return state + 1
        }
        XCTAssertTrue(waitUntil { ticks.values.count >= 3 })
        disposable.dispose()
        let count = ticks.values.count
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertLessThanOrEqual(ticks.values.count, count + 1)
        XCTAssertEqual(Array(ticks.values.prefix(3)), [0, 1, 2])
    }

    func testOperationQueueScheduler() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
        XCTAssertEqual(scheduler.queuePriority, .high)
        let log = Recorder<Int>()
        for index in 0..<10 {
            _ = scheduler.schedule(index) { log.append($0); return Disposables.create() }
        }
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(log.values, Array(0..<10))
    }

    func testMainSchedulerRunsImmediatelyOnMainAndDispatchesFromBackground() {
        XCTAssertTrue(Thread.isMainThread)
        var ranInline = false
        _ = MainScheduler.instance.schedule(()) { _ in
            ranInline = true
            return Disposables.create()
        }
        XCTAssertTrue(ranInline)

        let onMain = Recorder<Bool>()
        DispatchQueue.global().async {
            _ = MainScheduler.instance.schedule(()) { _ in
                onMain.append(Thread.isMainThread)
                return Disposables.create()
            }
        }
        XCTAssertTrue(waitUntil { onMain.values.count == 1 })
        XCTAssertEqual(onMain.values, [true])
        MainScheduler.ensureRunningOnMainThread()
        MainScheduler.ensureExecutingOnScheduler()
    }

    func testMainSchedulerAsyncInstanceAlwaysDispatches() {
        var ran = false
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        XCTAssertFalse(ran)
        XCTAssertTrue(waitUntil { ran })
    }

    func testConcurrentMainScheduler() {
        var ran = false
        _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        XCTAssertTrue(ran)
    }

    func testNestedMainSchedulerWorkIsQueued() {
        var log: [String] = []
        _ = MainScheduler.instance.schedule(()) { _ in
            log.append("outer")
            _ = MainScheduler.instance.schedule(()) { _ in
                log.append("inner")
                return Disposables.create()
            }
            log.append("outer end")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["outer", "outer end"])
        XCTAssertTrue(waitUntil { log.count == 3 })
        XCTAssertEqual(log, ["outer", "outer end", "inner"])
    }
}
