import Ripple
import RippleTest
import XCTest

final class CurrentThreadSchedulerTests: RippleTestCase {
    private struct Failure: Error {}

    /// Which subscriptions start the trampoline, as in RxSwift 6.10.2 (each
    /// order below is what the same program printed against RxSwift): its
    /// operators do (`Producer`), but not a subject, `just`, `empty`, `error`,
    /// `from(optional:)`, a connected `replay`/`publish`, nor `share()` and
    /// `share(replay: 1)` while connected (its `multicast(...).refCount()` forms
    /// do). A relay is its subject, as in RxRelay.
    func testWhichSubscriptionsStartTheTrampolineAsInRxSwift() {
        let direct = ["scheduled", "handler", "returned"]
        let trampolined = ["handler", "scheduled", "returned"]
        // Subscribed directly: the work runs at once, inside the handler.
        XCTAssertEqual(trampolineOrder(BehaviorSubject(value: 1).asObservable()), direct)
        let replay = ReplaySubject<Int>.create(bufferSize: 1)
        replay.onNext(1)
        XCTAssertEqual(trampolineOrder(replay.asObservable()), direct)
        let async = AsyncSubject<Int>()
        async.onNext(1)
        async.onCompleted()
        XCTAssertEqual(trampolineOrder(async.asObservable()), direct)
        XCTAssertEqual(trampolineOrder(BehaviorRelay(value: 1).asObservable()), direct)
        XCTAssertEqual(trampolineOrder(Observable.just(1)), direct)
        XCTAssertEqual(trampolineOrder(Observable<Int>.empty()), direct)
        XCTAssertEqual(trampolineOrder(Observable<Int>.error(Failure())), direct)
        XCTAssertEqual(trampolineOrder(Observable.from(optional: 1)), direct)
        XCTAssertEqual(trampolineOrder(BehaviorSubject(value: 1).share(replay: 1)), direct)
        let connected = BehaviorSubject(value: 1).replay(1)
        let connection = connected.connect()
        XCTAssertEqual(trampolineOrder(connected.asObservable()), direct)
        connection.dispose()
        // Through an operator, or a `refCount()` form of `share`: after the handler.
        XCTAssertEqual(trampolineOrder(BehaviorSubject(value: 1).map { $0 + 1 }.filter { $0 > 0 }), trampolined)
        XCTAssertEqual(trampolineOrder(Observable.just(1).map { $0 + 1 }.filter { $0 > 0 }), trampolined)
        XCTAssertEqual(trampolineOrder(Observable.of(1)), trampolined)
        XCTAssertEqual(trampolineOrder(Observable<Int>.of()), trampolined)
        XCTAssertEqual(trampolineOrder(Observable.create { observer in
            observer.onNext(1)
            return Disposables.create()
        }), trampolined)
        XCTAssertEqual(trampolineOrder(Observable.deferred { Observable.just(1) }), trampolined)
        XCTAssertEqual(trampolineOrder(Observable.of(1).share()), trampolined)
        XCTAssertEqual(trampolineOrder(BehaviorSubject(value: 1).share(replay: 2)), trampolined)
        XCTAssertEqual(trampolineOrder(BehaviorSubject(value: 1).share(replay: 1, scope: .forever)), trampolined)
    }

    func testRunsImmediatelyWhenIdleAndQueuesWhenBusy() {
        var log: [String] = []
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            log.append("outer start")
            XCTAssertFalse(CurrentThreadScheduler.isScheduleRequired)
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                log.append("inner")
                return Disposables.create()
            }
            log.append("outer end")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["outer start", "outer end", "inner"])
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
    }

    func testDisposingQueuedWorkCancelsIt() {
        var log: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            let queued = CurrentThreadScheduler.instance.schedule(()) { _ in
                log.append("should not run")
                return Disposables.create()
            }
            queued.dispose()
            return Disposables.create()
        }
        XCTAssertEqual(log, [])
    }

    func testTrampolineIsPerThread() {
        let done = expectation(description: "other thread")
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            DispatchQueue.global().async {
                XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
                done.fulfill()
            }
            return Disposables.create()
        }
        wait(for: [done], timeout: 5)
    }

    func testSynchronousSourcesInterleaveLikeRxSwift() {
        var pairs: [String] = []
        let subscription = Observable.of(1, 2).flatMapForTest { Observable.of($0 * 10, $0 * 100) }
            .subscribe(onNext: { pairs.append("\($0)") })
        subscription.dispose()
        // RxSwift: each step of a synchronous source is queued behind the work its
        // previous step queued, so the inner sequences interleave.
        XCTAssertEqual(pairs, ["10", "100", "20", "200"])
    }

    func testRecursiveSchedulingDoesNotGrowTheStack() {
        var count = 0
        _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
            count = value
            if value < 100_000 { recurse(value + 1) }
        }
        XCTAssertEqual(count, 100_000)
    }

    func testLongRangeDoesNotRecurse() {
        var total = 0
        _ = Observable.range(start: 0, count: 200_000).subscribe(onNext: { total += $0 })
        XCTAssertEqual(total, (0..<200_000).reduce(0, +))
    }
}

extension ObservableType {
    /// A minimal merge-map used to check the trampoline's ordering before the full
    /// operator family exists: subscribes to each inner sequence as elements arrive.
    func flatMapForTest<Result>(_ selector: @escaping (Element) -> Observable<Result>) -> Observable<Result> {
        Observable.create { observer in
            let group = CompositeDisposable()
            _ = group.insert(self.subscribe(onNext: { [weak group] element in
                _ = group?.insert(selector(element).subscribe(onNext: { observer.onNext($0) }))
            }))
            return group
        }
    }
}
