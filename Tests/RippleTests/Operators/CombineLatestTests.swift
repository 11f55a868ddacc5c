import Ripple
import RippleTest
import XCTest

final class CombineLatestTests: RippleTestCase {
    func testCombineLatestEmitsOnceEverySourceHasEmitted() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .completed(270)])
        let b = scheduler.createHotObservable([.next(220, "x"), .next(240, "y"), .completed(250)])
        let res = scheduler.start { Observable.combineLatest(a, b) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(220, "1x"), .next(230, "2x"), .next(240, "2y"), .completed(270)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 270)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
    }

    func testCombineLatestTupleForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(270)])
        let b = scheduler.createHotObservable([.next(220, "x"), .completed(250)])
        let res = scheduler.start { Observable.combineLatest(a, b).map { "\($0.0)\($0.1)" } }
        XCTAssertEqual(res.events, [.next(220, "1x"), .next(230, "2x"), .completed(270)])
    }

    func testCombineLatestSynchronousSourcesFollowRxSwiftOrder() {
        let (recorder, _) = record(Observable.combineLatest(Observable.of(1, 2), Observable.of(10, 20)).map { [$0, $1] })
        XCTAssertEqual(recorder.values, [.next([1, 10]), .next([2, 10]), .next([2, 20]), .completed])
    }

    func testCombineLatestEqualVirtualTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let b = scheduler.createHotObservable([.next(210, 10), .next(220, 20), .completed(230)])
        let res = scheduler.start { Observable.combineLatest(a, b, resultSelector: +) }
        XCTAssertEqual(res.events, [.next(210, 11), .next(220, 12), .next(220, 22), .completed(230)])
    }

    /// Two sources derived from one subject: each new element comes out twice,
    /// first with the other source's old value (docs/operators/combineLatest.md,
    /// the derived-sources marble), as in RxSwift, whose subjects also deliver
    /// in subscription order. Derived together in one `map`, once.
    func testSourcesDerivedFromOneStreamGiveAMixedElementFirst() {
        let items = PublishSubject<[String]>()
        let (combined, combinedSubscription) = record(Observable.combineLatest(items, items.map(\.count)) { "\($0.joined())#\($1)" })
        let (together, togetherSubscription) = record(items.map { "\($0.joined())#\($0.count)" })
        items.onNext(["a"])
        items.onNext(["b", "c"])
        XCTAssertEqual(combined.values, [.next("a#1"), .next("bc#1"), .next("bc#2")])
        XCTAssertEqual(together.values, [.next("a#1"), .next("bc#2")])
        combinedSubscription.dispose()
        togetherSubscription.dispose()
    }

    // MARK: Completion (RxSwift's rules for the arity forms)

    func testCombineLatestEmptyAndNeverDoesNotComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let never = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { Observable.combineLatest(empty, never, resultSelector: +) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
    }

    func testCombineLatestCompletesWhenASourceEmitsAfterAnEmptyOneCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let other = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { Observable.combineLatest(empty, other, resultSelector: +) }
        XCTAssertEqual(res.events, [.completed(215)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 215)])
    }

    func testCombineLatestCompletesWhenAllSourcesHaveCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let b = scheduler.createHotObservable([.next(215, 2), .completed(240)])
        XCTAssertEqual(scheduler.start { Observable.combineLatest(a, b, resultSelector: +) }.events, [.next(215, 3), .completed(240)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let c = scheduler2.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let d = scheduler2.createHotObservable([Recorded<Event<Int>>.completed(230)])
        XCTAssertEqual(scheduler2.start { Observable.combineLatest(c, d, resultSelector: +) }.events, [.completed(230)])
    }

    // MARK: Errors and disposal

    func testCombineLatestErrorFromAnySourceDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let b = scheduler.createHotObservable([.next(215, 2), .error(220, testError)])
        let res = scheduler.start { Observable.combineLatest(a, b, resultSelector: +) }
        XCTAssertEqual(res.events, [.next(215, 3), .error(220, testError)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 220)])

        // An error before every source has emitted.
        let scheduler2 = TestScheduler(initialClock: 0)
        let c = scheduler2.createHotObservable([Recorded<Event<Int>>.error(210, testError)])
        let d = scheduler2.createHotObservable([Recorded<Event<Int>>.next(220, 1)])
        XCTAssertEqual(scheduler2.start { Observable.combineLatest(c, d, resultSelector: +) }.events, [.error(210, testError)])
        XCTAssertEqual(d.subscriptions, [Subscription(200, 210)])
    }

    func testCombineLatestSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 10), .completed(300)])
        let res = scheduler.start {
            Observable.combineLatest(a, b) { x, y -> Int in
                if x == 2 { throw testError }
                return x + y
            }
        }
        XCTAssertEqual(res.events, [.next(220, 11), .error(230, testError)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 230)])
    }

    func testCombineLatestDisposeMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 10), .completed(300)])
        let res = scheduler.start(disposed: 250) { Observable.combineLatest(a, b, resultSelector: +) }
        XCTAssertEqual(res.events, [.next(220, 11)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
    }

    func testCombineLatestReentrantSubject() {
        let subject = BehaviorSubject(value: 0)
        let other = BehaviorSubject(value: 100)
        var values: [Int] = []
        let subscription = Observable.combineLatest(subject, other, resultSelector: +).subscribe(onNext: { value in
            values.append(value)
            if value < 103 { subject.onNext(value - 99) }
        })
        XCTAssertEqual(values, [100, 101, 102, 103])
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
        XCTAssertFalse(other.hasObservers)
    }

    func testDownstreamDisposalMidDeliveryStopsTheSources() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = Observable.combineLatest(a, b, resultSelector: +).take(2).subscribe(onNext: { values.append($0) })
        a.onNext(1)
        b.onNext(10)
        a.onNext(2)
        XCTAssertEqual(values, [11, 12])
        XCTAssertFalse(a.hasObservers)
        XCTAssertFalse(b.hasObservers)
        subscription.dispose()
    }

    // MARK: Arities

    func testEveryArityInBothForms() {
        let s = (1...8).map { Observable.just($0) }
        func values(_ observable: Observable<Int>) -> [Event<Int>] { record(observable).0.values }
        func sum(_ n: Int) -> [Event<Int>] { [.next((1...n).reduce(0, +)), .completed] }

        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1]) { $0 + $1 }), sum(2))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1]).map { $0 + $1 }), sum(2))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2]) { $0 + $1 + $2 }), sum(3))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2]).map { $0 + $1 + $2 }), sum(3))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }), sum(4))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2], s[3]).map { $0 + $1 + $2 + $3 }), sum(4))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }), sum(5))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]).map { $0 + $1 + $2 + $3 + $4 }), sum(5))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5].reduce(0, +) }), sum(6))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map { [$0, $1, $2, $3, $4, $5].reduce(0, +) }), sum(6))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6].reduce(0, +) }), sum(7))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { [$0, $1, $2, $3, $4, $5, $6].reduce(0, +) }), sum(7))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7].reduce(0, +) }), sum(8))
        XCTAssertEqual(values(Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { [$0, $1, $2, $3, $4, $5, $6, $7].reduce(0, +) }), sum(8))
    }

    func testArityEightKeepsEachSourceInItsPlace() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<8).map { index in
            scheduler.createHotObservable([.next(210 + index, "\(index)"), .next(300 + index, "\(index)'"), .completed(400)])
        }
        let res = scheduler.start {
            Observable.combineLatest(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7])
                .map { [$0, $1, $2, $3, $4, $5, $6, $7].joined(separator: " ") }
        }
        XCTAssertEqual(res.events.first, .next(217, "0 1 2 3 4 5 6 7"))
        XCTAssertEqual(res.events.last, .completed(400))
        XCTAssertEqual(res.events[res.events.count - 2], .next(307, "0' 1' 2' 3' 4' 5' 6' 7'"))
        XCTAssertEqual(res.events.count, 10)
    }

    // MARK: Collection forms

    func testCombineLatestCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(270)])
        let b = scheduler.createHotObservable([.next(220, 10), .completed(250)])
        let c = scheduler.createHotObservable([.next(225, 100), .completed(260)])
        let res = scheduler.start { Observable.combineLatest([a, b, c]) }
        XCTAssertEqual(res.events, [.next(225, [1, 10, 100]), .next(230, [2, 10, 100]), .completed(270)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 270)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let d = scheduler2.createHotObservable([.next(210, 1), .next(230, 2), .completed(270)])
        let e = scheduler2.createHotObservable([.next(220, 10), .completed(250)])
        let summed = scheduler2.start { Observable.combineLatest([d, e]) { $0.reduce(0, +) } }
        XCTAssertEqual(summed.events, [.next(220, 11), .next(230, 12), .completed(270)])
    }

    /// RxSwift's collection `combineLatest`: a source that completes without
    /// emitting does not complete the result; the next element of another source,
    /// once every other source is done, does (no combination can come any more).
    func testCombineLatestCollectionCompletesAtTheNextElementAfterASourceCompletedEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let empty = scheduler.createHotObservable([Recorded<Event<Int>>.completed(220)])
        let res = scheduler.start { Observable.combineLatest([a, empty]) }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 220)])
    }

    /// While another source that never emitted is still running, the result
    /// waits: that source may still emit.
    func testCombineLatestCollectionWaitsWhileASourceThatNeverEmittedIsRunning() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let empty = scheduler.createHotObservable([Recorded<Event<Int>>.completed(220)])
        let late = scheduler.createHotObservable([.next(250, 10), .completed(260)])
        let res = scheduler.start { Observable.combineLatest([a, empty, late]) }
        // At 240 `late` is still running; at 250 it emits while `empty` (never
        // emitted) and `a` are not both done: nothing to combine, no completion;
        // the result completes when the last source does.
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(late.subscriptions, [Subscription(200, 260)])
    }

    /// Every source completes (one of them without emitting): the result
    /// completes with the last one.
    func testCombineLatestCollectionCompletesWhenAllSourcesHaveCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let empty = scheduler.createHotObservable([Recorded<Event<Int>>.completed(220)])
        let b = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        let res = scheduler.start { Observable.combineLatest([a, empty, b]) }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
    }

    func testCombineLatestEmptyCollection() {
        XCTAssertEqual(record(Observable.combineLatest([Observable<Int>]())).0.values, [.next([]), .completed])
        XCTAssertEqual(record(Observable.combineLatest([Observable<Int>]()) { $0.count }).0.values, [.next(0), .completed])
        XCTAssertEqual(record(Observable.combineLatest([Observable<Int>]()) { _ -> Int in throw testError }).0.values, [.error(testError)])
    }

    func testCombineLatestCollectionErrorsAndSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 2), .error(230, testError)])
        XCTAssertEqual(scheduler.start { Observable.combineLatest([a, b]) }.events, [.next(220, [1, 2]), .error(230, testError)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 230)])

        let failing = Observable.combineLatest([Observable.just(1), Observable.just(2)]) { _ -> Int in throw testError }
        XCTAssertEqual(record(failing).0.values, [.error(testError)])

        let (recorder, _) = record(Observable.combineLatest([Observable.of(1, 2), Observable.of(10, 20)]))
        XCTAssertEqual(recorder.values, [.next([1, 10]), .next([2, 10]), .next([2, 20]), .completed])
    }

    /// The latest value a source replaces is released after the operator's
    /// lock: its `deinit` (user code) may send to another source, which
    /// deadlocked the sending thread when it ran under the lock. RxSwift's
    /// recursive lock lets that call in.
    func testAReplacedValueWhoseDeinitSendsToAnotherSourceDoesNotDeadlock() {
        let log = Recorder<String>()
        assertFinishes({ "deadlocked after \(log.values)" }()) {
            let first = PublishSubject<RunsOnDeinit?>()
            let second = PublishSubject<Int>()
            let subscription = Observable.combineLatest(first, second).subscribe(onNext: { value, number in
                log.append("\(value == nil ? "nil" : "value") \(number)")
            })
            first.onNext(RunsOnDeinit { second.onNext(2) })
            second.onNext(1)
            first.onNext(nil)  // replaces the value, whose deinit sends 2
            subscription.dispose()

            let sources = [PublishSubject<RunsOnDeinit?>(), PublishSubject<RunsOnDeinit?>()]
            let all = Observable.combineLatest(sources.map { $0.asObservable() }).subscribe(onNext: { values in
                log.append(values.map { $0 == nil ? "nil" : "value" }.joined(separator: " "))
            })
            sources[0].onNext(RunsOnDeinit { sources[1].onNext(nil) })
            sources[1].onNext(RunsOnDeinit {})
            sources[0].onNext(nil)  // replaces the value, whose deinit sends nil to the other source
            all.dispose()
        }
        XCTAssertEqual(log.values, ["value 1", "nil 1", "nil 2", "value value", "nil value", "nil nil"])
    }
}
