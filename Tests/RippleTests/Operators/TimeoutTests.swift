import Ripple
import RippleTest
import XCTest

final class TimeoutTests: RippleTestCase {
    func testElementsInTimeThenTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .next(260, 3), .next(300, 4), .next(350, 5)])
        let res = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(210, 1), .next(230, 2), .next(260, 3), .next(300, 4), .next(350, 5), .error(400, RxError.timeout),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testTimeoutBeforeFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(300, 1)])
        XCTAssertEqual(scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }.events, [.error(250, RxError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testCompletesOrFailsInTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(240)])
        XCTAssertEqual(scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }.events, [.next(210, 1), .completed(240)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .error(240, testError)])
        XCTAssertEqual(scheduler2.start { xs2.timeout(.seconds(50), scheduler: scheduler2) }.events, [.next(210, 1), .error(240, testError)])
    }

    func testSwitchesToOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(70, 1), .next(130, 2), .next(310, 3), .next(400, 4), .completed(500)])
        let ys = scheduler.createColdObservable([.next(50, -1), .next(200, -2), .next(310, -3), .completed(320)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(350, -1), .next(500, -2), .next(610, -3), .completed(620)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(300, 620)])
    }

    func testOtherNotSubscribedWhenInTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(250)])
        let ys = scheduler.createColdObservable([.next(10, -1)])
        XCTAssertEqual(scheduler.start { xs.timeout(.seconds(50), other: ys, scheduler: scheduler) }.events,
                       [.next(210, 1), .next(240, 2), .completed(250)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testEqualTimeHotElementBeatsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .completed(260)])
        XCTAssertEqual(scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }.events, [.next(250, 1), .completed(260)])
    }

    func testEqualTimeColdElementLosesToTheTimer() {
        // The timer is scheduled before the source is subscribed, as in RxSwift.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(60)])
        XCTAssertEqual(scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }.events, [.error(250, RxError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testZeroDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        XCTAssertEqual(scheduler.start { xs.timeout(.seconds(0), scheduler: scheduler) }.events, [.error(201, RxError.timeout)])
        XCTAssertEqual(record(Observable.of(1).timeout(.seconds(0), scheduler: scheduler)).0.values, [.next(1), .completed])
    }

    func testDisposeMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
        let res = scheduler.start(disposed: 230) { xs.timeout(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([Recorded<Event<Int>>]())
        let ys2 = scheduler2.createColdObservable([.next(10, 1), .next(500, 2)])
        XCTAssertEqual(scheduler2.start(disposed: 400) { xs2.timeout(.seconds(50), other: ys2, scheduler: scheduler2) }.events,
                       [.next(260, 1)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(250, 400)])
    }

    func testReentrantElementRestartsTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.timeout(.seconds(50), scheduler: scheduler).subscribe(observer)
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(255) { subject.onNext(2) }
        scheduler.scheduleAt(500) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(255, 2), .error(305, RxError.timeout)])
    }
}
