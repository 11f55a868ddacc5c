import Ripple
import RippleTest
import XCTest

/// `Single.zip` and `Maybe.zip`: every arity (2 to 8, with and without a result
/// selector) and the collection forms.
final class TraitZipTests: RippleTestCase {
    private func events<Trait, Element>(_ sequence: PrimitiveSequence<Trait, Element>) -> [Event<Element>] {
        let (recorder, subscription) = record(sequence.asObservable())
        subscription.dispose()
        return recorder.values
    }

    // MARK: - Single, every arity

    func testSingleZipEveryArityWithResultSelector() {
        let s = (1...8).map { Single.just($0) }
        XCTAssertEqual(events(Single.zip(s[0], s[1]) { [$0, $1] }), [.next([1, 2]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2]) { [$0, $1, $2] }), [.next([1, 2, 3]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }), [.next([1, 2, 3, 4]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }), [.next([1, 2, 3, 4, 5]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5] }),
                       [.next([1, 2, 3, 4, 5, 6]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6] }),
                       [.next([1, 2, 3, 4, 5, 6, 7]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] }),
                       [.next([1, 2, 3, 4, 5, 6, 7, 8]), .completed])
    }

    func testSingleZipEveryArityAsTuples() {
        let s = (1...8).map { Single.just($0) }
        XCTAssertEqual(events(Single.zip(s[0], s[1]).map { [$0.0, $0.1] }), [.next([1, 2]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2]).map { [$0.0, $0.1, $0.2] }), [.next([1, 2, 3]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2], s[3]).map { [$0.0, $0.1, $0.2, $0.3] }), [.next([1, 2, 3, 4]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2], s[3], s[4]).map { [$0.0, $0.1, $0.2, $0.3, $0.4] }),
                       [.next([1, 2, 3, 4, 5]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5] }),
                       [.next([1, 2, 3, 4, 5, 6]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6] }),
                       [.next([1, 2, 3, 4, 5, 6, 7]), .completed])
        XCTAssertEqual(events(Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7] }),
                       [.next([1, 2, 3, 4, 5, 6, 7, 8]), .completed])
    }

    func testSingleZipOfDifferentTypes() {
        let zipped: Single<(Int, String, Bool)> = Single.zip(Single.just(1), Single.just("a"), Single.just(true))
        var outcome: (Int, String, Bool)?
        _ = zipped.subscribe(onSuccess: { outcome = $0 })
        XCTAssertEqual(outcome?.0, 1)
        XCTAssertEqual(outcome?.1, "a")
        XCTAssertEqual(outcome?.2, true)
    }

    // MARK: - Single, virtual time

    func testSingleZipSucceedsWhenTheLastOneSucceeds() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, a) = scheduler.hotSingle(210, 1)
        let (ys, b) = scheduler.hotSingle(240, "b")
        let (zs, c) = scheduler.coldSingle(20, true)
        let res = scheduler.start { Single.zip(a, b, c) { "\($0)\($1)\($2)" } }
        XCTAssertEqual(res.events, [.next(240, "1btrue"), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 220)])
    }

    func testSingleZipAtEqualTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, a) = scheduler.hotSingle(210, 1)
        let (_, b) = scheduler.hotSingle(210, 2)
        XCTAssertEqual(scheduler.start { Single.zip(a, b) { $0 + $1 } }.events, [.next(210, 3), .completed(210)])
    }

    func testSingleZipFailsAtTheFirstFailureAndDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, a) = scheduler.hotSingle(210, 1)
        let (ys, failing) = scheduler.hotFailingSingle(220, testError, Int.self)
        let (zs, late) = scheduler.hotSingle(300, 3)
        XCTAssertEqual(scheduler.start { Single.zip(a, failing, late) }.events.map(\.time), [220])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, a2) = scheduler2.hotSingle(210, 1)
        let (_, failing2) = scheduler2.hotFailingSingle(220, testError, Int.self)
        XCTAssertEqual(scheduler2.start { Single.zip(a2, failing2) { $0 + $1 } }.events, [.error(220, testError)])
    }

    func testSingleZipResultSelectorThatThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, a) = scheduler.hotSingle(210, 1)
        let (_, b) = scheduler.hotSingle(220, 2)
        XCTAssertEqual(scheduler.start { Single.zip(a, b) { _, _ -> Int in throw testError } }.events, [.error(220, testError)])
    }

    func testSingleZipDisposedMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, a) = scheduler.hotSingle(210, 1)
        let (ys, b) = scheduler.hotSingle(300, 2)
        XCTAssertEqual(scheduler.start(disposed: 250) { Single.zip(a, b) { $0 + $1 } }.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testSingleZipWhenOneSuccessSynchronouslyCausesTheOther() {
        // Re-entrant: the first Single's success makes the second one succeed
        // while the zip is still handling the first.
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let a = first.asSingle().do(onSuccess: { value in
            second.onNext(value * 10)
            second.onCompleted()
        })
        var outcomes: [SingleEvent<Int>] = []
        let subscription = Single.zip(a, second.asSingle()) { $0 + $1 }.subscribe { outcomes.append($0) }
        first.onNext(2)
        first.onCompleted()
        XCTAssertEqual(outcomes.count, 1)
        XCTAssertEqual(try outcomes.first?.get(), 22)
        XCTAssertFalse(first.hasObservers)
        XCTAssertFalse(second.hasObservers)
        subscription.dispose()
    }

    // MARK: - Single, collection forms

    func testSingleZipCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, a) = scheduler.hotSingle(230, 1)
        let (ys, b) = scheduler.hotSingle(210, 2)
        let (_, c) = scheduler.coldSingle(20, 3)
        XCTAssertEqual(scheduler.start { Single.zip([a, b, c]) }.events, [.next(230, [1, 2, 3]), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, a2) = scheduler2.hotSingle(230, 1)
        let (_, b2) = scheduler2.hotSingle(210, 2)
        XCTAssertEqual(scheduler2.start { Single.zip([a2, b2]) { $0.reduce(0, +) } }.events, [.next(230, 3), .completed(230)])
    }

    func testSingleZipCollectionFailureAndSelectorError() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, a) = scheduler.hotSingle(300, 1)
        let (_, failing) = scheduler.hotFailingSingle(220, testError, Int.self)
        XCTAssertEqual(scheduler.start { Single.zip([a, failing]) }.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        XCTAssertEqual(events(Single.zip([Single.just(1)]) { _ -> Int in throw testError2 }), [.error(testError2)])
    }

    func testSingleZipOfAnEmptyCollectionSucceedsAtOnce() {
        XCTAssertEqual(events(Single.zip([Single<Int>]())), [.next([]), .completed])
        var calls = 0
        let zipped = Single.zip([Single<Int>]()) { values -> Int in
            calls += 1
            return values.count
        }
        XCTAssertEqual(calls, 0)
        XCTAssertEqual(events(zipped), [.next(0), .completed])
        XCTAssertEqual(events(zipped), [.next(0), .completed])
        XCTAssertEqual(calls, 2)
        XCTAssertEqual(events(Single.zip([Single<Int>]()) { _ -> Int in throw testError }), [.error(testError)])
    }

    // MARK: - Maybe, every arity

    func testMaybeZipEveryArityWithResultSelector() {
        let m = (1...8).map { Maybe.just($0) }
        XCTAssertEqual(events(Maybe.zip(m[0], m[1]) { [$0, $1] }), [.next([1, 2]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2]) { [$0, $1, $2] }), [.next([1, 2, 3]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2], m[3]) { [$0, $1, $2, $3] }), [.next([1, 2, 3, 4]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2], m[3], m[4]) { [$0, $1, $2, $3, $4] }), [.next([1, 2, 3, 4, 5]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5]) { [$0, $1, $2, $3, $4, $5] }),
                       [.next([1, 2, 3, 4, 5, 6]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6]) { [$0, $1, $2, $3, $4, $5, $6] }),
                       [.next([1, 2, 3, 4, 5, 6, 7]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] }),
                       [.next([1, 2, 3, 4, 5, 6, 7, 8]), .completed])
    }

    func testMaybeZipEveryArityAsTuples() {
        let m = (1...8).map { Maybe.just($0) }
        XCTAssertEqual(events(Maybe.zip(m[0], m[1]).map { [$0.0, $0.1] }), [.next([1, 2]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2]).map { [$0.0, $0.1, $0.2] }), [.next([1, 2, 3]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2], m[3]).map { [$0.0, $0.1, $0.2, $0.3] }), [.next([1, 2, 3, 4]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2], m[3], m[4]).map { [$0.0, $0.1, $0.2, $0.3, $0.4] }),
                       [.next([1, 2, 3, 4, 5]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5]).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5] }),
                       [.next([1, 2, 3, 4, 5, 6]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6]).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6] }),
                       [.next([1, 2, 3, 4, 5, 6, 7]), .completed])
        XCTAssertEqual(events(Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7] }),
                       [.next([1, 2, 3, 4, 5, 6, 7, 8]), .completed])
    }

    // MARK: - Maybe, virtual time

    func testMaybeZipSucceedsWhenEverySourceHasAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, a) = scheduler.hotMaybe(210, 1)
        let (ys, b) = scheduler.hotMaybe(240, 2)
        XCTAssertEqual(scheduler.start { Maybe.zip(a, b) { $0 * 10 + $1 } }.events, [.next(240, 12), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    func testMaybeZipCompletesEmptyOnceTheOthersHaveFinished() {
        // The empty one finishes first: the result completes when the other one
        // reports its element (no combination can be made any more).
        let scheduler = TestScheduler(initialClock: 0)
        let (_, empty) = scheduler.hotMaybe(210, nil, Int.self)
        let (ys, b) = scheduler.hotMaybe(240, 2)
        let res = scheduler.start { Maybe.zip(empty, b) }
        XCTAssertEqual(res.events.map(\.time), [240])
        XCTAssertEqual(res.events.first?.value.isCompleted, true)
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, empty2) = scheduler2.hotMaybe(210, nil, Int.self)
        let (_, b2) = scheduler2.hotMaybe(240, 2)
        XCTAssertEqual(scheduler2.start { Maybe.zip(empty2, b2) { $0 + $1 } }.events, [.completed(240)])

        // Both empty: completes when the second one completes.
        let scheduler3 = TestScheduler(initialClock: 0)
        let (_, empty3) = scheduler3.hotMaybe(210, nil, Int.self)
        let (_, emptyToo) = scheduler3.hotMaybe(230, nil, Int.self)
        XCTAssertEqual(scheduler3.start { Maybe.zip(empty3, emptyToo) { $0 + $1 } }.events, [.completed(230)])
    }

    func testMaybeZipWithAnEmptyMaybeAndOneThatNeverEndsKeepsWaiting() {
        // RxSwift's zip rule: a source still running might emit, so nothing is
        // decided until it does or completes.
        let scheduler = TestScheduler(initialClock: 0)
        let (_, empty) = scheduler.hotMaybe(210, nil, Int.self)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>]())
        XCTAssertEqual(scheduler.start { Maybe.zip(empty, never.asMaybe()) { $0 + $1 } }.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
    }

    func testMaybeZipFailureAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, late) = scheduler.hotMaybe(300, 1)
        let failing = scheduler.createHotObservable([Recorded<Event<Int>>.error(220, testError)])
        XCTAssertEqual(scheduler.start { Maybe.zip(late, failing.asMaybe()) { $0 + $1 } }.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (ys, late2) = scheduler2.hotMaybe(300, 1)
        let (_, b2) = scheduler2.hotMaybe(210, 2)
        XCTAssertEqual(scheduler2.start(disposed: 250) { Maybe.zip(late2, b2) }.events.count, 0)
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    // MARK: - Maybe, collection forms

    func testMaybeZipCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, a) = scheduler.hotMaybe(230, 1)
        let (_, b) = scheduler.hotMaybe(210, 2)
        XCTAssertEqual(scheduler.start { Maybe.zip([a, b]) }.events, [.next(230, [1, 2]), .completed(230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let (_, a2) = scheduler2.hotMaybe(230, 1)
        let (_, empty2) = scheduler2.hotMaybe(210, nil, Int.self)
        XCTAssertEqual(scheduler2.start { Maybe.zip([a2, empty2]) { $0.reduce(0, +) } }.events, [.completed(230)])

        XCTAssertEqual(events(Maybe.zip([Maybe<Int>]())), [.next([]), .completed])
        XCTAssertEqual(events(Maybe.zip([Maybe<Int>]()) { $0.count }), [.next(0), .completed])
        XCTAssertEqual(events(Maybe.zip([Maybe.just(1), .error(testError)])), [.error(testError)])
        XCTAssertEqual(events(Maybe.zip([Maybe.just(1)]) { _ -> Int in throw testError2 }), [.error(testError2)])
    }
}
