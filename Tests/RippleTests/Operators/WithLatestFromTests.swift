import Ripple
import RippleTest
import XCTest

final class WithLatestFromTests: RippleTestCase {
    func testWithLatestFromDropsElementsBeforeSecondEmitsAndIgnoresItsCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .next(240, 3), .completed(270)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(250, "b"), .completed(260)])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(230, "2a"), .next(240, "3a"), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 270)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    func testWithLatestFromWithoutSelectorKeepsTheLastValueAfterSecondCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(280, 3), .completed(290)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(250, "b"), .completed(260)])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [.next(230, "a"), .next(280, "b"), .completed(290)])
    }

    func testWithLatestFromCompletesWithFirstAndDisposesSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .completed(400)])
        XCTAssertEqual(scheduler.start { xs.withLatestFrom(ys) }.events, [.next(230, "a"), .completed(240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    func testWithLatestFromErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .error(240, testError)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .completed(400)])
        XCTAssertEqual(scheduler.start { xs.withLatestFrom(ys) }.events, [.next(230, "a"), .error(240, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let zs = scheduler2.createHotObservable([.next(230, 1), .completed(400)])
        let ws = scheduler2.createHotObservable([.next(220, "a"), .error(235, testError)])
        XCTAssertEqual(scheduler2.start { zs.withLatestFrom(ws) }.events, [.next(230, "a"), .error(235, testError)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 235)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let us = scheduler3.createHotObservable([.next(230, 1), .next(240, 2), .completed(400)])
        let vs = scheduler3.createHotObservable([.next(220, 10), .completed(400)])
        let res = scheduler3.start {
            us.withLatestFrom(vs) { x, y -> Int in
                if x == 2 { throw testError }
                return x + y
            }
        }
        XCTAssertEqual(res.events, [.next(230, 11), .error(240, testError)])
        XCTAssertEqual(us.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(vs.subscriptions, [Subscription(200, 240)])
    }

    func testWithLatestFromDisposeMidFlightAndEmptySources() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .next(300, 2), .completed(400)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .completed(400)])
        XCTAssertEqual(scheduler.start(disposed: 250) { xs.withLatestFrom(ys) }.events, [.next(230, "a")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])

        XCTAssertEqual(record(Observable.of(1, 2).withLatestFrom(Observable<String>.empty())).0.values, [.completed])
        XCTAssertEqual(record(Observable<Int>.empty().withLatestFrom(Observable.just("a"))).0.values, [.completed])
    }

    func testWithLatestFromSubscribesSecondFirst() {
        let (recorder, _) = record(Observable.of(1, 2).withLatestFrom(Observable.just("a")) { "\($0)\($1)" })
        XCTAssertEqual(recorder.values, [.next("1a"), .next("2a"), .completed])

        let state = BehaviorSubject(value: "s")
        let (recorder2, subscription) = record(Observable.just(1).withLatestFrom(state))
        XCTAssertEqual(recorder2.values, [.next("s"), .completed])
        subscription.dispose()
    }

    func testWithLatestFromEqualVirtualTimes() {
        // Events of the same tick run in scheduling order: xs's first, then ys's.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(230, "b"), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.withLatestFrom(ys) }.events, [.next(230, "a"), .completed(300)])
    }

    func testWithLatestFromReentrantUpdateOfSecond() {
        let trigger = PublishSubject<Void>()
        let counter = BehaviorSubject(value: 0)
        var values: [Int] = []
        let subscription = trigger.withLatestFrom(counter).subscribe(onNext: { value in
            values.append(value)
            counter.onNext(value + 1)
        })
        trigger.onNext(())
        trigger.onNext(())
        trigger.onNext(())
        XCTAssertEqual(values, [0, 1, 2])
        subscription.dispose()
        XCTAssertFalse(counter.hasObservers)
    }

    /// The latest value of `second` that a new one replaces is released after
    /// the operator's lock: its `deinit` (user code) may send to the first
    /// source, which deadlocked the sending thread when it ran under the lock.
    func testAReplacedValueWhoseDeinitSendsToTheFirstSourceDoesNotDeadlock() {
        let log = Recorder<String>()
        assertFinishes({ "deadlocked after \(log.values)" }()) {
            let first = PublishSubject<Int>()
            let second = PublishSubject<RunsOnDeinit?>()
            let subscription = first.withLatestFrom(second) { number, value in "\(number) \(value == nil ? "nil" : "value")" }
                .subscribe(onNext: { log.append($0) })
            second.onNext(RunsOnDeinit { first.onNext(2) })
            first.onNext(1)
            second.onNext(nil)  // replaces the value, whose deinit sends 2
            subscription.dispose()
        }
        XCTAssertEqual(log.values, ["1 value", "2 nil"])
    }
}
