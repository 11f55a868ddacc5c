import Ripple
import RippleTest
import XCTest

final class DistinctUntilChangedTests: RippleTestCase {
    private struct Item: Equatable {
        let id: Int
        let name: String
    }

    func testEquatable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(215, 3), .next(220, 3), .next(225, 2), .next(230, 2), .next(230, 1),
            .next(240, 2), .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [
            .next(210, 2), .next(215, 3), .next(225, 2), .next(230, 1), .next(240, 2), .completed(250),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testFirstElementAlwaysPasses() {
        let scheduler = TestScheduler(initialClock: 0)
        // The element before the subscription is not remembered.
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler.start { xs.distinctUntilChanged() }.events, [.next(210, 1), .completed(250)])
    }

    func testKeySelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, "a"), .next(220, "ab"), .next(230, "cd"), .next(240, "e"), .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged { $0.count } }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(220, "ab"), .next(240, "e"), .completed(250)])
    }

    func testComparer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 3), .next(230, 4), .next(240, 6), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged { $0 % 2 == $1 % 2 } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 4), .completed(250)])
    }

    func testComparerComparesWithLastPassedElementNotLastReceived() {
        // 1, 2 (|diff| 1: equal), 3 (compared with 1: |diff| 2, passes).
        let source = Observable.of(1, 2, 3).distinctUntilChanged { abs($0 - $1) <= 1 }
        XCTAssertEqual(record(source).0.values, [.next(1), .next(3), .completed])
    }

    func testKeySelectorAndComparer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "B"), .next(230, "b"), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged({ $0.lowercased() }, comparer: { $0 == $1 }) }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(220, "B"), .completed(250)])
    }

    func testKeyPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Item(id: 1, name: "a")), .next(220, Item(id: 1, name: "b")), .next(230, Item(id: 2, name: "b")),
            .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.id) }
        XCTAssertEqual(res.events, [.next(210, Item(id: 1, name: "a")), .next(230, Item(id: 2, name: "b")), .completed(250)])
    }

    func testKeySelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let res = scheduler.start {
            xs.distinctUntilChanged { value -> Int in
                if value == 2 { throw testError }
                return value
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testComparerThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged { _, _ in throw testError } }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testErrorEmptyAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res1 = scheduler.start { failing.distinctUntilChanged() }
        XCTAssertEqual(res1.events, [.next(210, 1), .error(220, testError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let empty2 = scheduler2.createHotObservable([Recorded<Event<Int>>.completed(230)])
        XCTAssertEqual(scheduler2.start { empty2.distinctUntilChanged() }.events, [.completed(230)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let open3 = scheduler3.createHotObservable([.next(210, 1), .next(220, 2), .next(600, 3)])
        let res3 = scheduler3.start(disposed: 500) { open3.distinctUntilChanged() }
        XCTAssertEqual(res3.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(open3.subscriptions, [Subscription(200, 500)])
    }

    func testReentrantDuplicateIsDropped() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = subject.distinctUntilChanged().subscribe(onNext: { value in
            values.append(value)
            if value == 1 {
                subject.onNext(1)
                subject.onNext(2)
            }
        })
        subject.onNext(1)
        XCTAssertEqual(values, [1, 2])
        subscription.dispose()
    }

    func testEachSubscriptionStartsFresh() {
        let source = Observable.of(1, 1, 2).distinctUntilChanged()
        XCTAssertEqual(record(source).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(record(source).0.values, [.next(1), .next(2), .completed])
    }
}
