import Foundation
import Ripple
import RippleTest
import XCTest

/// `subscribe(on:)` with schedulers that run the subscription at once. RxSwift
/// delivers everything here (`of(1, 2).subscribe(on: MainScheduler.instance)` on
/// the main thread gives `[1, 2]`); Ripple used to dispose the subscription the
/// action had just made and deliver nothing.
final class SubscribeOnTests: RippleTestCase {
    /// Runs the action synchronously inside `schedule`, as a scheduler that is
    /// already on its thread does.
    final class ImmediateScheduler: ImmediateSchedulerType, @unchecked Sendable {
        func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
            action(state)
        }
    }

    private func collect(_ source: Observable<Int>) -> [Event<Int>] {
        let (recorder, subscription) = record(source)
        subscription.dispose()
        return recorder.values
    }

    func testSubscribeOnMainSchedulerFromTheMainThreadDeliversEverything() {
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertEqual(collect(Observable.of(1, 2).subscribe(on: MainScheduler.instance)), [.next(1), .next(2), .completed])
    }

    func testSubscribeOnConcurrentMainSchedulerFromTheMainThreadDeliversEverything() {
        XCTAssertEqual(collect(Observable.of(1, 2).subscribe(on: ConcurrentMainScheduler.instance)),
                       [.next(1), .next(2), .completed])
    }

    func testSubscribeOnIdleCurrentThreadSchedulerDeliversEverything() {
        XCTAssertEqual(collect(Observable.of(1, 2).subscribe(on: CurrentThreadScheduler.instance)),
                       [.next(1), .next(2), .completed])
    }

    func testSubscribeOnImmediateSchedulerDeliversEverything() {
        XCTAssertEqual(collect(Observable.of(1, 2).subscribe(on: ImmediateScheduler())), [.next(1), .next(2), .completed])
    }

    /// The source subscription made synchronously stays alive until the subscriber
    /// disposes: a hot source keeps delivering.
    func testSubscriptionMadeImmediatelyStaysAliveUntilDisposed() {
        let subject = PublishSubject<Int>()
        let (recorder, subscription) = record(subject.subscribe(on: ImmediateScheduler()))
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertTrue(subject.hasObservers)
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(3)
        XCTAssertEqual(recorder.values, [.next(1), .next(2)])
    }

    /// Disposing before the scheduled subscription ran cancels it: the source is
    /// never subscribed.
    func testDisposingBeforeTheScheduledSubscriptionRunsCancelsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        var subscribed = 0
        let source = Observable<Int>.create { _ in
            subscribed += 1
            return Disposables.create()
        }
        let subscription = source.subscribe(on: scheduler).subscribe()
        subscription.dispose()
        scheduler.start()
        XCTAssertEqual(subscribed, 0)
    }
}
