import Ripple
import RippleTest
import XCTest

final class RelayTests: RippleTestCase {
    func testPublishRelay() {
        let relay = PublishRelay<Int>()
        let (events, d) = record(relay.asObservable())
        relay.accept(1)
        relay.accept(2)
        XCTAssertEqual(events.values, [.next(1), .next(2)])
        d.dispose()
    }

    func testBehaviorRelay() {
        let relay = BehaviorRelay(value: "a")
        XCTAssertEqual(relay.value, "a")
        let (events, d) = record(relay.asObservable())
        relay.accept("b")
        XCTAssertEqual(relay.value, "b")
        XCTAssertEqual(events.values, [.next("a"), .next("b")])
        d.dispose()
    }

    func testReplayRelay() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        [1, 2, 3].forEach(relay.accept)
        let (events, d) = record(relay.asObservable())
        XCTAssertEqual(events.values, [.next(2), .next(3)])
        d.dispose()
        let unbounded = ReplayRelay<Int>.createUnbounded()
        [1, 2, 3].forEach(unbounded.accept)
        let (all, d2) = record(unbounded.asObservable())
        XCTAssertEqual(all.values, [.next(1), .next(2), .next(3)])
        d2.dispose()
    }

    func testRelaysSubscribeDirectly() {
        let relay = BehaviorRelay(value: 1)
        var values: [Int] = []
        let subscription = relay.subscribe(AnyObserver { if let value = $0.element { values.append(value) } })
        relay.accept(2)
        XCTAssertEqual(values, [1, 2])
        subscription.dispose()
    }

    func testBindToRelaysDoesNotForwardCompletion() {
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 0)
        let replay = ReplayRelay<Int>.createUnbounded()
        let (events, d) = record(publish.asObservable())
        let bag = DisposeBag()
        Observable.of(1, 2).bind(to: publish, publish).disposed(by: bag)
        Observable.of(3).bind(to: behavior).disposed(by: bag)
        Observable.of(4).bind(to: replay).disposed(by: bag)
        XCTAssertEqual(events.values, [.next(1), .next(1), .next(2), .next(2)])
        XCTAssertEqual(behavior.value, 3)
        XCTAssertEqual(record(replay.asObservable()).0.values, [.next(4)])
        d.dispose()
    }

    func testBindToOptionalRelays() {
        let publish = PublishRelay<Int?>()
        let behavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int?>.create(bufferSize: 1)
        let (events, d) = record(publish.asObservable())
        let bag = DisposeBag()
        Observable.of(1).bind(to: publish).disposed(by: bag)
        Observable.of(2).bind(to: behavior).disposed(by: bag)
        Observable.of(3).bind(to: replay).disposed(by: bag)
        XCTAssertEqual(events.values, [.next(1)])
        XCTAssertEqual(behavior.value, 2)
        XCTAssertEqual(record(replay.asObservable()).0.values, [.next(3)])
        d.dispose()
    }

    func testBindErrorToRelayIsReported() {
        let previous = Hooks.contractViolationHandler
        defer { Hooks.contractViolationHandler = previous }
        let messages = Recorder<String>()
        Hooks.contractViolationHandler = { messages.append($0) }
        let relay = PublishRelay<Int>()
        _ = Observable<Int>.error(testError).bind(to: relay)
        XCTAssertEqual(messages.values, ["Binding error to publish relay: TestError(1)"])
    }

    @available(*, deprecated)
    func testVariableCompletesOnDeinit() {
        var variable: Variable<Int>? = Variable(1)
        let (events, d) = record(variable!.asObservable())
        variable!.value = 2
        XCTAssertEqual(variable!.value, 2)
        variable = nil
        XCTAssertEqual(events.values, [.next(1), .next(2), .completed])
        d.dispose()
    }

    /// An observer of a `Variable` that sets its value gets the new value after
    /// the current delivery, as from a `BehaviorRelay`; setting it delivered
    /// under a lock of the variable's own, so that set deadlocked.
    @available(*, deprecated)
    func testAnObserverOfAVariableCanSetIt() {
        let log = Recorder<Int>()
        assertFinishes({ "deadlocked after \(log.values)" }()) {
            let variable = Variable(0)
            let subscription = variable.asObservable().subscribe(onNext: { value in
                log.append(value)
                if value == 1 { variable.value = 2 }
            })
            variable.value = 1
            log.append(variable.value)
            subscription.dispose()
        }
        XCTAssertEqual(log.values, [0, 1, 2, 2])
    }
}
