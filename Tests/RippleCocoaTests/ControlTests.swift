#if RIPPLE_COCOA_INTERFACE
import Foundation
import RippleUIKitInterface
@testable import RippleCocoa
import RippleTest
import XCTest

/// UIControl bindings, driven through the interface's simulated controls.
/// XCTest runs tests on the main thread, hence `MainActor.assumeIsolated`.
final class ControlTests: RippleTestCase {
    func testTypingSendsTheTextOncePerChangeAndTextSetFromCodeSendsNothing() {
        MainActor.assumeIsolated {
            let field = UITextField()
            var texts: [String?] = []
            let subscription = field.rx.text.subscribe(onNext: { texts.append($0) })
            field.simulateTyping("ab")
            field.text = "set from code"          // RxCocoa issue #1462: no event
            field.deleteBackward()
            XCTAssertEqual(texts, ["", "a", "ab", "set from cod"])
            subscription.dispose()
        }
    }

    func testBindingTheSameTextDoesNotSetItAgain() {
        MainActor.assumeIsolated {
            final class CountingField: UITextField {
                var sets = 0
                override var text: String? {
                    get { super.text }
                    set { sets += 1; super.text = newValue }
                }
            }
            let field = CountingField()
            field.text = "Text1"
            field.sets = 0
            field.rx.text.on(.next("Text1"))
            XCTAssertEqual(field.sets, 0)
            field.rx.text.on(.next("Text2"))
            XCTAssertEqual(field.sets, 1)
            XCTAssertEqual(field.text, "Text2")
        }
    }

    func testDisposingRemovesTheAction() {
        MainActor.assumeIsolated {
            let button = UIButton()
            var taps = 0
            let first = button.rx.tap.subscribe(onNext: { taps += 1 })
            let second = button.rx.tap.subscribe(onNext: { taps += 1 })
            XCTAssertEqual(button.simulatedHandlerCount, 2)   // one UIAction per subscription
            button.simulateTap()
            XCTAssertEqual(taps, 2)
            first.dispose()
            XCTAssertEqual(button.simulatedHandlerCount, 1)
            button.simulateTap()
            XCTAssertEqual(taps, 3)
            second.dispose()
            XCTAssertEqual(button.simulatedHandlerCount, 0)
            button.simulateTap()
            XCTAssertEqual(taps, 3)
        }
    }

    func testPrimaryActionIsTheButtonsPrimaryActionTriggered() {
        MainActor.assumeIsolated {
            // RxCocoa's tvOS binding (a press there is `.primaryActionTriggered`).
            let button = UIButton()
            var presses = 0
            let subscription = button.rx.primaryAction.subscribe(onNext: { presses += 1 })
            button.sendActions(for: .primaryActionTriggered)
            button.sendActions(for: .touchUpInside)
            XCTAssertEqual(presses, 1)
            subscription.dispose()
            XCTAssertEqual(button.simulatedHandlerCount, 0)
        }
    }

    func testTheIOS13TargetActionPathDeliversTheSameEvents() {
        MainActor.assumeIsolated {
            ControlActions.usesTargetAction = true
            defer { ControlActions.usesTargetAction = false }
            let field = UITextField()
            var texts: [String?] = []
            let subscription = field.rx.text.subscribe(onNext: { texts.append($0) })
            field.simulateTyping("hi")
            XCTAssertEqual(texts, ["", "h", "hi"])
            subscription.dispose()
            XCTAssertEqual(field.simulatedHandlerCount, 0)
            field.simulateTyping("!")
            XCTAssertEqual(texts.count, 3)
        }
    }

    func testControlEventCompletesWhenTheControlIsDeallocated() {
        MainActor.assumeIsolated {
            var button: UIButton? = UIButton()
            var events: [String] = []
            let subscription = button!.rx.tap.subscribe(
                onNext: { events.append("tap") }, onCompleted: { events.append("completed") })
            button?.simulateTap()
            button = nil
            XCTAssertEqual(events, ["tap", "completed"])
            subscription.dispose()
        }
    }

    func testValueControlsFollowTheUserAndTheirBinders() {
        MainActor.assumeIsolated {
            let toggle = UISwitch(), slider = UISlider(), stepper = UIStepper()
            let segments = UISegmentedControl(), picker = UIDatePicker()
            var seen: [String] = []
            let bag = DisposeBag()
            toggle.rx.isOn.subscribe(onNext: { seen.append("on \($0)") }).disposed(by: bag)
            slider.rx.value.subscribe(onNext: { seen.append("slider \($0)") }).disposed(by: bag)
            stepper.rx.value.subscribe(onNext: { seen.append("stepper \($0)") }).disposed(by: bag)
            segments.rx.selectedSegmentIndex.subscribe(onNext: { seen.append("segment \($0)") }).disposed(by: bag)
            let date = Date(timeIntervalSince1970: 0)
            picker.rx.date.skip(1).subscribe(onNext: { seen.append("date \($0 == date)") }).disposed(by: bag)
            toggle.simulateToggle()
            slider.simulateSlide(to: 0.5)
            stepper.simulateIncrement()
            segments.simulateSelect(segment: 2)
            picker.simulatePick(date)
            XCTAssertEqual(seen, [
                "on false", "slider 0.0", "stepper 0.0", "segment -1",
                "on true", "slider 0.5", "stepper 1.0", "segment 2", "date true",
            ])
            toggle.rx.isOn.onNext(false)
            slider.rx.value.onNext(0.25)
            XCTAssertFalse(toggle.isOn)
            XCTAssertEqual(slider.value, 0.25)
            XCTAssertEqual(seen.count, 9)   // values set from code send nothing
        }
    }

    func testButtonRefreshAndIndicatorBinders() {
        MainActor.assumeIsolated {
            let button = UIButton(), refresh = UIRefreshControl(), indicator = UIActivityIndicatorView()
            let segments = UISegmentedControl()
            Observable.just("Save").bind(to: button.rx.title(for: .normal)).dispose()
            Observable.just("Saved").bind(to: button.rx.title(for: .disabled)).dispose()
            Observable.just(true).bind(to: refresh.rx.isRefreshing).dispose()
            Observable.just(true).bind(to: indicator.rx.isAnimating).dispose()
            Observable.just(false).bind(to: segments.rx.enabledForSegment(at: 1)).dispose()
            XCTAssertEqual(button.title(for: .normal), "Save")
            XCTAssertEqual(button.title(for: .disabled), "Saved")
            XCTAssertTrue(refresh.isRefreshing)
            XCTAssertTrue(indicator.isAnimating)
            XCTAssertFalse(segments.isEnabledForSegment(at: 1))
            Observable.just(false).bind(to: indicator.rx.isAnimating).dispose()
            XCTAssertFalse(indicator.isAnimating)
        }
    }

    /// RxCocoa 6 has no explicit `label.rx.text`, `view.rx.isHidden` or
    /// `control.rx.isEnabled`: `Reactive`'s dynamic member lookup makes them.
    func testDynamicMemberBindersWorkOnUIKitClasses() {
        MainActor.assumeIsolated {
            let label = UILabel(), view = UIView(), button = UIButton(), image = UIImageView()
            let field = UITextField()
            Observable.just("Hello").bind(to: label.rx.text).dispose()
            Observable.just(true).bind(to: view.rx.isHidden).dispose()
            Observable.just(CGFloat(0.5)).bind(to: view.rx.alpha).dispose()
            Observable.just(UIColor.white).bind(to: view.rx.backgroundColor).dispose()
            Observable.just(false).bind(to: button.rx.isEnabled).dispose()
            Observable.just(true).bind(to: button.rx.isSelected).dispose()
            Observable.just(UIImage(named: "logo")).bind(to: image.rx.image).dispose()
            Observable.just(true).bind(to: field.rx.isSecureTextEntry).dispose()
            XCTAssertEqual(label.text, "Hello")
            XCTAssertTrue(view.isHidden)
            XCTAssertEqual(view.alpha, 0.5)
            XCTAssertEqual(view.backgroundColor, UIColor.white)
            XCTAssertFalse(button.isEnabled)
            XCTAssertTrue(button.isSelected)
            XCTAssertEqual(image.image?.simulatedName, "logo")
            XCTAssertTrue(field.isSecureTextEntry)
        }
    }

    func testBarButtonItemTapsShareOneTargetThatDisposalClears() {
        MainActor.assumeIsolated {
            let item = UIBarButtonItem(title: "Done", style: .done, target: nil, action: nil)
            var taps = 0
            let first = item.rx.tap.subscribe(onNext: { taps += 1 })
            let second = item.rx.tap.subscribe(onNext: { taps += 10 })
            item.simulateTap()
            XCTAssertEqual(taps, 11)
            first.dispose()
            second.dispose()
            XCTAssertNil(item.target)
            XCTAssertNil(item.action)
            item.simulateTap()
            XCTAssertEqual(taps, 11)
        }
    }

    func testGestureRecognizerEventSendsTheRecognizer() {
        MainActor.assumeIsolated {
            let recognizer = UITapGestureRecognizer()
            var states: [UIGestureRecognizer.State] = []
            let subscription = recognizer.rx.event.subscribe(onNext: { states.append($0.state) })
            recognizer.simulateRecognition(state: .ended)
            XCTAssertEqual(states, [.ended])
            subscription.dispose()
            XCTAssertEqual(recognizer.simulatedTargetCount, 0)
        }
    }

    func testApplicationLifecycleEvents() {
        MainActor.assumeIsolated {
            var events = 0
            let subscription = UIApplication.rx.didBecomeActive.subscribe(onNext: { events += 1 })
            NotificationCenter.default.post(name: UIApplication.didBecomeActiveNotification, object: UIApplication.shared)
            NotificationCenter.default.post(name: UIApplication.willResignActiveNotification, object: UIApplication.shared)
            XCTAssertEqual(events, 1)
            subscription.dispose()
        }
    }
}
#endif
