import Ripple
import RippleTest
import XCTest

final class FlatMapTests: RippleTestCase {
    // MARK: flatMap

    func testFlatMapMergesInnerSequencesAndCompletesAfterTheLastInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(215, 2), .completed(230)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .next(20, "a2"), .completed(30)])
        let b = scheduler.createColdObservable([.next(5, "b1"), .next(15, "b2"), .completed(40)])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? a : b } }
        XCTAssertEqual(res.events, [
            .next(220, "a1"), .next(220, "b1"), .next(230, "a2"), .next(230, "b2"), .completed(255),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(b.subscriptions, [Subscription(215, 255)])
    }

    func testFlatMapInnerErrorDisposesTheOuterAndTheOtherInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(400)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .next(50, "a2"), .completed(100)])
        let b = scheduler.createColdObservable([.next(5, "b1"), .error(20, testError)])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? a : b } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .next(220, "b1"), .error(235, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 235)])
        XCTAssertEqual(b.subscriptions, [Subscription(215, 235)])
    }

    func testFlatMapOuterErrorDisposesTheInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(225, testError)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .next(50, "a2"), .completed(100)])
        let res = scheduler.start { xs.flatMap { _ in a } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 225)])
    }

    func testFlatMapSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let a = scheduler.createColdObservable([.next(5, "a1"), .next(50, "a2"), .completed(100)])
        let res = scheduler.start {
            xs.flatMap { value -> TestableObservable<String> in
                if value == 2 { throw testError }
                return a
            }
        }
        XCTAssertEqual(res.events, [.next(215, "a1"), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 220)])
    }

    func testFlatMapDisposeMidFlightReleasesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(400)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .next(50, "a2"), .completed(100)])
        let res = scheduler.start(disposed: 240) { xs.flatMap { _ in a } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .next(225, "a1")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 240), Subscription(215, 240)])
    }

    func testFlatMapWithoutElementsAndWithEmptyInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        XCTAssertEqual(scheduler.start { empty.flatMap { Observable.just($0) } }.events, [.completed(250)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let never = scheduler2.createHotObservable([Recorded<Event<Int>>]())
        XCTAssertEqual(scheduler2.start { never.flatMap { Observable.just($0) } }.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])

        XCTAssertEqual(record(Observable.of(1, 2).flatMap { _ in Observable<Int>.empty() }).0.values, [.completed])
        XCTAssertEqual(record(Observable<Int>.empty().flatMap { Observable.just($0) }).0.values, [.completed])
    }

    func testFlatMapEqualVirtualTimes() {
        // The outer error is scheduled before the inner element of the same tick.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .completed(20)])
        let res = scheduler.start { xs.flatMap { _ in a } }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 220)])

        // The outer completion and the last inner completion on the same tick.
        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .completed(230)])
        let b = scheduler2.createColdObservable([.next(10, "b1"), .completed(20)])
        let res2 = scheduler2.start { ys.flatMap { _ in b } }
        XCTAssertEqual(res2.events, [.next(220, "b1"), .completed(230)])
        XCTAssertEqual(b.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapSynchronousSourcesInterleaveLikeRxSwift() {
        let (recorder, subscription) = record(Observable.of(1, 2).flatMap { Observable.of($0 * 10, $0 * 100) })
        XCTAssertEqual(recorder.values, [.next(10), .next(100), .next(20), .next(200), .completed])
        subscription.dispose()
    }

    func testFlatMapSubjectFeedingItselfDoesNotRecurse() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = subject
            .flatMap { value in value < 20_000 ? Observable.just(value) : .empty() }
            .subscribe(onNext: { value in
                values.append(value)
                subject.onNext(value + 1)
            })
        subject.onNext(1)
        XCTAssertEqual(values.count, 19_999)
        XCTAssertEqual(values.last, 19_999)
        subscription.dispose()
    }

    func testFlatMapInnerEmittingIntoTheOuterSubject() {
        // An inner sequence sends an event to the outer subject while it is being
        // subscribed: the new outer element is handled after the current one.
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = subject
            .flatMap { value -> Observable<Int> in
                Observable.create { observer in
                    observer.onNext(value)
                    if value < 3 { subject.onNext(value + 1) }
                    observer.onCompleted()
                    return Disposables.create()
                }
            }
            .subscribe(onNext: { values.append($0) })
        subject.onNext(1)
        XCTAssertEqual(values, [1, 2, 3])
        subscription.dispose()
    }

    func testFlatMapReleasesCompletedInners() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = outer.flatMap { _ in inner }.subscribe { events.append($0) }
        outer.onNext(1)
        outer.onNext(2)
        inner.onNext(7)
        XCTAssertEqual(events, [.next(7), .next(7)])
        outer.onCompleted()
        XCTAssertTrue(inner.hasObservers)
        inner.onCompleted()
        XCTAssertEqual(events, [.next(7), .next(7), .completed])
        XCTAssertFalse(outer.hasObservers)
        XCTAssertFalse(inner.hasObservers)
        subscription.dispose()
    }

    // MARK: flatMapFirst

    func testFlatMapFirstIgnoresElementsWhileAnInnerIsActive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .completed(260)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .next(20, "a2"), .completed(30)])
        let b = scheduler.createColdObservable([.next(5, "b1"), .completed(20)])
        var mapped: [Int] = []
        let res = scheduler.start {
            xs.flatMapFirst { value -> TestableObservable<String> in
                mapped.append(value)
                return value == 1 ? a : b
            }
        }
        XCTAssertEqual(res.events, [.next(220, "a1"), .next(230, "a2"), .next(255, "b1"), .completed(270)])
        XCTAssertEqual(mapped, [1, 3], "the selector is not called for dropped elements")
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(b.subscriptions, [Subscription(250, 270)])
    }

    func testFlatMapFirstErrorsAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let failing = scheduler.createColdObservable([.next(5, "a1"), .error(20, testError, String.self)])
        XCTAssertEqual(scheduler.start { xs.flatMapFirst { _ in failing } }.events, [.next(215, "a1"), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .error(220, testError)])
        let long = scheduler2.createColdObservable([.next(5, "a1"), .completed(100)])
        XCTAssertEqual(scheduler2.start { ys.flatMapFirst { _ in long } }.events, [.next(215, "a1"), .error(220, testError)])
        XCTAssertEqual(long.subscriptions, [Subscription(210, 220)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let zs = scheduler3.createHotObservable([.next(210, 1), .completed(300)])
        let thrown = scheduler3.start { zs.flatMapFirst { _ -> Observable<Int> in throw testError } }
        XCTAssertEqual(thrown.events, [.error(210, testError)])

        let scheduler4 = TestScheduler(initialClock: 0)
        let ws = scheduler4.createHotObservable([.next(210, 1), .completed(300)])
        let inner = scheduler4.createColdObservable([.next(5, "a1"), .next(50, "a2"), .completed(100)])
        XCTAssertEqual(scheduler4.start(disposed: 230) { ws.flatMapFirst { _ in inner } }.events, [.next(215, "a1")])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapFirstAcceptsAgainAfterASynchronousInner() {
        let (recorder, _) = record(Observable.of(1, 2, 3).flatMapFirst { Observable.just($0) })
        XCTAssertEqual(recorder.values, [.next(1), .next(2), .next(3), .completed])
    }

    // MARK: flatMapLatest

    func testFlatMapLatestDisposesThePreviousInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(225, 2), .completed(250)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .next(20, "a2"), .next(30, "a3"), .completed(40)])
        let b = scheduler.createColdObservable([.next(10, "b1"), .next(20, "b2"), .completed(30)])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? a : b } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .next(235, "b1"), .next(245, "b2"), .completed(255)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 225)])
        XCTAssertEqual(b.subscriptions, [Subscription(225, 255)])
    }

    func testFlatMapLatestCompletesWithTheOuterWhenTheLatestInnerIsDone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .completed(20)])
        let res = scheduler.start { xs.flatMapLatest { _ in a } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .completed(250)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapLatestIgnoresEventsOfSupersededInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        // Hot inners: the first one keeps emitting (and fails) after being replaced.
        let a = scheduler.createHotObservable([.next(215, "a1"), .next(225, "a2"), .error(230, testError)])
        let b = scheduler.createHotObservable([.next(215, "b0"), .next(235, "b1"), .completed(320)])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? a : b } }
        XCTAssertEqual(res.events, [.next(215, "a1"), .next(235, "b1"), .completed(320)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 320)])
    }

    func testFlatMapLatestErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let failing = scheduler.createColdObservable([.next(5, "a1"), .error(10, testError, String.self)])
        XCTAssertEqual(scheduler.start { xs.flatMapLatest { _ in failing } }.events, [.next(215, "a1"), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let a = scheduler2.createColdObservable([.next(5, "a1"), .completed(100)])
        let res = scheduler2.start {
            ys.flatMapLatest { value -> TestableObservable<String> in
                if value == 2 { throw testError }
                return a
            }
        }
        XCTAssertEqual(res.events, [.next(215, "a1"), .error(220, testError)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 220)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let zs = scheduler3.createHotObservable([.next(210, 1), .error(230, testError)])
        let b = scheduler3.createColdObservable([.next(5, "b1"), .completed(100)])
        XCTAssertEqual(scheduler3.start { zs.flatMapLatest { _ in b } }.events, [.next(215, "b1"), .error(230, testError)])
        XCTAssertEqual(b.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapLatestDisposeMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let a = scheduler.createColdObservable([.next(5, "a1"), .completed(100)])
        let res = scheduler.start(disposed: 230) { xs.flatMapLatest { _ in a } }
        XCTAssertEqual(res.events, [.next(215, "a1"), .next(225, "a1")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 220), Subscription(220, 230)])
    }

    func testFlatMapLatestReentrantOuterEmission() {
        // The inner sequence feeds the outer subject synchronously: the new inner
        // replaces the current one once its subscription has returned.
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = subject
            .flatMapLatest { value -> Observable<Int> in
                Observable.create { observer in
                    observer.onNext(value)
                    if value < 3 { subject.onNext(value + 1) }
                    return Disposables.create()
                }
            }
            .subscribe(onNext: { values.append($0) })
        subject.onNext(1)
        XCTAssertEqual(values, [1, 2, 3])
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: concatMap

    func testConcatMapSubscribesOneInnerAtATimeInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .completed(225)])
        let a = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let b = scheduler.createColdObservable([.next(5, "b"), .completed(10)])
        let c = scheduler.createColdObservable([.next(1, "c"), .completed(2)])
        var mappedAt: [TestTime] = []
        let res = scheduler.start {
            xs.concatMap { value -> TestableObservable<String> in
                mappedAt.append(scheduler.clock)
                return [a, b, c][value - 1]
            }
        }
        XCTAssertEqual(res.events, [.next(220, "a"), .next(235, "b"), .next(241, "c"), .completed(242)])
        XCTAssertEqual(mappedAt, [210, 215, 220], "like RxSwift, the selector runs when the element arrives")
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(b.subscriptions, [Subscription(230, 240)])
        XCTAssertEqual(c.subscriptions, [Subscription(240, 242)])
    }

    func testConcatMapErrorsAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
        let a = scheduler.createColdObservable([.next(10, "a"), .error(20, testError, String.self)])
        let b = scheduler.createColdObservable([.next(5, "b"), .completed(10)])
        XCTAssertEqual(scheduler.start { xs.concatMap { $0 == 1 ? a : b } }.events, [.next(220, "a"), .error(230, testError)])
        XCTAssertEqual(b.subscriptions, [], "a queued inner is never subscribed after an error")

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
        let c = scheduler2.createColdObservable([.next(10, "c"), .completed(100)])
        XCTAssertEqual(scheduler2.start(disposed: 250) { ys.concatMap { _ in c } }.events, [.next(220, "c")])
        XCTAssertEqual(c.subscriptions, [Subscription(210, 250)])

        let failing = Observable.of(1, 2).concatMap { value -> Observable<Int> in
            if value == 2 { throw testError }
            return .just(value)
        }
        XCTAssertEqual(record(failing).0.values, [.next(1), .error(testError)])
    }

    func testConcatMapDrainsALongQueueWithoutRecursion() {
        let gate = PublishSubject<Int>()
        let outer = PublishSubject<Int>()
        var count = 0
        var last = 0
        var completed = false
        let subscription = outer
            .concatMap { value in value == 0 ? gate.asObservable() : .just(value) }
            .subscribe(onNext: { count += 1; last = $0 }, onCompleted: { completed = true })
        outer.onNext(0)
        for value in 1...50_000 {
            outer.onNext(value)
        }
        outer.onCompleted()
        XCTAssertEqual(count, 0)
        gate.onCompleted()
        XCTAssertEqual(count, 50_000)
        XCTAssertEqual(last, 50_000)
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    // MARK: switchLatest

    func testSwitchLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(215, 1), .next(225, 2), .next(235, 3), .completed(400)])
        let b = scheduler.createHotObservable([.next(225, 10), .next(245, 20), .completed(260)])
        let xs = scheduler.createHotObservable([
            .next(210, a.asObservable()), .next(230, b.asObservable()), .completed(250),
        ])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(215, 1), .next(225, 2), .next(245, 20), .completed(260)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(b.subscriptions, [Subscription(230, 260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testSwitchLatestErrorsAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(215, 1), .error(225, testError)])
        let xs = scheduler.createHotObservable([.next(210, a.asObservable()), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.switchLatest() }.events, [.next(215, 1), .error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])

        XCTAssertEqual(record(Observable<Observable<Int>>.empty().switchLatest()).0.values, [.completed])
        XCTAssertEqual(record(Observable<Observable<Int>>.error(testError).switchLatest()).0.values, [.error(testError)])
        XCTAssertEqual(record(Observable.of(Observable.of(1, 2), Observable.of(3)).switchLatest()).0.values,
                       [.next(1), .next(3), .completed],
                       "synchronous sources interleave on the trampoline; the second inner replaces the first")
    }
}
