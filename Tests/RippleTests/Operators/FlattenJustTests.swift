import Ripple
import RippleTest
import XCTest

/// The flattening operators forward the element of an inner `just` without
/// subscribing to it. These tests pin that the result is the same as subscribing:
/// timing, order against the disposal of the previous inner, completion, queueing
/// behind active inners, and that the shortcut really happens.
final class FlattenJustTests: RippleTestCase {
    // MARK: flatMapLatest

    func testFlatMapLatestOfJustForwardsEachElementAndCompletesWithTheOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.flatMapLatest { Observable.just($0 * 10) } }
        XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testFlatMapLatestJustSupersedesAnActiveInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let a = scheduler.createColdObservable([.next(5, "a1"), .next(20, "a2"), .completed(100)])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? a.asObservable() : .just("j") } }
        XCTAssertEqual(res.events, [.next(215, "a1"), .next(220, "j"), .completed(300)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 220)])
    }

    func testFlatMapLatestActiveInnerAfterAJustKeepsTheStreamOpen() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let b = scheduler.createColdObservable([.next(5, "b1"), .completed(40)])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? .just("j") : b.asObservable() } }
        XCTAssertEqual(res.events, [.next(210, "j"), .next(225, "b1"), .completed(260)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 260)])
    }

    func testFlatMapLatestDisposesThePreviousInnerBeforeForwardingTheJust() {
        let outer = PublishSubject<Int>()
        var log: [String] = []
        let live = Observable<String>.create { observer in
            observer.onNext("live")
            return Disposables.create { log.append("disposed live") }
        }
        let subscription = outer
            .flatMapLatest { $0 == 0 ? live : .just("just \($0)") }
            .subscribe(onNext: { log.append($0) }, onCompleted: { log.append("completed") })
        outer.onNext(0)
        outer.onNext(1)
        outer.onNext(2)
        outer.onCompleted()
        XCTAssertEqual(log, ["live", "disposed live", "just 1", "just 2", "completed"])
        subscription.dispose()
    }

    func testFlatMapLatestJustAfterTheOuterErrorIsIgnored() {
        let outer = PublishSubject<Int>()
        let (recorder, subscription) = record(outer.flatMapLatest { Observable.just($0) })
        outer.onNext(1)
        outer.onError(testError)
        outer.onNext(2)
        XCTAssertEqual(recorder.values, [.next(1), .error(testError)])
        subscription.dispose()
    }

    func testFlatMapLatestJustFromAnObserverThatSwitchesAgain() {
        // Re-entrancy: the downstream feeds the outer subject while a `just` is
        // being forwarded; the new element follows the current one.
        let outer = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = outer.flatMapLatest { Observable.just($0) }.subscribe(onNext: { value in
            received.append(value)
            if value < 3 { outer.onNext(value + 1) }
        })
        outer.onNext(0)
        XCTAssertEqual(received, [0, 1, 2, 3])
        subscription.dispose()
    }

    func testTraitJustsAreForwardedToo() {
        let (single, s1) = record(Observable.of(1, 2).flatMapLatest { Single.just($0) })
        let (maybe, s2) = record(Observable.of(1, 2).flatMap { Maybe.just($0) })
        XCTAssertEqual(single.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(maybe.values, [.next(1), .next(2), .completed])
        s1.dispose()
        s2.dispose()
    }

    // MARK: flatMap / flatMapFirst / concatMap

    func testFlatMapMixesJustsWithActiveInnersAndWaitsForThemToComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .completed(230)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .completed(50)])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? a.asObservable() : .just("j\($0)") } }
        // At 220 the outer's event was scheduled before a1 (scheduled at 210).
        XCTAssertEqual(res.events, [.next(215, "j2"), .next(220, "j3"), .next(220, "a1"), .completed(260)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 260)])
    }

    func testFlatMapFirstTakesAJustWhileNoInnerIsActiveAndDropsItOtherwise() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(240, 3), .next(250, 4), .completed(260),
        ])
        let a = scheduler.createColdObservable([.next(5, "a1"), .completed(20)])
        let res = scheduler.start { xs.flatMapFirst { $0 == 3 ? a.asObservable() : .just("j\($0)") } }
        XCTAssertEqual(res.events, [.next(210, "j1"), .next(220, "j2"), .next(245, "a1"), .completed(260)])
        XCTAssertEqual(a.subscriptions, [Subscription(240, 260)])
    }

    func testConcatMapQueuesAJustBehindTheActiveInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(250, 3), .completed(300)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .completed(20)])
        let res = scheduler.start { xs.concatMap { $0 == 1 ? a.asObservable() : .just("j\($0)") } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .next(230, "j2"), .next(250, "j3"), .completed(300)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 230)])
    }

    func testMergeMaxConcurrentOfJusts() {
        let (recorder, subscription) = record(
            Observable.of(Observable.just(1), .just(2), .just(3)).merge(maxConcurrent: 1))
        XCTAssertEqual(recorder.values, [.next(1), .next(2), .next(3), .completed])
        subscription.dispose()
    }

    func testFlatMapJustAfterDisposeFromTheObserverIsNotDelivered() {
        let outer = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = outer.flatMap { Observable.just($0) }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        outer.onNext(1)
        outer.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(outer.hasObservers)
    }

    // MARK: The shortcut happens

    /// While the element of an inner `just` is being delivered, the only new live
    /// Ripple object is the `just` itself: no inner subscription was made. (Through
    /// a subscription there is one more; checked by disabling the shortcut.)
    func testAnInnerJustIsNotSubscribedTo() {
        let operators: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("flatMap", { $0.flatMap { Observable.just($0) } }),
            ("flatMapLatest", { $0.flatMapLatest { Observable.just($0) } }),
            ("flatMapFirst", { $0.flatMapFirst { Observable.just($0) } }),
            ("concatMap", { $0.concatMap { Observable.just($0) } }),
        ]
        for (name, apply) in operators {
            let outer = PublishSubject<Int>()
            var during: Int32 = 0
            let subscription = apply(outer.asObservable()).subscribe(onNext: { _ in during = Resources.total })
            let before = Resources.total
            outer.onNext(1)
            XCTAssertEqual(during - before, 1, name)
            subscription.dispose()
        }
    }
    // MARK: map/filter of a just

    /// The four operators that take the map/filter-of-a-just shortcut, by name.
    private static var flatteningOperators: [(String, (Observable<Int>, @escaping (Int) -> Observable<Int>) -> Observable<Int>)] { [
        ("flatMap", { $0.flatMap($1) }),
        ("flatMapLatest", { $0.flatMapLatest($1) }),
        ("flatMapFirst", { $0.flatMapFirst($1) }),
        ("concatMap", { $0.concatMap($1) }),
    ] }

    func testMapAndFilterOfAJustGiveTheSameEventsAsASubscription() {
        for (name, apply) in Self.flatteningOperators {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
            let res = scheduler.start {
                apply(xs.asObservable()) { Observable.just($0).map { $0 * 10 }.filter { $0 != 20 } }
            }
            XCTAssertEqual(res.events, [.next(210, 10), .next(230, 30), .completed(240)], name)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)], name)
        }
    }

    func testAThrowingStepOfAJustFailsTheStream() {
        for (name, apply) in Self.flatteningOperators {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
            let res = scheduler.start {
                apply(xs.asObservable()) { value in
                    Observable.just(value).filter { value in
                        if value == 2 { throw testError }
                        return true
                    }
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)], name)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)], name)
        }
    }

    func testConcatMapRunsAQueuedStepWhenItsTurnComes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
        let a = scheduler.createColdObservable([.next(10, "a1"), .completed(20)])
        var mappedAt: [Int] = []
        let res = scheduler.start {
            xs.concatMap { value -> Observable<String> in
                value == 1 ? a.asObservable() : Observable.just(value).map { value in
                    mappedAt.append(scheduler.clock)
                    return "j\(value)"
                }
            }
        }
        XCTAssertEqual(res.events, [.next(220, "a1"), .next(230, "j2"), .completed(300)])
        XCTAssertEqual(mappedAt, [230])
    }

    func testFlatMapLatestDisposesThePreviousInnerBeforeRunningTheStep() {
        let outer = PublishSubject<Int>()
        var log: [String] = []
        let live = Observable<String>.create { observer in
            observer.onNext("live")
            return Disposables.create { log.append("disposed live") }
        }
        let subscription = outer
            .flatMapLatest { value -> Observable<String> in
                value == 0 ? live : Observable.just(value).map { value in
                    log.append("map \(value)")
                    return "just \(value)"
                }
            }
            .subscribe(onNext: { log.append($0) }, onCompleted: { log.append("completed") })
        outer.onNext(0)
        outer.onNext(1)
        outer.onCompleted()
        XCTAssertEqual(log, ["live", "disposed live", "map 1", "just 1", "completed"])
        subscription.dispose()
    }

    /// As ``testAnInnerJustIsNotSubscribedTo()``, for `just(x).map { }`: the live
    /// Ripple objects during delivery are the `just` and the `map`: no inner
    /// subscription and no sink, which a subscription would add.
    func testAMapOfAJustIsNotSubscribedTo() {
        let operators: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("flatMap", { $0.flatMap { Observable.just($0).map { $0 + 1 } } }),
            ("flatMapLatest", { $0.flatMapLatest { Observable.just($0).map { $0 + 1 } } }),
            ("flatMapFirst", { $0.flatMapFirst { Observable.just($0).map { $0 + 1 } } }),
            ("concatMap", { $0.concatMap { Observable.just($0).map { $0 + 1 } } }),
        ]
        for (name, apply) in operators {
            let outer = PublishSubject<Int>()
            var during: Int32 = 0
            let subscription = apply(outer.asObservable()).subscribe(onNext: { _ in during = Resources.total })
            let before = Resources.total
            outer.onNext(1)
            XCTAssertEqual(during - before, 2, name)
            subscription.dispose()
        }
    }
}
