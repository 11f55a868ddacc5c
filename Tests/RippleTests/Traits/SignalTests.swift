import Foundation
import Ripple
import RippleTest
import XCTest

final class SignalTests: RippleTestCase {
    func testAsSignalOnErrorJustReturnDeliversOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { xs.asSignal(onErrorJustReturn: 0) }
        }
        XCTAssertEqual(res.events, [.next(211, 1), .next(231, 0), .completed(231)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testAsSignalOnErrorSignalWithAndOnErrorRecover() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { xs.asSignal(onErrorSignalWith: .empty()) }
        }
        XCTAssertEqual(res.events, [.next(211, 1), .completed(232)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .error(230, testError)])
        var errors: [TestError] = []
        let res2 = SharingScheduler.mock(scheduler: scheduler2) {
            scheduler2.start {
                ys.asSignal(onErrorRecover: { error in
                    errors.append(error as! TestError)
                    return .just(5)
                })
            }
        }
        XCTAssertEqual(res2.events, [.next(211, 1), .next(232, 5), .completed(232)])
        XCTAssertEqual(errors, [testError])
    }

    func testSignalSharesOneSubscriptionWithoutReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .next(50, 3), .completed(60)])
        SharingScheduler.mock(scheduler: scheduler) {
            var mapped = 0
            let signal = xs.asSignal(onErrorJustReturn: 0).map { value -> Int in
                mapped += 1
                return value
            }
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) { signal.emit(to: first).disposed(by: bag) }
            scheduler.scheduleAt(220) { signal.emit(to: second).disposed(by: bag) }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 1), .next(231, 2), .next(251, 3), .completed(261)])
            // Nothing replayed: the late subscriber starts with the next element.
            XCTAssertEqual(second.events, [.next(231, 2), .next(251, 3), .completed(261)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
            XCTAssertEqual(mapped, 3)
        }
    }

    func testPublishRelayAsSignal() {
        let relay = PublishRelay<Int>()
        let scheduler = TestScheduler(initialClock: 0)
        scheduler.scheduleAt(150) { relay.accept(0) }
        scheduler.scheduleAt(210) { relay.accept(1) }
        scheduler.scheduleAt(220) { relay.accept(2) }
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { relay.asSignal() }
        }
        XCTAssertEqual(res.events, [.next(211, 1), .next(221, 2)])
    }

    func testInfallibleAsSignal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { xs.infallible.asSignal() }
        }
        XCTAssertEqual(res.events, [.next(211, 1), .completed(231)])
    }

    func testDriverAsSignalDoesNotReplayToLateSubscribers() {
        let relay = BehaviorRelay(value: 0)
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = relay.asDriver().asSignal()
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) { signal.emit(to: first).disposed(by: bag) }
            scheduler.scheduleAt(210) { relay.accept(1) }
            scheduler.scheduleAt(220) { signal.emit(to: second).disposed(by: bag) }
            scheduler.scheduleAt(230) { relay.accept(2) }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(201, 0), .next(211, 1), .next(231, 2)])
            XCTAssertEqual(second.events, [.next(231, 2)])
        }
    }

    func testEmitToObserversAndRelays() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = EventLog<Int>()
        let optionalLog = EventLog<Int?>()
        let publish = PublishRelay<Int>()
        let optionalPublish = PublishRelay<Int?>()
        let behavior = BehaviorRelay(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int>.createUnbounded()
        let optionalReplay = ReplayRelay<Int?>.createUnbounded()
        var published: [Int] = []
        var optionalPublished: [Int?] = []
        let bag = DisposeBag()
        publish.subscribe(onNext: { published.append($0) }).disposed(by: bag)
        optionalPublish.subscribe(onNext: { optionalPublished.append($0) }).disposed(by: bag)
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = Signal.of(1, 2)
            signal.emit(to: log).disposed(by: bag)
            signal.emit(to: optionalLog).disposed(by: bag)
            signal.emit(to: publish).disposed(by: bag)
            signal.emit(to: optionalPublish).disposed(by: bag)
            signal.emit(to: behavior).disposed(by: bag)
            signal.emit(to: optionalBehavior).disposed(by: bag)
            signal.emit(to: replay).disposed(by: bag)
            signal.emit(to: optionalReplay).disposed(by: bag)
            scheduler.start()
        }
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(optionalLog.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(published, [1, 2])
        XCTAssertEqual(optionalPublished, [1, 2])
        XCTAssertEqual(behavior.value, 2)
        XCTAssertEqual(optionalBehavior.value, 2)
        XCTAssertEqual(record(replay.asObservable().take(2)).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(record(optionalReplay.asObservable().take(2)).0.values, [.next(1), .next(2), .completed])
        publish.accept(3)
        XCTAssertEqual(published, [1, 2, 3], "the relay stays open after the signal completed")
    }

    func testEmitHandlers() {
        let scheduler = TestScheduler(initialClock: 0)
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        var log: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = Signal.of(1)
            _ = signal.emit(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
            _ = signal.emit(
                with: owner,
                onNext: { owner, value in owner.log.append("next \(value)") },
                onCompleted: { owner in owner.log.append("completed") },
                onDisposed: { owner in owner.log.append("disposed") }
            )
            _ = signal.emit()
            scheduler.start()
        }
        XCTAssertEqual(log, ["next 1", "completed", "disposed"])
        XCTAssertEqual(owner.log, ["next 1", "completed", "disposed"])
    }

    func testEmitDisposedBeforeAnElement() {
        let relay = PublishRelay<Int>()
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let subscription = relay.asSignal().emit(onNext: { log.append("next \($0)") }, onDisposed: { log.append("disposed") })
            subscription.dispose()
            relay.accept(1)
            scheduler.start()
        }
        XCTAssertEqual(log, ["disposed"])
    }

    func testEmitOffTheMainThreadWithoutAMockIsReported() {
        let signal = PublishRelay<Int>().asSignal()
        let violations = capturingViolations {
            let done = DispatchSemaphore(value: 0)
            let subscription = LockedBox<Disposable?>(nil)
            Thread.detachNewThread {
                let disposable = signal.emit()
                subscription.withLock { $0 = disposable }
                done.signal()
            }
            done.wait()
            subscription.withLock { $0 }?.dispose()
        }
        XCTAssertEqual(violations, ["emit can only be called from the main thread (or inside SharingScheduler.mock)"])
    }
    // MARK: - Terminal event before the disposal of the source

    /// Every Signal operator shares with `share(scope: .whileConnected)`: as in
    /// RxSwift, the completion reaches the subscribers before the operator's own
    /// upstream is disposed.
    func testACompletionReachesSubscribersBeforeTheOperatorsSourceIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let log = Recorder<String>()
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = xs.asSignal(onErrorJustReturn: 0)
                .do(onDispose: { log.append("disposed at \(scheduler.clock)") })
            var subscription: Disposable?
            scheduler.scheduleAt(200) {
                subscription = signal.emit(onCompleted: { log.append("completed at \(scheduler.clock)") })
            }
            scheduler.start()
            subscription?.dispose()
        }
        XCTAssertEqual(log.values, ["completed at 221", "disposed at 221"])
    }
}
