import Foundation
import Ripple
import RippleTest
import XCTest

/// A terminal-UI text field: its text lives in a relay; the property reads it and
/// sets it.
private final class TextField {
    let storage = BehaviorRelay<String?>(value: nil)

    var text: ControlProperty<String?> {
        let storage = storage
        return ControlProperty(values: storage, valueSink: AnyObserver { event in
            if case .next(let value) = event { storage.accept(value) }
        })
    }

    /// What the user types.
    func type(_ text: String?) { storage.accept(text) }
}

/// A terminal-UI button.
private final class Button {
    let presses = PublishRelay<Void>()
    var tap: ControlEvent<Void> { ControlEvent(events: presses) }
    func press() { presses.accept(()) }
}

final class ControlPropertyTests: RippleTestCase {
    func testPropertySendsTheCurrentValueThenChanges() {
        let field = TextField()
        field.type("a")
        var values: [String?] = []
        let subscription = field.text.subscribe(onNext: { values.append($0) })
        field.type("ab")
        field.type(nil)
        XCTAssertEqual(values, ["a", "ab", nil])
        subscription.dispose()
    }

    func testPropertyIsAnObserverThatSetsTheValue() {
        let field = TextField()
        let subscription = Observable.of("x", "y").bind(to: field.text)
        XCTAssertEqual(field.storage.value, "y")
        field.text.onNext("z")
        XCTAssertEqual(field.storage.value, "z")
        subscription.dispose()
    }

    func testAnErrorSentToThePropertyIsReportedNotApplied() {
        let field = TextField()
        field.type("kept")
        let violations = capturingViolations {
            field.text.on(.error(testError))
        }
        XCTAssertEqual(violations, ["Binding error to a ControlProperty: TestError(1)"])
        XCTAssertEqual(field.storage.value, "kept")
    }

    func testCompletionIsPassedToTheValueSink() {
        let log = EventLog<Int>()
        let property = ControlProperty(values: Observable<Int>.never(), valueSink: log)
        property.on(.next(1))
        property.on(.completed)
        XCTAssertEqual(log.events, [.next(1), .completed])
    }

    func testOrEmptyReadsNilAsEmptyAndWritesThrough() {
        let field = TextField()
        var values: [String] = []
        let subscription = field.text.orEmpty.subscribe(onNext: { values.append($0) })
        field.type("a")
        field.type(nil)
        XCTAssertEqual(values, ["", "a", ""])
        field.text.orEmpty.onNext("typed")
        XCTAssertEqual(field.storage.value, "typed")
        subscription.dispose()
    }

    func testChangedSkipsTheCurrentValue() {
        let field = TextField()
        field.type("initial")
        var changes: [String] = []
        let subscription = field.text.orEmpty.changed.subscribe(onNext: { changes.append($0) })
        field.type("a")
        field.type("ab")
        XCTAssertEqual(changes, ["a", "ab"])
        subscription.dispose()
    }

    func testCharactersLeftLabelWithMarbles() throws {
        // The brief's "N characters left" screen, driven from a text field property.
        let scheduler = TestScheduler(initialClock: 0)
        let typing = try scheduler.createHotObservable("--a--b--c--", values: ["a": "h", "b": "hi", "c": "hi!"])
        let field = TextField()
        let bag = DisposeBag()
        typing.subscribe(onNext: { field.type($0) }).disposed(by: bag)
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start {
                field.text.orEmpty.asDriver().map { "\(5 - $0.count) characters left" }
            }
        }
        assertMarbles(res, "x-a--b--c--", values: [
            "x": "5 characters left", "a": "4 characters left", "b": "3 characters left", "c": "2 characters left",
        ])
    }

    func testPropertyAsDriverIsSharedAndReplays() {
        let field = TextField()
        field.type("a")
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = field.text.asDriver()
            let first = scheduler.createObserver(String?.self)
            let late = scheduler.createObserver(String?.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) { driver.drive(first).disposed(by: bag) }
            scheduler.scheduleAt(210) { field.type("b") }
            scheduler.scheduleAt(220) { driver.drive(late).disposed(by: bag) }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(201, "a"), .next(211, "b")])
            XCTAssertEqual(late.events, [.next(220, "b")])
        }
    }

    func testAFailingPropertyAsDriverIsReportedAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let broken = ControlProperty(values: Observable<Int>.error(testError), valueSink: AnyObserver<Int> { _ in })
        var res: TestableObserver<Int>!
        let violations = capturingViolations {
            res = SharingScheduler.mock(scheduler: scheduler) { scheduler.start { broken.asDriver() } }
        }
        XCTAssertEqual(res.events, [.completed(202)])
        XCTAssertEqual(violations, ["A ControlProperty failed, which it must not: TestError(1)"])
    }

    // MARK: - ControlEvent

    func testControlEventForwardsEvents() {
        let button = Button()
        var taps = 0
        let tap = button.tap
        let subscription = tap.subscribe(onNext: { taps += 1 })
        button.press()
        button.press()
        XCTAssertEqual(taps, 2)
        XCTAssertTrue(tap.asControlEvent().asObservable() === tap.asObservable())
        subscription.dispose()
    }

    func testControlEventAsSignalAndAsDriver() {
        let button = Button()
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = button.tap.asSignal().map { "tap" }
            let driver = button.tap.asDriver().map { "tap" }
            let signalObserver = scheduler.createObserver(String.self)
            let driverObserver = scheduler.createObserver(String.self)
            let lateSignal = scheduler.createObserver(String.self)
            let lateDriver = scheduler.createObserver(String.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) {
                signal.emit(to: signalObserver).disposed(by: bag)
                driver.drive(driverObserver).disposed(by: bag)
            }
            scheduler.scheduleAt(210) { button.press() }
            scheduler.scheduleAt(220) {
                signal.emit(to: lateSignal).disposed(by: bag)
                driver.drive(lateDriver).disposed(by: bag)
            }
            scheduler.start()
            XCTAssertEqual(signalObserver.events, [.next(211, "tap")])
            XCTAssertEqual(driverObserver.events, [.next(211, "tap")])
            XCTAssertEqual(lateSignal.events, [], "a signal replays nothing")
            XCTAssertEqual(lateDriver.events, [.next(220, "tap")], "a driver replays the latest")
        }
    }

    func testAFailingControlEventIsReportedAndCompletes() {
        let broken = ControlEvent(events: Observable<Void>.error(testError))
        let scheduler = TestScheduler(initialClock: 0)
        var signalEvents: [Recorded<Event<Int>>] = []
        let violations = capturingViolations {
            SharingScheduler.mock(scheduler: scheduler) {
                signalEvents = scheduler.start { broken.asSignal().map { 1 } }.events
            }
        }
        XCTAssertEqual(signalEvents, [.completed(202)])
        XCTAssertEqual(violations, ["A ControlEvent failed, which it must not: TestError(1)"])
    }

    func testControlPropertyAsControlPropertyAndOperators() {
        let field = TextField()
        let property = field.text.asControlProperty()
        let lengths = record(property.orEmpty.map(\.count).take(1))
        XCTAssertEqual(lengths.0.values, [.next(0), .completed])
    }
    // MARK: - Subscribed on the main queue (RxCocoa's ControlEventTests and
    // ControlPropertyTests.testObservingIsAlwaysHappeningOnMainQueue)

    /// `true` when called on the main queue (RxSwift's `DispatchQueue.isMain`).
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    private static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) ?? false
    }

    /// Subscribes to `observable` twice from a background queue (through
    /// `asObservable()` and directly), disposes both on the main queue, and
    /// returns whether each subscription to the underlying source ran there.
    private func subscriptionQueues<Control: ObservableType>(_ make: (Observable<Int>) -> Control) -> [Bool]
    where Control.Element == Int {
        let onMainQueue = Recorder<Bool>()
        let source = Observable<Int>.deferred {
            onMainQueue.append(Self.isOnMainQueue)
            return .never()
        }
        let control = make(source)
        let subscribeTwice = UncheckedSendableBox { () -> [Disposable] in
            [control.asObservable().subscribe { _ in }, control.subscribe { _ in }]
        }
        let done = expectation(description: "subscribed from a background queue")
        DispatchQueue.global().async {
            let subscriptions = subscribeTwice.value()
            DispatchQueue.main.async {
                subscriptions.forEach { $0.dispose() }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 5)
        return onMainQueue.values
    }

    func testControlEventIsAlwaysSubscribedOnTheMainQueue() {
        XCTAssertEqual(subscriptionQueues { ControlEvent(events: $0) }, [true, true])
    }

    func testControlPropertyIsAlwaysSubscribedOnTheMainQueue() {
        XCTAssertEqual(subscriptionQueues { ControlProperty(values: $0, valueSink: AnyObserver { _ in }) }, [true, true])
        XCTAssertEqual(subscriptionQueues { ControlProperty(values: $0, valueSink: AnyObserver { _ in }).changed }, [true, true])
    }

    func testOnTheMainThreadTheSubscriptionIsImmediate() {
        // A terminal UI that subscribes on the main thread (no run loop needed):
        // the current value arrives before `subscribe` returns, and disposing
        // stops the delivery at once.
        let field = TextField()
        field.type("now")
        var values: [String?] = []
        let subscription = field.text.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, ["now"])
        subscription.dispose()
        field.type("later")
        XCTAssertEqual(values, ["now"])
    }
}
