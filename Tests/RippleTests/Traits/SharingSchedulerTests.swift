import Foundation
import Ripple
import RippleTest
import XCTest

/// `true` if `scheduler` is `object`.
private func isSame(_ scheduler: SchedulerType, _ object: AnyObject) -> Bool {
    (scheduler as AnyObject) === object
}

final class SharingSchedulerTests: RippleTestCase {
    func testMockReplacesTheSchedulerAndRestoresIt() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            XCTAssertTrue(isSame(SharingScheduler.make(), scheduler))
            XCTAssertTrue(isSame(DriverSharingStrategy.scheduler, scheduler))
            XCTAssertTrue(isSame(SignalSharingStrategy.scheduler, scheduler))
        }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }

    func testMocksNest() {
        let outer = TestScheduler(initialClock: 0)
        let inner = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: outer) {
            SharingScheduler.mock(scheduler: inner) {
                XCTAssertTrue(isSame(SharingScheduler.make(), inner))
            }
            XCTAssertTrue(isSame(SharingScheduler.make(), outer))
        }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }

    func testMockRestoresWhenTheActionThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertThrowsError(try SharingScheduler.mock(scheduler: scheduler) {
            XCTAssertTrue(isSame(SharingScheduler.make(), scheduler))
            throw testError
        }) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }

    func testMockReturnsTheActionsResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let value = SharingScheduler.mock(scheduler: scheduler) { 42 }
        XCTAssertEqual(value, 42)
    }

    func testMakeSchedulerIsCalledForEachSharingSequence() {
        var made = 0
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(makeScheduler: {
            made += 1
            return scheduler
        }) {
            _ = Driver.just(1)
            _ = PublishRelay<Int>().asSignal()
            _ = Observable.of(1).asDriver(onErrorJustReturn: 0).debounce(.seconds(1))
        }
        XCTAssertEqual(made, 4)
    }

    func testTheSchedulerIsChosenWhenTheSequenceIsCreated() {
        // A driver created inside the mock keeps the mock scheduler afterwards.
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: 1)
        let driver = SharingScheduler.mock(scheduler: scheduler) { relay.asDriver() }
        let observer = scheduler.createObserver(Int.self)
        let subscription = driver.drive(observer)
        XCTAssertEqual(observer.events, [], "nothing before the test scheduler runs")
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(1, 1)])
        subscription.dispose()
    }

    func testOtherThreadsSeeTheMockWhileItRuns() {
        // As in RxCocoa: sequences created on another thread while the mock runs
        // use the mock scheduler too.
        let scheduler = TestScheduler(initialClock: 0)
        let seen = LockedBox<Bool>(false)
        SharingScheduler.mock(scheduler: scheduler) {
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let made = SharingScheduler.make()
                seen.withLock { $0 = isSame(made, scheduler) }
                done.signal()
            }
            done.wait()
        }
        XCTAssertTrue(seen.withLock { $0 })
    }

    func testTasksStartedInsideTheMockInheritIt() async {
        let scheduler = TestScheduler(initialClock: 0)
        let task = SharingScheduler.mock(scheduler: scheduler) {
            Task { isSame(SharingScheduler.make(), scheduler) }
        }
        let inherited = await task.value
        XCTAssertTrue(inherited)
    }
}

final class SharingSchedulerConcurrencyTests: RippleTestCase {
    func testParallelMocksEachSeeTheirOwnScheduler() {
        // Parallel tests that mock at the same time do not see each other's mock.
        let threads = 8
        let rounds = 200
        let mismatches = LockedBox<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<rounds {
                let scheduler = TestScheduler(initialClock: 0)
                SharingScheduler.mock(scheduler: scheduler) {
                    let relay = BehaviorRelay(value: 7)
                    let driver = relay.asDriver()
                    if !isSame(SharingScheduler.make(), scheduler) {
                        mismatches.withLock { $0 += 1 }
                    }
                    let observer = scheduler.createObserver(Int.self)
                    let subscription = driver.drive(observer)
                    scheduler.start()
                    if observer.events != [.next(1, 7)] {
                        mismatches.withLock { $0 += 1 }
                    }
                    subscription.dispose()
                }
            }
        }
        XCTAssertEqual(mismatches.withLock { $0 }, 0)
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }

    func testDriverFedFromManyThreadsKeepsTheContract() {
        // The sharing scheduler is a serial dispatch queue; elements come from many
        // threads; every subscriber sees each element once, in one order, never
        // overlapping, and nothing after completion.
        let queue = SerialDispatchQueueScheduler(qos: .default)
        let subject = PublishSubject<Int>()
        let driver = SharingScheduler.mock(scheduler: queue) {
            subject.asDriver(onErrorJustReturn: -1).map { $0 * 2 }
        }
        let producers = 4
        let perProducer = 500
        final class Checker: @unchecked Sendable {
            let lock = NSLock()
            var values: [Int] = []
            var inside = false
            var overlapped = false
            var completed = 0
            func on(_ event: Event<Int>) {
                lock.lock()
                if inside { overlapped = true }
                inside = true
                lock.unlock()
                lock.lock()
                switch event {
                case .next(let value): values.append(value)
                case .completed: completed += 1
                case .error: overlapped = true
                }
                inside = false
                lock.unlock()
            }
        }
        let checkers = [Checker(), Checker(), Checker()]
        let subscriptions = SharingScheduler.mock(scheduler: queue) {
            checkers.map { checker in driver.drive(onNext: { checker.on(.next($0)) }, onCompleted: { checker.on(.completed) }) }
        }
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 0..<perProducer {
                subject.onNext(producer * perProducer + index)
            }
        }
        subject.onCompleted()
        let expectedCount = producers * perProducer
        XCTAssertTrue(waitUntil { checkers.allSatisfy { checker in checker.lock.withLock { checker.completed == 1 } } })
        let reference = checkers[0].lock.withLock { checkers[0].values }
        XCTAssertEqual(reference.count, expectedCount)
        XCTAssertEqual(Set(reference).count, expectedCount)
        for checker in checkers {
            checker.lock.withLock {
                XCTAssertFalse(checker.overlapped)
                XCTAssertEqual(checker.values, reference, "every subscriber sees the same order")
                XCTAssertEqual(checker.completed, 1)
            }
        }
        subscriptions.forEach { $0.dispose() }
    }

    func testSubscribersJoiningAndLeavingWhileTheSourceEmits() {
        let queue = SerialDispatchQueueScheduler(qos: .default)
        let relay = BehaviorRelay(value: 0)
        let driver = SharingScheduler.mock(scheduler: queue) { relay.asDriver() }
        let stop = LockedBox(false)
        let producer = Thread {
            var value = 0
            while !stop.withLock({ $0 }) {
                value += 1
                relay.accept(value)
                // Paced, so that the sharing queue is not flooded faster than it drains.
                if value.isMultiple(of: 20) { usleep(100) }
            }
        }
        producer.start()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<200 {
                let received = LockedBox<[Int]>([])
                let subscription = SharingScheduler.mock(scheduler: queue) {
                    driver.drive(onNext: { value in received.withLock { $0.append(value) } })
                }
                // A subscriber that connects gets the relay's current value through
                // the sharing queue; one that joins a connection gets the replay.
                let deadline = Date().addingTimeInterval(2)
                while received.withLock({ $0.isEmpty }) && Date() < deadline { usleep(100) }
                subscription.dispose()
                let values = received.withLock { $0 }
                XCTAssertFalse(values.isEmpty, "every subscriber gets the current value")
                // Increasing: each element at most once, in order.
                XCTAssertEqual(values, values.sorted())
                XCTAssertEqual(Set(values).count, values.count)
            }
        }
        stop.withLock { $0 = true }
        while !producer.isFinished { usleep(1000) }
    }
}
