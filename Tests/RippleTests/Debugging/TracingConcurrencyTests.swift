import Dispatch
import Foundation
import Ripple
import RippleDebugExport
import RippleTest
import XCTest

/// Tracing, named streams and debug output from many threads at once (also run
/// under ThreadSanitizer).
final class TracingConcurrencyTests: RippleTestCase {
    func testRecordingFromManyThreadsKeepsEveryEventOrCountsIt() {
        let capacity = 5_000
        let recorder = TraceRecorder(capacity: capacity)
        recorder.start()
        let threads = 8
        let perThread = 2_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let subject = PublishSubject<Int>()
            let subscription = subject.named("stream \(thread)").subscribe()
            for value in 0..<perThread {
                subject.onNext(value)
            }
            subscription.dispose()
        }
        recorder.stop()
        let total = threads * (perThread + 2)
        XCTAssertEqual(recorder.events.count, capacity)
        XCTAssertEqual(recorder.droppedEventCount, total - capacity)
        let timestamps = recorder.events.map(\.timestamp)
        XCTAssertEqual(timestamps, timestamps.sorted())
        // Per subscription, the kept events are in emission order.
        for thread in 0..<threads {
            let values = recorder.events.filter { $0.stream == "stream \(thread)" }.compactMap { event -> Int? in
                if case .next(let value?) = event.kind { return Int(value) }
                return nil
            }
            XCTAssertEqual(values, values.sorted())
        }
    }

    func testStartingAndStoppingWhileStreamsRun() throws {
        let recorder = TraceRecorder(capacity: 1_000)
        let subject = PublishSubject<Int>()
        let producersDone = Atomic<Int>(0)
        let subscriptions = (0..<4).map { subject.named("s\($0)").subscribe() }
        let group = DispatchGroup()
        for producer in 0..<2 {
            DispatchQueue.global().async(group: group) {
                for value in 0..<20_000 {
                    subject.onNext(producer * 100_000 + value)
                }
                producersDone.add(1, ordering: .relaxed)
            }
        }
        DispatchQueue.global().async(group: group) {
            var toggles = 0
            while producersDone.load(ordering: .relaxed) < 2 || toggles < 10 {
                recorder.start()
                _ = recorder.events
                recorder.stop()
                toggles += 1
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        subscriptions.forEach { $0.dispose() }
        XCTAssertFalse(recorder.isRecording)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: recorder.chromeTraceData()))
    }

    func testNamedSubscriptionsFromManyThreadsAreCountedExactly() {
        let subject = PublishSubject<Int>()
        let scope = NamedSubscriptionScope()
        let leaked = LockedBox<[Disposable]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            scope.run {
                for index in 0..<500 {
                    let subscription = subject.named("t\(thread)").subscribe()
                    if index % 100 == 0 {
                        leaked.withLock { $0.append(subscription) }
                    } else {
                        subscription.dispose()
                    }
                }
            }
        }
        XCTAssertEqual(scope.subscriptionCount, 4_000)
        XCTAssertEqual(scope.liveSubscriptions.count, 40)
        XCTAssertEqual(Resources.namedSubscriptions.values.reduce(0, +), 40)
        leaked.withLock { $0.forEach { $0.dispose() } }
        XCTAssertEqual(scope.liveSubscriptions.count, 0)
        XCTAssertEqual(Resources.namedSubscriptions, [:])
    }

    func testDebugOutputFromManyThreads() {
        let lines = Recorder<String>()
        DebugOutput.sink = { lines.append($0) }
        defer { DebugOutput.sink = { print($0) } }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            DebugOutput.showsSubscriptionID = thread % 2 == 0
            _ = Observable.of(1, 2, 3).debug("thread \(thread)").subscribe()
        }
        DebugOutput.showsSubscriptionID = false
        XCTAssertEqual(lines.values.count, 8 * 6)
    }
}

/// A lock-protected value for tests.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
