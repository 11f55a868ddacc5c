import Foundation
@testable import Ripple
import RippleTest
import XCTest

/// A main-actor object, as a view or a view model is.
@MainActor
private final class Screen {
    private(set) var rendered: [String] = []
    private(set) var completed = false
    private(set) var onMainThread: [Bool] = []

    func render(_ text: String) {
        rendered.append(text)
        onMainThread.append(Thread.isMainThread)
    }

    func finish() {
        completed = true
    }
}

/// Wires main-actor handlers from a non-isolated function: the handlers call
/// main-actor methods, which only compiles because they are `@MainActor`.
private func wire(_ driver: Driver<String>, _ signal: Signal<String>, to screen: Screen, bag: DisposeBag) {
    driver.drive(onMainActor: { screen.render("d:" + $0) }, onCompleted: { screen.finish() }).disposed(by: bag)
    signal.emit(onMainActor: { screen.render("s:" + $0) }).disposed(by: bag)
}

/// Runs the main run loop (which drains the main queue) until `condition` holds.
private func spinMainLoop(until condition: () -> Bool, timeout: TimeInterval = 5) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() && Date() < deadline {
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
}

final class MainActorDeliveryConcurrencyTests: MainActorCheckTestCase {

    func testDriveAndEmitOnMainActorRunOnTheMainThread() {
        // XCTest on Linux runs tests on the main thread; its test list cannot
        // hold main-actor methods, hence assumeIsolated rather than @MainActor.
        let violations = self.violations
        MainActor.assumeIsolated {
            let bag = DisposeBag()
            let screen = Screen()
            let state = BehaviorRelay(value: "a")
            let events = PublishRelay<String>()
            wire(state.asDriver(), events.asSignal(), to: screen, bag: bag)
            // Accepted on another thread: the sharing scheduler hops to the main queue.
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                state.accept("b")
                events.accept("x")
                done.signal()
            }
            done.wait()
            spinMainLoop(until: { screen.rendered.count == 3 })
            XCTAssertEqual(screen.rendered, ["d:a", "d:b", "s:x"])
            XCTAssertEqual(screen.onMainThread, [true, true, true])
            XCTAssertEqual(violations.values, [])
        }
    }

    func testDriveOnMainActorCallsOnCompletedOnTheMainActor() {
        // XCTest on Linux runs tests on the main thread; its test list cannot
        // hold main-actor methods, hence assumeIsolated rather than @MainActor.
        MainActor.assumeIsolated {
            let bag = DisposeBag()
            let screen = Screen()
            wire(Driver.of("1", "2"), Signal.empty(), to: screen, bag: bag)
            // The main scheduler queues work scheduled while its own work runs.
            spinMainLoop(until: { screen.completed })
            XCTAssertEqual(screen.rendered, ["d:1", "d:2"])
            XCTAssertTrue(screen.completed)
        }
    }

    func testWithObjectIsHeldWeakly() {
        // XCTest on Linux runs tests on the main thread; its test list cannot
        // hold main-actor methods, hence assumeIsolated rather than @MainActor.
        MainActor.assumeIsolated {
            let relay = PublishRelay<String>()
            var screen: Screen? = Screen()
            weak let weakScreen = screen
            let driveSubscription = relay.asDriver(onErrorJustReturn: "").drive(with: screen!, onMainActor: { owner, text in
                owner.render(text)
            })
            let emitSubscription = relay.asSignal().emit(with: screen!, onMainActor: { owner, text in
                owner.render("s" + text)
            })
            let bindSubscription = relay.bind(with: screen!, onMainActor: { owner, text in owner.render("b" + text) })
            relay.accept("1")
            XCTAssertEqual(screen?.rendered, ["1", "s1", "b1"])
            screen = nil
            XCTAssertNil(weakScreen, "the subscriptions must not keep the object alive")
            relay.accept("2")
            driveSubscription.dispose()
            emitSubscription.dispose()
            bindSubscription.dispose()
        }
    }

    func testBindOnMainActorAfterObserveOnMain() {
        // XCTest on Linux runs tests on the main thread; its test list cannot
        // hold main-actor methods, hence assumeIsolated rather than @MainActor.
        let violations = self.violations
        MainActor.assumeIsolated {
            let subject = PublishSubject<String>()
            let screen = Screen()
            let subscription = subject
                .observe(on: MainScheduler.instance)
                .bind(onMainActor: { screen.render($0) })
            DispatchQueue.global().async { subject.onNext("bg") }
            spinMainLoop(until: { screen.rendered.count == 1 })
            XCTAssertEqual(screen.rendered, ["bg"])
            XCTAssertEqual(screen.onMainThread, [true])
            XCTAssertEqual(violations.values, [])
            subscription.dispose()
        }
    }

    func testBindOnMainActorOffTheMainThreadIsAViolationAndIsMovedToTheMainQueue() {
        // XCTest on Linux runs tests on the main thread; its test list cannot
        // hold main-actor methods, hence assumeIsolated rather than @MainActor.
        let violations = self.violations
        MainActor.assumeIsolated {
            let subject = PublishSubject<String>()
            let screen = Screen()
            let subscription = subject.bind(onMainActor: { screen.render($0) })
            let sent = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                subject.onNext("off-main")
                sent.signal()
            }
            sent.wait()
            XCTAssertEqual(violations.values.count, 1)
            XCTAssertTrue(violations.values.first?.contains("bind(onMainActor:)") == true, "\(violations.values)")
            XCTAssertTrue(violations.values.first?.contains("observe(on: MainScheduler.instance)") == true)
            // The handler never ran off the main thread; it runs on the main queue.
            XCTAssertEqual(screen.rendered, [])
            spinMainLoop(until: { screen.rendered.count == 1 })
            XCTAssertEqual(screen.rendered, ["off-main"])
            XCTAssertEqual(screen.onMainThread, [true])
            subscription.dispose()
        }
    }

    func testMockedDriverOnABackgroundSchedulerIsAViolation() {
        // XCTest on Linux runs tests on the main thread; its test list cannot
        // hold main-actor methods, hence assumeIsolated rather than @MainActor.
        let violations = self.violations
        MainActor.assumeIsolated {
            let screen = Screen()
            let background = SerialDispatchQueueScheduler(qos: .default)
            let relay = PublishRelay<String>()
            let driver = SharingScheduler.mock(scheduler: background) { relay.asDriver(onErrorJustReturn: "") }
            let subscription = driver.drive(onMainActor: { screen.render($0) })
            relay.accept("x")
            spinMainLoop(until: { screen.rendered.count == 1 })
            XCTAssertEqual(violations.values.count, 1)
            XCTAssertTrue(violations.values.first?.contains("drive(onMainActor:)") == true)
            XCTAssertEqual(screen.onMainThread, [true])
            subscription.dispose()
        }
    }
}
