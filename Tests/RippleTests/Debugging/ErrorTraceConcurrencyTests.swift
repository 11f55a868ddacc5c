import Foundation
@testable import Ripple
import RippleTest
import XCTest

/// Traces under concurrency (issue 33.2: with four threads each throwing its own
/// error through its own named chain, about one error in ten carried another
/// thread's trace). Each thread checks, in its `onError`, that the trace names
/// its own chain and nothing else.
final class ErrorTraceConcurrencyTests: RippleTestCase {
    private final class ThreadFailure: Error {
        let thread: Int
        init(thread: Int) { self.thread = thread }
    }

    private struct ValueFailure: Error {
        let thread: Int
        let attempt: Int
    }

    override func tearDown() {
        Hooks.recordsOperatorSites = false
        super.tearDown()
    }

    /// Runs `iterations` errors on each of four threads through its own chain
    /// (built by `chain`), and returns the names each `onError` read.
    private func run(
        iterations: Int,
        error: @escaping @Sendable (Int, Int) -> any Error,
        chain: @escaping @Sendable (Observable<Int>, Int) -> Observable<Int>
    ) -> [[[String?]]] {
        let results = (0..<4).map { _ in Recorder<[String?]>() }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for attempt in 0..<iterations {
                let subject = PublishSubject<Int>()
                let subscription = chain(subject.asObservable(), thread)
                    .subscribe(onError: { results[thread].append($0.rippleTrace?.steps.map(\.name) ?? []) })
                subject.onError(error(thread, attempt))
                subscription.dispose()
            }
        }
        return results.map(\.values)
    }

    func testRecordedTracesOfClassErrorsNameTheirOwnThreadsChain() {
        Hooks.recordsOperatorSites = true
        let results = run(iterations: 300, error: { thread, _ in ThreadFailure(thread: thread) }) { source, thread in
            source.named("thread\(thread)").map { $0 + 1 }
        }
        for (thread, names) in results.enumerated() {
            XCTAssertEqual(names.count, 300)
            let wrong = names.filter { $0 != [nil, nil, "thread\(thread)", nil] }
            XCTAssertEqual(wrong.count, 0, "thread \(thread): \(wrong.prefix(3))")
        }
    }

    func testCheckpointTracesOfValueErrorsNameTheirOwnThreadsChain() {
        let results = run(iterations: 300, error: { thread, attempt in ValueFailure(thread: thread, attempt: attempt) }) { source, thread in
            source.checkpoint("thread\(thread) in").map { $0 + 1 }.checkpoint("thread\(thread) out")
        }
        for (thread, names) in results.enumerated() {
            let wrong = names.filter { $0 != ["thread\(thread) out", "thread\(thread) in"] }
            XCTAssertEqual(wrong.count, 0, "thread \(thread): \(wrong.prefix(3))")
        }
    }

    func testEqualValueErrorsOnFourThreadsAtOnceKeepTheirOwnPaths() {
        // The same value on every thread: the error has no identity, so only
        // the delivery under way tells the paths apart.
        let results = run(iterations: 300, error: { _, _ in ValueFailure(thread: 0, attempt: 0) }) { source, thread in
            source.checkpoint("thread\(thread)")
        }
        for (thread, names) in results.enumerated() {
            let wrong = names.filter { $0 != ["thread\(thread)"] }
            XCTAssertEqual(wrong.count, 0, "thread \(thread): \(wrong.prefix(3))")
        }
    }

    func testTracesCrossAnObserveOnHopPerThread() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let results = (0..<4).map { _ in Recorder<[String?]>() }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for attempt in 0..<50 {
                let subject = PublishSubject<Int>()
                let delivered = DispatchSemaphore(value: 0)
                let subscription = subject
                    .checkpoint("thread\(thread)")
                    .observe(on: scheduler)
                    .subscribe(onError: {
                        results[thread].append($0.rippleTrace?.steps.map(\.name) ?? [])
                        delivered.signal()
                    })
                subject.onError(ValueFailure(thread: thread, attempt: attempt))
                delivered.wait()
                subscription.dispose()
            }
        }
        for (thread, recorder) in results.enumerated() {
            XCTAssertEqual(recorder.values.count, 50)
            XCTAssertEqual(recorder.values.filter { $0 != ["thread\(thread)"] }.count, 0, "thread \(thread)")
        }
    }
}
