import Ripple
import RippleTest
import XCTest

final class AmbTests: RippleTestCase {
    func testAmbLeftWinsAndRightIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let left = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .completed(250)])
        let right = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(260)])
        let res = scheduler.start { left.amb(right) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(250)])
        XCTAssertEqual(left.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(right.subscriptions, [Subscription(200, 210)])
    }

    func testAmbRightWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let left = scheduler.createHotObservable([.next(220, 1), .completed(250)])
        let right = scheduler.createHotObservable([.next(210, 10), .next(240, 20), .error(260, testError)])
        let res = scheduler.start { left.amb(right) }
        XCTAssertEqual(res.events, [.next(210, 10), .next(240, 20), .error(260, testError)])
        XCTAssertEqual(left.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(right.subscriptions, [Subscription(200, 260)])
    }

    func testAmbTerminalEventsWinToo() {
        let scheduler = TestScheduler(initialClock: 0)
        let left = scheduler.createHotObservable([Recorded<Event<Int>>.completed(215)])
        let right = scheduler.createHotObservable([.next(220, 10), .completed(260)])
        XCTAssertEqual(scheduler.start { left.amb(right) }.events, [.completed(215)])
        XCTAssertEqual(right.subscriptions, [Subscription(200, 215)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let l2 = scheduler2.createHotObservable([.next(220, 1), .completed(250)])
        let r2 = scheduler2.createHotObservable([Recorded<Event<Int>>.error(210, testError)])
        XCTAssertEqual(scheduler2.start { l2.amb(r2) }.events, [.error(210, testError)])
        XCTAssertEqual(l2.subscriptions, [Subscription(200, 210)])
    }

    func testAmbEqualVirtualTimesFirstScheduledWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let left = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let right = scheduler.createHotObservable([.next(210, 10), .completed(260)])
        XCTAssertEqual(scheduler.start { right.amb(left) }.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(right.subscriptions, [Subscription(200, 210)])
    }

    func testAmbDisposeBeforeAnyEventDisposesAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let left = scheduler.createHotObservable([.next(300, 1)])
        let right = scheduler.createHotObservable([.next(310, 10)])
        XCTAssertEqual(scheduler.start(disposed: 250) { left.amb(right) }.events, [])
        XCTAssertEqual(left.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(right.subscriptions, [Subscription(200, 250)])
    }

    func testStaticAmb() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(230, 1), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(250)])
        let c = scheduler.createHotObservable([.next(225, 4), .completed(300)])
        let res = scheduler.start { Observable.amb([a.asObservable(), b.asObservable(), c.asObservable()]) }
        XCTAssertEqual(res.events, [.next(220, 2), .next(240, 3), .completed(250)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(c.subscriptions, [Subscription(200, 220)])
    }

    func testStaticAmbEdgeCases() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.amb([Observable<Int>]()) }
        XCTAssertEqual(res.events, [], "like RxSwift, amb of nothing never emits")

        XCTAssertEqual(record(Observable.amb([Observable.of(1, 2)])).0.values, [.next(1), .next(2), .completed])

        // A source that emits while being subscribed wins before the later ones
        // are subscribed.
        let scheduler2 = TestScheduler(initialClock: 0)
        let late = scheduler2.createHotObservable([.next(210, 1)])
        XCTAssertEqual(scheduler2.start { Observable.amb([Observable.just(0), late.asObservable()]) }.events,
                       [.next(200, 0), .completed(200)])
        XCTAssertEqual(late.subscriptions, [])
    }
}
