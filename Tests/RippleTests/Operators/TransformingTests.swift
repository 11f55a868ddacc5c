import Ripple
import RippleTest
import XCTest

final class TransformingTests: RippleTestCase {
    func testMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.map { $0 * 10 } }
        XCTAssertEqual(res.events, [.next(210, 20), .next(220, 30), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testMapThrowDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.map { value -> Int in
            if value == 2 { throw testError }
            return value
        } }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testMapErrorAndDisposeMidFlight() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(scheduler.start { failing.map { $0 } }.events, [.next(210, 1), .error(220, testError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let open = scheduler2.createHotObservable([.next(210, 1), .next(500, 2)])
        let res = scheduler2.start(disposed: 400) { open.map { $0 } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(open.subscriptions, [Subscription(200, 400)])
    }

    func testCompactMapAndFilterNil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "1"), .next(220, "x"), .next(230, "3"), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.compactMap { Int($0) } }.events, [.next(210, 1), .next(230, 3), .completed(300)])

        let optionals = Observable<Int?>.of(1, nil, 3)
        XCTAssertEqual(record(optionals.filterNil()).0.values, [.next(1), .next(3), .completed])
        XCTAssertEqual(record(Observable.of(1).compactMap { _ -> Int? in throw testError }).0.values, [.error(testError)])
    }

    func testFilter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.filter { $0 % 2 == 0 } }.events, [.next(220, 2), .next(240, 4), .completed(300)])
        XCTAssertEqual(record(Observable.of(1).filter { _ in throw testError }).0.values, [.error(testError)])
    }

    func testIgnoreElements() {
        XCTAssertEqual(record(Observable.of(1, 2).ignoreElements()).0.values, [.completed])
        XCTAssertEqual(record(Observable<Int>.error(testError).ignoreElements()).0.values, [.error(testError)])
    }

    func testScanBothForms() {
        XCTAssertEqual(record(Observable.of(1, 2, 3).scan(0, accumulator: +)).0.values, [.next(1), .next(3), .next(6), .completed])
        let into = Observable.of("a", "b").scan(into: [String]()) { $0.append($1) }
        XCTAssertEqual(record(into).0.values, [.next(["a"]), .next(["a", "b"]), .completed])
        XCTAssertEqual(record(Observable<Int>.empty().scan(0, accumulator: +)).0.values, [.completed])
        let failing = Observable.of(1, 2).scan(0) { _, _ in throw testError }
        XCTAssertEqual(record(failing).0.values, [.error(testError)])
    }

    func testScanSeedIsPerSubscription() {
        let source = Observable.of(1, 2).scan(10, accumulator: +)
        XCTAssertEqual(record(source).0.values, [.next(11), .next(13), .completed])
        XCTAssertEqual(record(source).0.values, [.next(11), .next(13), .completed])
    }

    func testReduce() {
        XCTAssertEqual(record(Observable.of(1, 2, 3).reduce(0, accumulator: +)).0.values, [.next(6), .completed])
        XCTAssertEqual(record(Observable<Int>.empty().reduce(5, accumulator: +)).0.values, [.next(5), .completed])
        XCTAssertEqual(record(Observable.of(1, 2).reduce(0, accumulator: +, mapResult: { "\($0)" })).0.values, [.next("3"), .completed])
        XCTAssertEqual(record(Observable<Int>.error(testError).reduce(0, accumulator: +)).0.values, [.error(testError)])
        XCTAssertEqual(record(Observable.of(1).reduce(0, accumulator: { _, _ in throw testError })).0.values, [.error(testError)])
        XCTAssertEqual(record(Observable.of(1).reduce(0, accumulator: +, mapResult: { _ -> Int in throw testError })).0.values, [.error(testError)])
    }

    func testReduceTiming() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.reduce(0, accumulator: +) }.events, [.next(300, 3), .completed(300)])
    }

    func testToArray() {
        XCTAssertEqual(record(Observable.of(1, 2, 3).toArray().asObservable()).0.values, [.next([1, 2, 3]), .completed])
        XCTAssertEqual(record(Observable<Int>.empty().toArray().asObservable()).0.values, [.next([]), .completed])
        XCTAssertEqual(record(Observable<Int>.error(testError).toArray().asObservable()).0.values, [.error(testError)])
    }

    func testStartWith() {
        XCTAssertEqual(record(Observable.of(3, 4).startWith(1, 2)).0.values, [.next(1), .next(2), .next(3), .next(4), .completed])
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.startWith(1) }.events, [.next(200, 1), .next(210, 3), .completed(300)])
    }

    func testStartWithDisposedDuringPrefixReleasesTheSource() {
        var disposed = false
        let source = Observable<Int>.create { _ in
            Disposables.create { disposed = true }
        }
        var values: [Int] = []
        _ = source.startWith(1, 2).take(1).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [1])
        XCTAssertTrue(disposed)
    }
}

final class FilteringTests: RippleTestCase {
    func testTake() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.take(2) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTakeZeroDoesNotSubscribeAndNegativeFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        XCTAssertEqual(scheduler.start { xs.take(0) }.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
        XCTAssertEqual(record(Observable.of(1).take(-1)).0.values, [.error(RxError.argumentOutOfRange)])
    }

    func testTakeWithReentrantSource() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = subject.take(2).subscribe(onNext: { value in
            values.append(value)
            subject.onNext(value + 1)
        })
        subject.onNext(1)
        XCTAssertEqual(values, [1, 2])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }

    func testSkip() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.skip(2) }.events, [.next(230, 3), .completed(300)])
        XCTAssertEqual(record(Observable.of(1).skip(-1)).0.values, [.error(RxError.argumentOutOfRange)])
        XCTAssertEqual(record(Observable.of(1, 2).skip(5)).0.values, [.completed])
    }
}

final class DoTests: RippleTestCase {
    func testHookOrder() {
        var log: [String] = []
        let source = Observable.of(1).do(
            onNext: { log.append("onNext \($0)") },
            afterNext: { log.append("afterNext \($0)") },
            onError: { _ in log.append("onError") },
            afterError: { _ in log.append("afterError") },
            onCompleted: { log.append("onCompleted") },
            afterCompleted: { log.append("afterCompleted") },
            onSubscribe: { log.append("onSubscribe") },
            onSubscribed: { log.append("onSubscribed") },
            onDispose: { log.append("onDispose") }
        )
        _ = source.subscribe(onNext: { log.append("observer \($0)") }, onCompleted: { log.append("observer completed") })
        // As in RxSwift, `of` emits from the trampoline after the subscription
        // returns, so `onSubscribed` comes before the first element.
        XCTAssertEqual(log, [
            "onSubscribe", "onSubscribed", "onNext 1", "observer 1", "afterNext 1", "onCompleted", "observer completed",
            "afterCompleted", "onDispose",
        ])
    }

    /// RxSwift's order when the source ends while it is being subscribed: the
    /// source's disposal, then `onSubscribed`, then `onDispose`.
    func testDoCallbackOrderWhenTheSourceEndsDuringSubscribe() {
        for fails in [false, true] {
            var log: [String] = []
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                if fails { observer.onError(testError) } else { observer.onCompleted() }
                return Disposables.create { log.append("source disposed") }
            }
            _ = source.do(
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            ).subscribe(onNext: { log.append("observer \($0)") }, onError: { _ in log.append("observer error") },
                        onCompleted: { log.append("observer completed") })
            XCTAssertEqual(log, [
                "onSubscribe", "observer 1", fails ? "observer error" : "observer completed",
                "source disposed", "onSubscribed", "onDispose",
            ])
        }

        // `just` inside an active trampoline emits at once too.
        var log: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            _ = Observable.just(1).do(
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            ).subscribe(onCompleted: { log.append("observer completed") })
            return Disposables.create()
        }
        XCTAssertEqual(log.first, "onSubscribe")
        XCTAssertEqual(log.suffix(2), ["onSubscribed", "onDispose"])
    }

    /// A downstream that ends the subscription from its handler while the source
    /// is still being subscribed: as in RxSwift, the disposal reaches `do` only
    /// once `do`'s own subscription has returned, so after `onSubscribed`.
    func testDoOnDisposeFollowsOnSubscribedWhenDownstreamDisposesDuringSubscribe() {
        var log: [String] = []
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return Disposables.create { log.append("source disposed") }
        }
        _ = source.do(
            onSubscribed: { log.append("onSubscribed") },
            onDispose: { log.append("onDispose") }
        ).take(1).subscribe(onNext: { log.append("observer \($0)") })
        XCTAssertEqual(log, ["observer 1", "onSubscribed", "source disposed", "onDispose"])
    }

    func testErrorHooks() {
        var log: [String] = []
        _ = Observable<Int>.error(testError).do(
            onError: { log.append("onError \($0)") },
            afterError: { log.append("afterError \($0)") }
        ).subscribe(onError: { log.append("observer \($0)") })
        XCTAssertEqual(log, ["onError TestError(1)", "observer TestError(1)", "afterError TestError(1)"])
    }

    func testThrowingHookBecomesError() {
        let source = Observable.of(1, 2).do(onNext: { if $0 == 2 { throw testError } })
        XCTAssertEqual(record(source).0.values, [.next(1), .error(testError)])
    }

    func testOnDisposeRunsOnExplicitDispose() {
        var disposed = 0
        let subject = PublishSubject<Int>()
        let subscription = subject.do(onDispose: { disposed += 1 }).subscribe()
        XCTAssertEqual(disposed, 0)
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(disposed, 1)
    }
}
