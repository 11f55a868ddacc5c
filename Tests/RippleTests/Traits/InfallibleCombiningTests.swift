import Ripple
import RippleTest
import XCTest

final class InfallibleCombiningTests: RippleTestCase {
    func testMergeAllForms() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
        let res = scheduler.start { Infallible.merge(xs.infallible, ys.infallible) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])

        XCTAssertEqual(record(Infallible.merge([Infallible.of(1), .of(2)]).asObservable()).0.values, [.next(1), .next(2), .completed])
        let collection: ArraySlice<Infallible<Int>> = [.of(1), .of(2)]
        XCTAssertEqual(record(Infallible.merge(collection).asObservable()).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(record(Infallible<Int>.merge([]).asObservable()).0.values, [.completed])
    }

    func testMergeDisposedMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(400, 3)])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(400, 4)])
        let res = scheduler.start(disposed: 300) { Infallible.merge(xs.infallible, ys.infallible) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testConcatAllForms() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { Infallible.concat(xs.infallible, ys.infallible) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])

        let sequence = (1...3).lazy.map { Infallible.just($0) }
        XCTAssertEqual(record(Infallible.concat(sequence).asObservable()).0.values, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(record(Infallible.concat([Infallible.just(1), .just(2)]).asObservable()).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(record(Infallible.just(1).concat(Infallible.just(2)).asObservable()).0.values, [.next(1), .next(2), .completed])
    }

    func testCombineLatestTwoWithAndWithoutSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(250)])
        let res = scheduler.start { Infallible.combineLatest(xs.infallible, ys.infallible) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(220, "1a"), .next(230, "2a"), .next(240, "2b"), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let ys2 = scheduler2.createHotObservable([.next(220, "a"), .completed(250)])
        let tuples = scheduler2.start { Infallible.combineLatest(xs2.infallible, ys2.infallible).map { "\($0.0)\($0.1)" } }
        XCTAssertEqual(tuples.events, [.next(220, "1a"), .next(230, "2a"), .completed(260)])
    }

    func testCombineLatestWithASourceThatCompletesEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let ys = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Infallible.combineLatest(xs.infallible, ys.infallible, resultSelector: +) }
        // RxSwift's rule: no combination can come any more, but completion waits
        // for every source (or for an element of the other one).
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testCombineLatestEightAndCollection() {
        let sources = (1...8).map { Infallible.just($0) }
        let eight = Infallible.combineLatest(
            sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]
        ) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
        XCTAssertEqual(record(eight.asObservable()).0.values, [.next(36), .completed])
        let tuple = Infallible.combineLatest(sources[0], sources[1], sources[2]).map { [$0.0, $0.1, $0.2] }
        XCTAssertEqual(record(tuple.asObservable()).0.values, [.next([1, 2, 3]), .completed])

        let relays = [BehaviorRelay(value: 1), BehaviorRelay(value: 2)]
        var arrays: [[Int]] = []
        var sums: [Int] = []
        let bag = DisposeBag()
        Infallible.combineLatest(relays.map { $0.asInfallible() }).subscribe(onNext: { arrays.append($0) }).disposed(by: bag)
        Infallible.combineLatest(relays.map { $0.asInfallible() }) { $0.reduce(0, +) }.subscribe(onNext: { sums.append($0) }).disposed(by: bag)
        relays[1].accept(5)
        XCTAssertEqual(arrays, [[1, 2], [1, 5]])
        XCTAssertEqual(sums, [3, 6])
    }

    func testZipByPositionAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let ys = scheduler.createHotObservable([.next(215, "a"), .next(250, "b"), .completed(260)])
        let res = scheduler.start { Infallible.zip(xs.infallible, ys.infallible) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(215, "1a"), .next(250, "2b"), .completed(260)])

        let tuple = Infallible.zip(Infallible.of(1, 2), Infallible.of("a", "b", "c")).map { "\($0.0)\($0.1)" }
        XCTAssertEqual(record(tuple.asObservable()).0.values, [.next("1a"), .next("2b"), .completed])

        let sources = (1...8).map { Infallible.of($0, $0 * 10) }
        let eight = Infallible.zip(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]) {
            [$0, $1, $2, $3, $4, $5, $6, $7].reduce(0, +)
        }
        XCTAssertEqual(record(eight.asObservable()).0.values, [.next(36), .next(360), .completed])

        XCTAssertEqual(record(Infallible.zip([Infallible.of(1, 2), .of(3, 4)]).asObservable()).0.values, [.next([1, 3]), .next([2, 4]), .completed])
        XCTAssertEqual(record(Infallible.zip([Infallible.of(1, 2), .of(3, 4)]) { $0.reduce(0, +) }.asObservable()).0.values,
                       [.next(4), .next(6), .completed])
    }

    func testWithLatestFromBothForms() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(245)])
        let res = scheduler.start { xs.infallible.withLatestFrom(ys.infallible) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(230, "2a"), .next(250, "3b"), .completed(260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 245)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let ys2 = scheduler2.createHotObservable([.next(220, "a"), .completed(300)])
        let res2 = scheduler2.start { xs2.infallible.withLatestFrom(ys2.infallible) }
        XCTAssertEqual(res2.events, [.next(230, "a"), .completed(260)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(200, 260)])
    }

    func testReentrantEmissionThroughARelay() {
        // An element emitted while an element is being delivered is delivered after it.
        let relay = PublishRelay<Int>()
        var values: [Int] = []
        let subscription = Infallible.merge(relay.asInfallible(), .never()).subscribe(onNext: { value in
            values.append(value)
            if value < 3 { relay.accept(value + 1) }
        })
        relay.accept(1)
        XCTAssertEqual(values, [1, 2, 3])
        subscription.dispose()
    }
}
