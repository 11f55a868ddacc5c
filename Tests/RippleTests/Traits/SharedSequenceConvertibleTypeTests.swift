import Ripple
import RippleTest
import XCTest

/// Counts the work in flight and drives `true` while any runs: the shape of the
/// "activity indicator" helpers apps write. It implements only
/// `asSharedSequence()`; `asObservable()` comes from the protocol.
private final class WorkInFlight: SharedSequenceConvertibleType {
    typealias Element = Bool
    typealias SharingStrategy = DriverSharingStrategy

    private let running = BehaviorRelay(value: 0)
    private let isBusy: Driver<Bool>

    init() {
        isBusy = running.asDriver().map { $0 > 0 }.distinctUntilChanged()
    }

    func track<Element>(_ work: Observable<Element>) -> Observable<Element> {
        let running = running
        return work.do(
            onSubscribe: { running.accept(running.value + 1) },
            onDispose: { running.accept(running.value - 1) }
        )
    }

    func asSharedSequence() -> SharedSequence<DriverSharingStrategy, Bool> {
        isBusy
    }
}

final class SharedSequenceConvertibleTypeTests: XCTestCase {
    func testATypeWithOnlyAsSharedSequenceGetsAsObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let work = scheduler.createColdObservable([.next(20, "done"), .completed(30)])
        let tracker = WorkInFlight()
        let res = SharingScheduler.mock(scheduler: scheduler) { () -> TestableObserver<Bool> in
            scheduler.scheduleAt(250) { _ = tracker.track(work.asObservable()).subscribe() }
            return scheduler.start { tracker.asObservable() }
        }
        // A relay's driver delivers at once: false on subscription, busy 250–280.
        XCTAssertEqual(res.events, [.next(200, false), .next(250, true), .next(280, false)])
        XCTAssertEqual(work.subscriptions, [Subscription(250, 280)])
    }

    func testDriveWorksThroughTheDefaultAsObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let tracker = WorkInFlight()
        var values: [Bool] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let subscription = tracker.asDriver().drive(onNext: { values.append($0) })
            scheduler.scheduleAt(10) { tracker.track(Observable<Int>.never()).subscribe().dispose() }
            scheduler.start()
            subscription.dispose()
        }
        XCTAssertEqual(values, [false, true, false])
    }
}
