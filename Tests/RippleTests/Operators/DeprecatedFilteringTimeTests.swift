import Ripple
import RippleTest
import XCTest

final class DeprecatedFilteringTimeTests: RippleTestCase {
    @available(*, deprecated)
    func testRenamedOperatorsForward() {
        XCTAssertEqual(record(Observable<Int>.error(testError).catchError { _ in .just(1) }).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Observable<Int>.error(testError).catchErrorJustReturn(2)).0.values, [.next(2), .completed])
        XCTAssertEqual(record(Observable<Int>.catchError([.error(testError), .just(3)])).0.values, [.next(3), .completed])
        XCTAssertEqual(record(Observable.of(1, 2, 3).takeWhile { $0 < 2 }).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Observable.of(1, 2, 3).takeUntil(.inclusive) { $0 == 2 }).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(record(Observable.of(1, 2, 3).takeUntil(Observable<Int>.never())).0.values,
                       [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(record(Observable.of(1, 2, 3).elementAt(1)).0.values, [.next(2), .completed])
        XCTAssertEqual(record(Observable.of(1, 2, 3).skipWhile { $0 < 2 }).0.values, [.next(2), .next(3), .completed])
        XCTAssertEqual(record(Observable.of(1, 2).skipUntil(Observable.just(0))).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(record(Observable<Int>.error(testError).retryWhen { (errors: Observable<Error>) in errors.take(0) }).0.values,
                       [.completed])
        XCTAssertEqual(record(Observable<Int>.error(testError).retryWhen { (errors: Observable<TestError>) in errors.take(0) }).0.values,
                       [.completed])
        let behavior: TakeUntilBehavior = .exclusive
        XCTAssertEqual(behavior, TakeBehavior.exclusive)
    }

    @available(*, deprecated)
    func testTimeIntervalOverloadsForward() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(211, 2), .next(250, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.debounce(5, scheduler: scheduler) }.events, [.next(216, 2), .next(255, 3), .completed(300)])

        let s2 = TestScheduler(initialClock: 0)
        let x2 = s2.createHotObservable([.next(210, 1), .next(211, 2), .completed(300)])
        XCTAssertEqual(s2.start { x2.throttle(5, latest: false, scheduler: s2) }.events, [.next(210, 1), .completed(300)])

        let s3 = TestScheduler(initialClock: 0)
        let x3 = s3.createHotObservable([.next(210, 1), .completed(300)])
        XCTAssertEqual(s3.start { x3.delay(10, scheduler: s3) }.events, [.next(220, 1), .completed(310)])

        let s4 = TestScheduler(initialClock: 0)
        let x4 = s4.createColdObservable([.next(10, 1), .completed(20)])
        XCTAssertEqual(s4.start { x4.delaySubscription(5, scheduler: s4) }.events, [.next(215, 1), .completed(225)])

        let s5 = TestScheduler(initialClock: 0)
        let x5 = s5.createHotObservable([.next(300, 1)])
        XCTAssertEqual(s5.start { x5.timeout(50, scheduler: s5) }.events, [.error(250, RxError.timeout)])

        let s6 = TestScheduler(initialClock: 0)
        let x6 = s6.createHotObservable([.next(300, 1)])
        XCTAssertEqual(s6.start { x6.timeout(50, other: Observable.just(9), scheduler: s6) }.events, [.next(250, 9), .completed(250)])

        let s7 = TestScheduler(initialClock: 0)
        let x7 = s7.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        XCTAssertEqual(s7.start { x7.skip(20, scheduler: s7) }.events, [.next(230, 2), .completed(300)])

        let s8 = TestScheduler(initialClock: 0)
        let x8 = s8.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        XCTAssertEqual(s8.start { x8.take(20.0, scheduler: s8) }.events, [.next(210, 1), .completed(220)])

        let s9 = TestScheduler(initialClock: 0)
        let x9 = s9.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        XCTAssertEqual(s9.start { x9.take(RxTimeInterval.seconds(20), scheduler: s9) }.events, [.next(210, 1), .completed(220)])

        let s10 = TestScheduler(initialClock: 0)
        let x10 = s10.createHotObservable([.next(210, 1), .completed(300)])
        XCTAssertEqual(s10.start { x10.buffer(timeSpan: 1000, count: 5, scheduler: s10) }.events, [.next(300, [1]), .completed(300)])

        let s11 = TestScheduler(initialClock: 0)
        let x11 = s11.createHotObservable([.next(210, 1), .completed(300)])
        XCTAssertEqual(s11.start { x11.window(timeSpan: 1000, count: 5, scheduler: s11).map { _ in 0 } }.events,
                       [.next(200, 0), .completed(300)])
    }
}
