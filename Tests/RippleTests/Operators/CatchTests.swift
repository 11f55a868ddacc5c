import Ripple
import RippleTest
import XCTest

final class CatchTests: RippleTestCase {
    func testSwitchesToHandlerSequenceOnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .error(230, testError)])
        let ys = scheduler.createColdObservable([.next(10, 4), .next(20, 5), .completed(30)])
        var caught: [Error] = []
        let res = scheduler.start { xs.catch { error in
            caught.append(error)
            return ys.asObservable()
        } }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(240, 4), .next(250, 5), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 260)])
        XCTAssertEqual(caught.count, 1)
        XCTAssertEqual(caught.first as? TestError, testError)
    }

    func testNoErrorNoHandler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(230)])
        let ys = scheduler.createColdObservable([.next(10, 4)])
        var calls = 0
        let res = scheduler.start { xs.catch { _ in
            calls += 1
            return ys.asObservable()
        } }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(230)])
        XCTAssertEqual(ys.subscriptions, [])
        XCTAssertEqual(calls, 0)
    }

    func testHandlerThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let res = scheduler.start { xs.catch { _ in throw testError2 } }
        XCTAssertEqual(res.events, [.next(210, 2), .error(230, testError2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testReplacementErrorIsNotCaughtAgain() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(230, testError)])
        let ys = scheduler.createColdObservable([.next(10, 4), .error(20, testError2)])
        var calls = 0
        let res = scheduler.start { xs.catch { _ in
            calls += 1
            return ys.asObservable()
        } }
        XCTAssertEqual(res.events, [.next(240, 4), .error(250, testError2)])
        XCTAssertEqual(calls, 1)
    }

    func testDisposeAfterSwitch() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(230, testError)])
        let ys = scheduler.createColdObservable([.next(10, 4), .next(500, 5)])
        let res = scheduler.start(disposed: 300) { xs.catch { _ in ys.asObservable() } }
        XCTAssertEqual(res.events, [.next(240, 4)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 300)])
    }

    func testSynchronousErrorAndReplacement() {
        let source = Observable<Int>.error(testError).catch { _ in .of(1, 2) }
        XCTAssertEqual(record(source).0.values, [.next(1), .next(2), .completed])
    }

    func testEachSubscriptionCatchesOnItsOwn() {
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            observer.onNext(attempts)
            if attempts == 1 {
                observer.onError(testError)
            } else {
                observer.onCompleted()
            }
            return Disposables.create()
        }
        let caught = source.catchAndReturn(0)
        XCTAssertEqual(record(caught).0.values, [.next(1), .next(0), .completed])
        XCTAssertEqual(record(caught).0.values, [.next(2), .completed])
    }

    func testSynchronousErrorReleasesTheSourceBeforeDisposal() {
        var log: [String] = []
        let source = Observable<Int>.create { observer in
            observer.onError(testError)
            return Disposables.create { log.append("source disposed") }
        }
        let replacement = Observable<Int>.create { observer in
            log.append("replacement subscribed")
            observer.onNext(1)
            return Disposables.create { log.append("replacement disposed") }
        }
        let subscription = source.catch { _ in replacement }.subscribe(onNext: { log.append("next \($0)") })
        XCTAssertEqual(log, ["replacement subscribed", "next 1", "source disposed"])
        subscription.dispose()
        XCTAssertEqual(log, ["replacement subscribed", "next 1", "source disposed", "replacement disposed"])
    }

    func testCatchAndReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        XCTAssertEqual(scheduler.start { xs.catchAndReturn(0) }.events, [.next(210, 2), .next(230, 0), .completed(230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 2), .completed(230)])
        XCTAssertEqual(scheduler2.start { xs2.catchAndReturn(0) }.events, [.next(210, 2), .completed(230)])
    }
}

final class CatchSequenceTests: RippleTestCase {
    func testMovesToNextSourceOnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let second = scheduler.createColdObservable([.next(10, 2), .error(20, testError2)])
        let third = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start {
            Observable.catch(sequence: [first.asObservable(), second.asObservable(), third.asObservable()])
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(third.subscriptions, [Subscription(240, 260)])
    }

    func testCompletionStopsIteration() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let second = scheduler.createColdObservable([.next(10, 2)])
        XCTAssertEqual(scheduler.start { Observable.catch(sequence: [first.asObservable(), second.asObservable()]) }.events,
                       [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.subscriptions, [])
    }

    func testAllFailGivesLastError() {
        let source = Observable.catch(sequence: [Observable<Int>.error(testError), .error(testError2)])
        XCTAssertEqual(record(source).0.values, [.error(testError2)])
    }

    func testEmptySequenceCompletes() {
        XCTAssertEqual(record(Observable<Int>.catch(sequence: [Observable<Int>]())).0.values, [.completed])
    }

    func testIteratesLazilyOncePerSubscription() {
        var made = 0
        let sources = (0..<100).lazy.map { index -> Observable<Int> in
            made += 1
            return index < 2 ? .error(testError) : .just(index)
        }
        let source = Observable.catch(sequence: sources)
        XCTAssertEqual(record(source).0.values, [.next(2), .completed])
        XCTAssertEqual(made, 3)
        XCTAssertEqual(record(source).0.values, [.next(2), .completed])
        XCTAssertEqual(made, 6)
    }

    func testManySynchronousFailuresUseConstantStack() {
        let count = 50_000
        let sources = (0..<count).lazy.map { index -> Observable<Int> in
            index == count - 1 ? .just(index) : .error(testError)
        }
        XCTAssertEqual(record(Observable.catch(sequence: sources)).0.values, [.next(count - 1), .completed])
    }

    func testDisposeStopsIteration() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([Recorded<Event<Int>>.error(20, testError)])
        let second = scheduler.createColdObservable([.next(100, 2)])
        let res = scheduler.start(disposed: 250) { Observable.catch(sequence: [first.asObservable(), second.asObservable()]) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 250)])
    }
}
