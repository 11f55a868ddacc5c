import Foundation
import Ripple
import RippleTest
import XCTest

final class NamedTests: RippleTestCase {
    func testEventsPassThroughUnchanged() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--b--|")
        let res = scheduler.start { xs.named("letters") }
        assertMarbles(res, "--a--b--|")
        assertSubscriptions(xs, "^-------!")
    }

    func testErrorAndDisposeMidFlight() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = try scheduler.createHotObservable("--a--#", error: testError)
        assertMarbles(scheduler.start { failing.named("failing") }, "--a--#", error: testError)
        assertSubscriptions(failing, "^----!")

        let scheduler2 = TestScheduler(initialClock: 0)
        let open = try scheduler2.createHotObservable("--a-----b")
        let res = scheduler2.start(disposed: 250) { open.named("open") }
        assertMarbles(res, "--a")
        assertSubscriptions(open, "^----!")

        let scheduler3 = TestScheduler(initialClock: 0)
        let empty = try scheduler3.createColdObservable("|")
        assertMarbles(scheduler3.start { empty.named("empty") }, "|")
        assertSubscriptions(empty, "(^!)")   // completed one tick after subscribing: the same frame
    }

    func testLiveSubscriptionsAreCountedByName() {
        XCTAssertEqual(Resources.namedSubscriptions, [:])
        let subject = PublishSubject<Int>()
        let first = subject.named("query").subscribe(onNext: { _ in })
        let second = subject.named("query").subscribe(onNext: { _ in })
        let third = subject.map { $0 * 2 }.named("doubled").subscribe(onNext: { _ in })
        XCTAssertEqual(Resources.namedSubscriptions, ["query": 2, "doubled": 1])
        XCTAssertEqual(Resources.liveNamedSubscriptions.map(\.name), ["query", "query", "doubled"])

        first.dispose()
        XCTAssertEqual(Resources.namedSubscriptions, ["query": 1, "doubled": 1])
        subject.onCompleted()   // terminal events end the other two
        XCTAssertEqual(Resources.namedSubscriptions, [:])
        second.dispose()
        third.dispose()
        XCTAssertEqual(Resources.namedSubscriptions, [:])
    }

    func testIdentifiersAreUniqueAndDescribed() {
        let subject = PublishSubject<Int>()
        let a = subject.named("a").subscribe(onNext: { _ in })
        let b = subject.named("a").subscribe(onNext: { _ in })
        let live = Resources.liveNamedSubscriptions
        XCTAssertEqual(live.count, 2)
        XCTAssertLessThan(live[0].id, live[1].id)
        XCTAssertEqual(live[0].description, "a #\(live[0].id)")
        a.dispose()
        b.dispose()
    }

    func testScopeAttributesSubscriptionsMadeWhileItRuns() {
        let subject = PublishSubject<Int>()
        let outside = subject.named("outside").subscribe(onNext: { _ in })
        let outer = NamedSubscriptionScope()
        let inner = NamedSubscriptionScope()
        var kept: [Disposable] = []
        outer.run {
            kept.append(subject.named("outer").subscribe(onNext: { _ in }))
            inner.run {
                kept.append(subject.named("inner").subscribe(onNext: { _ in }))
                subject.named("finished").take(1).subscribe(onNext: { _ in }).dispose()
            }
        }
        XCTAssertEqual(outer.liveSubscriptions.map(\.name), ["outer", "inner"])
        XCTAssertEqual(inner.liveSubscriptions.map(\.name), ["inner"])
        XCTAssertEqual(outer.subscriptionCount, 3)
        XCTAssertEqual(inner.subscriptionCount, 2)
        kept.forEach { $0.dispose() }
        XCTAssertEqual(outer.liveSubscriptions, [])
        outside.dispose()
    }

    func testAsyncScopeFollowsTheTask() async {
        let subject = PublishSubject<Int>()
        let scope = NamedSubscriptionScope()
        let disposable = await scope.run { () async -> Disposable in
            await Task.yield()
            return subject.named("async").subscribe(onNext: { _ in })
        }
        XCTAssertEqual(scope.liveSubscriptions.map(\.name), ["async"])
        disposable.dispose()
        XCTAssertEqual(scope.liveSubscriptions, [])
    }

    func testNamedStreamsAreReusable() {
        let named = Observable.of(1, 2, 3).named("numbers")
        XCTAssertEqual(record(named).0.values, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(record(named).0.values, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(Resources.namedSubscriptions, [:])
    }

    func testReentrantEmissionThroughANamedStream() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.named("echo").subscribe(onNext: { value in
            received.append(value)
            if value < 3 { subject.onNext(value + 1) }
        })
        subject.onNext(1)
        XCTAssertEqual(received, [1, 2, 3])
        subscription.dispose()
    }
}
