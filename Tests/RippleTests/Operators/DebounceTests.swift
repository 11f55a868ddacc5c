import Ripple
import RippleTest
import XCTest

final class DebounceTests: RippleTestCase {
    func testSpacedElementsPassAfterDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, -1), .next(250, 0), .next(280, 1), .next(310, 2), .next(350, 3), .next(400, 4), .completed(550),
        ])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(270, 0), .next(300, 1), .next(330, 2), .next(370, 3), .next(420, 4), .completed(550)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testBurstKeepsOnlyLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .next(240, 4), .completed(300)])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 3), .next(250, 4), .completed(300)])
    }

    func testBurstAtEqualTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(210, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }.events, [.next(220, 3), .completed(300)])
    }

    func testElementAtTheTimerTimeRestartsTheWait() {
        // The hot event at 220 runs before the timer scheduled for 220.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }.events, [.next(230, 2), .completed(300)])
    }

    func testMillisecondResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.debounce(.milliseconds(10), scheduler: scheduler) }.events,
                       [.next(225, 2), .next(250, 3), .completed(300)])
    }

    func testCompletionFlushesPendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(215, 1), .completed(215)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
    }

    func testErrorDropsPendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(215, testError)])
        XCTAssertEqual(scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }.events, [.error(215, testError)])
    }

    func testEmptyAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(300)])
        XCTAssertEqual(scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }.events, [.completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let never = scheduler2.createHotObservable([Recorded<Event<Int>>]())
        XCTAssertEqual(scheduler2.start { never.debounce(.seconds(10), scheduler: scheduler2) }.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
    }

    func testDisposeDropsPendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        let res = scheduler.start(disposed: 215) { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
    }

    func testReentrantElementFromObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.debounce(.seconds(10), scheduler: scheduler).subscribe(onNext: { value in
                observer.onNext(value)
                if value == 1 { subject.onNext(2) }
            })
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(500) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(220, 1), .next(230, 2)])
    }

    /// The pending element a new one replaces is released after the operator's
    /// lock: its `deinit` (user code) may send to the source again, which
    /// deadlocked the sending thread when it ran under the lock.
    func testAReplacedElementWhoseDeinitSendsToTheSourceDoesNotDeadlock() {
        assertAReplacedElementWhoseDeinitSendsToTheSourceDoesNotDeadlock(
            { $0.debounce(.seconds(1), scheduler: $1) }, expected: ["nil at 1"])
    }
}
