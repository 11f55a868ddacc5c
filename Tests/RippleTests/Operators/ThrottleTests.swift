import Ripple
import RippleTest
import XCTest

final class ThrottleTests: RippleTestCase {
    private func makeSource(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(225, 4), .next(260, 5), .next(270, 6), .completed(275),
        ])
    }

    func testLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start { xs.throttle(.seconds(20), scheduler: scheduler) }
        // 2 opens a window [210, 230); 4 (latest in it) goes out when it ends; 5 comes
        // after a full window and goes out at once; 6 waits until 280, and the
        // completion waits for it.
        XCTAssertEqual(res.events, [.next(210, 2), .next(230, 4), .next(260, 5), .next(280, 6), .completed(280)])
        // The source itself completed at 275.
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 275)])
    }

    func testNotLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start { xs.throttle(.seconds(20), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(260, 5), .completed(275)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 275)])
    }

    func testWindowRestartsWhenTheLatestElementGoesOut() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(235, 3), .next(245, 4), .completed(300)])
        // 2 goes out at 220 and starts a window [220, 230); 3 arrives after it.
        XCTAssertEqual(scheduler.start { xs.throttle(.seconds(10), scheduler: scheduler) }.events,
                       [.next(210, 1), .next(220, 2), .next(235, 3), .next(245, 4), .completed(300)])
    }

    func testBurstAtEqualTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(210, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.throttle(.seconds(10), scheduler: scheduler) }.events,
                       [.next(210, 1), .next(220, 3), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .next(210, 2), .next(210, 3), .completed(300)])
        XCTAssertEqual(scheduler2.start { xs2.throttle(.seconds(10), latest: false, scheduler: scheduler2) }.events,
                       [.next(210, 1), .completed(300)])
    }

    func testElementExactlyAtWindowEndGoesOutAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.throttle(.seconds(10), scheduler: scheduler) }.events,
                       [.next(210, 1), .next(220, 2), .completed(300)])
    }

    func testElementAtWindowEndReplacesTheWaitingOne() {
        // As in RxSwift: at 220 the source's element (scheduled before the timer)
        // finds the window over and goes out at once; the waiting 2 is dropped.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.throttle(.seconds(10), scheduler: scheduler) }.events,
                       [.next(210, 1), .next(220, 3), .completed(300)])
    }

    func testMillisecondResolutionHasNoRoundingDrift() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(233, 3), .next(290, 4), .completed(400)])
        XCTAssertEqual(scheduler.start { xs.throttle(.milliseconds(30), scheduler: scheduler) }.events,
                       [.next(210, 1), .next(240, 3), .next(290, 4), .completed(400)])
    }

    func testErrorDropsWaitingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .error(217, testError)])
        XCTAssertEqual(scheduler.start { xs.throttle(.seconds(10), scheduler: scheduler) }.events,
                       [.next(210, 1), .error(217, testError)])
    }

    func testCompletionWithoutWaitingElementIsImmediate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        XCTAssertEqual(scheduler.start { xs.throttle(.seconds(10), scheduler: scheduler) }.events, [.next(210, 1), .completed(215)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let empty = scheduler2.createHotObservable([Recorded<Event<Int>>.completed(215)])
        XCTAssertEqual(scheduler2.start { empty.throttle(.seconds(10), scheduler: scheduler2) }.events, [.completed(215)])
    }

    func testDisposeDropsWaitingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2)])
        let res = scheduler.start(disposed: 218) { xs.throttle(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 218)])
    }

    func testReentrantElementFromObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.throttle(.seconds(10), scheduler: scheduler).subscribe(onNext: { value in
                observer.onNext(value)
                if value < 3 { subject.onNext(value + 1) }
            })
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(500) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .next(230, 3)])
    }

    /// The pending element a new one replaces is released after the operator's
    /// lock: its `deinit` (user code) may send to the source again, which
    /// deadlocked the sending thread when it ran under the lock.
    func testAReplacedElementWhoseDeinitSendsToTheSourceDoesNotDeadlock() {
        assertAReplacedElementWhoseDeinitSendsToTheSourceDoesNotDeadlock(
            { $0.throttle(.seconds(1), scheduler: $1) }, expected: ["nil at 0", "nil at 1"])
    }
}
