import Ripple
import RippleTest
import XCTest

final class ZipTests: RippleTestCase {
    func testZipPairsElementsByPosition() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let b = scheduler.createHotObservable([.next(215, "x"), .next(250, "y"), .next(260, "z"), .next(270, "w"), .completed(280)])
        let res = scheduler.start { Observable.zip(a, b) { "\($0)\($1)" } }
        // "w" at 270 has nothing to pair with; the zip completes with b, at 280.
        XCTAssertEqual(res.events, [.next(215, "1x"), .next(250, "2y"), .next(260, "3z"), .completed(280)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 280)])
    }

    func testZipTupleForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(230, "x"), .next(240, "y"), .completed(300)])
        let res = scheduler.start { Observable.zip(a, b).map { "\($0.0)\($0.1)" } }
        XCTAssertEqual(res.events, [.next(230, "1x"), .next(240, "2y"), .completed(300)])
    }

    func testZipSynchronousSources() {
        let (recorder, _) = record(Observable.zip(Observable.of(1, 2, 3), Observable.of(10, 20)).map { [$0, $1] })
        XCTAssertEqual(recorder.values, [.next([1, 10]), .next([2, 20]), .completed])
    }

    func testZipEqualVirtualTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let b = scheduler.createHotObservable([.next(210, 10), .next(220, 20), .completed(230)])
        XCTAssertEqual(scheduler.start { Observable.zip(a, b, resultSelector: +) }.events, [.next(210, 11), .next(220, 22), .completed(230)])
    }

    // MARK: Completion (RxSwift's rules)

    func testZipLeftCompletesFirstCompletesWhenAllAreDone() {
        // Like RxSwift 6, the result completes when the last source completes.
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 2), .completed(220)])
        let b = scheduler.createHotObservable([.next(215, 4), .completed(225)])
        XCTAssertEqual(scheduler.start { Observable.zip(a, b, resultSelector: +) }.events, [.next(215, 6), .completed(225)])
    }

    /// RxSwift 6's `zip(_:_:)`: a source that completes without elements does not
    /// end the zip; it completes when the last source does.
    func testZipCompletesWhenAllSourcesComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let b = scheduler.createHotObservable([.next(215, 1), .completed(220)])
        let res = scheduler.start { Observable.zip(a, b, resultSelector: +) }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 220)])
    }

    /// The same rule for every arity: the first source completes empty at 210,
    /// the others emit at 215 and complete one after the other.
    func testZipOfEveryArityCompletesWhenItsLastSourceCompletes() {
        func check(_ arity: Int, _ makeZip: @escaping ([TestableObservable<Int>]) -> Observable<Int>) {
            let scheduler = TestScheduler(initialClock: 0)
            let sources = (0..<arity).map { index in
                // Typed: the conditional of two literals took 400-510 ms to
                // type-check on a loaded machine (the TSan step's limit is 300).
                let events: [Recorded<Event<Int>>] = index == 0
                    ? [.completed(210)]
                    : [.next(215, index), .completed(220 + index)]
                return scheduler.createHotObservable(events)
            }
            let res = scheduler.start { makeZip(sources) }
            XCTAssertEqual(res.events, [.completed(220 + arity - 1)], "arity \(arity)")
            XCTAssertEqual(sources[0].subscriptions, [Subscription(200, 210)], "arity \(arity)")
            for index in 1..<arity {
                XCTAssertEqual(sources[index].subscriptions, [Subscription(200, 220 + index)], "arity \(arity)")
            }
        }
        check(2) { s in Observable.zip(s[0], s[1]) { $0 + $1 } }
        check(3) { s in Observable.zip(s[0], s[1], s[2]).map { $0 + $1 + $2 } }
        check(4) { s in Observable.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 } }
        check(5) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4]).map { $0 + $1 + $2 + $3 + $4 } }
        check(6) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5].reduce(0, +) } }
        check(7) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { [$0, $1, $2, $3, $4, $5, $6].reduce(0, +) } }
        check(8) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7].reduce(0, +) } }
    }

    func testZipWaitsForEverySourceEvenWhenACompletedSourceHasNothingLeft() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let b = scheduler.createHotObservable([.next(230, 10), .next(240, 20), .completed(300)])
        let res = scheduler.start { Observable.zip(a, b, resultSelector: +) }
        XCTAssertEqual(res.events, [.next(230, 11), .completed(300)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let empty = scheduler2.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let never = scheduler2.createHotObservable([Recorded<Event<Int>>]())
        XCTAssertEqual(scheduler2.start { Observable.zip(empty, never, resultSelector: +) }.events, [])
    }

    func testZipKeepsBufferedElementsOfACompletedSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(211, 2), .next(212, 3), .completed(213)])
        let b = scheduler.createHotObservable([.next(220, 10), .next(230, 20), .next(240, 30), .next(250, 40), .completed(300)])
        let res = scheduler.start { Observable.zip(a, b, resultSelector: +) }
        // All sources complete with unequal counts: B's last element finds nothing
        // to pair with, and the zip completes with B, at 300.
        XCTAssertEqual(res.events, [.next(220, 11), .next(230, 22), .next(240, 33), .completed(300)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 213)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 300)])
    }

    // MARK: Errors and disposal

    func testZipErrorsAndSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(215, 10), .error(225, testError)])
        XCTAssertEqual(scheduler.start { Observable.zip(a, b, resultSelector: +) }.events, [.next(215, 11), .error(225, testError)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 225)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let c = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let d = scheduler2.createHotObservable([.next(215, 10), .next(225, 20), .completed(300)])
        let res = scheduler2.start {
            Observable.zip(c, d) { x, y -> Int in
                if x == 2 { throw testError }
                return x + y
            }
        }
        XCTAssertEqual(res.events, [.next(215, 11), .error(225, testError)])
        XCTAssertEqual(c.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(d.subscriptions, [Subscription(200, 225)])
    }

    func testZipDisposeMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(215, 10), .next(260, 20), .completed(300)])
        XCTAssertEqual(scheduler.start(disposed: 250) { Observable.zip(a, b, resultSelector: +) }.events, [.next(215, 11)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
    }

    func testZipReentrantSubject() {
        let subject = PublishSubject<Int>()
        let numbers = Observable.of(10, 20, 30)
        var values: [Int] = []
        let subscription = Observable.zip(subject, numbers, resultSelector: +).subscribe(onNext: { value in
            values.append(value)
            subject.onNext(value)
        })
        subject.onNext(1)
        XCTAssertEqual(values, [11, 31, 61])
        subscription.dispose()
    }

    // MARK: Arities

    func testEveryArityInBothForms() {
        let s = (1...8).map { Observable.of($0, $0 * 10) }
        func values(_ observable: Observable<Int>) -> [Event<Int>] { record(observable).0.values }
        func sums(_ n: Int) -> [Event<Int>] {
            let sum = (1...n).reduce(0, +)
            return [.next(sum), .next(sum * 10), .completed]
        }

        XCTAssertEqual(values(Observable.zip(s[0], s[1]) { $0 + $1 }), sums(2))
        XCTAssertEqual(values(Observable.zip(s[0], s[1]).map { $0 + $1 }), sums(2))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2]) { $0 + $1 + $2 }), sums(3))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2]).map { $0 + $1 + $2 }), sums(3))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }), sums(4))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2], s[3]).map { $0 + $1 + $2 + $3 }), sums(4))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }), sums(5))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2], s[3], s[4]).map { $0 + $1 + $2 + $3 + $4 }), sums(5))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5].reduce(0, +) }), sums(6))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { [$0, $1, $2, $3, $4, $5].reduce(0, +) }), sums(6))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6].reduce(0, +) }), sums(7))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { [$0, $1, $2, $3, $4, $5, $6].reduce(0, +) }), sums(7))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7].reduce(0, +) }), sums(8))
        XCTAssertEqual(values(Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { [$0, $1, $2, $3, $4, $5, $6, $7].reduce(0, +) }), sums(8))
    }

    func testArityEightKeepsEachSourceInItsPlace() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<8).map { index in
            scheduler.createHotObservable([.next(210 + index, "\(index)"), .next(300 - index, "\(index)'"), .completed(400)])
        }
        let res = scheduler.start {
            Observable.zip(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7])
                .map { [$0, $1, $2, $3, $4, $5, $6, $7].joined(separator: " ") }
        }
        XCTAssertEqual(res.events, [
            .next(217, "0 1 2 3 4 5 6 7"), .next(300, "0' 1' 2' 3' 4' 5' 6' 7'"), .completed(400),
        ])
    }

    // MARK: Collection forms

    func testZipCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(215, 10), .next(230, 20), .completed(300)])
        let c = scheduler.createHotObservable([.next(240, 100), .completed(250)])
        XCTAssertEqual(scheduler.start { Observable.zip([a, b, c]) }.events, [.next(240, [1, 10, 100]), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let d = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let e = scheduler2.createHotObservable([.next(215, 10), .next(230, 20), .completed(300)])
        XCTAssertEqual(scheduler2.start { Observable.zip([d, e]) { $0.reduce(0, +) } }.events, [.next(215, 11), .next(230, 22), .completed(300)])
    }

    /// RxSwift's collection `zip` (a separate implementation) keeps the early
    /// completion: an element that arrives while every other source has completed
    /// and can never be paired ends the zip.
    func testZipCollectionCompletesWhenASourceEmitsAfterTheOthersCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let b = scheduler.createHotObservable([.next(230, 10), .next(240, 20), .completed(300)])
        XCTAssertEqual(scheduler.start { Observable.zip([a, b]) }.events, [.next(230, [1, 10]), .completed(240)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 240)])
    }

    func testZipEmptyCollectionAndErrors() {
        XCTAssertEqual(record(Observable.zip([Observable<Int>]())).0.values, [.completed])
        XCTAssertEqual(record(Observable.zip([Observable<Int>]()) { $0.count }).0.values, [.completed])
        XCTAssertEqual(record(Observable.zip([Observable.just(1), .error(testError)])).0.values, [.error(testError)])
        XCTAssertEqual(record(Observable.zip([Observable.just(1), .just(2)]) { _ -> Int in throw testError }).0.values, [.error(testError)])
        let (recorder, _) = record(Observable.zip([Observable.of(1, 2), Observable.of(10, 20)]))
        XCTAssertEqual(recorder.values, [.next([1, 10]), .next([2, 20]), .completed])
    }
}
