import Ripple
import RippleTest
import XCTest

final class SampleTests: RippleTestCase {
    func testSamplesLatestElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6), .completed(390),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), .completed(500),
        ])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3), .next(320, 6), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 390)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 500)])
    }

    func testDefaultValueWhenNothingNew() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6), .completed(390),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), .completed(500),
        ])
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        XCTAssertEqual(res.events, [.next(210, 0), .next(250, 3), .next(260, 0), .next(320, 6), .next(500, 0), .completed(500)])
    }

    func testSamplerCompletionSamples() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .completed(230)])
        let ys = scheduler.createHotObservable([Recorded<Event<String>>.completed(300)])
        XCTAssertEqual(scheduler.start { xs.sample(ys) }.events, [.next(300, 2), .completed(300)])
    }

    func testSamplerCompletingFirstLeavesTheResultOpen() {
        // RxSwift: the result completes only at a sample after the source completed.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .next(260, 3), .completed(390)])
        let ys = scheduler.createHotObservable([.next(230, "a"), .completed(300)])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(230, 2), .next(300, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 390)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .error(240, testError)])
        let ys = scheduler.createHotObservable([.next(230, "a"), .next(250, "b")])
        XCTAssertEqual(scheduler.start { xs.sample(ys) }.events, [.next(230, 2), .error(240, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(220, 2), .next(260, 3)])
        let ys2 = scheduler2.createHotObservable([.next(230, "a"), .error(240, testError)])
        XCTAssertEqual(scheduler2.start { xs2.sample(ys2) }.events, [.next(230, 2), .error(240, testError)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(200, 240)])
    }

    func testEqualTimeSourceBeforeSampler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .next(240, 2)])
        let ys = scheduler.createHotObservable([.next(230, "a"), .next(240, "b")])
        XCTAssertEqual(scheduler.start { xs.sample(ys) }.events, [.next(230, 1), .next(240, 2)])
    }

    func testEmptySourceCompletesAtNextSample() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        let ys = scheduler.createHotObservable([.next(240, "a"), .next(260, "b"), .next(270, "c")])
        XCTAssertEqual(scheduler.start { xs.sample(ys) }.events, [.completed(260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    func testEachElementSampledOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(230, "b")])
        XCTAssertEqual(scheduler.start { xs.sample(ys) }.events, [.next(220, 1)])
    }

    func testDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(400, 2)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(410, "b")])
        XCTAssertEqual(scheduler.start(disposed: 300) { xs.sample(ys) }.events, [.next(220, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testReentrantSourceElementFromObserver() {
        let source = PublishSubject<Int>()
        let sampler = PublishSubject<Void>()
        var values: [Int] = []
        let subscription = source.sample(sampler).subscribe(onNext: { value in
            values.append(value)
            if value == 1 {
                source.onNext(2)
                sampler.onNext(())
            }
        })
        source.onNext(1)
        sampler.onNext(())
        XCTAssertEqual(values, [1, 2])
        subscription.dispose()
    }

    /// The latest element a new one replaces is released after the operator's
    /// lock: its `deinit` (user code) may send to the sampler, which
    /// deadlocked the sending thread when it ran under the lock.
    func testAReplacedElementWhoseDeinitSendsToTheSamplerDoesNotDeadlock() {
        let log = Recorder<String>()
        assertFinishes({ "deadlocked after \(log.values)" }()) {
            let source = PublishSubject<RunsOnDeinit?>()
            let sampler = PublishSubject<Void>()
            let subscription = source.sample(sampler).subscribe(onNext: { log.append($0 == nil ? "nil" : "value") })
            source.onNext(RunsOnDeinit { sampler.onNext(()) })
            source.onNext(nil)  // replaces the element, whose deinit samples
            subscription.dispose()
        }
        XCTAssertEqual(log.values, ["nil"])
    }
}
