import Dispatch
import Foundation
import Ripple
import RippleTest
import XCTest

/// A subscriber that arrives while a connection of `refCount()` (or `share()`)
/// ends on the source's terminal event belongs to exactly one connection: the
/// ending one, whose terminal event it receives, or the next one, which it
/// starts. It is never left on a subject that nothing feeds. These tests also run
/// under ThreadSanitizer (the class name contains `Concurrency`).
final class RefCountConcurrencyTests: RippleTestCase {
    /// The shared sequences under test, by name.
    static var sharingOperators: [(name: String, make: (Observable<Int>) -> Observable<Int>)] {
        [
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(1).refCount()", { $0.replay(1).refCount() }),
            ("multicast(makeSubject:).refCount()", { $0.multicast(makeSubject: { PublishSubject<Int>() }).refCount() }),
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
        ]
    }

    /// Runs `body` on `count` threads that start it as close together as possible.
    private func runTogether(_ count: Int, _ body: @escaping (Int) -> Void) {
        let bodies = UncheckedSendableBox(body)
        let ready = Atomic<Int>(0)
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                ready.add(1, ordering: .acquiringAndReleasing)
                while ready.load(ordering: .acquiring) < count {}
                bodies.value(index)
                group.leave()
            }.start()
        }
        group.wait()
    }

    /// A thread-safe slot for a value set on one thread and read on another.
    final class Slot<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value?

        var value: Value? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    /// The reproduction: the source's dispose handler of connection 1 (run
    /// when connection 1 completes) lets another thread subscribe, and waits for
    /// that `subscribe` to return. The late subscriber must start connection 2 and
    /// receive its element and completion.
    func testASubscriberArrivingWhileTheConnectionCompletesStartsTheNextConnection() {
        for (name, makeShared) in Self.sharingOperators {
            let trigger = PublishSubject<Int>()
            let connections = Atomic<Int>(0)
            let shared = Slot<Observable<Int>>()
            let late = Recorder<Event<Int>>()
            let lateSubscription = Slot<Disposable>()
            let lateSubscribeReturned = Atomic<Bool>(false)
            let source = Observable<Int>.create { observer in
                let connection = connections.add(1, ordering: .relaxed).newValue
                let inner = trigger.subscribe(onNext: { _ in
                    observer.onNext(connection)
                    observer.onCompleted()
                })
                return Disposables.create {
                    inner.dispose()
                    guard connection == 1 else { return }
                    // Connection 1 is ending: another thread subscribes now.
                    let done = DispatchSemaphore(value: 0)
                    Thread {
                        lateSubscription.value = shared.value!.subscribe { late.append($0) }
                        lateSubscribeReturned.store(true, ordering: .releasing)
                        done.signal()
                    }.start()
                    _ = done.wait(timeout: .now() + 5)
                }
            }
            shared.value = makeShared(source)
            let first = Recorder<Event<Int>>()
            let firstSubscription = shared.value!.subscribe { first.append($0) }

            trigger.onNext(0)  // connection 1 emits 1 and completes
            XCTAssertTrue(lateSubscribeReturned.load(ordering: .acquiring), "\(name): the late subscribe did not return")
            XCTAssertEqual(first.values, [.next(1), .completed], name)
            trigger.onNext(0)  // connection 2, if the late subscriber started it, emits 2 and completes

            XCTAssertEqual(late.values, [.next(2), .completed], "\(name): the late subscriber was stranded")
            XCTAssertEqual(connections.load(ordering: .relaxed), 2, name)
            XCTAssertFalse(trigger.hasObservers, name)
            firstSubscription.dispose()
            lateSubscription.value?.dispose()
            shared.value = nil  // the source's dispose handler refers to it
        }
    }

    /// The same race without a hook: a connection completes on one thread while
    /// two others subscribe; disposing the source takes a moment (100 µs, as a
    /// cancelled request might), which is when they most often arrive. Every
    /// subscriber must end (with the completing connection, or with the next
    /// one, completed afterwards); a stranded one never does.
    func testSubscribersRacingTheEndOfAConnectionAreNeverStranded() {
        let rounds = 200
        for (name, makeShared) in Self.sharingOperators {
            var stranded = 0
            for _ in 0..<rounds {
                let trigger = PublishSubject<Int>()
                let source = Observable<Int>.create { observer in
                    let inner = trigger.subscribe(onNext: { value in
                        observer.onNext(value)
                        observer.onCompleted()
                    })
                    return Disposables.create {
                        inner.dispose()
                        spin(for: .microseconds(100))
                    }
                }
                let shared = makeShared(source)
                let anchor = shared.subscribe()
                let recorders = (0..<2).map { _ in Recorder<Event<Int>>() }
                let subscriptions = (0..<2).map { _ in Slot<Disposable>() }
                runTogether(3) { index in
                    if index == 2 {
                        trigger.onNext(1)
                    } else {
                        let recorder = recorders[index]
                        subscriptions[index].value = shared.subscribe { recorder.append($0) }
                    }
                }
                // Ends the next connection, if a late subscriber started one.
                trigger.onNext(2)
                for recorder in recorders where recorder.values.last?.isStopEvent != true {
                    stranded += 1
                }
                anchor.dispose()
                subscriptions.forEach { $0.value?.dispose() }
            }
            XCTAssertEqual(stranded, 0, "\(name): \(stranded) of \(2 * rounds) subscribers stranded")
        }
    }
}
