import Ripple
import RippleTest
import XCTest

final class ElementAtTests: RippleTestCase {
    func testPassesElementAtIndexAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.element(at: 2) }
        XCTAssertEqual(res.events, [.next(230, 3), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testOutOfRangeFailsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.element(at: 1) }.events, [.error(300, RxError.argumentOutOfRange)])
        XCTAssertEqual(record(Observable<Int>.empty().element(at: 0)).0.values, [.error(RxError.argumentOutOfRange)])
    }

    func testNegativeIndexFailsWithoutSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.element(at: -1) }.events, [.error(200, RxError.argumentOutOfRange)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testSourceErrorAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(scheduler.start { xs.element(at: 3) }.events, [.error(220, testError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .next(400, 2)])
        XCTAssertEqual(scheduler2.start(disposed: 300) { xs2.element(at: 1) }.events, [])
        XCTAssertEqual(xs2.subscriptions, [Subscription(200, 300)])
    }
}

final class SingleOperatorTests: RippleTestCase {
    func testOneElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(250)])
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testSecondElementFailsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, RxError.moreThanOneElement)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testEmptyFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        XCTAssertEqual(scheduler.start { xs.single() }.events, [.error(250, RxError.noElements)])
    }

    func testPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        XCTAssertEqual(scheduler.start { xs.single { $0 == 3 } }.events, [.next(230, 3), .completed(250)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        XCTAssertEqual(scheduler2.start { xs2.single { $0.isMultiple(of: 2) } }.events,
                       [.next(220, 2), .error(240, RxError.moreThanOneElement)])

        XCTAssertEqual(record(Observable.of(1, 3).single { $0 == 2 }).0.values, [.error(RxError.noElements)])
    }

    func testPredicateThrowsAndSourceError() {
        XCTAssertEqual(record(Observable.of(1).single { _ in throw testError }).0.values, [.error(testError)])
        XCTAssertEqual(record(Observable<Int>.error(testError).single()).0.values, [.error(testError)])
    }

    func testFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.first().asObservable() }
        XCTAssertEqual(res.events, [.next(210, Optional(1)), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let empty = scheduler2.createHotObservable([Recorded<Event<Int>>.completed(250)])
        XCTAssertEqual(scheduler2.start { empty.first().asObservable() }.events, [.next(250, nil), .completed(250)])

        XCTAssertEqual(record(Observable<Int>.error(testError).first().asObservable()).0.values, [.error(testError)])
    }
}

final class IfEmptyTests: RippleTestCase {
    func testDefaultOnEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.ifEmpty(default: 0) }
        XCTAssertEqual(res.events, [.next(250, 0), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDefaultNotUsedWhenNotEmptyOrFailed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler.start { xs.ifEmpty(default: 0) }.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(record(Observable<Int>.error(testError).ifEmpty(default: 0)).0.values, [.error(testError)])
    }

    func testSwitchToOnEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let other = scheduler.createColdObservable([.next(10, 7), .next(20, 8), .completed(30)])
        let res = scheduler.start { xs.ifEmpty(switchTo: other.asObservable()) }
        XCTAssertEqual(res.events, [.next(260, 7), .next(270, 8), .completed(280)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(other.subscriptions, [Subscription(250, 280)])
    }

    func testSwitchToNotSubscribedWhenNotEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let other = scheduler.createColdObservable([.next(10, 7), .completed(30)])
        XCTAssertEqual(scheduler.start { xs.ifEmpty(switchTo: other.asObservable()) }.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(other.subscriptions, [])
    }

    func testSwitchToErrorsAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        let other = scheduler.createColdObservable([.next(10, 7), .error(20, testError)])
        XCTAssertEqual(scheduler.start { xs.ifEmpty(switchTo: other.asObservable()) }.events, [.next(260, 7), .error(270, testError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([Recorded<Event<Int>>.completed(250)])
        let other2 = scheduler2.createColdObservable([.next(10, 7), .next(200, 8)])
        XCTAssertEqual(scheduler2.start(disposed: 300) { xs2.ifEmpty(switchTo: other2.asObservable()) }.events, [.next(260, 7)])
        XCTAssertEqual(other2.subscriptions, [Subscription(250, 300)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let xs3 = scheduler3.createHotObservable([Recorded<Event<Int>>.error(250, testError)])
        let other3 = scheduler3.createColdObservable([.next(10, 7)])
        XCTAssertEqual(scheduler3.start { xs3.ifEmpty(switchTo: other3.asObservable()) }.events, [.error(250, testError)])
        XCTAssertEqual(other3.subscriptions, [])
    }
}
