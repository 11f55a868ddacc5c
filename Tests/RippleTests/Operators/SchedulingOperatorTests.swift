import Dispatch
import Foundation
import Ripple
import RippleTest
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

/// `observe(on:)` delivers one event per scheduled action wherever the timing of
/// actions is visible (RxSwift's `ObserveOnSink`).
final class ObserveOnTests: RippleTestCase {
    func testEachEventOfABurstIsItsOwnActionInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3).observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
    }

    func testEventsAtTheSameVirtualTimeLeaveOneTickApart() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(220, 3), .error(220, testError)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .next(212, 2), .next(221, 3), .error(222, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDisposeBetweenTwoActionsDropsTheRestOfTheBurst() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 202) { Observable.of(1, 2, 3).observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1)])
    }

    func testOtherTrampolineWorkRunsBetweenTwoEvents() {
        let log = Recorder<String>()
        let subject = PublishSubject<Int>()
        var subscription: Disposable?
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            subscription = subject.observe(on: CurrentThreadScheduler.instance)
                .subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("|") })
            subject.onNext(1)
            subject.onNext(2)
            subject.onCompleted()
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                log.append("other")
                return Disposables.create()
            }
            return Disposables.create()
        }
        // The first action was queued before "other"; each later one is queued by
        // the action before it.
        XCTAssertEqual(log.values, ["1", "other", "2", "|"])
        subscription?.dispose()
    }

    func testOperationQueueRunsOtherOperationsBetweenTwoEvents() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let log = Recorder<String>()
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: OperationQueueScheduler(operationQueue: queue))
            .subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("|") })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        subject.onCompleted()
        XCTAssertEqual(queue.operationCount, 1)
        queue.addOperation { log.append("other") }
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(log.values, ["1", "other", "2", "3", "|"])
        subscription.dispose()
    }

    func testAUserSchedulerRunsOneEventPerAction() {
        let scheduler = ManualScheduler()
        let log = Recorder<String>()
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: scheduler)
            .subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("|") })
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        XCTAssertEqual(scheduler.pendingCount, 1)
        var afterEachAction: [[String]] = []
        while scheduler.runNext() {
            afterEachAction.append(log.values)
        }
        XCTAssertEqual(afterEachAction, [["1"], ["1", "2"], ["1", "2", "|"]])
        subscription.dispose()
    }

    func testAUserSchedulerThatRunsSomeActionsInlineLosesNoEvent() {
        // Runs an action inline when nothing is pending, queues it otherwise (like
        // the main scheduler does on the main queue).
        let scheduler = ManualScheduler(runsInlineWhenIdle: true)
        let log = Recorder<Int>()
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
            log.append(value)
            if value == 1 {
                // Re-entrant: queued behind the delivery in progress.
                subject.onNext(2)
                subject.onNext(3)
            }
        })
        subject.onNext(1)
        while scheduler.runNext() {}
        XCTAssertEqual(log.values, [1, 2, 3])
        subject.onNext(4)
        while scheduler.runNext() {}
        XCTAssertEqual(log.values, [1, 2, 3, 4])
        subscription.dispose()
    }
}

/// A scheduler whose actions run when the test says so.
private final class ManualScheduler: ImmediateSchedulerType, @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [() -> Void] = []
    private var isRunning = false
    private let runsInlineWhenIdle: Bool

    init(runsInlineWhenIdle: Bool = false) {
        self.runsInlineWhenIdle = runsInlineWhenIdle
    }

    var pendingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return pending.count
    }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        lock.lock()
        let inline = runsInlineWhenIdle && !isRunning && pending.isEmpty
        if inline {
            isRunning = true
            lock.unlock()
            cancel.setDisposable(action(state))
            lock.lock()
            isRunning = false
            lock.unlock()
            return cancel
        }
        pending.append {
            if !cancel.isDisposed { cancel.setDisposable(action(state)) }
        }
        lock.unlock()
        return cancel
    }

    /// Runs the oldest pending action; `false` if there was none.
    func runNext() -> Bool {
        lock.lock()
        guard !pending.isEmpty else {
            lock.unlock()
            return false
        }
        let next = pending.removeFirst()
        isRunning = true
        lock.unlock()
        next()
        lock.lock()
        isRunning = false
        lock.unlock()
        return true
    }
}

/// What `dispose()` guarantees while `observe(on:)` delivers on another thread.
final class ObserveOnConcurrencyTests: RippleTestCase {
    /// After `dispose()` returns, at most the one event whose delivery had already
    /// begun reaches the observer; later events are never delivered.
    func testAtMostOneDeliveryStartsAfterDisposeReturned() {
        let serialQueue = DispatchQueue(label: "observe-on-dispose.serial")
        let concurrentQueue = DispatchQueue(label: "observe-on-dispose.concurrent", attributes: .concurrent)
        let operationQueue = OperationQueue()
        operationQueue.maxConcurrentOperationCount = 2
        let schedulers: [(ImmediateSchedulerType, () -> Void)] = [
            (SerialDispatchQueueScheduler(serialQueue: serialQueue), { serialQueue.sync {} }),
            (ConcurrentDispatchQueueScheduler(queue: concurrentQueue), { concurrentQueue.sync(flags: .barrier) {} }),
            (OperationQueueScheduler(operationQueue: operationQueue), { operationQueue.waitUntilAllOperationsAreFinished() }),
        ]
        var worst = 0
        for (scheduler, settle) in schedulers {
            for _ in 0..<150 {
                let subject = PublishSubject<Int>()
                let disposeReturned = Atomic<Bool>(false)
                let delivered = Atomic<Int>(0)
                let late = Atomic<Int>(0)
                let subscription = subject.observe(on: scheduler).subscribe(onNext: { _ in
                    if disposeReturned.load(ordering: .acquiring) {
                        late.add(1, ordering: .relaxed)
                    }
                    delivered.add(1, ordering: .relaxed)
                })
                let producerDone = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    for value in 0..<2_000 { subject.onNext(value) }
                    producerDone.signal()
                }
                _ = waitUntil(timeout: 5) { delivered.load(ordering: .relaxed) >= 20 }
                subscription.dispose()
                disposeReturned.store(true, ordering: .releasing)
                producerDone.wait()
                settle()
                worst = max(worst, late.load(ordering: .relaxed))
            }
        }
        XCTAssertLessThanOrEqual(worst, 1)
    }
}
