#if canImport(ObjectiveC)
import Foundation
import ObjectiveC

extension Reactive where Base: AnyObject {
    /// Sends `()` and completes when the object is deallocated: RxCocoa's
    /// `rx.deallocated`, typically used as `take(until: owner.rx.deallocated)`.
    ///
    /// The object keeps the sequence in an Objective-C associated object, so the
    /// sequence does not keep the object alive; subscribing after the object is
    /// gone is impossible (there is no object to ask). Every call for the same
    /// object returns the same sequence, which replays its element and
    /// completion to late subscribers. The element is sent while the object is
    /// being deallocated, on the thread that releases it.
    ///
    /// Apple platforms only: Linux has no associated objects and no way to watch
    /// the deallocation of an object you do not own. There, end the subscription
    /// with a `DisposeBag` owned by the object, which is what its deallocation
    /// disposes.
    ///
    /// ```
    /// deallocated:  --------(()|)    (the object's last reference went away)
    /// ```
    public var deallocated: Observable<Void> {
        DeallocationWatcher.watcher(of: base).subject.asObservable()
    }
}

/// The associated object behind ``Reactive/deallocated``: released with the
/// object it is attached to, it then completes its subject.
private final class DeallocationWatcher {
    let subject = ReplaySubject<Void>.create(bufferSize: 1)

    deinit {
        subject.on(.next(()))
        subject.on(.completed)
    }

    /// The key's address identifies the associated object; a constant object's
    /// address is stable without a global variable.
    private static let keyObject = Key()
    private final class Key: Sendable {}
    /// Makes "look up, or attach a new watcher" one step.
    private static let lock = PlatformLock()

    static func watcher(of object: AnyObject) -> DeallocationWatcher {
        let key = UnsafeRawPointer(Unmanaged.passUnretained(keyObject).toOpaque())
        return lock.withLock {
            if let existing = objc_getAssociatedObject(object, key) as? DeallocationWatcher {
                return existing
            }
            let watcher = DeallocationWatcher()
            objc_setAssociatedObject(object, key, watcher, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            return watcher
        }
    }
}
#endif
