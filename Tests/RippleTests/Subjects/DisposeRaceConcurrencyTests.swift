import Foundation
@testable import Ripple
import RippleTest
import XCTest

/// What `dispose()` called on one thread guarantees about events another thread
/// is sending (issue 33.7). The rule Ripple gives, as RxSwift does: **no event
/// sent after `dispose()` returned reaches the observer**. An event whose sending
/// had already begun when `dispose()` was called may still arrive, even after
/// `dispose()` returned: the disposing thread does not wait for a delivery under
/// way on another one (it may be the thread that delivery waits for).
///
/// The counters tell the two apart: the sending thread numbers its events and
/// publishes the number before it sends; the disposing thread reads the number
/// right after `dispose()` returns. An element numbered above it began after
/// `dispose()` returned (must never be delivered); one at or below it was under
/// way (may be, and is counted to show the window exists).
final class DisposeRaceConcurrencyTests: RippleTestCase {
    /// A lock-protected record of one subscription's race.
    private final class Race: @unchecked Sendable {
        private let lock = NSLock()
        private var boundary: Int?
        private(set) var sentAfterDispose = 0
        private(set) var inFlightAfterDispose = 0

        /// Called by the disposing thread once `dispose()` has returned.
        func disposed(lastSent: Int) {
            lock.lock()
            boundary = lastSent
            lock.unlock()
        }

        /// Called by the observer with each element.
        func received(_ element: Int) {
            lock.lock()
            defer { lock.unlock() }
            guard let boundary else { return }
            if element > boundary {
                sentAfterDispose += 1
            } else {
                inFlightAfterDispose += 1
            }
        }
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        var current: Int { lock.lock(); defer { lock.unlock() }; return value }
        func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
    }

    /// Sends numbered elements into `sink` on one thread while three threads
    /// subscribe to `source` and dispose, for `duration` seconds.
    private func race(
        duration: TimeInterval,
        source: Observable<Int>,
        send: @escaping @Sendable (Int) -> Void,
        subscribe: @escaping @Sendable (Observable<Int>, Race) -> Disposable
    ) -> (subscriptions: Int, sentAfter: Int, inFlightAfter: Int) {
        let sent = Counter()
        let stop = DispatchTime.now() + duration
        let results = Recorder<(Int, Int, Int)>()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            while DispatchTime.now() < stop {
                send(sent.next())
            }
        }
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                var subscriptions = 0, sentAfter = 0, inFlight = 0
                var races: [Race] = []
                while DispatchTime.now() < stop {
                    let race = Race()
                    let subscription = subscribe(source, race)
                    for _ in 0..<Int.random(in: 0..<200) { _ = sent.current }
                    subscription.dispose()
                    race.disposed(lastSent: sent.current)
                    races.append(race)
                    subscriptions += 1
                }
                // Deliveries still under way when the loop ended are counted too.
                Thread.sleep(forTimeInterval: 0.05)
                for race in races {
                    sentAfter += race.sentAfterDispose
                    inFlight += race.inFlightAfterDispose
                }
                results.append((subscriptions, sentAfter, inFlight))
            }
        }
        group.wait()
        return results.values.reduce((0, 0, 0)) { ($0.0 + $1.0, $0.1 + $1.1, $0.2 + $1.2) }
    }

    func testNoEventSentAfterDisposeReturnedReachesASubjectsObserver() {
        let subject = PublishSubject<Int>()
        let result = race(duration: 1.5, source: subject.asObservable(), send: { subject.onNext($0) }) { source, race in
            source.subscribe(onNext: { race.received($0) })
        }
        XCTAssertGreaterThan(result.subscriptions, 100)
        XCTAssertEqual(result.sentAfter, 0, "\(result)")
    }

    func testNoEventSentAfterDisposeReturnedReachesAPipelinesObserver() {
        let subject = PublishSubject<Int>()
        let result = race(duration: 1.5, source: subject.asObservable(), send: { subject.onNext($0) }) { source, race in
            source.map { $0 }.filter { $0 > 0 }.subscribe(onNext: { race.received($0) })
        }
        XCTAssertGreaterThan(result.subscriptions, 100)
        XCTAssertEqual(result.sentAfter, 0, "\(result)")
    }

    func testNoEventSentAfterDisposeReturnedReachesAnObserverBehindMerge() {
        let subject = PublishSubject<Int>()
        let result = race(duration: 1.5, source: subject.asObservable(), send: { subject.onNext($0) }) { source, race in
            Observable.merge(source, .never()).subscribe(onNext: { race.received($0) })
        }
        XCTAssertGreaterThan(result.subscriptions, 100)
        XCTAssertEqual(result.sentAfter, 0, "\(result)")
    }
}
