import Foundation

extension NotificationCenter {
    /// The reactive extensions of the center (``Reactive/notification(_:object:)``).
    ///
    /// Declared here because swift-foundation's `NotificationCenter` (Linux,
    /// recent toolchains) is not an `NSObject`, which is how RxCocoa (and Ripple,
    /// ``ReactiveCompatible``) give other Foundation classes `.rx`. Where it is
    /// one, this declaration is the one chosen, with the same result.
    public var rx: Reactive<NotificationCenter> {
        Reactive(self)
    }
}

extension Reactive where Base: NotificationCenter {
    /// The notifications posted to this center with `name` (every name when
    /// `nil`) by `object` (every sender when `nil`): RxCocoa's
    /// `NotificationCenter.default.rx.notification(_:object:)`.
    ///
    /// Each subscription adds an observer to the center and disposing it removes
    /// the observer. A notification is delivered on the thread that posts it,
    /// before `post` returns. Never completes and never fails.
    ///
    /// Like a subject, the stream keeps the Observable contract when the center
    /// does not: notifications posted on several threads at once reach the
    /// subscriber one at a time (a post that finds another one being delivered
    /// leaves its notification to that thread and returns), and one posted by
    /// the subscriber itself, while it handles a notification, is delivered
    /// after that one instead of recursing.
    ///
    /// `object` is not retained. If it is released before a subscription, that
    /// subscription receives nothing (nothing can be posted by it any more);
    /// RxCocoa would then receive the notifications of every sender.
    ///
    /// ```swift
    /// NotificationCenter.default.rx.notification(.NSSystemClockDidChange)
    ///     .subscribe(onNext: { _ in clock.refresh() })
    ///     .disposed(by: bag)
    /// ```
    ///
    /// ```
    /// post(name):          --n1----n2---
    /// notification(name):  --n1----n2---
    /// dispose:                          ^ (the center's observer is removed)
    /// ```
    @_alwaysEmitIntoClient
    public func notification(_ name: Notification.Name?, object: AnyObject? = nil) -> Observable<Notification> {
        let center = base
        let filtersBySender = object != nil
        return Producer(site: SiteLiteral("notification")) { [weak object] observer in
            if filtersBySender && object == nil { return nil }
            let sink = SerializingSink<Void, Notification>(state: (), observer: observer)
            let token = center.addObserver(forName: name, object: object, queue: nil) { notification in
                sink.update { _, outbox in outbox.next(notification) }
            }
            sink.setUpstream(disposable: Disposables.create { center.removeObserver(token) })
            return sink
        }
    }
}
