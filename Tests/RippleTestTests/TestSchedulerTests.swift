import Foundation
import Ripple
@testable import RippleTest
import XCTest

final class TestSchedulerTests: XCTestCase {
    struct Failure: Error, Equatable {}

    func testHotObservableSendsAtAbsoluteTimesAndRecordsSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(310, 3), .completed(400)])
        let res = scheduler.start(created: 100, subscribed: 200, disposed: 300) { xs.asObservable() }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(xs.recordedEvents.count, 4)
    }

    func testColdObservableSendsRelativeToEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .next(20, "b"), .completed(30)])
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        scheduler.scheduleAt(100) { _ = xs.subscribe(first) }
        scheduler.scheduleAt(205) { _ = xs.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(110, "a"), .next(120, "b"), .completed(130)])
        XCTAssertEqual(second.events, [.next(215, "a"), .next(225, "b"), .completed(235)])
        XCTAssertEqual(xs.subscriptions, [Subscription(100), Subscription(205)])
    }

    func testDefaultsAndStartVariants() {
        XCTAssertEqual(TestScheduler.Defaults.created, 100)
        XCTAssertEqual(TestScheduler.Defaults.subscribed, 200)
        XCTAssertEqual(TestScheduler.Defaults.disposed, 1000)
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        let res = scheduler.start { xs.asObservable() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(260, 2)])
        let res2 = scheduler2.start(disposed: 250) { ys.asObservable() }
        XCTAssertEqual(res2.events, [.next(210, 1)])
    }

    func testStartAcceptsAnyObservableConvertible() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2).toArray() }
        XCTAssertEqual(res.events, [.next(200, [1, 2]), .completed(200)])
    }

    func testRecordedBuildersAndDescriptions() {
        let events: [Recorded<Event<Int>>] = [.next(210, 1), .completed(300)]
        XCTAssertEqual(events, Recorded.events(.next(210, 1), .completed(300)))
        XCTAssertEqual(Recorded.events([.next(1, 1), .completed(2)]), [.next(1, 1), .completed(2)])
        XCTAssertEqual(Recorded<Event<Int>>.next(210, 1).debugDescription, "next(1) @ 210")
        XCTAssertEqual(Subscription(200, 300).debugDescription, "(200: 300)")
        XCTAssertEqual(Subscription(200).debugDescription, "(200: Infinity)")
        let error: Recorded<Event<Int>> = .error(220, Failure())
        XCTAssertEqual(error, .error(220, Failure()))
        XCTAssertNotEqual(error, .error(220, RxError.timeout))
    }

    func testErrorsWithoutEquatableCompareByTypeAndDescription() {
        struct Opaque: Error { let message: String }
        XCTAssertEqual(Event<Int>.error(Opaque(message: "a")), .error(Opaque(message: "a")))
        XCTAssertNotEqual(Event<Int>.error(Opaque(message: "a")), .error(Opaque(message: "b")))
    }

    func testDescribeDifferenceMarksTheFirstMismatch() {
        let text = describeDifference([Recorded<Event<Int>>.next(210, 1), .next(220, 2)], [.next(210, 1), .next(221, 2)])
        XCTAssertTrue(text.contains("Events differ at index 1."), text)
        XCTAssertTrue(text.contains("> next(2) @ 220"), text)
        XCTAssertTrue(text.contains("> next(2) @ 221"), text)
    }

    func testXCTAssertRecordedElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2) }
        XCTAssertRecordedElements(res.events, [1, 2])
    }

    func testSingleMaybeCompletableEventEquality() {
        XCTAssertEqual([SingleEvent<Int>.success(1)], [.success(1)])
        XCTAssertEqual([MaybeEvent<Int>.success(1), .completed], [.success(1), .completed])
        XCTAssertEqual([CompletableEvent.completed, .error(Failure())], [.completed, .error(Failure())])
    }
}

final class BlockingTests: XCTestCase {
    func testToArrayFirstLastSingle() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().first(), 1)
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().last(), 3)
        XCTAssertNil(try Observable<Int>.empty().toBlocking().first())
        XCTAssertEqual(try Observable.just(5).toBlocking().single(), 5)
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 }, 2)
    }

    func testSingleErrors() {
        XCTAssertThrowsError(try Observable<Int>.empty().toBlocking().single()) { error in
            guard case RxError.noElements = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try Observable.of(1, 2).toBlocking().single()) { error in
            guard case RxError.moreThanOneElement = error else { return XCTFail("\(error)") }
        }
    }

    func testErrorAndMaterialize() {
        struct Failure: Error {}
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onError(Failure())
            return Disposables.create()
        }
        XCTAssertThrowsError(try source.toBlocking().toArray())
        guard case .failed(let elements, let error) = source.toBlocking().materialize() else { return XCTFail() }
        XCTAssertEqual(elements, [1])
        XCTAssertTrue(error is Failure)
        guard case .completed(let all) = Observable.of(1, 2).toBlocking().materialize() else { return XCTFail() }
        XCTAssertEqual(all, [1, 2])
    }

    func testTimeoutGivesAClearError() {
        let start = Date()
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.1).toArray()) { error in
            guard case RxError.timeout = error else { return XCTFail("\(error)") }
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testBlockingOnMainThreadKeepsMainSchedulerRunning() throws {
        XCTAssertTrue(Thread.isMainThread)
        let values = try Observable.of(1, 2)
            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .observe(on: MainScheduler.instance)
            .toBlocking(timeout: 5)
            .toArray()
        XCTAssertEqual(values, [1, 2])
    }

    func testBlockingFromBackgroundThread() throws {
        let done = expectation(description: "background")
        DispatchQueue.global().async {
            let values = try? Observable<Int>.interval(.milliseconds(1), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
                .take(3).toBlocking(timeout: 5).toArray()
            XCTAssertEqual(values, [0, 1, 2])
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }
}
