import Ripple

/// An observable built from recorded events by a ``TestScheduler``; it records
/// when it was subscribed and unsubscribed.
public class TestableObservable<Element>: ObservableType, @unchecked Sendable {
    /// The events this observable sends.
    public let recordedEvents: [Recorded<Event<Element>>]

    let testScheduler: TestScheduler
    let subscriptionLog = LockedBox<[Subscription]>([])

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.testScheduler = testScheduler
        self.recordedEvents = recordedEvents
    }

    /// Each subscription's subscribe and unsubscribe times.
    public var subscriptions: [Subscription] {
        subscriptionLog.value
    }

    /// Subscribes `observer`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("TestableObservable.subscribe(_:) is abstract")
    }

    /// Records a subscription starting now; returns a closure that records its end.
    func recordSubscription() -> () -> Void {
        let start = testScheduler.clock
        let index = subscriptionLog.withLock { log -> Int in
            log.append(Subscription(start))
            return log.count - 1
        }
        return { [self] in
            let end = testScheduler.clock
            subscriptionLog.withLock { log in
                log[index] = Subscription(log[index].subscribe, end)
            }
        }
    }
}

/// Sends its events at their absolute times to whoever is subscribed then.
final class HotObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    private let observers = LockedBox<[Int: AnyObserver<Element>]>([:])
    private let nextKey = LockedBox(0)

    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            testScheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                let current = self.observers.value.sorted { $0.key < $1.key }.map(\.value)
                for observer in current {
                    observer.on(recorded.value)
                }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let key = nextKey.withLock { key -> Int in
            defer { key += 1 }
            return key
        }
        observers.withLock { $0[key] = AnyObserver(observer) }
        let end = recordSubscription()
        return Disposables.create { [self] in
            // Released after the lock: releasing an observer may run user code.
            let removed = observers.withLock { $0.removeValue(forKey: key) }
            withExtendedLifetime(removed) {}
            end()
        }
    }
}

/// Sends its events relative to each subscription's time.
final class ColdObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let end = recordSubscription()
        let scheduled = CompositeDisposable()
        for recorded in recordedEvents {
            _ = scheduled.insert(testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                observer.on(recorded.value)
                return Disposables.create()
            })
        }
        return Disposables.create {
            end()
            scheduled.dispose()
        }
    }
}
