import DemoFeatures
import Foundation
import Ripple
import RippleTest
import XCTest

final class CounterStateTests: RippleTestCase {
    /// The view model's stream feeds the `@Observable` model in virtual time.
    func testStateFollowsTheViewModel() throws {
        let scheduler = TestScheduler(initialClock: 0)
        // Marble frame 0 is virtual time 200: `u` at 220, `d` at 240, 260 and 280.
        let up = try scheduler.createHotObservable("--u------", values: ["u": ()])
        let down = try scheduler.createHotObservable("----d-d-d", values: ["d": ()])
        // XCTest runs tests on the main thread, where the model lives.
        MainActor.assumeIsolated {
            SharingScheduler.mock(scheduler: scheduler) {
                let viewModel = CounterViewModel(input: .init(
                    countUp: up.asSignal(onErrorSignalWith: .empty()),
                    countDown: down.asSignal(onErrorSignalWith: .empty()),
                    reset: .empty()
                ))
                let state = CounterState(viewModel: viewModel)
                var seen: [String] = []
                scheduler.scheduleAt(225) { seen.append(state.countText) }
                scheduler.scheduleAt(255) { seen.append(state.countText) }
                scheduler.scheduleAt(285) { seen.append("\(state.countText) \(state.isNegative)") }
                scheduler.start()
                XCTAssertEqual(seen, ["1", "0", "-2 true"])
                XCTAssertEqual(state.changes, 5)
            }
        }
    }

    /// Observation reports the model's changes back as a Ripple stream, one
    /// element per main-queue turn.
    func testStatusStreamFollowsTheModel() {
        MainActor.assumeIsolated {
            let down = PublishRelay<Void>()
            let viewModel = CounterViewModel(input: .init(countUp: .empty(), countDown: down.asSignal(), reset: .empty()))
            let state = CounterState(viewModel: viewModel)
            var statuses: [String] = []
            let subscription = state.status.subscribe(onNext: { statuses.append($0) })
            XCTAssertEqual(statuses, ["Count 0"])
            down.accept(())
            let deadline = Date().addingTimeInterval(5)
            while statuses.count < 2 && Date() < deadline {
                _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
            }
            XCTAssertEqual(statuses, ["Count 0", "Below zero (-1)"])
            subscription.dispose()
        }
    }
}
