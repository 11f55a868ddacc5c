import Dispatch
import Foundation
import Ripple
import RippleTest
import XCTest

/// Fused `map`/`filter` steps (in a sink, or inside the closure of
/// `subscribe(onNext:...)`) fed from several threads and disposed from another.
/// Runs under ThreadSanitizer (see `scripts/test-all.sh`): the handlers keep plain
/// state, which is race-free only if the step delivers one event at a time and
/// nothing after `dispose()` has returned on the thread that receives.
final class FusionConcurrencyTests: RippleTestCase {
    /// Plain state touched only by deliveries; `detector` counts overlapping ones.
    final class Receiver: @unchecked Sendable {
        let detector = CombiningConcurrencyTests.ReentryDetector()
        var sum = 0
        var count = 0
        var terminals = 0

        var overlaps: Int { detector.overlaps }
    }

    func testFusedSubscribeFromFourThreadsDeliversEverythingOneAtATime() {
        let subject = PublishSubject<Int>()
        let receiver = Receiver()
        let subscription = subject
            .map { $0 * 2 }
            .filter { $0 % 4 == 0 }
            .subscribe(
                onNext: { value in
                    receiver.detector.run {
                        receiver.sum += value
                        receiver.count += 1
                    }
                },
                onCompleted: {
                    receiver.detector.run { receiver.terminals += 1 }
                }
            )
        let perThread = 5_000
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for value in 0..<perThread {
                subject.onNext(thread * perThread + value)
            }
        }
        subject.onCompleted()
        let all = (0..<(4 * perThread)).map { $0 * 2 }.filter { $0 % 4 == 0 }
        XCTAssertEqual(receiver.overlaps, 0)
        XCTAssertEqual(receiver.count, all.count)
        XCTAssertEqual(receiver.sum, all.reduce(0, +))
        XCTAssertEqual(receiver.terminals, 1)
        subscription.dispose()
    }

    func testDisposingWhileOtherThreadsEmitStopsTheFusedStep() {
        for _ in 0..<20 {
            let subject = PublishSubject<Int>()
            let receiver = Receiver()
            let transforms = Atomic<Int>(0)
            let subscription = subject
                .filter { $0 >= 0 }
                .map { value -> Int in
                    transforms.add(1, ordering: .relaxed)
                    return value
                }
                .subscribe(onNext: { _ in
                    receiver.detector.run { receiver.count += 1 }
                })
            let started = DispatchSemaphore(value: 0)
            let stop = Atomic<Bool>(false)
            let group = DispatchGroup()
            for _ in 0..<2 {
                DispatchQueue.global().async(group: group) {
                    started.signal()
                    var value = 0
                    while !stop.load(ordering: .acquiring) {
                        subject.onNext(value)
                        value += 1
                    }
                }
            }
            started.wait()
            started.wait()
            subscription.dispose()
            // Every event the subject delivered after dispose() returned skipped the
            // step: the count of transforms stops growing.
            let afterDispose = transforms.load(ordering: .acquiring)
            Thread.sleep(forTimeInterval: 0.002)
            // An event already past the disposed check when dispose() ran may finish.
            XCTAssertLessThanOrEqual(transforms.load(ordering: .acquiring) - afterDispose, 2)
            stop.store(true, ordering: .releasing)
            group.wait()
            XCTAssertEqual(receiver.overlaps, 0)
            XCTAssertFalse(subject.hasObservers)
        }
    }
    /// A weak reference another thread reads; the lock orders only the reference
    /// itself, not what the object it points to holds.
    final class WeakObservable: @unchecked Sendable {
        private let lock = NSLock()
        private weak var stored: Observable<Int>?

        var value: Observable<Int>? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    /// Issue 22.4: applying an operator never writes to an observable somebody can
    /// still reach, here another thread through a weak reference. With the in-place
    /// fusion this was a data race (ThreadSanitizer: the write of the fused
    /// predicate against the read in the other thread's subscription), and the
    /// object behind the weak reference turned into the filter.
    func testApplyingAnOperatorNeverChangesAnObservableAnotherThreadReaches() {
        for _ in 0..<300 {
            let subject = PublishSubject<Int>()
            let watched = WeakObservable()
            let started = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            var mapped: Observable<Int>? = subject.map { $0 + 1 }
            watched.value = mapped
            Thread {
                started.signal()
                for _ in 0..<50 {
                    if let observable = watched.value {
                        observable.subscribe(onNext: { _ in }).dispose()
                    }
                }
                done.signal()
            }.start()
            started.wait()
            let filtered = mapped.take()!.filter { $0 > 1000 }
            done.wait()
            if let observable = watched.value {
                let (values, subscription) = record(observable)
                subject.onNext(1)
                XCTAssertEqual(values.values, [.next(2)], "the map reached through the weak reference filters")
                subscription.dispose()
            }
            withExtendedLifetime(filtered) {}
        }
    }
}
