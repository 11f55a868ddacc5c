import Dispatch
import Foundation
import Ripple
import RippleTest
import XCTest

/// Counts the subscriptions a shared sequence makes to its source.
final class SourceSubscriptionCounter: @unchecked Sendable {
    let subscribes = Atomic<Int>(0)
    let disposes = Atomic<Int>(0)

    var active: Int {
        subscribes.load(ordering: .acquiring) - disposes.load(ordering: .acquiring)
    }

    func wrap<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.do(
            onSubscribe: { self.subscribes.add(1, ordering: .acquiringAndReleasing) },
            onDispose: { self.disposes.add(1, ordering: .acquiringAndReleasing) }
        )
    }
}

/// Checks that one observer is never entered by two threads at once and that the
/// values it sees increase strictly.
final class OrderedObserverCheck: @unchecked Sendable {
    let inside = Atomic<Int>(0)
    let problems = Atomic<Int>(0)
    let last = Atomic<Int>(Int.min)
    let count = Atomic<Int>(0)

    func receive(_ value: Int) {
        count.add(1, ordering: .relaxed)
        if inside.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            problems.add(1, ordering: .relaxed)
        }
        if last.exchange(value, ordering: .relaxed) >= value {
            problems.add(1, ordering: .relaxed)
        }
        inside.subtract(1, ordering: .acquiringAndReleasing)
    }
}

/// Lets a test hand values that are thread-safe, but not statically `Sendable`,
/// to other threads.
final class UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Stress tests of the sharing operators; they also run under ThreadSanitizer.
final class SharingConcurrencyTests: RippleTestCase {
    /// Runs `first` and `second` on two threads that start as close together as
    /// possible. (The closures capture disposables, which are thread-safe but not
    /// statically `Sendable`.)
    private func race(_ first: @escaping () -> Void, _ second: @escaping () -> Void) {
        let bodies = UncheckedSendableBox([first, second])
        let ready = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            ready.add(1, ordering: .acquiringAndReleasing)
            while ready.load(ordering: .acquiring) < 2 {}
            bodies.value[index]()
        }
    }

    /// A producer that emits increasing values on a background thread until stopped.
    private func startProducer(_ subject: PublishSubject<Int>) -> () -> Void {
        let stop = Atomic<Bool>(false)
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            var value = 0
            while !stop.load(ordering: .relaxed) {
                subject.onNext(value)
                value += 1
            }
            group.leave()
        }
        return {
            stop.store(true, ordering: .relaxed)
            group.wait()
        }
    }

    func testConcurrentSubscribeAndDisposeOfShareReplayWhileTheSourceEmits() {
        for scope in [SubjectLifetimeScope.whileConnected, .forever] {
            let subject = PublishSubject<Int>()
            let counter = SourceSubscriptionCounter()
            let shared = counter.wrap(subject.asObservable()).share(replay: 1, scope: scope)
            let problems = Atomic<Int>(0)
            let stopProducer = startProducer(subject)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<500 {
                    let check = OrderedObserverCheck()
                    let subscription = shared.subscribe(onNext: { check.receive($0) })
                    subscription.dispose()
                    problems.add(check.problems.load(ordering: .relaxed), ordering: .relaxed)
                }
            }
            stopProducer()
            XCTAssertEqual(problems.load(ordering: .relaxed), 0, "overlapping, repeated or out-of-order events (\(scope))")
            XCTAssertEqual(counter.active, 0, "the source is still subscribed (\(scope))")
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testLongLivedSubscribersSeeEveryElementInOrderWhileOthersComeAndGo() {
        let subject = PublishSubject<Int>()
        let counter = SourceSubscriptionCounter()
        let shared = counter.wrap(subject.asObservable()).share(replay: 1)
        let checks = (0..<3).map { _ in OrderedObserverCheck() }
        let subscriptions = checks.map { check in
            shared.subscribe(onNext: { check.receive($0) })
        }
        let emitted = 20_000
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            for value in 0..<emitted { subject.onNext(value) }
            group.leave()
        }
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            for _ in 0..<300 {
                shared.subscribe(onNext: { _ in }).dispose()
            }
        }
        group.wait()
        for index in 0..<3 {
            XCTAssertEqual(checks[index].problems.load(ordering: .relaxed), 0)
            XCTAssertEqual(checks[index].count.load(ordering: .relaxed), emitted)
        }
        XCTAssertEqual(counter.subscribes.load(ordering: .relaxed), 1)
        subscriptions.forEach { $0.dispose() }
        XCTAssertEqual(counter.active, 0)
    }

    /// The last subscriber leaves while a new one arrives: afterwards exactly one
    /// subscription to the source exists and the new subscriber is fed by it.
    func testLastSubscriberLeavingConcurrentlyWithANewSubscriber() {
        let variants: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 2)", { $0.share(replay: 2) }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(1).refCount()", { $0.replay(1).refCount() }),
        ]
        for (name, makeShared) in variants {
            let subject = PublishSubject<Int>()
            let counter = SourceSubscriptionCounter()
            let shared = makeShared(counter.wrap(subject.asObservable()))
            var failures = 0
            for round in 0..<400 {
                let first = shared.subscribe()
                let received = Recorder<Int>()
                let second = Recorder<Disposable>()
                race({ first.dispose() }, { second.append(shared.subscribe(onNext: { received.append($0) })) })
                if counter.active != 1 { failures += 1 }
                subject.onNext(round)
                if !received.values.contains(round) { failures += 1 }
                second.values.forEach { $0.dispose() }
                if counter.active != 0 { failures += 1 }
            }
            XCTAssertEqual(failures, 0, name)
            XCTAssertFalse(subject.hasObservers, name)
        }
    }

    /// A subscriber that arrives on another thread while the previous connection's
    /// source subscription is still being disposed (slowly) must not start a second
    /// subscription to the source before that disposal has returned.
    func testConnectionsNeverOverlapWhileASlowSourceDisposes() {
        let variants: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 2)", { $0.share(replay: 2) }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
        ]
        for (name, makeShared) in variants {
            let active = Atomic<Int>(0)
            let activeCounts = Recorder<Int>()
            let armed = Atomic<Bool>(false)
            let disposing = DispatchSemaphore(value: 0)
            let source = Observable<Int>.create { _ in
                activeCounts.append(active.add(1, ordering: .acquiringAndReleasing).newValue)
                return Disposables.create {
                    if armed.exchange(false, ordering: .acquiringAndReleasing) {
                        disposing.signal()
                    }
                    Thread.sleep(forTimeInterval: 0.02)
                    active.subtract(1, ordering: .acquiringAndReleasing)
                }
            }
            let shared = makeShared(source)
            for _ in 0..<8 {
                let first = shared.subscribe()
                let second = Recorder<Disposable>()
                let subscribed = DispatchSemaphore(value: 0)
                let sharedBox = UncheckedSendableBox(shared)
                DispatchQueue.global().async {
                    // Subscribes while the first connection's source is disposing.
                    disposing.wait()
                    second.append(sharedBox.value.subscribe())
                    subscribed.signal()
                }
                armed.store(true, ordering: .releasing)
                first.dispose()
                subscribed.wait()
                second.values.forEach { $0.dispose() }
            }
            XCTAssertEqual(activeCounts.values.count, 16, name)
            XCTAssertEqual(activeCounts.values.max(), 1, name)
            XCTAssertEqual(active.load(ordering: .acquiring), 0, name)
        }
    }

    func testConcurrentConnectCallsSubscribeTheSourceOnce() {
        for _ in 0..<200 {
            let counter = SourceSubscriptionCounter()
            let connectable = counter.wrap(Observable<Int>.never()).publish()
            let connections = Recorder<Disposable>()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                connections.append(connectable.connect())
            }
            XCTAssertEqual(counter.subscribes.load(ordering: .relaxed), 1)
            let first = connections.values[0] as AnyObject
            XCTAssertTrue(connections.values.allSatisfy { $0 as AnyObject === first })
            connections.values.forEach { $0.dispose() }
            XCTAssertEqual(counter.active, 0)
        }
    }

    func testConnectAndDisconnectRacingLeaveNoSubscriptionBehind() {
        let counter = SourceSubscriptionCounter()
        let subject = PublishSubject<Int>()
        let connectable = counter.wrap(subject.asObservable()).multicast(makeSubject: { PublishSubject<Int>() })
        let stopProducer = startProducer(subject)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<1_000 {
                let subscription = connectable.subscribe()
                connectable.connect().dispose()
                subscription.dispose()
            }
        }
        stopProducer()
        XCTAssertEqual(counter.active, 0)
        XCTAssertFalse(subject.hasObservers)
    }

    func testRefCountStressWithEmissions() {
        for makeShared in [{ (source: Observable<Int>) in source.publish().refCount() }, { $0.replay(1).refCount() }] {
            let subject = PublishSubject<Int>()
            let counter = SourceSubscriptionCounter()
            let shared = makeShared(counter.wrap(subject.asObservable()))
            let problems = Atomic<Int>(0)
            let stopProducer = startProducer(subject)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<500 {
                    let check = OrderedObserverCheck()
                    let subscription = shared.subscribe(onNext: { check.receive($0) })
                    subscription.dispose()
                    problems.add(check.problems.load(ordering: .relaxed), ordering: .relaxed)
                }
            }
            stopProducer()
            XCTAssertEqual(problems.load(ordering: .relaxed), 0)
            XCTAssertEqual(counter.active, 0)
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testSubscribersArrivingWhileTheSourceTerminates() {
        for scope in [SubjectLifetimeScope.forever, .whileConnected] {
            for _ in 0..<100 {
                let subject = PublishSubject<Int>()
                let counter = SourceSubscriptionCounter()
                let shared = counter.wrap(subject.asObservable()).share(replay: 1, scope: scope)
                let anchor = shared.subscribe()
                let recorders = Recorder<Recorder<Event<Int>>>()
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    if index == 0 {
                        subject.onNext(1)
                        subject.onCompleted()
                        return
                    }
                    for _ in 0..<20 {
                        let recorder = Recorder<Event<Int>>()
                        recorders.append(recorder)
                        _ = shared.subscribe { recorder.append($0) }
                    }
                }
                for recorder in recorders.values {
                    let events = recorder.values
                    switch scope {
                    case .forever:
                        // Either live or replayed: the element, then completion.
                        XCTAssertEqual(events, [.next(1), .completed])
                    case .whileConnected:
                        // Joined the first connection, or a later one (which subscribed
                        // to the completed source).
                        XCTAssertTrue(events == [.next(1), .completed] || events == [.completed], "\(events)")
                    }
                }
                if scope == .forever {
                    XCTAssertEqual(counter.subscribes.load(ordering: .relaxed), 1, "a terminated .forever share resubscribed")
                }
                XCTAssertEqual(counter.active, 0)
                anchor.dispose()
            }
        }
    }

    /// RxSwift's `share(replay: 1)` replays to a new subscriber while holding its
    /// lock, and its events need that lock: a subscriber whose `onNext` waits for a
    /// lock held by the emitting thread deadlocks. Ripple delivers without locks.
    /// (The lock is recursive because the emitting thread itself also delivers to
    /// the subscribers, inside its own critical section.)
    func testReplayToANewSubscriberDoesNotDeadlockWithTheEmittingThread() {
        let userLock = NSRecursiveLock()
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        let anchor = shared.subscribe()
        subject.onNext(0)
        let done = expectation(description: "both threads finish")
        done.expectedFulfillmentCount = 2
        DispatchQueue.global().async {
            for value in 1...3_000 {
                userLock.lock()
                subject.onNext(value)
                userLock.unlock()
            }
            done.fulfill()
        }
        DispatchQueue.global().async {
            for _ in 0..<3_000 {
                shared.subscribe(onNext: { _ in
                    userLock.lock()
                    userLock.unlock()
                }).dispose()
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        anchor.dispose()
    }

    /// RxSwift subscribes to the source while holding the share lock: a source whose
    /// subscription takes a lock that another subscriber holds while subscribing
    /// deadlocks. Ripple subscribes to (and disposes) the source outside its lock.
    func testSourceSubscriptionTakingAUserLockDoesNotDeadlock() {
        let userLock = NSRecursiveLock()
        let source = Observable<Int>.create { observer in
            userLock.lock()
            observer.onNext(1)
            userLock.unlock()
            return Disposables.create {
                userLock.lock()
                userLock.unlock()
            }
        }
        for shared in [source.share(replay: 1), source.publish().refCount()] {
            let done = expectation(description: "both threads finish")
            done.expectedFulfillmentCount = 2
            DispatchQueue.global().async {
                for _ in 0..<2_000 {
                    shared.subscribe().dispose()
                }
                done.fulfill()
            }
            DispatchQueue.global().async {
                for _ in 0..<2_000 {
                    userLock.lock()
                    let subscription = shared.subscribe()
                    userLock.unlock()
                    subscription.dispose()
                }
                done.fulfill()
            }
            wait(for: [done], timeout: 60)
        }
    }
}
