#if RIPPLE_COCOA_INTERFACE
import Foundation
import RippleUIKitInterface
import Ripple
import RippleCocoa
import RippleTest
import XCTest

/// Runs the migrated view controller against the interface's simulated controls.
final class SignUpViewControllerTests: RippleTestCase {
    func testTheMigratedScreenValidatesTapsAndListsRepositories() {
        // XCTest runs tests on the main thread.
        MainActor.assumeIsolated { checkScreen() }
    }

    @MainActor
    private func checkScreen() {
        let screen = SignUpViewController()
        screen.loadViewIfNeeded()
        XCTAssertFalse(screen.doSomethingOutlet.isEnabled)
        screen.usernameOutlet.simulateTyping("grace")
        screen.passwordOutlet.simulateTyping("secret")
        XCTAssertTrue(screen.doSomethingOutlet.isEnabled)
        XCTAssertTrue(screen.usernameValidOutlet.isHidden)
        screen.doSomethingOutlet.simulateTap()
        XCTAssertEqual(screen.taps, 1)

        screen.searchQuery.onNext("swift")
        RunLoop.main.run(until: Date().addingTimeInterval(0.5))   // the debounce, on the main queue
        XCTAssertEqual(screen.tableView.simulatedRowTexts, [["swift-one ★3", "swift-two ★5"]])
        screen.tableView.simulateTap(at: IndexPath(row: 1, section: 0))
        XCTAssertEqual(screen.chosen, ["swift-two"])
        XCTAssertNil(screen.tableView.indexPathForSelectedRow)
        screen.disposeBag = DisposeBag()
    }
}
#endif
