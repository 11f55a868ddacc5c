#if RIPPLE_COCOA_INTERFACE
import Foundation
import RippleUIKitInterface
import RippleCocoa
import RippleTest
import XCTest

/// Swift 6 user code, compiled with warnings as errors: a main-actor view
/// controller binds Drivers to a label and a button with no
/// `@preconcurrency` import and no `nonisolated(unsafe)`.
@MainActor
final class CounterViewController: UIViewController {
    let label = UILabel()
    let plus = UIButton()
    private let bag = DisposeBag()

    override func viewDidLoad() {
        super.viewDidLoad()
        let count = plus.rx.tap.asDriver().scan(0) { total, _ in total + 1 }.startWith(0)
        count.map { "Count: \($0)" }.drive(label.rx.text).disposed(by: bag)
        count.map { $0 < 3 }.drive(plus.rx.isEnabled).disposed(by: bag)
    }
}

final class Swift6ScreenTests: RippleTestCase {
    func testAMainActorScreenDrivesItsLabel() {
        MainActor.assumeIsolated {
            let screen = CounterViewController()
            screen.loadViewIfNeeded()
            XCTAssertEqual(screen.label.text, "Count: 0")
            for _ in 0..<3 { screen.plus.simulateTap() }
            XCTAssertEqual(screen.label.text, "Count: 3")
            XCTAssertFalse(screen.plus.isEnabled)
        }
    }
}
#endif
