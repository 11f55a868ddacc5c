import Foundation
import Ripple
import RippleTest
import XCTest

private struct Failure: Error, Equatable {}

/// Runs the main run loop until `condition` holds (or `timeout` passes).
private func spin(until condition: () -> Bool, timeout: TimeInterval = 10) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() && Date() < deadline {
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.002))
    }
}

final class ObservableTaskConcurrencyTests: RippleTestCase {
    func testElementsThenCompletionWhenTheBodyReturns() {
        let events = Recorder<Event<Int>>()
        let subscription = Observable<Int>.task { observer in
            for value in 1...3 {
                try await Task.sleep(nanoseconds: 1_000)
                observer.onNext(value)
            }
        }.subscribe { events.append($0) }
        spin(until: { events.values.count == 4 })
        XCTAssertEqual(events.values.map(\.element), [1, 2, 3, nil])
        XCTAssertTrue(events.values.last?.isCompleted == true)
        subscription.dispose()
    }

    func testErrorWhenTheBodyThrows() {
        let events = Recorder<Event<Int>>()
        let subscription = Observable<Int>.task { observer in
            observer.onNext(1)
            throw Failure()
        }.subscribe { events.append($0) }
        spin(until: { events.values.count == 2 })
        XCTAssertEqual(events.values.first?.element, 1)
        XCTAssertTrue(events.values.last?.error is Failure)
        subscription.dispose()
    }

    func testACompletionSentThroughTheObserverEndsTheSequenceEarly() {
        let events = Recorder<Event<Int>>()
        let subscription = Observable<Int>.task { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
        }.subscribe { events.append($0) }
        spin(until: { events.values.count == 2 })
        spin(until: { false }, timeout: 0.02)
        XCTAssertEqual(events.values.map(\.element), [1, nil])
        subscription.dispose()
    }

    func testDisposingCancelsTheTaskAndDeliversNothingMore() {
        let events = Recorder<Event<Int>>()
        let started = DispatchSemaphore(value: 0)
        let sawCancellation = DispatchSemaphore(value: 0)
        let subscription = Observable<Int>.task { observer in
            observer.onNext(1)
            started.signal()
            do {
                try await Task.sleep(nanoseconds: 60_000_000_000)
            } catch {
                XCTAssertTrue(error is CancellationError)
                XCTAssertTrue(Task.isCancelled)
                // Sent after dispose: dropped.
                observer.onNext(2)
                sawCancellation.signal()
                throw error
            }
        }.subscribe { events.append($0) }
        XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
        subscription.dispose()
        XCTAssertEqual(sawCancellation.wait(timeout: .now() + 10), .success)
        spin(until: { false }, timeout: 0.02)
        XCTAssertEqual(events.values.map(\.element), [1], "no element, completion or error after dispose")
    }

    func testAMainActorBodyRunsOnTheMainThread() {
        let onMain = Recorder<Bool>()
        let events = Recorder<Event<Int>>()
        let subscription = Observable<Int>.task { @MainActor observer in
            onMain.append(Thread.isMainThread)
            observer.onNext(1)
        }.subscribe { events.append($0) }
        spin(until: { events.values.count == 2 })
        XCTAssertEqual(onMain.values, [true])
        subscription.dispose()
    }

    func testEachSubscriptionRunsItsOwnTask() {
        let runs = Recorder<Int>()
        let source = Observable<Int>.task { observer in
            runs.append(1)
            observer.onNext(runs.values.count)
        }
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let a = source.subscribe(onNext: { first.append($0) })
        let b = source.subscribe(onNext: { second.append($0) })
        spin(until: { first.values.count == 1 && second.values.count == 1 })
        XCTAssertEqual(runs.values.count, 2)
        a.dispose()
        b.dispose()
    }

    /// Disposal races with a body that emits as fast as it can: once `dispose()`
    /// has returned, no new delivery starts (one already under way may finish).
    func testDisposeRacingWithEmissionsStopsDelivery() {
        for _ in 0..<50 {
            let received = Recorder<Int>()
            let emitting = DispatchSemaphore(value: 0)
            let subscription = Observable<Int>.task { observer in
                var value = 0
                emitting.signal()
                while !Task.isCancelled {
                    observer.onNext(value)
                    value += 1
                    await Task.yield()
                }
            }.subscribe(onNext: { received.append($0) })
            XCTAssertEqual(emitting.wait(timeout: .now() + 10), .success)
            subscription.dispose()
            let countAtDispose = received.values.count
            spin(until: { false }, timeout: 0.002)
            XCTAssertLessThanOrEqual(received.values.count, countAtDispose + 1)
        }
    }
}
