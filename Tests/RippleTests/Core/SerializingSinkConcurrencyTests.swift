import Foundation
import Ripple
import RippleTest
import Synchronization
import XCTest

/// Operators with several upstreams (`SerializingSink`) under threads that keep
/// sending. They also run under ThreadSanitizer (the class name contains
/// `Concurrency`).
final class SerializingSinkConcurrencyTests: RippleTestCase {
    /// Counts calls and detects two threads inside the same observer at once.
    final class OverlapDetector: @unchecked Sendable {
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let count = Atomic<Int>(0)

        func run(_ body: () -> Void) {
            if inside.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
                overlaps.add(1, ordering: .relaxed)
            }
            body()
            count.add(1, ordering: .relaxed)
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    /// Four upstreams, each fed by its own thread, into an observer that takes
    /// 20 µs per element. The thread that finds nobody delivering delivers only
    /// what its turn owes (`DeliveryTurn`); before, one `onNext` delivered the
    /// others' elements for the whole run. Every element still arrives, one at a
    /// time.
    func testOneUpstreamEventIsNotHeldWhileOtherUpstreamsKeepSending() {
        // What each operator emits for one first element from every source.
        let operators: [(name: String, combine: ([Observable<Int>]) -> Observable<Int>, firstEmissions: Int)] = [
            ("merge", { Observable.merge($0) }, 4),
            ("combineLatest", { Observable.combineLatest($0, resultSelector: { $0.reduce(0, +) }) }, 1),
            ("flatMap", { sources in Observable.from(sources).flatMap { $0 } }, 4),
        ]
        let run = Duration.milliseconds(1_500)
        for (name, combine, firstEmissions) in operators {
            let subjects = (0..<4).map { _ in PublishSubject<Int>() }
            let detector = OverlapDetector()
            let subscription = combine(subjects.map { $0.asObservable() }).subscribe(onNext: { _ in
                detector.run { spin(for: .microseconds(20)) }
            })
            subjects.forEach { $0.onNext(0) }
            let (longest, calls) = longestCall(for: run) { thread, index in
                subjects[thread].onNext(index)
            }
            subscription.dispose()
            XCTAssertLessThan(longest, run * 0.3, "\(name): one element was held \(longest) by the others'")
            XCTAssertEqual(detector.overlaps.load(ordering: .relaxed), 0, name)
            XCTAssertEqual(detector.count.load(ordering: .relaxed), firstEmissions + calls, name)
        }
    }
}
