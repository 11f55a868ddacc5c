import Ripple
import RippleTest

/// A resource for `using` that records when (in virtual time) it was disposed.
final class VirtualTimeResource: Disposable, @unchecked Sendable {
    private let scheduler: TestScheduler
    private(set) var disposedAt: [TestTime] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func dispose() {
        disposedAt.append(scheduler.clock)
    }
}

extension TestScheduler {
    /// A cold `Single` that succeeds with `element` `delay` ticks after each
    /// subscription, and the test observable behind it.
    func coldSingle<Element>(_ delay: TestTime, _ element: Element) -> (TestableObservable<Element>, Single<Element>) {
        let xs = createColdObservable([.next(delay, element), .completed(delay)])
        return (xs, xs.asSingle())
    }

    /// A cold `Single` that fails with `error` `delay` ticks after each subscription.
    func coldFailingSingle<Element>(_ delay: TestTime, _ error: Swift.Error, _ type: Element.Type = Element.self) -> (TestableObservable<Element>, Single<Element>) {
        let xs = createColdObservable([Recorded<Event<Element>>.error(delay, error)])
        return (xs, xs.asSingle())
    }

    /// A hot `Single` that succeeds with `element` at `time`.
    func hotSingle<Element>(_ time: TestTime, _ element: Element) -> (TestableObservable<Element>, Single<Element>) {
        let xs = createHotObservable([.next(time, element), .completed(time)])
        return (xs, xs.asSingle())
    }

    /// A hot `Single` that fails with `error` at `time`.
    func hotFailingSingle<Element>(_ time: TestTime, _ error: Swift.Error, _ type: Element.Type = Element.self) -> (TestableObservable<Element>, Single<Element>) {
        let xs = createHotObservable([Recorded<Event<Element>>.error(time, error)])
        return (xs, xs.asSingle())
    }

    /// A cold `Maybe` that succeeds with `element` (or completes empty when it is
    /// `nil`) `delay` ticks after each subscription.
    func coldMaybe<Element>(_ delay: TestTime, _ element: Element?, _ type: Element.Type = Element.self) -> (TestableObservable<Element>, Maybe<Element>) {
        let events: [Recorded<Event<Element>>] = element.map { [.next(delay, $0), .completed(delay)] } ?? [.completed(delay)]
        let xs = createColdObservable(events)
        return (xs, xs.asMaybe())
    }

    /// A hot `Maybe` that succeeds with `element` (or completes empty when it is
    /// `nil`) at `time`.
    func hotMaybe<Element>(_ time: TestTime, _ element: Element?, _ type: Element.Type = Element.self) -> (TestableObservable<Element>, Maybe<Element>) {
        let events: [Recorded<Event<Element>>] = element.map { [.next(time, $0), .completed(time)] } ?? [.completed(time)]
        let xs = createHotObservable(events)
        return (xs, xs.asMaybe())
    }

    /// A cold `Completable` that completes `delay` ticks after each subscription.
    func coldCompletable(_ delay: TestTime) -> (TestableObservable<Never>, Completable) {
        let xs = createColdObservable([Recorded<Event<Never>>.completed(delay)])
        return (xs, xs.asCompletable())
    }

    /// A cold `Completable` that fails with `error` `delay` ticks after each
    /// subscription.
    func coldFailingCompletable(_ delay: TestTime, _ error: Swift.Error) -> (TestableObservable<Never>, Completable) {
        let xs = createColdObservable([Recorded<Event<Never>>.error(delay, error)])
        return (xs, xs.asCompletable())
    }

    /// A hot `Completable` that completes at `time`.
    func hotCompletable(_ time: TestTime) -> (TestableObservable<Never>, Completable) {
        let xs = createHotObservable([Recorded<Event<Never>>.completed(time)])
        return (xs, xs.asCompletable())
    }
}
