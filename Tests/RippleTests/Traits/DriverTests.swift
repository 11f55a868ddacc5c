import Foundation
import Ripple
import RippleTest
import XCTest

final class DriverTests: RippleTestCase {
    // MARK: - Never fails, delivers on the sharing scheduler

    func testAsDriverOnErrorJustReturnDeliversOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { xs.asDriver(onErrorJustReturn: 0) }
        }
        // Each event makes one hop through the test scheduler (one tick).
        XCTAssertEqual(res.events, [.next(211, 1), .next(221, 2), .next(231, 0), .completed(231)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testAsDriverOnErrorDriveWith() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let fallback = scheduler.createColdObservable([.next(10, 9), .completed(20)])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { xs.asDriver(onErrorDriveWith: fallback.asDriver(onErrorJustReturn: -1)) }
        }
        XCTAssertEqual(res.events, [.next(211, 1), .next(242, 9), .completed(252)])
        XCTAssertEqual(fallback.subscriptions, [Subscription(231, 251)])
    }

    func testAsDriverOnErrorRecoverReceivesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        var errors: [TestError] = []
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start {
                xs.asDriver(onErrorRecover: { error in
                    errors.append(error as! TestError)
                    return .just(7)
                })
            }
        }
        XCTAssertEqual(errors, [testError])
        // `just` is subscribed on the sharing scheduler: one more tick.
        XCTAssertEqual(res.events, [.next(211, 1), .next(232, 7), .completed(232)])
    }

    func testAFailingSourceNeverReachesADriverSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        SharingScheduler.mock(scheduler: scheduler) {
            let drivers: [Driver<Int>] = [
                failing.asDriver(onErrorJustReturn: 0),
                failing.asDriver(onErrorDriveWith: .empty()),
                failing.asDriver(onErrorRecover: { _ in .of(1, 2) }),
                failing.asDriver(onErrorJustReturn: 0).map { $0 * 2 }.flatMapLatest { _ in failing.asDriver(onErrorDriveWith: .never()) },
                Driver.combineLatest(failing.asDriver(onErrorJustReturn: 0), failing.asDriver(onErrorJustReturn: 1), resultSelector: +),
            ]
            let observers = drivers.map { _ in scheduler.createObserver(Int.self) }
            let bag = DisposeBag()
            for (driver, observer) in zip(drivers, observers) {
                driver.drive(observer).disposed(by: bag)
            }
            scheduler.start()
            for observer in observers {
                XCTAssertTrue(containsNoError(observer.events), "\(observer.events)")
                XCTAssertFalse(observer.events.isEmpty)
            }
        }
    }

    func testProductionDriverDeliversOnTheMainThread() {
        // No mock: the sharing scheduler is a MainScheduler. Elements emitted on a
        // background thread arrive on the main thread (the test spins the run loop).
        let relay = PublishRelay<Int>()
        let received = Recorder<(Int, Bool)>()
        let subscription = relay.asObservable().asDriver(onErrorJustReturn: -1)
            .drive(onNext: { received.append(($0, Thread.isMainThread)) })
        DispatchQueue.global().async {
            relay.accept(1)
            relay.accept(2)
        }
        XCTAssertTrue(waitUntil { received.values.count == 2 })
        XCTAssertEqual(received.values.map(\.0), [1, 2])
        XCTAssertEqual(received.values.map(\.1), [true, true])
        subscription.dispose()
    }

    func testSharingSchedulerDefaultsToAMainScheduler() {
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
        XCTAssertTrue(DriverSharingStrategy.scheduler is MainScheduler)
        XCTAssertTrue(SignalSharingStrategy.scheduler is MainScheduler)
    }

    // MARK: - Shared, replays the latest element

    func testDriverSharesOneSubscriptionAndReplaysTheLatestElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .next(50, 3), .completed(60)])
        SharingScheduler.mock(scheduler: scheduler) {
            var mapped = 0
            let driver = xs.asDriver(onErrorJustReturn: 0).map { value -> Int in
                mapped += 1
                return value * 10
            }
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(driver.drive(first)) }
            scheduler.scheduleAt(220) { subscriptions.append(driver.drive(second)) }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 10), .next(231, 20), .next(251, 30), .completed(261)])
            // The late subscriber gets the latest element at once.
            XCTAssertEqual(second.events, [.next(220, 10), .next(231, 20), .next(251, 30), .completed(261)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
            XCTAssertEqual(mapped, 3, "map runs once per element, not once per subscriber")
            subscriptions.forEach { $0.dispose() }
        }
    }

    func testDriverForgetsItsLatestElementWhenEveryoneLeft() {
        // `.whileConnected`: after the last subscriber left, a new one starts over.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: 0)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var a: Disposable?
            var b: Disposable?
            scheduler.scheduleAt(200) { a = driver.drive(first) }
            scheduler.scheduleAt(250) { a?.dispose() }
            scheduler.scheduleAt(300) { b = driver.drive(second) }
            scheduler.scheduleAt(400) { b?.dispose() }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 1)])
            XCTAssertEqual(second.events, [.next(311, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(300, 400)])
        }
    }

    func testBehaviorRelayAsDriver() {
        let relay = BehaviorRelay(value: "a")
        let scheduler = TestScheduler(initialClock: 0)
        scheduler.scheduleAt(210) { relay.accept("b") }
        scheduler.scheduleAt(220) { relay.accept("c") }
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { relay.asDriver() }
        }
        XCTAssertEqual(res.events, [.next(201, "a"), .next(211, "b"), .next(221, "c")])
    }

    func testInfallibleAsDriverAndDriverAsInfallible() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { xs.infallible.asDriver().asInfallible() }
        }
        XCTAssertEqual(res.events, [.next(211, 1), .completed(231)])
    }

    // MARK: - Creating

    func testCreatorsRunOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            XCTAssertEqual(scheduler.start { Driver.just(1) }.events, [.next(201, 1), .completed(201)])
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            XCTAssertEqual(scheduler2.start { Driver.of(1, 2) }.events, [.next(201, 1), .next(202, 2), .completed(203)])
        }
        let scheduler3 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler3) {
            XCTAssertEqual(scheduler3.start { Driver.from([3]) }.events, [.next(201, 3), .completed(202)])
        }
        let scheduler4 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler4) {
            XCTAssertEqual(scheduler4.start { Driver.from(4...5) }.events, [.next(201, 4), .next(202, 5), .completed(203)])
        }
        let scheduler5 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler5) {
            XCTAssertEqual(scheduler5.start { Driver.from(optional: 6) }.events, [.next(201, 6), .completed(202)])
        }
        let scheduler6 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler6) {
            XCTAssertEqual(scheduler6.start { Driver<Int>.empty() }.events, [.completed(201)])
        }
        let scheduler7 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler7) {
            XCTAssertEqual(scheduler7.start { Driver<Int>.never() }.events, [])
        }
    }

    func testDeferredIntervalAndTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            var calls = 0
            let deferred = Driver<Int>.deferred {
                calls += 1
                return .just(calls)
            }
            XCTAssertEqual(scheduler.start { deferred }.events, [.next(201, 1), .completed(201)])
            XCTAssertEqual(calls, 1)
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            let res = scheduler2.start(disposed: 330) { Driver<Int>.interval(.seconds(50)) }
            XCTAssertEqual(res.events, [.next(250, 0), .next(300, 1)])
        }
        let scheduler4 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler4) {
            let periodic = scheduler4.start(disposed: 260) { Driver<Int>.timer(.seconds(30), period: .seconds(20)) }
            XCTAssertEqual(periodic.events, [.next(230, 0), .next(250, 1)])
        }
    }

    // MARK: - Driving

    func testDriveObserversAndOptionalObservers() {
        let log = EventLog<Int>()
        let optionalLog = EventLog<Int?>()
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = Driver.of(1, 2)
            let bag = DisposeBag()
            driver.drive(log, log).disposed(by: bag)
            driver.drive(optionalLog).disposed(by: bag)
            scheduler.start()
        }
        XCTAssertEqual(log.events, [.next(1), .next(1), .next(2), .next(2), .completed, .completed])
        XCTAssertEqual(optionalLog.events, [.next(1), .next(2), .completed])
    }

    func testDriveRelaysAndOptionalRelaysKeepsThemOpen() {
        let scheduler = TestScheduler(initialClock: 0)
        let behavior = BehaviorRelay(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int>.createUnbounded()
        let optionalReplay = ReplayRelay<Int?>.createUnbounded()
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = Driver.of(1, 2)
            let bag = DisposeBag()
            driver.drive(behavior).disposed(by: bag)
            driver.drive(optionalBehavior).disposed(by: bag)
            driver.drive(replay).disposed(by: bag)
            driver.drive(optionalReplay).disposed(by: bag)
            scheduler.start()
        }
        XCTAssertEqual(behavior.value, 2)
        XCTAssertEqual(optionalBehavior.value, 2)
        XCTAssertEqual(record(replay.asObservable().take(2)).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(record(optionalReplay.asObservable().take(2)).0.values, [.next(1), .next(2), .completed])
        behavior.accept(3)
        XCTAssertEqual(behavior.value, 3, "the relay stays open after the driver completed")
    }

    func testDriveHandlersWithObjectTransformationAndNoArguments() {
        let scheduler = TestScheduler(initialClock: 0)
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        var log: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = Driver.of(1, 2)
            _ = driver.drive(
                onNext: { log.append("next \($0)") },
                onCompleted: { log.append("completed") },
                onDisposed: { log.append("disposed") }
            )
            _ = driver.drive(
                with: owner,
                onNext: { owner, value in owner.log.append("next \(value)") },
                onCompleted: { owner in owner.log.append("completed") },
                onDisposed: { owner in owner.log.append("disposed") }
            )
            _ = driver.drive()
            let count = driver.drive { (observable: Observable<Int>) -> Int in
                var count = 0
                _ = observable.subscribe(onNext: { _ in count += 1 })
                scheduler.start()
                return count
            }
            XCTAssertEqual(count, 2)
            func curried(_ observable: Observable<Int>) -> (String) -> Disposable {
                { prefix in observable.subscribe(onNext: { log.append("\(prefix)\($0)") }) }
            }
            _ = Driver.just(5).drive(curried, curriedArgument: "curried ")
            scheduler.start()
        }
        XCTAssertEqual(log, ["next 1", "next 2", "completed", "disposed", "curried 5"])
        XCTAssertEqual(owner.log, ["next 1", "next 2", "completed", "disposed"])
    }

    func testDriveOffTheMainThreadWithoutAMockIsReported() {
        let relay = BehaviorRelay(value: 1)
        let driver = relay.asDriver()
        let violations = capturingViolations {
            let done = DispatchSemaphore(value: 0)
            let subscription = LockedBox<Disposable?>(nil)
            Thread.detachNewThread {
                let disposable = driver.drive(onNext: { _ in })
                subscription.withLock { $0 = disposable }
                done.signal()
            }
            done.wait()
            subscription.withLock { $0 }?.dispose()
        }
        XCTAssertEqual(violations, ["drive can only be called from the main thread (or inside SharingScheduler.mock)"])

        // On the main thread, or inside a mock, nothing is reported.
        let quiet = capturingViolations {
            driver.drive().dispose()
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    relay.asDriver().drive().dispose()
                    done.signal()
                }
                done.wait()
            }
        }
        XCTAssertEqual(quiet, [])
    }
    // MARK: - Terminal event before the disposal of the source

    /// Every Driver operator shares with `share(replay: 1, scope: .whileConnected)`:
    /// as in RxSwift, the completion reaches the subscribers before the operator's
    /// own upstream is disposed.
    func testACompletionReachesSubscribersBeforeTheOperatorsSourceIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let log = Recorder<String>()
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: 0)
                .do(onDispose: { log.append("disposed at \(scheduler.clock)") })
            var subscription: Disposable?
            scheduler.scheduleAt(200) {
                subscription = driver.drive(onCompleted: { log.append("completed at \(scheduler.clock)") })
            }
            scheduler.start()
            subscription?.dispose()
        }
        XCTAssertEqual(log.values, ["completed at 221", "disposed at 221"])
    }
}
