import Dispatch
import Ripple
import RippleTest
import XCTest

/// How the multi-source operators keep and release their inner subscriptions
/// (an intrusive list for the flatMap family, the state for flatMapLatest) and
/// how observe(on:) drains in batches.
final class InnerSubscriptionTests: RippleTestCase {
    func testFlatMapForgetsInnersCompletingAtTheHeadMiddleAndTailThenDisposesTheRestInOrder() {
        let inners = (0..<5).map { _ in PublishSubject<Int>() }
        var log: [String] = []
        let outer = PublishSubject<Int>()
        let (recorder, subscription) = record(outer.flatMap { index in
            inners[index].do(onDispose: { log.append("dispose \(index)") })
        })
        for index in 0..<5 {
            outer.onNext(index)
        }
        inners[2].onNext(20)
        inners[0].onCompleted()
        inners[2].onCompleted()
        inners[4].onCompleted()
        inners[3].onNext(30)
        XCTAssertEqual(log, ["dispose 0", "dispose 2", "dispose 4"])
        subscription.dispose()
        XCTAssertEqual(log, ["dispose 0", "dispose 2", "dispose 4", "dispose 1", "dispose 3"])
        XCTAssertEqual(recorder.values, [.next(20), .next(30)])
        XCTAssertTrue(inners.allSatisfy { !$0.hasObservers })
    }

    func testFlatMapDisposesACompletedInnerBeforeForwardingTheCompletion() {
        var log: [String] = []
        let inner = PublishSubject<Int>()
        let subscription = Observable.just(1)
            .flatMap { _ in inner.do(onDispose: { log.append("inner disposed") }) }
            .subscribe(onCompleted: { log.append("completed") })
        inner.onCompleted()
        XCTAssertEqual(log, ["inner disposed", "completed"])
        subscription.dispose()
    }

    func testFlatMapOfManySynchronousInnersCompletes() throws {
        let values = try Observable.range(start: 0, count: 2_000)
            .flatMap { Observable.just($0) }
            .toArray()
            .toBlocking()
            .single()
        XCTAssertEqual(values, Array(0..<2_000))
    }

    func testFlatMapAnInnerErrorDisposesEveryOtherInner() {
        let inners = (0..<3).map { _ in PublishSubject<Int>() }
        let outer = PublishSubject<Int>()
        let (recorder, subscription) = record(outer.flatMap { inners[$0] })
        for index in 0..<3 {
            outer.onNext(index)
        }
        inners[1].onError(testError)
        XCTAssertEqual(recorder.values, [.error(testError)])
        XCTAssertTrue(inners.allSatisfy { !$0.hasObservers })
        XCTAssertFalse(outer.hasObservers)
        subscription.dispose()
    }

    func testMergeMaxConcurrentSubscribesWaitingInnersAsSlotsFree() {
        let inners = (0..<4).map { _ in PublishSubject<Int>() }
        let outer = PublishSubject<Observable<Int>>()
        let (recorder, subscription) = record(outer.merge(maxConcurrent: 2))
        for inner in inners {
            outer.onNext(inner.asObservable())
        }
        XCTAssertEqual(inners.map(\.hasObservers), [true, true, false, false])
        inners[1].onCompleted()
        XCTAssertEqual(inners.map(\.hasObservers), [true, false, true, false])
        inners[2].onNext(2)
        subscription.dispose()
        XCTAssertTrue(inners.allSatisfy { !$0.hasObservers })
        XCTAssertEqual(recorder.values, [.next(2)])
    }

    func testFlatMapLatestDisposesThePreviousInnerBeforeSubscribingTheNext() {
        var log: [String] = []
        let outer = PublishSubject<Int>()
        let subscription = outer.flatMapLatest { index in
            Observable<Int>.never().do(
                onSubscribe: { log.append("subscribe \(index)") },
                onDispose: { log.append("dispose \(index)") }
            )
        }.subscribe()
        outer.onNext(0)
        outer.onNext(1)
        XCTAssertEqual(log, ["subscribe 0", "dispose 0", "subscribe 1"])
        subscription.dispose()
        XCTAssertEqual(log, ["subscribe 0", "dispose 0", "subscribe 1", "dispose 1"])
    }

    func testFlatMapLatestIgnoresASupersededInnerThatStillEmits() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let outer = PublishSubject<PublishSubject<Int>>()
        let (recorder, subscription) = record(outer.flatMapLatest { $0 })
        outer.onNext(first)
        first.onNext(1)
        outer.onNext(second)
        first.onNext(2)
        second.onNext(3)
        second.onCompleted()
        outer.onCompleted()
        XCTAssertEqual(recorder.values, [.next(1), .next(3), .completed])
        XCTAssertFalse(first.hasObservers)
        subscription.dispose()
    }

    func testObserveOnDisposedMidBatchDeliversNothingMore() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.observe-on.batch")
        let subject = PublishSubject<Int>()
        let received = Recorder<Int>()
        let holder = SingleAssignmentDisposable()
        let blocker = DispatchSemaphore(value: 0)
        // Hold the queue so that the whole burst is queued before the drain starts.
        _ = scheduler.schedule(()) { _ in
            blocker.wait()
            return Disposables.create()
        }
        holder.setDisposable(subject.observe(on: scheduler).subscribe(onNext: { value in
            received.append(value)
            if value == 3 {
                holder.dispose()
            }
        }))
        for value in 0..<100 {
            subject.onNext(value)
        }
        blocker.signal()
        let done = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            done.signal()
            return Disposables.create()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(received.values, [0, 1, 2, 3])
        XCTAssertFalse(subject.hasObservers)
    }

    func testObserveOnDeliversSuccessiveBurstsInOrder() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.observe-on.bursts")
        let subject = PublishSubject<Int>()
        let received = Recorder<Int>()
        let completed = DispatchSemaphore(value: 0)
        let subscription = subject.observe(on: scheduler).subscribe(
            onNext: { received.append($0) },
            onCompleted: { completed.signal() }
        )
        for burst in 0..<20 {
            for value in 0..<50 {
                subject.onNext(burst * 50 + value)
            }
            if burst % 5 == 0 {
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
        subject.onCompleted()
        XCTAssertEqual(completed.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(received.values, Array(0..<1_000))
        subscription.dispose()
    }
}
