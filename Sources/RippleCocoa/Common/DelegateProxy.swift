#if os(iOS) || os(tvOS) || os(visionOS) || os(macOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleObjCInterface
#endif
import Foundation
import Ripple

/// The object a view's delegate (or data source) property points to once a
/// binding needs it: it implements the methods Ripple observes, passes each on
/// to the delegate the app had set (or sets with `rx.setDelegate(_:)`), and
/// hands every other message to that delegate through `forwardingTarget(for:)`,
/// so the app's delegate keeps receiving what Ripple does not handle.
///
/// The proxy is kept alive by its view (an associated object), like RxCocoa's,
/// and completes its events when the view goes away. It holds the app's
/// delegate weakly (strongly for a data source given to `rx.items(dataSource:)`).
///
/// Unlike RxCocoa's `DelegateProxy`, it does not intercept arbitrary methods
/// through the Objective-C runtime (`methodInvoked`, `sentMessage`): each
/// observed method is written out in Swift.
@MainActor
class DelegateProxy: NSObject {
    /// Read from `responds(to:)`/`forwardingTarget(for:)`, which UIKit may call
    /// from any isolation as far as Swift knows: kept behind a lock.
    private final class Forwarding: @unchecked Sendable {
        private let lock = PlatformLock()
        private weak var weakDelegate: AnyObject?
        private var retainedDelegate: AnyObject?
        private var observed: Set<Selector> = []

        var delegate: AnyObject? {
            lock.withLock { retainedDelegate ?? weakDelegate }
        }

        func set(_ delegate: AnyObject?, retain: Bool) {
            let released: AnyObject? = lock.withLock {
                let old = retainedDelegate
                weakDelegate = delegate
                retainedDelegate = retain ? delegate : nil
                return old
            }
            _ = released
        }

        func setObserved(_ selector: Selector, _ isObserved: Bool) {
            lock.withLock {
                if isObserved { observed.insert(selector) } else { observed.remove(selector) }
            }
        }

        func isObserved(_ selector: Selector) -> Bool {
            lock.withLock { observed.contains(selector) }
        }
    }

    private let forwarding = Forwarding()

    /// Optional methods the proxy implements whose mere presence changes what
    /// the view does (a data source that implements `tableView(_:commit:forRowAt:)`
    /// gets swipe-to-delete): the proxy answers that it responds to them only
    /// while they are observed or the app's delegate implements them, as
    /// RxCocoa's proxies do.
    nonisolated var conditionalSelectors: Set<Selector> { [] }

    /// Puts the proxy back into its view's delegate property, so that the view
    /// asks again which optional methods it responds to (UIKit caches the answers).
    var reassign: (() -> Void)?

    /// The delegate the app set, which receives everything the proxy passes on.
    var forwardDelegate: AnyObject? { forwarding.delegate }

    func setForwardDelegate(_ delegate: AnyObject?, retain: Bool) {
        forwarding.set(delegate, retain: retain)
        reassign?()
    }

    /// Counts the subscribers of a conditional method; the view is told when
    /// the answer of `responds(to:)` changes.
    private var observerCounts: [Selector: Int] = [:]

    func whileObserved<Element>(_ selector: Selector, _ events: Observable<Element>) -> Observable<Element> {
        Observable.create { [weak self] observer in
            guard let self else { return Disposables.create() }
            let subscription = events.subscribe(observer)
            self.changeObservers(of: selector, by: 1)
            return Disposables.create {
                subscription.dispose()
                MainActorDisposable { [weak self] in self?.changeObservers(of: selector, by: -1) }.dispose()
            }
        }
    }

    private func changeObservers(of selector: Selector, by delta: Int) {
        let count = (observerCounts[selector] ?? 0) + delta
        observerCounts[selector] = count
        let isObserved = count > 0
        if isObserved != forwarding.isObserved(selector) {
            forwarding.setObserved(selector, isObserved)
            reassign?()
        }
    }

    /// Whether the proxy should say it responds to `selector`, given whether it
    /// implements it: the logic of `responds(to:)` on both platforms.
    nonisolated func proxyResponds(to selector: Selector, implemented: Bool) -> Bool {
        if conditionalSelectors.contains(selector) {
            return forwarding.isObserved(selector) || delegateResponds(to: selector)
        }
        return implemented || delegateResponds(to: selector)
    }

    nonisolated func delegateResponds(to selector: Selector) -> Bool {
        #if RIPPLE_COCOA_INTERFACE
        return MainActor.assumeIsolated { ObjCMessage.responds(forwarding.delegate, to: selector) }
        #else
        return (forwarding.delegate as? NSObjectProtocol)?.responds(to: selector) ?? false
        #endif
    }

    #if RIPPLE_COCOA_INTERFACE
    // The interface's simulated runtime sends a message, and finds out by
    // sending it whether the proxy implements it.
    nonisolated func responds(to aSelector: Selector!) -> Bool {
        proxyResponds(to: aSelector, implemented: true)
    }

    nonisolated func forwardingTarget(for aSelector: Selector!) -> Any? {
        forwarding.delegate
    }
    #else
    nonisolated override func responds(to aSelector: Selector!) -> Bool {
        guard let aSelector else { return false }
        return proxyResponds(to: aSelector, implemented: super.responds(to: aSelector))
    }

    nonisolated override func forwardingTarget(for aSelector: Selector!) -> Any? {
        guard let aSelector, delegateResponds(to: aSelector) else { return nil }
        return forwarding.delegate
    }
    #endif
}

#if RIPPLE_COCOA_INTERFACE
extension DelegateProxy: SimulatedMessageReceiver {}
#endif

/// A per-view key for associated objects, one per proxy kind.
final class AssociationKey: Sendable {
    var pointer: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }
}

extension DelegateProxy {
    /// The proxy of kind `key` installed on `parent`, created and installed if
    /// needed: the delegate the app had set goes behind it.
    static func installed<Proxy: DelegateProxy>(
        _ key: AssociationKey, on parent: AnyObject, make: () -> Proxy,
        current: @escaping () -> AnyObject?, assign: @escaping (Proxy?) -> Void
    ) -> Proxy {
        let proxy: Proxy
        if let existing = objc_getAssociatedObject(parent, key.pointer) as? Proxy {
            proxy = existing
        } else {
            proxy = make()
            objc_setAssociatedObject(parent, key.pointer, proxy, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            proxy.reassign = { [weak proxy] in
                guard let proxy, current() === proxy else { return }
                assign(nil)
                assign(proxy)
            }
        }
        let currentDelegate = current()
        if currentDelegate !== proxy {
            proxy.setForwardDelegate(currentDelegate, retain: false)
            assign(proxy)
        }
        return proxy
    }

    /// Puts `delegate` behind `proxy` until the returned disposable is disposed.
    static func installForwardDelegate(_ delegate: AnyObject, retain: Bool, on proxy: DelegateProxy) -> Disposable {
        proxy.setForwardDelegate(delegate, retain: retain)
        let installed = ObjectIdentifier(delegate)
        return MainActorDisposable { [weak proxy] in
            // Only if it is still the delegate this call installed (or it is gone).
            guard let proxy else { return }
            if let current = proxy.forwardDelegate, ObjectIdentifier(current) != installed { return }
            proxy.setForwardDelegate(nil, retain: retain)
        }
    }
}
#endif
