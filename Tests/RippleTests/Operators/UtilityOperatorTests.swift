import Foundation
import Ripple
import RippleTest
import XCTest

final class EnumeratedTests: RippleTestCase {
    private struct Pair: Equatable {
        let index: Int
        let element: String
    }

    func testPairsElementsWithIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, "z"), .next(210, "a"), .next(220, "b"), .next(230, "c"), .completed(300)])
        let res = scheduler.start { xs.enumerated().map { Pair(index: $0.index, element: $0.element) } }
        XCTAssertEqual(res.events, [
            .next(210, Pair(index: 0, element: "a")), .next(220, Pair(index: 1, element: "b")), .next(230, Pair(index: 2, element: "c")),
            .completed(300),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testErrorAndPerSubscriptionIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .error(220, testError)])
        XCTAssertEqual(scheduler.start { xs.enumerated().map(\.index) }.events, [.next(210, 0), .error(220, testError)])

        let source = Observable.of("a", "b").enumerated().map(\.index)
        XCTAssertEqual(record(source).0.values, [.next(0), .next(1), .completed])
        XCTAssertEqual(record(source).0.values, [.next(0), .next(1), .completed])
    }
}

final class MaterializeTests: RippleTestCase {
    func testMaterializeElementsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [.next(210, .next(2)), .next(220, .next(3)), .next(250, .completed), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testMaterializeErrorNeverFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, testError)])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [.next(210, .next(2)), .next(250, .error(testError)), .completed(250)])
    }

    func testDematerialize() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event<Int>.next(1)), .next(220, .next(2)), .next(230, .completed), .next(240, .next(3)), .completed(300),
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDematerializeErrorElementAndSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event<Int>.next(1)), .next(220, .error(testError))])
        XCTAssertEqual(scheduler.start { xs.dematerialize() }.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        XCTAssertEqual(record(Observable<Event<Int>>.error(testError2).dematerialize()).0.values, [.error(testError2)])
        XCTAssertEqual(record(Observable<Event<Int>>.empty().dematerialize()).0.values, [.completed])
    }

    func testRoundTrip() {
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onError(testError)
            return Disposables.create()
        }
        XCTAssertEqual(record(source.materialize().dematerialize()).0.values, [.next(1), .error(testError)])
    }
}

final class DecodeTests: RippleTestCase {
    private struct User: Codable, Equatable {
        let id: Int
        let name: String
    }

    func testJSON() throws {
        let data = try JSONEncoder().encode(User(id: 1, name: "ripple"))
        let source = Observable.just(data).decode(type: User.self, decoder: JSONDecoder())
        XCTAssertEqual(record(source).0.values, [.next(User(id: 1, name: "ripple")), .completed])
    }

    func testPropertyList() throws {
        let data = try PropertyListEncoder().encode(User(id: 2, name: "plist"))
        let source = Observable.just(data).decode(type: User.self, decoder: PropertyListDecoder())
        XCTAssertEqual(record(source).0.values, [.next(User(id: 2, name: "plist")), .completed])
    }

    func testUndecodableElementFailsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let good = try? JSONEncoder().encode(User(id: 1, name: "a"))
        let xs = scheduler.createHotObservable([
            .next(210, good ?? Data()), .next(220, Data("not json".utf8)), .next(230, good ?? Data()), .completed(300),
        ])
        let res = scheduler.start { xs.decode(type: User.self, decoder: JSONDecoder()) }
        XCTAssertEqual(res.events.count, 2)
        XCTAssertEqual(res.events.first, .next(210, User(id: 1, name: "a")))
        XCTAssertTrue(res.events.last?.value.error is DecodingError)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testCustomDecoder() {
        struct LengthDecoder: DataDecoder {
            func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item {
                guard let value = data.count as? Item else { throw testError }
                return value
            }
        }
        XCTAssertEqual(record(Observable.just(Data([1, 2, 3])).decode(type: Int.self, decoder: LengthDecoder())).0.values,
                       [.next(3), .completed])
    }
}

final class WithUnretainedTests: RippleTestCase {
    private final class Owner {
        let name: String
        init(name: String) { self.name = name }
    }

    func testPairsWithObjectWhileAlive() {
        let owner = Owner(name: "a")
        let source = Observable.of(1, 2).withUnretained(owner).map { "\($0.0.name)\($0.1)" }
        XCTAssertEqual(record(source).0.values, [.next("a1"), .next("a2"), .completed])
    }

    func testResultSelector() {
        let owner = Owner(name: "b")
        let source = Observable.of(1).withUnretained(owner) { object, value in object.name + String(value) }
        XCTAssertEqual(record(source).0.values, [.next("b1"), .completed])
    }

    func testCompletesAtFirstElementAfterObjectIsGone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(240, 3), .completed(300)])
        var owner: Owner? = Owner(name: "c")
        weak let weakOwner = owner
        scheduler.scheduleAt(220) { owner = nil }
        let source = xs.withUnretained(owner!) { object, value in object.name + String(value) }
        let res = scheduler.start { source }
        XCTAssertNil(weakOwner)
        XCTAssertEqual(res.events, [.next(210, "c1"), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDoesNotRetainObject() {
        var owner: Owner? = Owner(name: "d")
        weak let weakOwner = owner
        let subject = PublishSubject<Int>()
        let subscription = subject.withUnretained(owner!).subscribe()
        owner = nil
        XCTAssertNil(weakOwner)
        subscription.dispose()
    }

    func testErrorPassesThrough() {
        let owner = Owner(name: "e")
        XCTAssertEqual(record(Observable<Int>.error(testError).withUnretained(owner).map { $0.1 }).0.values, [.error(testError)])
    }
}
