// How RippleCocoa's sources see the platform. On Apple platforms they import
// UIKit or AppKit and the Objective-C runtime; on Linux (`RIPPLE_COCOA_INTERFACE`,
// set by Package.swift) the interface targets, which declare the same API. The
// few places where the two must be spelled differently are marked
// `#if RIPPLE_COCOA_INTERFACE` in the file that needs them:
// - how an action method is named (`#selector` needs `@objc`, which Linux lacks);
// - how a delegate proxy's `responds(to:)`/`forwardingTarget(for:)` are declared
//   (overrides of NSObject's on Apple platforms);
// - how a proxy calls an optional method of the app's delegate (`?(…)` on an
//   `@objc optional` requirement on Apple platforms);
// - which optional methods RippleCocoa's own data sources implement, which the
//   runtime reads from the class on Apple platforms (`SimulatedMethodList`).
#if os(iOS) || os(tvOS) || os(visionOS) || os(macOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleObjCInterface
#endif
import Foundation
import Ripple

/// A disposable whose action touches main-actor state: it runs once, on the
/// main thread at once when disposed there (the usual case: `ControlEvent` and
/// `ControlProperty` dispose on the main queue), otherwise from the main queue.
final class MainActorDisposable: Disposable, @unchecked Sendable {
    private let lock = PlatformLock()
    private var action: (@MainActor @Sendable () -> Void)?

    init(_ action: @escaping @MainActor @Sendable () -> Void) {
        self.action = action
    }

    func dispose() {
        lock.lock()
        let action = self.action
        self.action = nil
        lock.unlock()
        guard let action else { return }
        if Thread.isMainThread {
            MainActor.assumeIsolated { action() }
        } else {
            DispatchQueue.main.async { action() }
        }
    }
}

/// The end of an object's life as an observable: sends `()` and completes when
/// the object is deallocated (RxCocoa's `rx.deallocated`, which RxCocoa's
/// bindings end with `take(until:)`). Kept in an associated object of the
/// object, released with it by the Objective-C runtime (the interface's
/// simulated runtime on Linux).
enum Lifetime {
    private final class Token {
        let subject = ReplaySubject<Void>.create(bufferSize: 1)
        deinit {
            subject.on(.next(()))
            subject.on(.completed)
        }
    }

    private final class Key: Sendable {}
    private static let key = Key()
    private static let lock = PlatformLock()

    static func ended(of object: AnyObject) -> Observable<Void> {
        let key = UnsafeRawPointer(Unmanaged.passUnretained(Self.key).toOpaque())
        return lock.withLock {
            if let token = objc_getAssociatedObject(object, key) as? Token {
                return token.subject.asObservable()
            }
            let token = Token()
            objc_setAssociatedObject(object, key, token, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            return token.subject.asObservable()
        }
    }
}

/// The target of a target-action pair: AppKit's controls, bar button items and
/// gesture recognizers have no closure-based API (and UIControl none before
/// iOS 14), so RippleCocoa registers one of these and forwards the action to
/// `handler`. The control holds it weakly; whoever registers it keeps it.
@MainActor
final class ActionTarget: NSObject {
    private let handler: @MainActor (Any?) -> Void

    init(_ handler: @escaping @MainActor (Any?) -> Void) {
        self.handler = handler
        super.init()
    }

    #if RIPPLE_COCOA_INTERFACE
    /// The action's name; the interface's simulated runtime calls `performAction`.
    static let action = Selector("fire:")
    func fire(_ sender: Any?) { handler(sender) }
    #else
    static let action = #selector(ActionTarget.fire(_:))
    @objc func fire(_ sender: Any?) { handler(sender) }
    #endif
}

#if RIPPLE_COCOA_INTERFACE
extension ActionTarget: SimulatedActionReceiver {
    func performAction(_ action: Selector, sender: Any?) -> Bool {
        guard action == Self.action else { return false }
        fire(sender)
        return true
    }
}
#endif
#endif
