#if os(macOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleAppKitInterface
#else
import AppKit
#endif
import Foundation
import Ripple

// RxCocoa's AppKit bindings. An NSControl has one target and one action and no
// closure API on macOS 10.15, so its events come through an `ActionTarget` that
// Ripple makes the control's target, shared by the subscriptions (as RxCocoa).
// Text changes come from the notifications AppKit posts for typing
// (`NSControl.textDidChangeNotification`, `NSText.didChangeNotification`),
// which is what RxCocoa's delegate proxies observe, without taking the
// control's delegate.

@MainActor
enum ControlTargets {
    private static let key = AssociationKey()

    private final class Holder {
        let events: Observable<Void>
        init(events: Observable<Void>) { self.events = events }
    }

    /// `()` each time `control` sends its action, shared by every subscriber.
    static func shared(for control: NSControl) -> Observable<Void> {
        if let holder = objc_getAssociatedObject(control, key.pointer) as? Holder {
            return holder.events
        }
        let events = Observable<Void>.create { [weak control] observer in
            guard let control else {
                observer.on(.completed)
                return Disposables.create()
            }
            let target = ActionTarget { _ in observer.on(.next(())) }
            control.target = target
            control.action = ActionTarget.action
            return MainActorDisposable { [weak control] in
                guard let control, control.target === target else { return }
                control.target = nil
                control.action = nil
            }
        }
        .take(until: Lifetime.ended(of: control))
        .share()
        objc_setAssociatedObject(control, key.pointer, Holder(events: events), .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        return events
    }
}

@MainActor
extension Reactive where Base: NSControl {
    /// `()` each time the control sends its action (a click, Return in a text
    /// field, a slider moved). Subscribing makes Ripple the control's target.
    /// Completes when the control is deallocated.
    public var controlEvent: ControlEvent<Void> {
        ControlEvent(events: ControlTargets.shared(for: base))
    }

    /// A property of the control: its value (read with `getter`) on
    /// subscription, then again each time the control sends its action.
    /// Elements are applied with `setter`; changes made from code send nothing.
    public func controlProperty<T>(getter: @escaping (Base) -> T, setter: @escaping (Base, T) -> Void) -> ControlProperty<T> {
        let source = ControlTargets.shared(for: base)
            .startWith(())
            .flatMap { [weak base] _ -> Observable<T> in
                MainActor.assumeIsolated {
                    guard let base else { return .empty() }
                    return .just(getter(base))
                }
            }
        return ControlProperty(values: source, valueSink: Binder(base, binding: setter))
    }
}

@MainActor
extension Reactive where Base: NSButton {
    /// `()` for each click.
    public var tap: ControlEvent<Void> {
        controlEvent
    }

    /// The button's state: the current one, then the state after each click.
    public var state: ControlProperty<NSControl.StateValue> {
        controlProperty(getter: { $0.state }, setter: { $0.state = $1 })
    }
}

@MainActor
extension Reactive where Base: NSSlider {
    /// The slider's value: the current one, then the value after each move.
    public var value: ControlProperty<Double> {
        controlProperty(getter: { $0.doubleValue }, setter: { $0.doubleValue = $1 })
    }
}

@MainActor
extension Reactive where Base: NSTextField {
    /// The field's text: the current `stringValue` on subscription, then the
    /// text after each change the user makes (`NSControl.textDidChangeNotification`).
    /// Setting `stringValue` from code sends nothing. Elements set it (`nil` as `""`).
    public var text: ControlProperty<String?> {
        let source = Observable<String?>.deferred { [weak field = base] in
            guard let field else { return .empty() }
            return NotificationCenter.default.rx.notification(NSControl.textDidChangeNotification, object: field)
                .map { [weak field] _ in MainActor.assumeIsolated { field?.stringValue } }
                .startWith(field.stringValue)
        }
        .take(until: Lifetime.ended(of: base))
        return ControlProperty(values: source, valueSink: Binder(base) { (field: NSTextField, value: String?) in
            field.stringValue = value ?? ""
        })
    }
}

@MainActor
extension Reactive where Base: NSTextView {
    /// The text view's string: the current one on subscription, then the
    /// string after each change the user makes (`NSText.didChangeNotification`).
    /// Elements set it.
    public var string: ControlProperty<String> {
        let source = Observable<String>.deferred { [weak textView = base] in
            guard let textView else { return .empty() }
            return NotificationCenter.default.rx.notification(NSText.didChangeNotification, object: textView)
                .map { [weak textView] _ in MainActor.assumeIsolated { textView?.string ?? "" } }
                .startWith(textView.string)
        }
        .take(until: Lifetime.ended(of: base))
        return ControlProperty(values: source, valueSink: Binder(base) { (textView: NSTextView, value: String) in
            textView.string = value
        })
    }
}

@MainActor
extension Reactive where Base: NSView {
    /// Sets the view's `alphaValue`. (`rx.isHidden` comes from `Reactive`'s
    /// dynamic member lookup, as in RxCocoa.)
    public var alpha: Binder<CGFloat> {
        Binder(base) { view, value in view.alphaValue = value }
    }
}
#endif
