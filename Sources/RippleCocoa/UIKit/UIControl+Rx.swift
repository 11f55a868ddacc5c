#if os(iOS) || os(tvOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleUIKitInterface
#else
import UIKit
#endif
import Foundation
import Ripple

/// How a binding hears a control's events. iOS and tvOS 14 and later: a
/// closure-based `UIAction` with an identifier unique to the subscription,
/// added with `addAction(_:for:)` and removed by that identifier on disposal.
/// iOS and tvOS 13 (the package's minimum), which have no `addAction`: a
/// target-action pair with an `ActionTarget`, the one place UIControl bindings
/// need the Objective-C runtime. Both paths deliver the same events in the
/// same order; the tests run both (`usesTargetAction`).
@MainActor
enum ControlActions {
    /// Tests set it to run the iOS 13 path (target-action) where the iOS 14 API exists.
    static var usesTargetAction = false

    static func add(to control: UIControl, for events: UIControl.Event, _ handler: @escaping @MainActor () -> Void) -> Disposable {
        if #available(iOS 14.0, tvOS 14.0, *), !usesTargetAction {
            let identifier = UIAction.Identifier("ripple.\(UUID().uuidString)")
            control.addAction(UIAction(identifier: identifier) { _ in handler() }, for: events)
            return MainActorDisposable { [weak control] in
                control?.removeAction(identifiedBy: identifier, for: events)
            }
        }
        let target = ActionTarget { _ in handler() }
        control.addTarget(target, action: ActionTarget.action, for: events)
        // The control holds its targets weakly: the disposable keeps this one.
        return MainActorDisposable { [weak control] in
            control?.removeTarget(target, action: ActionTarget.action, for: events)
        }
    }
}

@MainActor
extension Reactive where Base: UIControl {
    /// The control's `controlEvents` as events: one `()` each time the control
    /// sends one of them (a tap, a value change, an editing event), from the
    /// moment of subscription. It completes when the control is deallocated,
    /// never fails, and is subscribed and delivered on the main thread.
    ///
    /// ```
    /// user:          --tap----tap--
    /// controlEvent:  --()-----()---
    /// ```
    public func controlEvent(_ controlEvents: UIControl.Event) -> ControlEvent<Void> {
        let source = Observable<Void>.create { [weak control = base] observer in
            guard let control else {
                observer.on(.completed)
                return Disposables.create()
            }
            return ControlActions.add(to: control, for: controlEvents) {
                observer.on(.next(()))
            }
        }
        .take(until: Lifetime.ended(of: base))
        return ControlEvent(events: source)
    }

    /// A property of the control that changes with `editingEvents`: its value
    /// (read with `getter`) when subscribed, then again each time the control
    /// sends one of `editingEvents`. Elements sent to the property are applied
    /// with `setter`. Changing the property from code sends no event, as in
    /// RxCocoa (the control sends no action then). It completes when the
    /// control is deallocated and never fails.
    ///
    /// ```
    /// user edits:        ----e1-----e2--
    /// controlProperty:   v0--v1-----v2--
    /// ```
    public func controlProperty<T>(
        editingEvents: UIControl.Event,
        getter: @escaping (Base) -> T,
        setter: @escaping (Base, T) -> Void
    ) -> ControlProperty<T> {
        let source = Observable<T>.create { [weak weakControl = base] observer in
            guard let control = weakControl else {
                observer.on(.completed)
                return Disposables.create()
            }
            observer.on(.next(getter(control)))
            return ControlActions.add(to: control, for: editingEvents) {
                if let control = weakControl {
                    observer.on(.next(getter(control)))
                }
            }
        }
        .take(until: Lifetime.ended(of: base))
        return ControlProperty(values: source, valueSink: Binder(base, binding: setter))
    }

    /// ``controlProperty(editingEvents:getter:setter:)`` with the events that
    /// change a control's value: all editing events and `.valueChanged`.
    func controlPropertyWithDefaultEvents<T>(
        editingEvents: UIControl.Event = [.allEditingEvents, .valueChanged],
        getter: @escaping (Base) -> T,
        setter: @escaping (Base, T) -> Void
    ) -> ControlProperty<T> {
        controlProperty(editingEvents: editingEvents, getter: getter, setter: setter)
    }
}
#endif
