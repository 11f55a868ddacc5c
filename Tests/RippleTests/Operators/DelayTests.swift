import Ripple
import RippleTest
import XCTest

final class DelayTests: RippleTestCase {
    func testShiftsElementsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), .completed(550)])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(350, 2), .next(450, 3), .next(550, 4), .completed(650)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testKeepsSpacingOfCloseElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(213, 2), .next(220, 3), .completed(221)])
        XCTAssertEqual(scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }.events,
                       [.next(220, 1), .next(223, 2), .next(230, 3), .completed(231)])
    }

    func testEqualTimeElementsLeaveOneStepApart() {
        // Each delayed event is its own scheduled step; on the test scheduler a
        // step due "now" runs one tick later (RxSwift gives the same times).
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .completed(220)])
        XCTAssertEqual(scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }.events,
                       [.next(220, 1), .next(221, 2), .completed(230)])
    }

    func testErrorIsImmediateAndDropsWaitingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 2), .next(350, 3), .next(450, 4), .error(550, testError)])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(350, 2), .next(450, 3), .error(550, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .error(215, testError)])
        XCTAssertEqual(scheduler2.start { xs2.delay(.seconds(10), scheduler: scheduler2) }.events, [.error(215, testError)])
    }

    func testEmptyAndZeroDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        XCTAssertEqual(scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }.events, [.completed(350)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler2.start { xs2.delay(.seconds(0), scheduler: scheduler2) }.events, [.next(211, 1), .completed(251)])
    }

    func testMillisecondResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(213, 2), .completed(230)])
        XCTAssertEqual(scheduler.start { xs.delay(.milliseconds(10), scheduler: scheduler) }.events,
                       [.next(220, 1), .next(223, 2), .completed(240)])
    }

    func testDisposeCancelsWaitingEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(260)])
        let res = scheduler.start(disposed: 300) { xs.delay(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(260, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testReentrantElementFromObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.delay(.seconds(10), scheduler: scheduler).subscribe(onNext: { value in
                observer.onNext(value)
                if value < 3 { subject.onNext(value + 1) }
            })
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(500) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(220, 1), .next(230, 2), .next(240, 3)])
    }

    func testReentrantErrorDuringDeliveryIsDeliveredAfterIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.delay(.seconds(10), scheduler: scheduler).subscribe { event in
                observer.on(event)
                if event.element == 1 { subject.onError(testError) }
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(212) { subject.onNext(2) }
        scheduler.scheduleAt(500) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(220, 1), .error(220, testError)])
    }
}

final class DelaySubscriptionTests: RippleTestCase {
    func testSubscribesLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .completed(70)])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(280, 42), .next(290, 43), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 300)])
    }

    func testSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .error(60, testError)])
        XCTAssertEqual(scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }.events,
                       [.next(280, 42), .error(290, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 290)])
    }

    func testDisposeBeforeDueTimeNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42)])
        let res = scheduler.start(disposed: 220) { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testDisposeAfterSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .next(500, 43)])
        let res = scheduler.start(disposed: 400) { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(280, 42)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 400)])
    }

    func testSynchronousSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2).delaySubscription(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(210, 2), .completed(210)])
    }
}
