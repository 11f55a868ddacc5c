import Dispatch
import Foundation
import Ripple
import RippleTest
import Synchronization
import XCTest

final class SchedulingOperatorTests: RippleTestCase {
    func testObserveOnDeliversOnTheScheduler() throws {
        let queue = DispatchQueue(label: "observe-on")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
        let onQueue = Recorder<Bool>()
        let values = try Observable.of(1, 2, 3)
            .observe(on: scheduler)
            .do(onNext: { _ in onQueue.append(DispatchQueue.getSpecific(key: key) == 7) })
            .toBlocking(timeout: 5).toArray()
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertEqual(onQueue.values, [true, true, true])
    }

    func testObserveOnConcurrentSchedulerStillSerializes() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let received = Recorder<Int>()
        let subject = PublishSubject<Int>()
        let done = expectation(description: "all delivered")
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
            if inside.add(1, ordering: .acquiringAndReleasing).oldValue != 0 { overlaps.add(1, ordering: .relaxed) }
            received.append(value)
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }, onCompleted: { done.fulfill() })
        for value in 0..<5_000 { subject.onNext(value) }
        subject.onCompleted()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(overlaps.load(ordering: .relaxed), 0)
        XCTAssertEqual(received.values, Array(0..<5_000))
        subscription.dispose()
    }

    func testObserveOnVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .next(221, 2), .completed(231)])
    }

    func testObserveOnDisposeStopsPendingEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start(disposed: 220) { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1)])
    }

    func testObserveOnMainSchedulerFromMainIsSynchronous() {
        var values: [Int] = []
        let subscription = Observable.of(1, 2).observe(on: MainScheduler.instance).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [1, 2])
        subscription.dispose()
    }

    func testSubscribeOnMovesSubscriptionWork() {
        let subscribedOnMain = Recorder<Bool>()
        let source = Observable<Int>.create { observer in
            subscribedOnMain.append(Thread.isMainThread)
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create()
        }
        let values = try? source.subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default)).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(values, [1])
        XCTAssertEqual(subscribedOnMain.values, [false])
    }

    func testSubscribeOnVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .completed(221)])
        // The unsubscription is scheduled too, one tick after the completion (RxSwift).
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 222)])
    }

    func testSubscribeOnSubscribesAndDisposesOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var subscribedAt = 0
        var disposedAt = 0
        let xs = Observable<Int>.create { _ in
            subscribedAt = scheduler.clock
            return Disposables.create { disposedAt = scheduler.clock }
        }
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(subscribedAt, 201)
        XCTAssertEqual(disposedAt, 1001)
    }

    func testSubscribeOnCompletedHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(300)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testSubscribeOnDisposeBeforeSubscriptionRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1)])
        let res = scheduler.start(created: 100, subscribed: 200, disposed: 200) { xs.asObservable().subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [])
    }

    @available(*, deprecated)
    func testDeprecatedSpellingsForward() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start { xs.asObservable().observeOn(scheduler).subscribeOn(scheduler) }
        XCTAssertEqual(res.events.count, 2)
    }
}

final class DebugOperatorTests: RippleTestCase {
    func testDebugPrintsRxSwiftFormat() {
        let previous = DebugOutput.sink
        defer { DebugOutput.sink = previous }
        let lines = Recorder<String>()
        DebugOutput.sink = { lines.append($0) }
        _ = Observable.of(1).debug("numbers").subscribe()
        let messages = lines.values.map { line -> String in
            let parts = line.components(separatedBy: ": ")
            return parts.dropFirst().joined(separator: ": ")
        }
        XCTAssertEqual(messages, ["numbers -> subscribed", "numbers -> Event next(1)", "numbers -> Event completed", "numbers -> isDisposed"])
        XCTAssertNotNil(lines.values.first?.range(of: #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}: "#, options: .regularExpression))
    }

    func testDebugTrimsLongEvents() {
        let previous = DebugOutput.sink
        defer { DebugOutput.sink = previous }
        let lines = Recorder<String>()
        DebugOutput.sink = { lines.append($0) }
        _ = Observable.just(String(repeating: "x", count: 100)).debug("long", trimOutput: true).subscribe()
        let event = lines.values[1].components(separatedBy: "-> Event ")[1]
        XCTAssertEqual(event, "next(xxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxx)")
    }

    func testDebugDefaultIdentifierIsCallSite() {
        let previous = DebugOutput.sink
        defer { DebugOutput.sink = previous }
        let lines = Recorder<String>()
        DebugOutput.sink = { lines.append($0) }
        _ = Observable.just(1).debug().subscribe()
        XCTAssertTrue(lines.values[0].contains("SchedulingOperatorTests.swift:"), lines.values[0])
    }
}
