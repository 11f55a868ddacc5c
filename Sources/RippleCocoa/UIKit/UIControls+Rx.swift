#if os(iOS) || os(tvOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleUIKitInterface
#else
import UIKit
#endif
import Foundation
import Ripple

// RxCocoa 6's control bindings. Properties RxCocoa gets from `Reactive`'s
// dynamic member lookup (`rx.isEnabled`, `rx.isSelected`, `rx.isHidden`,
// `rx.alpha`, `rx.backgroundColor`, `label.rx.text`, `imageView.rx.image`) come
// from Ripple's `Reactive` the same way and are not declared here.
//
// tvOS has no UISwitch, UISlider, UIStepper, UIDatePicker or UIRefreshControl,
// and its buttons are pressed, not tapped: as in RxCocoa, those bindings and
// `UIButton.rx.tap` exist on iOS and visionOS, `UIButton.rx.primaryAction` on
// tvOS. The Linux interface declares all of them, so all are compiled and tested.

@MainActor
extension Reactive where Base: UIButton {
    #if os(iOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
    /// The button's taps: `()` for each `.touchUpInside`.
    ///
    /// ```
    /// user:  --tap----tap--
    /// tap:   --()-----()---
    /// ```
    public var tap: ControlEvent<Void> {
        controlEvent(.touchUpInside)
    }
    #endif

    #if os(tvOS) || RIPPLE_COCOA_INTERFACE
    /// The button's presses on tvOS: `()` for each `.primaryActionTriggered`
    /// (RxCocoa's tvOS counterpart of `tap`).
    public var primaryAction: ControlEvent<Void> {
        controlEvent(.primaryActionTriggered)
    }
    #endif

    /// Sets the button's title for `controlState` (`setTitle(_:for:)`).
    public func title(for controlState: UIControl.State = []) -> Binder<String?> {
        Binder(base) { button, title in button.setTitle(title, for: controlState) }
    }

    /// Sets the button's image for `controlState` (`setImage(_:for:)`).
    public func image(for controlState: UIControl.State = []) -> Binder<UIImage?> {
        Binder(base) { button, image in button.setImage(image, for: controlState) }
    }

    /// Sets the button's background image for `controlState` (`setBackgroundImage(_:for:)`).
    public func backgroundImage(for controlState: UIControl.State = []) -> Binder<UIImage?> {
        Binder(base) { button, image in button.setBackgroundImage(image, for: controlState) }
    }

    /// Sets the button's attributed title for `controlState` (`setAttributedTitle(_:for:)`).
    public func attributedTitle(for controlState: UIControl.State = []) -> Binder<NSAttributedString?> {
        Binder(base) { button, title in button.setAttributedTitle(title, for: controlState) }
    }
}

@MainActor
extension Reactive where Base: UITextField {
    /// The field's text: the current text on subscription, then the text after
    /// each editing event (each character typed, pasted or deleted; also the
    /// begin and end of editing, with the same text). Setting `text` from code
    /// sends nothing (RxCocoa issue #1462); elements sent to it set the text,
    /// unless it already has that text (which would clear the marked text of an
    /// input method).
    ///
    /// ```
    /// user types:   ----a----b---
    /// text:         ""--"a"--"ab"-
    /// ```
    public var text: ControlProperty<String?> {
        value
    }

    /// The same property as `text`.
    public var value: ControlProperty<String?> {
        controlPropertyWithDefaultEvents(
            getter: { textField in textField.text },
            setter: { textField, value in
                if textField.text != value {
                    textField.text = value
                }
            }
        )
    }

    /// The field's attributed text, with the same events as `text`.
    public var attributedText: ControlProperty<NSAttributedString?> {
        controlPropertyWithDefaultEvents(
            getter: { textField in textField.attributedText },
            setter: { textField, value in
                if textField.attributedText != value {
                    textField.attributedText = value
                }
            }
        )
    }
}

#if os(iOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
@MainActor
extension Reactive where Base: UISwitch {
    /// The switch's state: the current value, then the value after each
    /// `.valueChanged` (the user flipping it). Elements set it.
    public var isOn: ControlProperty<Bool> {
        value
    }

    /// The same property as ``isOn``.
    public var value: ControlProperty<Bool> {
        controlPropertyWithDefaultEvents(getter: { $0.isOn }, setter: { $0.isOn = $1 })
    }
}
#endif

#if os(iOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
@MainActor
extension Reactive where Base: UISlider {
    /// The slider's value: the current value, then the value after each
    /// `.valueChanged`. Elements set it.
    public var value: ControlProperty<Float> {
        controlPropertyWithDefaultEvents(getter: { $0.value }, setter: { $0.value = $1 })
    }
}
#endif

#if os(iOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
@MainActor
extension Reactive where Base: UIStepper {
    /// The stepper's value: the current value, then the value after each
    /// `.valueChanged`. Elements set it.
    public var value: ControlProperty<Double> {
        controlPropertyWithDefaultEvents(getter: { $0.value }, setter: { $0.value = $1 })
    }
}
#endif

@MainActor
extension Reactive where Base: UISegmentedControl {
    /// The selected segment's index: the current one, then the index after
    /// each `.valueChanged`. Elements select a segment.
    public var selectedSegmentIndex: ControlProperty<Int> {
        value
    }

    /// The same property as ``selectedSegmentIndex``.
    public var value: ControlProperty<Int> {
        controlPropertyWithDefaultEvents(getter: { $0.selectedSegmentIndex }, setter: { $0.selectedSegmentIndex = $1 })
    }

    /// Enables or disables the segment at `index`.
    public func enabledForSegment(at index: Int) -> Binder<Bool> {
        Binder(base) { control, enabled in control.setEnabled(enabled, forSegmentAt: index) }
    }

    /// Sets the title of the segment at `index`.
    public func titleForSegment(at index: Int) -> Binder<String?> {
        Binder(base) { control, title in control.setTitle(title, forSegmentAt: index) }
    }
}

#if os(iOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
@MainActor
extension Reactive where Base: UIDatePicker {
    /// The picked date: the current one, then the date after each
    /// `.valueChanged`. Elements set it.
    public var date: ControlProperty<Date> {
        value
    }

    /// The same property as ``date``.
    public var value: ControlProperty<Date> {
        controlPropertyWithDefaultEvents(getter: { $0.date }, setter: { $0.date = $1 })
    }

    /// The count-down duration: the current one, then after each `.valueChanged`.
    public var countDownDuration: ControlProperty<TimeInterval> {
        controlPropertyWithDefaultEvents(getter: { $0.countDownDuration }, setter: { $0.countDownDuration = $1 })
    }
}
#endif

#if os(iOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
@MainActor
extension Reactive where Base: UIRefreshControl {
    /// `true` begins refreshing, `false` ends it.
    public var isRefreshing: Binder<Bool> {
        Binder(base) { control, refreshing in
            if refreshing {
                control.beginRefreshing()
            } else {
                control.endRefreshing()
            }
        }
    }
}
#endif

@MainActor
extension Reactive where Base: UIActivityIndicatorView {
    /// `true` starts the animation, `false` stops it.
    public var isAnimating: Binder<Bool> {
        Binder(base) { indicator, animating in
            if animating {
                indicator.startAnimating()
            } else {
                indicator.stopAnimating()
            }
        }
    }
}

@MainActor
extension Reactive where Base: UIBarButtonItem {
    /// The item's taps: `()` each time the user taps it. A bar button item has
    /// one target and action (no closure API before iOS 14, and its
    /// `primaryAction` would replace its title and image): subscribing makes
    /// Ripple its target, as in RxCocoa; the subscriptions share that target.
    /// Completes when the item is deallocated.
    public var tap: ControlEvent<Void> {
        let source = BarButtonItemTaps.shared(for: base)
        return ControlEvent(events: source)
    }
}

@MainActor
enum BarButtonItemTaps {
    private static let key = AssociationKey()

    private final class Holder {
        let events: Observable<Void>
        init(events: Observable<Void>) { self.events = events }
    }

    static func shared(for item: UIBarButtonItem) -> Observable<Void> {
        if let holder = objc_getAssociatedObject(item, key.pointer) as? Holder {
            return holder.events
        }
        let events = Observable<Void>.create { [weak item] observer in
            guard let item else {
                observer.on(.completed)
                return Disposables.create()
            }
            let target = ActionTarget { _ in observer.on(.next(())) }
            item.target = target
            item.action = ActionTarget.action
            return MainActorDisposable { [weak item] in
                guard let item, item.target === target else { return }
                item.target = nil
                item.action = nil
            }
        }
        .take(until: Lifetime.ended(of: item))
        .share()
        // The holder does not keep the item: the events capture it weakly.
        objc_setAssociatedObject(item, key.pointer, Holder(events: events), .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        return events
    }
}

@MainActor
extension Reactive where Base: UIGestureRecognizer {
    /// The recognizer itself each time it sends its action (for a tap: once
    /// recognized; for a continuous gesture: at each state change). Completes
    /// when the recognizer is deallocated.
    public var event: ControlEvent<Base> {
        let source = Observable<Base>.create { [weak recognizer = base] observer in
            guard let recognizer else {
                observer.on(.completed)
                return Disposables.create()
            }
            let target = ActionTarget { [weak recognizer] _ in
                if let recognizer { observer.on(.next(recognizer)) }
            }
            recognizer.addTarget(target, action: ActionTarget.action)
            return MainActorDisposable { [weak recognizer] in
                recognizer?.removeTarget(target, action: ActionTarget.action)
            }
        }
        .take(until: Lifetime.ended(of: base))
        return ControlEvent(events: source)
    }
}

#if os(iOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
extension Reactive where Base: UIApplication {
    private static func event(_ name: Notification.Name) -> ControlEvent<Void> {
        ControlEvent(events: NotificationCenter.default.rx.notification(name).map { _ in () })
    }

    /// `()` for each `UIApplication.didEnterBackgroundNotification`.
    public static var didEnterBackground: ControlEvent<Void> { event(UIApplication.didEnterBackgroundNotification) }
    /// `()` for each `UIApplication.willEnterForegroundNotification`.
    public static var willEnterForeground: ControlEvent<Void> { event(UIApplication.willEnterForegroundNotification) }
    /// `()` for each `UIApplication.didFinishLaunchingNotification`.
    public static var didFinishLaunching: ControlEvent<Void> { event(UIApplication.didFinishLaunchingNotification) }
    /// `()` for each `UIApplication.didBecomeActiveNotification`.
    public static var didBecomeActive: ControlEvent<Void> { event(UIApplication.didBecomeActiveNotification) }
    /// `()` for each `UIApplication.willResignActiveNotification`.
    public static var willResignActive: ControlEvent<Void> { event(UIApplication.willResignActiveNotification) }
    /// `()` for each `UIApplication.didReceiveMemoryWarningNotification`.
    public static var didReceiveMemoryWarning: ControlEvent<Void> { event(UIApplication.didReceiveMemoryWarningNotification) }
    /// `()` for each `UIApplication.willTerminateNotification`.
    public static var willTerminate: ControlEvent<Void> { event(UIApplication.willTerminateNotification) }
    /// `()` for each `UIApplication.significantTimeChangeNotification`.
    public static var significantTimeChange: ControlEvent<Void> { event(UIApplication.significantTimeChangeNotification) }
    /// `()` for each `UIApplication.backgroundRefreshStatusDidChangeNotification`.
    public static var backgroundRefreshStatusDidChange: ControlEvent<Void> { event(UIApplication.backgroundRefreshStatusDidChangeNotification) }
    /// `()` for each `UIApplication.protectedDataWillBecomeUnavailableNotification`.
    public static var protectedDataWillBecomeUnavailable: ControlEvent<Void> { event(UIApplication.protectedDataWillBecomeUnavailableNotification) }
    /// `()` for each `UIApplication.protectedDataDidBecomeAvailableNotification`.
    public static var protectedDataDidBecomeAvailable: ControlEvent<Void> { event(UIApplication.protectedDataDidBecomeAvailableNotification) }
    /// `()` for each `UIApplication.userDidTakeScreenshotNotification`.
    public static var userDidTakeScreenshot: ControlEvent<Void> { event(UIApplication.userDidTakeScreenshotNotification) }
}
#endif
#endif
