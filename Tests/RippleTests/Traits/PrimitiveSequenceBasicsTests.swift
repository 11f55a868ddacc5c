import Ripple
import RippleTest
import XCTest

final class PrimitiveSequenceBasicsTests: RippleTestCase {
    func testSingleCreateReportsOneOutcome() {
        var disposed = false
        let single = Single<Int>.create { observer in
            observer(.success(1))
            observer(.success(2))
            observer(.failure(testError))
            return Disposables.create { disposed = true }
        }
        var events: [SingleEvent<Int>] = []
        _ = single.subscribe { events.append($0) }
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(try events.first?.get(), 1)
        XCTAssertTrue(disposed)
    }

    func testSingleSubscribeHandlersAndOnDisposedOrder() {
        var log: [String] = []
        _ = Single.just(3).subscribe(
            onSuccess: { log.append("success \($0)") },
            onFailure: { _ in log.append("failure") },
            onDisposed: { log.append("disposed") }
        )
        _ = Single<Int>.error(testError).subscribe(
            onSuccess: { _ in log.append("success") },
            onFailure: { log.append("failure \($0)") },
            onDisposed: { log.append("disposed") }
        )
        XCTAssertEqual(log, ["success 3", "disposed", "failure TestError(1)", "disposed"])
    }

    func testSingleDisposedBeforeOutcome() {
        var log: [String] = []
        let subscription = Single<Int>.never().subscribe(onSuccess: { _ in log.append("success") }, onDisposed: { log.append("disposed") })
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(log, ["disposed"])
    }

    func testSingleUnhandledFailureGoesToHooks() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        let errors = Recorder<String>()
        Hooks.defaultErrorHandler = { _, error in errors.append("\(error)") }
        _ = Single<Int>.error(testError).subscribe(onSuccess: { _ in })
        XCTAssertEqual(errors.values, ["TestError(1)"])
    }

    func testSingleFromEmptyRawSourceFailsInsteadOfCrashing() {
        var events: [SingleEvent<Int>] = []
        _ = Observable<Int>.empty().asSingle().subscribe { events.append($0) }
        guard case .failure(RxError.noElements)? = events.first else { return XCTFail("\(events)") }
    }

    func testSingleSubscribeWithObject() {
        final class Owner { var values: [Int] = [] }
        let owner = Owner()
        _ = Single.just(5).subscribe(with: owner, onSuccess: { owner, value in owner.values.append(value) })
        XCTAssertEqual(owner.values, [5])
    }

    @available(*, deprecated)
    func testSingleDeprecatedOnError() {
        var failures = 0
        _ = Single<Int>.error(testError).subscribe(onSuccess: nil, onError: { _ in failures += 1 }, onDisposed: nil)
        XCTAssertEqual(failures, 1)
    }

    func testSingleJustOnScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(1, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .completed(202)])
    }

    func testMaybeOutcomes() {
        var log: [String] = []
        for maybe in [Maybe.just(1), Maybe<Int>.empty(), Maybe<Int>.error(testError)] {
            _ = maybe.subscribe(
                onSuccess: { log.append("success \($0)") },
                onError: { log.append("error \($0)") },
                onCompleted: { log.append("completed") },
                onDisposed: { log.append("disposed") }
            )
        }
        XCTAssertEqual(log, ["success 1", "disposed", "completed", "disposed", "error TestError(1)", "disposed"])
    }

    func testMaybeCreate() {
        var events: [MaybeEvent<Int>] = []
        _ = Maybe<Int>.create { observer in
            observer(.completed)
            observer(.success(1))
            return Disposables.create()
        }.subscribe { events.append($0) }
        XCTAssertEqual(events, [.completed])
    }

    func testCompletable() {
        var log: [String] = []
        _ = Completable.empty().subscribe(onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        _ = Completable.error(testError).subscribe(onCompleted: { log.append("completed") }, onError: { log.append("error \($0)") })
        _ = Completable.create { observer in
            observer(.completed)
            observer(.error(testError))
            return Disposables.create()
        }.subscribe { log.append("event \($0)") }
        XCTAssertEqual(log, ["completed", "disposed", "error TestError(1)", "event completed"])
    }

    func testConversions() {
        XCTAssertEqual(record(Observable.of(1).asSingle().asObservable()).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Observable<Int>.empty().asSingle().asObservable()).0.values, [.error(RxError.noElements)])
        XCTAssertEqual(record(Observable.of(1, 2).asSingle().asObservable()).0.values, [.error(RxError.moreThanOneElement)])
        XCTAssertEqual(record(Observable<Int>.empty().asMaybe().asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Observable.of(1, 2).asMaybe().asObservable()).0.values, [.error(RxError.moreThanOneElement)])
        XCTAssertEqual(record(Single.just(1).asMaybe().asObservable()).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Single.just(1).asCompletable().asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Maybe.just(1).asCompletable().asObservable()).0.values, [.completed])
        XCTAssertEqual(record(Observable.of(1, 2).ignoreElements().asCompletable().asObservable()).0.values, [.completed])
    }

    func testAsSingleDisposesSourceOnSecondElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.asSingle() }
        XCTAssertEqual(res.events, [.error(220, RxError.moreThanOneElement)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
