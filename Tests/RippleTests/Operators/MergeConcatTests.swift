import Ripple
import RippleTest
import XCTest

final class MergeConcatTests: RippleTestCase {
    // MARK: merge() on an observable of observables

    func testMergeOfObservablesCompletesAfterOuterAndAllInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(215, 1), .next(235, 3), .completed(260)])
        let b = scheduler.createHotObservable([.next(225, 2), .next(245, 4), .completed(270)])
        let xs = scheduler.createHotObservable([.next(210, a.asObservable()), .next(220, b.asObservable()), .completed(230)])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(215, 1), .next(225, 2), .next(235, 3), .next(245, 4), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 260)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 270)])
    }

    func testMergeOfObservablesErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(215, 1), .error(240, testError)])
        let b = scheduler.createHotObservable([.next(225, 2), .completed(300)])
        let xs = scheduler.createHotObservable([.next(210, a.asObservable()), .next(220, b.asObservable()), .completed(400)])
        XCTAssertEqual(scheduler.start { xs.merge() }.events, [.next(215, 1), .next(225, 2), .error(240, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 240)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let c = scheduler2.createHotObservable([.next(215, 1), .completed(300)])
        let ys = scheduler2.createHotObservable([.next(210, c.asObservable()), .error(220, testError)])
        XCTAssertEqual(scheduler2.start { ys.merge() }.events, [.next(215, 1), .error(220, testError)])
        XCTAssertEqual(c.subscriptions, [Subscription(210, 220)])
    }

    func testMergeOfObservablesDisposeAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(215, 1), .next(300, 2), .completed(400)])
        let xs = scheduler.createHotObservable([.next(210, a.asObservable()), .completed(500)])
        XCTAssertEqual(scheduler.start(disposed: 250) { xs.merge() }.events, [.next(215, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 250)])

        XCTAssertEqual(record(Observable<Observable<Int>>.empty().merge()).0.values, [.completed])
        XCTAssertEqual(record(Observable.of(Observable<Int>.empty(), .empty()).merge()).0.values, [.completed])
    }

    // MARK: merge(maxConcurrent:)

    func testMergeMaxConcurrentQueuesInnersBeyondTheLimit() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, "a"), .completed(30)])
        let b = scheduler.createColdObservable([.next(10, "b"), .completed(50)])
        let c = scheduler.createColdObservable([.next(10, "c"), .completed(20)])
        let xs = scheduler.createHotObservable([
            .next(210, a.asObservable()), .next(215, b.asObservable()), .next(220, c.asObservable()), .completed(225),
        ])
        let res = scheduler.start { xs.merge(maxConcurrent: 2) }
        XCTAssertEqual(res.events, [.next(220, "a"), .next(225, "b"), .next(250, "c"), .completed(265)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(b.subscriptions, [Subscription(215, 265)])
        XCTAssertEqual(c.subscriptions, [Subscription(240, 260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testMergeMaxConcurrentOutOfRangeFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Observable.just(1))])
        XCTAssertEqual(scheduler.start { xs.merge(maxConcurrent: 0) }.events, [.error(200, RxError.argumentOutOfRange)])
        XCTAssertEqual(xs.subscriptions, [])
        XCTAssertEqual(record(Observable.just(Observable.just(1)).merge(maxConcurrent: -3)).0.values, [.error(RxError.argumentOutOfRange)])
    }

    func testMergeMaxConcurrentErrorAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, "a"), .error(20, testError, String.self)])
        let b = scheduler.createColdObservable([.next(10, "b"), .completed(20)])
        let xs = scheduler.createHotObservable([.next(210, a.asObservable()), .next(215, b.asObservable()), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.merge(maxConcurrent: 1) }.events, [.next(220, "a"), .error(230, testError)])
        XCTAssertEqual(b.subscriptions, [])

        let scheduler2 = TestScheduler(initialClock: 0)
        let c = scheduler2.createColdObservable([.next(10, "c"), .completed(100)])
        let ys = scheduler2.createHotObservable([.next(210, c.asObservable()), .next(215, c.asObservable()), .completed(300)])
        XCTAssertEqual(scheduler2.start(disposed: 250) { ys.merge(maxConcurrent: 1) }.events, [.next(220, "c")])
        XCTAssertEqual(c.subscriptions, [Subscription(210, 250)])
    }

    // MARK: static merge

    func testStaticMergeAllForms() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
        let expected: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .completed(260)]
        XCTAssertEqual(scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }.events, expected)
        XCTAssertEqual(a.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 260)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let c = scheduler2.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let d = scheduler2.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
        XCTAssertEqual(scheduler2.start { Observable.merge([c.asObservable(), d.asObservable()]) }.events, expected)

        let scheduler3 = TestScheduler(initialClock: 0)
        let e = scheduler3.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let f = scheduler3.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
        XCTAssertEqual(scheduler3.start { Observable.merge(ContiguousArray([e.asObservable(), f.asObservable()])) }.events, expected)
    }

    func testStaticMergeEmptyErrorAndDispose() {
        XCTAssertEqual(record(Observable<Int>.merge()).0.values, [.completed])
        XCTAssertEqual(record(Observable<Int>.merge([])).0.values, [.completed])

        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let b = scheduler.createHotObservable([.next(215, 2), .completed(300)])
        XCTAssertEqual(scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }.events,
                       [.next(210, 1), .next(215, 2), .error(220, testError)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let c = scheduler2.createHotObservable([.next(210, 1), .completed(300)])
        XCTAssertEqual(scheduler2.start { Observable.merge(Observable<Int>.error(testError), c.asObservable()) }.events,
                       [.error(200, testError)])
        XCTAssertEqual(c.subscriptions, [], "sources after one that failed while being subscribed are not subscribed")

        let scheduler3 = TestScheduler(initialClock: 0)
        let d = scheduler3.createHotObservable([.next(210, 1), .next(300, 2), .completed(400)])
        XCTAssertEqual(scheduler3.start(disposed: 250) { Observable.merge(d.asObservable(), .never()) }.events, [.next(210, 1)])
        XCTAssertEqual(d.subscriptions, [Subscription(200, 250)])
    }

    func testStaticMergeOfSynchronousSourcesInterleavesLikeRxSwift() {
        let (recorder, _) = record(Observable.merge(Observable.of(1, 2), Observable.of(3, 4)))
        XCTAssertEqual(recorder.values, [.next(1), .next(3), .next(2), .next(4), .completed])
    }

    func testDownstreamDisposalStopsEverySource() {
        var disposed = 0
        func source(_ values: Int...) -> Observable<Int> {
            Observable.from(values).do(onDispose: { disposed += 1 })
        }
        XCTAssertEqual(record(Observable.merge(source(1, 2), source(3, 4)).take(2)).0.values, [.next(1), .next(3), .completed])
        XCTAssertEqual(disposed, 2)
        disposed = 0
        XCTAssertEqual(record(Observable.of(1, 2).flatMap { source($0, $0 * 10) }.take(3)).0.values,
                       [.next(1), .next(10), .next(2), .completed])
        XCTAssertEqual(disposed, 2)
        disposed = 0
        XCTAssertEqual(record(Observable.concat(source(1, 2), source(3, 4)).take(3)).0.values,
                       [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(disposed, 2)
    }

    // MARK: concat

    func testConcatSecondStartsWhenFirstCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let b = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { a.concat(b) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(b.subscriptions, [Subscription(230, 250)])
    }

    func testConcatEqualVirtualTimes() {
        // b is subscribed when a completes at 230, before b's own event of tick 230 runs.
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(230, 3), .completed(240)])
        XCTAssertEqual(scheduler.start { a.concat(b) }.events, [.next(210, 1), .next(230, 3), .completed(240)])
        XCTAssertEqual(b.subscriptions, [Subscription(230, 240)])
    }

    func testConcatErrorsAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let b = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        XCTAssertEqual(scheduler.start { a.concat(b) }.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(b.subscriptions, [])

        let scheduler2 = TestScheduler(initialClock: 0)
        let c = scheduler2.createColdObservable([.next(10, 1), .completed(20)])
        let d = scheduler2.createColdObservable([.next(10, 3), .error(20, testError)])
        XCTAssertEqual(scheduler2.start { c.concat(d) }.events, [.next(210, 1), .next(230, 3), .error(240, testError)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let e = scheduler3.createColdObservable([.next(10, 1), .completed(20)])
        let f = scheduler3.createColdObservable([.next(10, 3), .completed(200)])
        XCTAssertEqual(scheduler3.start(disposed: 250) { e.concat(f) }.events, [.next(210, 1), .next(230, 3)])
        XCTAssertEqual(f.subscriptions, [Subscription(220, 250)])
    }

    func testStaticConcatForms() {
        let expected: [Event<Int>] = [.next(1), .next(2), .next(3), .completed]
        XCTAssertEqual(record(Observable.concat(Observable.just(1), .just(2), .just(3))).0.values, expected)
        XCTAssertEqual(record(Observable.concat([Observable.just(1), .just(2), .just(3)])).0.values, expected)
        XCTAssertEqual(record(Observable.concat(AnySequence([Observable.just(1), .just(2), .just(3)]))).0.values, expected)
        XCTAssertEqual(record(Observable<Int>.concat()).0.values, [.completed])
        XCTAssertEqual(record(Observable<Int>.concat([Observable<Int>]())).0.values, [.completed])
        XCTAssertEqual(record(Observable.concat(Observable.of(1, 2), .error(testError), .just(3))).0.values,
                       [.next(1), .next(2), .error(testError)])
    }

    func testStaticConcatIteratesLazilyAndPerSubscriber() {
        var pulled = 0
        let sources = AnySequence { () -> AnyIterator<Observable<Int>> in
            var index = 0
            return AnyIterator {
                pulled += 1
                index += 1
                // `of` emits on the trampoline, after `take` has attached to the
                // subscription; a source that emits synchronously while being
                // subscribed could not be stopped by `take` (nor in RxSwift).
                return .of(index)
            }
        }
        let concat = Observable.concat(sources)
        XCTAssertEqual(pulled, 0)
        XCTAssertEqual(record(concat.take(3)).0.values, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(pulled, 3, "an infinite sequence is pulled one source at a time")
        XCTAssertEqual(record(concat.take(2)).0.values, [.next(1), .next(2), .completed])
    }

    func testConcatOfManySynchronousSourcesDoesNotRecurse() {
        var total = 0
        var completed = false
        _ = Observable.concat(Array(repeating: Observable.just(1), count: 100_000))
            .subscribe(onNext: { total += $0 }, onCompleted: { completed = true })
        XCTAssertEqual(total, 100_000)
        XCTAssertTrue(completed)
    }

    func testLongConcatChainsAreFlattened() {
        var left = Observable.just(0)
        for value in 1..<10_000 {
            left = left.concat(Observable.just(value))
        }
        var values: [Int] = []
        _ = left.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, Array(0..<10_000))

        var right = Observable.just(9_999)
        for value in (0..<9_999).reversed() {
            right = Observable.just(value).concat(right)
        }
        values = []
        _ = right.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, Array(0..<10_000))
    }

    func testConcatReentrantSubjectSource() {
        // The second source is a subject fed by the observer of the concatenation.
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = Observable.just(0).concat(subject).subscribe(onNext: { value in
            values.append(value)
            if value < 3 { subject.onNext(value + 1) }
        })
        // The first element is delivered before `subject` is subscribed: its feed is lost.
        XCTAssertEqual(values, [0])
        subject.onNext(1)
        XCTAssertEqual(values, [0, 1, 2, 3])
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: concat() on an observable of observables

    func testConcatOfObservables() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let xs = scheduler.createHotObservable([.next(210, a.asObservable()), .next(215, b.asObservable()), .completed(220)])
        XCTAssertEqual(scheduler.start { xs.concat() }.events, [.next(220, 1), .next(235, 2), .completed(240)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(b.subscriptions, [Subscription(230, 240)])

        XCTAssertEqual(record(Observable.of(Observable.of(1, 2), Observable.of(3)).concat()).0.values,
                       [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(record(Observable<Observable<Int>>.empty().concat()).0.values, [.completed])
        XCTAssertEqual(record(Observable<Observable<Int>>.error(testError).concat()).0.values, [.error(testError)])
    }
}
