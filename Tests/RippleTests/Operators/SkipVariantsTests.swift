import Ripple
import RippleTest
import XCTest

final class SkipForDurationTests: RippleTestCase {
    func testDropsElementsInsideTheWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let res = scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 2), .next(230, 3), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testZeroPassesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(scheduler.start { xs.skip(.seconds(0), scheduler: scheduler) }.events,
                       [.next(210, 1), .next(220, 2), .completed(230)])
    }

    func testEqualTimeHotElementIsStillSkipped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(215, 1), .next(216, 2), .completed(230)])
        XCTAssertEqual(scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }.events, [.next(216, 2), .completed(230)])
    }

    func testTerminalEventsInsideTheWindowPass() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(scheduler.start { xs.skip(.seconds(50), scheduler: scheduler) }.events, [.error(220, testError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler2.start { xs2.skip(.seconds(50), scheduler: scheduler2) }.events, [.completed(220)])
    }

    func testDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(400, 3)])
        let res = scheduler.start(disposed: 300) { xs.skip(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(260, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }
}

final class SkipWhileTests: RippleTestCase {
    func testSkipsUntilPredicateFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(300)])
        let res = scheduler.start { xs.skip(while: { $0 < 3 }) }
        XCTAssertEqual(res.events, [.next(230, 5), .next(240, 1), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testPredicateNotCalledAfterItFailed() {
        var calls = 0
        let source = Observable.of(1, 5, 1, 1).skip(while: { value in
            calls += 1
            return value < 3
        })
        XCTAssertEqual(record(source).0.values, [.next(5), .next(1), .next(1), .completed])
        XCTAssertEqual(calls, 2)
    }

    func testPredicateThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.skip(while: { value in
            if value == 2 { throw testError }
            return true
        }) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testEmptyAndError() {
        XCTAssertEqual(record(Observable<Int>.empty().skip(while: { _ in true })).0.values, [.completed])
        XCTAssertEqual(record(Observable<Int>.error(testError).skip(while: { _ in true })).0.values, [.error(testError)])
    }
}

final class SkipUntilTests: RippleTestCase {
    func testPassesElementsAfterOtherFires() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let other = scheduler.createHotObservable([.next(150, "early"), .next(225, "go"), .completed(400)])
        let res = scheduler.start { xs.skip(until: other) }
        XCTAssertEqual(res.events, [.next(230, 3), .next(240, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
    }

    func testSourceCompletingBeforeOtherFiresEndsSilently() {
        // RxSwift: no completion is forwarded when `other` never fired.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let other = scheduler.createHotObservable([Recorded<Event<String>>.completed(225)])
        let res = scheduler.start { xs.skip(until: other) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .completed(250)])
        let never = scheduler2.createHotObservable([Recorded<Event<String>>]())
        XCTAssertEqual(scheduler2.start { xs2.skip(until: never) }.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 250)])
    }

    func testErrorsOfBothPropagate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
        let other = scheduler.createHotObservable([Recorded<Event<String>>.error(225, testError)])
        XCTAssertEqual(scheduler.start { xs.skip(until: other) }.events, [.error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .error(230, testError)])
        let other2 = scheduler2.createHotObservable([.next(500, "go")])
        XCTAssertEqual(scheduler2.start { xs2.skip(until: other2) }.events, [.error(230, testError)])
        XCTAssertEqual(other2.subscriptions, [Subscription(200, 230)])
    }

    func testSynchronousOtherOpensAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.skip(until: Observable.just(0)) }.events, [.next(210, 1), .completed(300)])
    }

    func testEqualTimeElementBeforeOtherIsSkipped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(225, 1), .next(230, 2), .completed(300)])
        let other = scheduler.createHotObservable([.next(225, "go")])
        XCTAssertEqual(scheduler.start { xs.skip(until: other) }.events, [.next(230, 2), .completed(300)])
    }

    func testDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(400, 3)])
        let other = scheduler.createHotObservable([.next(500, "go")])
        let res = scheduler.start(disposed: 300) { xs.skip(until: other) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 300)])
    }
}
