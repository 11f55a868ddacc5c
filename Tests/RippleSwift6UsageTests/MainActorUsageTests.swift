import Foundation
import Ripple
import RippleTest
import XCTest

/// A main-actor screen: its methods can only be called on the main actor.
@MainActor
final class ProfileScreen {
    private(set) var title = ""
    private(set) var alerts: [String] = []

    func show(title: String) {
        self.title = title
    }

    func present(alert: String) {
        alerts.append(alert)
    }
}

/// A main-actor view model fed by Ripple streams.
@MainActor
final class ProfileViewModel {
    let title: Driver<String>
    let alerts: Signal<String>
    private(set) var saves = 0
    private let bag = DisposeBag()

    init(name: Observable<String>, failures: Observable<String>, saveTaps: Observable<Void>) {
        title = name.map { "Profile of \($0)" }.asDriver(onErrorJustReturn: "Profile")
        alerts = failures.asSignal(onErrorJustReturn: "Unknown error")
        // Main-actor state written from a handler checked as main-actor code.
        saveTaps
            .observe(on: MainScheduler.instance)
            .bind(with: self, onMainActor: { owner, _ in owner.saves += 1 })
            .disposed(by: bag)
    }
}

/// Non-isolated glue code (a coordinator, a builder): the `@MainActor` handlers
/// let it call main-actor methods without `MainActor.assumeIsolated`.
struct ProfileBinding: Sendable {
    func connect(_ title: Driver<String>, _ alerts: Signal<String>, to screen: ProfileScreen) -> [any Disposable] {
        [
            title.drive(onMainActor: { screen.show(title: $0) }),
            alerts.emit(with: screen, onMainActor: { screen, alert in screen.present(alert: alert) }),
        ]
    }
}

final class MainActorUsageTests: RippleTestCase {
    func testMainActorViewModelDrivesAMainActorScreen() {
        // XCTest runs tests on the main thread.
        MainActor.assumeIsolated {
            let name = BehaviorRelay(value: "Ada")
            let failures = PublishRelay<String>()
            let taps = PublishRelay<Void>()
            let viewModel = ProfileViewModel(
                name: name.asObservable(), failures: failures.asObservable(), saveTaps: taps.asObservable())
            let screen = ProfileScreen()
            let subscriptions = ProfileBinding().connect(viewModel.title, viewModel.alerts, to: screen)
            name.accept("Grace")
            failures.accept("Offline")
            taps.accept(())
            XCTAssertEqual(screen.title, "Profile of Grace")
            XCTAssertEqual(screen.alerts, ["Offline"])
            XCTAssertEqual(viewModel.saves, 1)
            subscriptions.forEach { $0.dispose() }
        }
    }
}
