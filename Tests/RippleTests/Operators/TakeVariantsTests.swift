import Ripple
import RippleTest
import XCTest

final class TakeForDurationTests: RippleTestCase {
    func testCompletesAtTheDeadline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testMillisecondResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.take(for: .milliseconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(225)])
    }

    func testZeroDurationCompletesAfterOneTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.take(for: .seconds(0), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 201)])
    }

    func testSourceTerminatesFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let completing = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let res1 = scheduler.start { completing.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res1.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(completing.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let failing2 = scheduler2.createHotObservable([.next(210, 1), .error(220, testError)])
        let res2 = scheduler2.start { failing2.take(for: .seconds(50), scheduler: scheduler2) }
        XCTAssertEqual(res2.events, [.next(210, 1), .error(220, testError)])
    }

    func testEqualTimeHotElementWinsColdElementLoses() {
        // A hot source's event at the deadline was scheduled before the timer.
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(210, 1), .next(225, 2), .completed(300)])
        XCTAssertEqual(scheduler.start { hot.take(for: .seconds(25), scheduler: scheduler) }.events,
                       [.next(210, 1), .next(225, 2), .completed(225)])

        // A cold source schedules its events after the timer (timer first, as in RxSwift).
        let scheduler2 = TestScheduler(initialClock: 0)
        let cold = scheduler2.createColdObservable([.next(10, 1), .next(25, 2), .completed(100)])
        XCTAssertEqual(scheduler2.start { cold.take(for: .seconds(25), scheduler: scheduler2) }.events,
                       [.next(210, 1), .completed(225)])
    }

    func testDisposeMidFlightCancelsTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start(disposed: 215) { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
    }

    func testNeverDurationPassesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.take(for: .never, scheduler: scheduler) }.events, [.next(210, 1), .completed(300)])
    }
}

final class TakeWhileUntilPredicateTests: RippleTestCase {
    private func makeSource(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(150, 9), .next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(300)])
    }

    func testTakeWhileExclusiveIsDefault() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start { xs.take(while: { $0 < 3 }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTakeWhileInclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start { xs.take(while: { $0 < 3 }, behavior: .inclusive) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 5), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTakeUntilPredicateBothBehaviors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        XCTAssertEqual(scheduler.start { xs.take(until: { $0 > 3 }) }.events, [.next(210, 1), .next(220, 2), .completed(230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = makeSource(scheduler2)
        XCTAssertEqual(scheduler2.start { xs2.take(until: { $0 > 3 }, behavior: .inclusive) }.events,
                       [.next(210, 1), .next(220, 2), .next(230, 5), .completed(230)])
    }

    func testPredicateNeverStopsCompletesWithSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        XCTAssertEqual(scheduler.start { xs.take(while: { _ in true }) }.events,
                       [.next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(300)])
    }

    func testFirstElementStops() {
        XCTAssertEqual(record(Observable.of(5, 1).take(while: { $0 < 3 })).0.values, [.completed])
        XCTAssertEqual(record(Observable<Int>.empty().take(while: { $0 < 3 })).0.values, [.completed])
    }

    func testPredicateThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start {
            xs.take(while: { value in
                if value == 2 { throw testError }
                return true
            })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testSourceErrorAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(scheduler.start { xs.take(until: { $0 > 3 }) }.events, [.next(210, 1), .error(220, testError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .next(220, 2)])
        XCTAssertEqual(scheduler2.start(disposed: 215) { xs2.take(while: { _ in true }) }.events, [.next(210, 1)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(200, 215)])
    }

    func testReentrantElementAfterStopIsIgnored() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        var completed = 0
        let subscription = subject.take(while: { $0 < 3 }, behavior: .inclusive).subscribe(onNext: { value in
            values.append(value)
            subject.onNext(value + 1)
        }, onCompleted: { completed += 1 })
        subject.onNext(1)
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertEqual(completed, 1)
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }
}

final class TakeUntilOtherTests: RippleTestCase {
    func testOtherElementCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let other = scheduler.createHotObservable([.next(150, "early"), .next(225, "stop"), .completed(400)])
        let res = scheduler.start { xs.take(until: other) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
    }

    func testOtherCompletingDoesNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(300)])
        let other = scheduler.createHotObservable([Recorded<Event<String>>.completed(225)])
        let res = scheduler.start { xs.take(until: other) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
    }

    func testOtherErrorPropagates() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(300)])
        let other = scheduler.createHotObservable([Recorded<Event<String>>.error(225, testError)])
        let res = scheduler.start { xs.take(until: other) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
    }

    func testSourceTerminatesFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let other = scheduler.createHotObservable([.next(250, "stop")])
        let res = scheduler.start { xs.take(until: other) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, testError)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .completed(230)])
        let other2 = scheduler2.createHotObservable([.next(250, "stop")])
        XCTAssertEqual(scheduler2.start { xs2.take(until: other2) }.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(other2.subscriptions, [Subscription(200, 230)])
    }

    func testOtherSubscribedFirstAndSynchronousTriggerSkipsTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.take(until: Observable.just(())) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testEqualTimeSourceFirstThenTrigger() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(225, 2), .completed(300)])
        let other = scheduler.createHotObservable([.next(225, "stop")])
        XCTAssertEqual(scheduler.start { xs.take(until: other) }.events, [.next(210, 1), .next(225, 2), .completed(225)])
    }

    func testAcceptsAnyObservableConvertible() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let trigger = scheduler.createHotObservable([.next(220, "x")])
        // `first()` is a `Single`, not an `ObservableType`.
        let res = scheduler.start { xs.take(until: trigger.first()) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
    }

    func testDisposeMidFlightReleasesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(400, 2)])
        let other = scheduler.createHotObservable([.next(500, "stop")])
        let res = scheduler.start(disposed: 300) { xs.take(until: other) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 300)])
    }

    func testReentrantTriggerFromObserver() {
        let source = PublishSubject<Int>()
        let stop = PublishSubject<Void>()
        var events: [Event<Int>] = []
        let subscription = source.take(until: stop).subscribe { event in
            events.append(event)
            if event.element == 1 { stop.onNext(()) }
        }
        source.onNext(1)
        source.onNext(2)
        XCTAssertEqual(events, [.next(1), .completed])
        XCTAssertFalse(source.hasObservers)
        XCTAssertFalse(stop.hasObservers)
        subscription.dispose()
    }
}

final class TakeLastTests: RippleTestCase {
    func testEmitsLastElementsOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let res = scheduler.start { xs.takeLast(2) }
        XCTAssertEqual(res.events, [.next(300, 3), .next(300, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFewerThanCountZeroAndEmpty() {
        XCTAssertEqual(record(Observable.of(1, 2).takeLast(5)).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(record(Observable.of(1, 2).takeLast(0)).0.values, [.completed])
        XCTAssertEqual(record(Observable<Int>.empty().takeLast(2)).0.values, [.completed])
    }

    func testErrorDropsBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(scheduler.start { xs.takeLast(2) }.events, [.error(220, testError)])
    }

    func testNegativeCountFails() {
        XCTAssertEqual(record(Observable.of(1).takeLast(-1)).0.values, [.error(RxError.argumentOutOfRange)])
    }

    func testDisposeDuringFlushStops() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        var subscription: Disposable?
        subscription = subject.takeLast(3).subscribe(onNext: { value in
            values.append(value)
            if value == 2 { subscription?.dispose() }
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        subject.onCompleted()
        XCTAssertEqual(values, [1, 2])
        subscription?.dispose()
    }
}
