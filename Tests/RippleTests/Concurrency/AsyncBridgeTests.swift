import Dispatch
import Foundation
import Ripple
import RippleTest
import XCTest

// MARK: - Helpers

/// Polls `condition` (from an async context) until it holds or `timeout` passes.
func eventually(timeout: DispatchTimeInterval = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = DispatchTime.now() + timeout
    while !condition() {
        if DispatchTime.now() >= deadline { return false }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}

/// Observes what an async sequence or task does: iterators made, cancellations seen.
final class AsyncProbe: @unchecked Sendable {
    let iterators = Atomic<Int>(0)
    let runs = Atomic<Int>(0)
    let waiting = Atomic<Int>(0)
    let cancellations = Atomic<Int>(0)
    let sawIsCancelled = Atomic<Int>(0)
    let priority = LockedPriority()

    /// Waits "forever" (60 s) unless the task is cancelled; records the
    /// cancellation and whether `Task.isCancelled` was `true` afterwards.
    func waitForCancellation() async throws {
        waiting.add(1, ordering: .acquiringAndReleasing)
        do {
            try await withTaskCancellationHandler {
                try await Task.sleep(nanoseconds: 60_000_000_000)
            } onCancel: {
                self.cancellations.add(1, ordering: .acquiringAndReleasing)
            }
        } catch {
            if Task.isCancelled { sawIsCancelled.add(1, ordering: .acquiringAndReleasing) }
            throw error
        }
    }
}

final class LockedPriority: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: TaskPriority?
    var value: TaskPriority? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

/// An async sequence that yields `1...count`, then either finishes, throws, or
/// waits until its task is cancelled.
struct ProbeSequence: AsyncSequence, Sendable {
    enum End: Sendable { case finish, fail, waitForCancellation }

    typealias Element = Int
    let count: Int
    let end: End
    let probe: AsyncProbe

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: ProbeSequence
        var index = 0

        mutating func next() async throws -> Int? {
            if index == 0 {
                sequence.probe.priority.value = Task.currentPriority
            }
            if index < sequence.count {
                index += 1
                return index
            }
            switch sequence.end {
            case .finish:
                return nil
            case .fail:
                throw testError
            case .waitForCancellation:
                try await sequence.probe.waitForCancellation()
                return nil
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        probe.iterators.add(1, ordering: .acquiringAndReleasing)
        return AsyncIterator(sequence: self)
    }
}

// MARK: - Observable -> AsyncSequence (`values`)

final class AsyncBridgeTests: RippleTestCase {
    func testValuesYieldsEveryElementThenEnds() async throws {
        var received: [Int] = []
        for try await value in Observable.of(1, 2, 3).values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testValuesThrowsTheSequenceError() async {
        var received: [Int] = []
        do {
            let failing = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(testError)
                return Disposables.create()
            }
            for try await value in failing.values {
                received.append(value)
            }
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
        XCTAssertEqual(received, [1])
    }

    func testValuesOfAnEmptySequenceEndsAtOnce() async throws {
        var count = 0
        for try await _ in Observable<Int>.empty().values { count += 1 }
        XCTAssertEqual(count, 0)
    }

    func testEachLoopSubscribesAgain() async throws {
        let subscriptions = Atomic<Int>(0)
        let source = Observable.of(1, 2).do(onSubscribe: { subscriptions.add(1, ordering: .relaxed) })
        var first: [Int] = []
        for try await value in source.values { first.append(value) }
        var second: [Int] = []
        for try await value in source.values { second.append(value) }
        XCTAssertEqual(first, [1, 2])
        XCTAssertEqual(second, [1, 2])
        XCTAssertEqual(subscriptions.load(ordering: .relaxed), 2)
    }

    func testBreakingOutOfTheLoopDisposesTheSubscription() async throws {
        let subject = BehaviorSubject(value: 0)
        let disposed = Atomic<Bool>(false)
        let source = subject.do(onDispose: { disposed.store(true, ordering: .releasing) })
        for try await value in source.values {
            XCTAssertEqual(value, 0)
            XCTAssertTrue(subject.hasObservers)
            break
        }
        XCTAssertTrue(disposed.load(ordering: .acquiring))
        XCTAssertFalse(subject.hasObservers)
    }

    func testAnErrorThrownByTheLoopBodyDisposesTheSubscription() async {
        let subject = BehaviorSubject(value: 0)
        do {
            for try await _ in subject.values {
                throw testError2
            }
        } catch {
            XCTAssertEqual(error as? TestError, testError2)
        }
        XCTAssertFalse(subject.hasObservers)
    }

    func testCancellingTheConsumingTaskDisposesTheSubscription() async throws {
        let subject = PublishSubject<Int>()
        let disposed = Atomic<Bool>(false)
        let source = subject.do(onDispose: { disposed.store(true, ordering: .releasing) })
        let received = Recorder<Int>()
        let consumer = Task {
            for try await value in source.values { received.append(value) }
        }
        let subscribed = await eventually { subject.hasObservers }
        XCTAssertTrue(subscribed)
        subject.onNext(1)
        _ = await eventually { received.values == [1] }
        consumer.cancel()
        // As in RxSwift, the loop ends by throwing `CancellationError`.
        do {
            try await consumer.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertTrue(disposed.load(ordering: .acquiring))
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(2)
        XCTAssertEqual(received.values, [1])
    }

    func testCancelledLoopThrowsCancellationErrorAfterTheBufferedElements() async {
        let subject = PublishSubject<Int>()
        let gate = Recorder<Int>()
        let consumer = Task { () -> [Int] in
            var received: [Int] = []
            do {
                for try await value in subject.values {
                    received.append(value)
                    gate.append(value)
                }
                XCTFail("expected CancellationError")
            } catch {
                XCTAssertTrue(error is CancellationError, "\(error)")
            }
            return received
        }
        _ = await eventually { subject.hasObservers }
        subject.onNext(1)
        _ = await eventually { gate.values == [1] }
        consumer.cancel()
        let received = await consumer.value
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testAlreadyCancelledTaskStillReadsASynchronousSequence() async throws {
        // The stream subscribes when it is made; what a synchronous source sent
        // is buffered and read before the cancellation ends the loop.
        let task = Task { () -> [Int] in
            withUnsafeCurrentTask { $0?.cancel() }
            var received: [Int] = []
            for try await value in Observable.of(1, 2, 3).values { received.append(value) }
            return received
        }
        let received = try await task.value
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testDroppingTheStreamWithoutIteratingDisposesTheSubscription() async {
        let subject = PublishSubject<Int>()
        do {
            let stream = subject.values
            XCTAssertTrue(subject.hasObservers, "reading `values` subscribes")
            withExtendedLifetime(stream) {}
        }
        XCTAssertFalse(subject.hasObservers)
    }

    func testElementsFromAnotherThreadAreBufferedWithoutLoss() async throws {
        let subject = ReplaySubject<Int>.createUnbounded()
        let count = 20_000
        let stream = subject.values
        DispatchQueue.global().async {
            for value in 0..<count { subject.onNext(value) }
            subject.onCompleted()
        }
        var expected = 0
        for try await value in stream {
            XCTAssertEqual(value, expected)
            expected += 1
            if expected % 1_000 == 0 { await Task.yield() }
        }
        XCTAssertEqual(expected, count)
    }

    func testValuesInAManyIterationLoopLeakNothing() async {
        for round in 0..<300 {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            do {
                let stream = subject.values
                subject.onNext(round)
                switch round % 3 {
                case 0: subject.onCompleted()
                case 1: subject.onError(testError)
                default: break
                }
                do {
                    for try await value in stream {
                        received.append(value)
                        if round % 3 == 2 { break }
                    }
                    XCTAssertNotEqual(round % 3, 1)
                } catch {
                    XCTAssertEqual(round % 3, 1)
                }
            }
            XCTAssertEqual(received, [round])
            XCTAssertFalse(subject.hasObservers)
        }
    }

    /// An `AsyncThrowingStream` ends (and disposes the subscription) when its last
    /// iterator and the stream itself are gone: with `for … in source.values` that is
    /// the end of the loop; a stream kept in a variable lives until the variable does.
    func testBreakingOutOfALoopOverAStoredStreamDisposesWhenTheStreamGoesAway() async throws {
        let subject = BehaviorSubject(value: 0)
        do {
            let stream = subject.values
            for try await _ in stream { break }
        }
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: AsyncSequence -> Observable

    func testAsyncStreamAsObservableEmitsAndCompletes() throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        XCTAssertEqual(try stream.asObservable().toBlocking(timeout: 5).toArray(), [1, 2, 3])
    }

    func testThrownErrorBecomesAnErrorEvent() {
        let probe = AsyncProbe()
        let result = ProbeSequence(count: 2, end: .fail, probe: probe).asObservable().toBlocking(timeout: 5).materialize()
        guard case .failed(let elements, let error) = result else {
            return XCTFail("expected a failure, got \(result)")
        }
        XCTAssertEqual(elements, [1, 2])
        XCTAssertEqual(error as? TestError, testError)
    }

    // RxSwift 6.10.2's `asObservable()` catches `CancellationError` and
    // completes; before, Ripple sent it on as an error.
    func testASequenceThrowingCancellationErrorCompletes() {
        let stream = AsyncThrowingStream<Int, Swift.Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: CancellationError())
        }
        let result = stream.asObservable().toBlocking(timeout: 5).materialize()
        guard case .completed(let elements) = result else {
            return XCTFail("expected completion, got \(result)")
        }
        XCTAssertEqual(elements, [1])
    }

    func testEachSubscriptionIteratesAgain() throws {
        let probe = AsyncProbe()
        let observable = Observable.from(ProbeSequence(count: 3, end: .finish, probe: probe))
        XCTAssertEqual(try observable.toBlocking(timeout: 5).toArray(), [1, 2, 3])
        XCTAssertEqual(try observable.toBlocking(timeout: 5).toArray(), [1, 2, 3])
        XCTAssertEqual(probe.iterators.load(ordering: .relaxed), 2)
    }

    func testDisposingCancelsTheTaskAndEmitsNothingAfterwards() async {
        let probe = AsyncProbe()
        let (recorder, subscription) = record(ProbeSequence(count: 1, end: .waitForCancellation, probe: probe).asObservable())
        let waiting = await eventually { probe.waiting.load(ordering: .acquiring) == 1 }
        XCTAssertTrue(waiting)
        XCTAssertEqual(recorder.values, [.next(1)])
        subscription.dispose()
        let cancelled = await eventually { probe.sawIsCancelled.load(ordering: .acquiring) == 1 }
        XCTAssertTrue(cancelled, "the iterating task saw Task.isCancelled")
        XCTAssertEqual(probe.cancellations.load(ordering: .relaxed), 1)
        // The CancellationError thrown by the sequence is not delivered.
        try? await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(recorder.values, [.next(1)])
    }

    func testPriorityIsUsedForTheIteratingTask() throws {
        let probe = AsyncProbe()
        let observable = ProbeSequence(count: 1, end: .finish, probe: probe).asObservable(priority: .utility)
        XCTAssertEqual(try observable.toBlocking(timeout: 5).toArray(), [1])
        XCTAssertEqual(probe.priority.value, .utility)
    }

    func testImmediateDisposalManyTimesLeaksNothingAndEmitsNoError() async {
        let probe = AsyncProbe()
        let errors = Atomic<Int>(0)
        for _ in 0..<500 {
            ProbeSequence(count: 0, end: .waitForCancellation, probe: probe).asObservable()
                .subscribe(onError: { _ in errors.add(1, ordering: .relaxed) })
                .dispose()
        }
        // Every task ends: a task that had not started when it was cancelled never
        // waits; one that had is cancelled.
        let settled = await eventually(timeout: .seconds(10)) {
            probe.waiting.load(ordering: .acquiring) == probe.cancellations.load(ordering: .acquiring)
                && probe.sawIsCancelled.load(ordering: .acquiring) == probe.waiting.load(ordering: .acquiring)
        }
        XCTAssertTrue(settled)
        XCTAssertEqual(errors.load(ordering: .relaxed), 0)
    }

    // MARK: Observable.fromAsync

    func testFromAsyncEmitsTheResultThenCompletes() throws {
        let observable = Observable.fromAsync { () async throws -> Int in
            try await Task.sleep(nanoseconds: 1_000_000)
            return 42
        }
        XCTAssertEqual(try observable.toBlocking(timeout: 5).toArray(), [42])
    }

    func testFromAsyncThrownErrorBecomesAnErrorEvent() {
        let observable = Observable<Int>.fromAsync { throw testError }
        guard case .failed(let elements, let error) = observable.toBlocking(timeout: 5).materialize() else {
            return XCTFail("expected a failure")
        }
        XCTAssertEqual(elements, [])
        XCTAssertEqual(error as? TestError, testError)
    }

    func testFromAsyncRunsTheWorkOncePerSubscription() throws {
        let probe = AsyncProbe()
        let observable = Observable.fromAsync { () -> Int in
            probe.runs.add(1, ordering: .relaxed).newValue
        }
        _ = try observable.toBlocking(timeout: 5).toArray()
        _ = try observable.toBlocking(timeout: 5).toArray()
        XCTAssertEqual(probe.runs.load(ordering: .relaxed), 2)
    }

    func testFromAsyncDetachedAndWithPriority() throws {
        let probe = AsyncProbe()
        let observable = Observable.fromAsync(detached: true, priority: .utility) { () -> Int in
            probe.priority.value = Task.currentPriority
            return 1
        }
        XCTAssertEqual(try observable.toBlocking(timeout: 5).toArray(), [1])
        XCTAssertEqual(probe.priority.value, .utility)
    }

    func testFromAsyncDisposalCancelsTheTask() async {
        let probe = AsyncProbe()
        let observable = Observable.fromAsync { () async throws -> Int in
            try await probe.waitForCancellation()
            return 1
        }
        let (recorder, subscription) = record(observable)
        let waiting = await eventually { probe.waiting.load(ordering: .acquiring) == 1 }
        XCTAssertTrue(waiting)
        subscription.dispose()
        let cancelled = await eventually { probe.sawIsCancelled.load(ordering: .acquiring) == 1 }
        XCTAssertTrue(cancelled, "the work saw Task.isCancelled")
        try? await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(recorder.values, [], "no CancellationError after dispose")
    }

    func testFromAsyncThroughValuesRoundTrip() async throws {
        var received: [String] = []
        for try await value in Observable.fromAsync({ "hello" }).map({ $0.uppercased() }).values {
            received.append(value)
        }
        XCTAssertEqual(received, ["HELLO"])
    }

    func testFromAsyncManyRoundsCompleteExactlyOnce() async throws {
        for round in 0..<300 {
            var received: [Int] = []
            for try await value in Observable.fromAsync({ round }).values {
                received.append(value)
            }
            XCTAssertEqual(received, [round])
        }
    }
}

// MARK: - Stress

/// Races between cancellation, disposal and emission in both directions; they
/// also run under ThreadSanitizer.
final class AsyncBridgeConcurrencyTests: RippleTestCase {
    func testValuesConsumerCancelledWhileAnotherThreadEmits() async throws {
        let subject = PublishSubject<Int>()
        let stop = Atomic<Bool>(false)
        let producerDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var value = 0
            while !stop.load(ordering: .relaxed) {
                subject.onNext(value)
                value += 1
            }
            producerDone.signal()
        }
        for round in 0..<200 {
            let consumer = Task {
                var count = 0
                for try await _ in subject.values {
                    count += 1
                    if round % 2 == 0 && count == 3 { break }
                }
            }
            if round % 2 == 1 {
                _ = await eventually { subject.hasObservers }
                consumer.cancel()
            }
            do {
                try await consumer.value
            } catch is CancellationError {
                XCTAssertEqual(round % 2, 1, "only a cancelled loop throws CancellationError")
            }
        }
        stop.store(true, ordering: .relaxed)
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                producerDone.wait()
                continuation.resume()
            }
        }
        let released = await eventually { !subject.hasObservers }
        XCTAssertTrue(released)
    }

    func testAsyncSequenceDisposedWhileItEmits() async {
        let lateEvents = Atomic<Int>(0)
        let errors = Atomic<Int>(0)
        for _ in 0..<200 {
            var made: AsyncStream<Int>.Continuation?
            let stream = AsyncStream<Int> { made = $0 }
            let continuation = made!
            let disposed = Atomic<Bool>(false)
            let subscription = stream.asObservable().subscribe(
                onNext: { _ in
                    if disposed.load(ordering: .acquiring) { lateEvents.add(1, ordering: .relaxed) }
                },
                onError: { _ in errors.add(1, ordering: .relaxed) }
            )
            let producer = Task.detached {
                for value in 0..<1_000 {
                    continuation.yield(value)
                    if value % 100 == 0 { await Task.yield() }
                }
                continuation.finish()
            }
            await Task.yield()
            subscription.dispose()
            disposed.store(true, ordering: .releasing)
            await producer.value
        }
        // An element whose delivery began before `dispose()` may end after it; at most
        // one per subscription.
        XCTAssertLessThanOrEqual(lateEvents.load(ordering: .relaxed), 200)
        XCTAssertEqual(errors.load(ordering: .relaxed), 0)
    }

    func testFromAsyncSubscribedAndDisposedFromManyThreads() async {
        let completed = Atomic<Int>(0)
        let errors = Atomic<Int>(0)
        let observable = Observable.fromAsync { () async throws -> Int in
            await Task.yield()
            return 1
        }
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for round in 0..<250 {
                let subscription = observable.subscribe(
                    onError: { _ in errors.add(1, ordering: .relaxed) },
                    onCompleted: { completed.add(1, ordering: .relaxed) }
                )
                if (index + round) % 2 == 0 { subscription.dispose() }
            }
        }
        // The undisposed half completes; nobody receives an error.
        let done = await eventually(timeout: .seconds(10)) { completed.load(ordering: .relaxed) >= 500 }
        XCTAssertTrue(done)
        XCTAssertEqual(errors.load(ordering: .relaxed), 0)
    }
}

// MARK: - Swift 6 usage

/// Not `Sendable`: `values` does not require it (see its documentation).
final class NonSendableCounter {
    var value: Int
    init(_ value: Int) { self.value = value }
}

/// Typical main-actor code using the bridges; it compiles without warnings in
/// Swift 6 language mode, which is part of the test.
@MainActor
final class AsyncSearchViewModel {
    private(set) var titles: [String] = []
    private(set) var counters: [Int] = []
    private var results: [String] = []

    func consume(_ queries: Observable<String>) async throws {
        for try await query in queries.values {
            titles.append(query)
        }
    }

    func consumeCounters(_ source: Observable<NonSendableCounter>) async throws {
        for try await counter in source.values {
            counters.append(counter.value)
        }
    }

    nonisolated static func search(_ query: String) async throws -> [String] {
        try await Task.sleep(nanoseconds: 1_000_000)
        return [query + "!"]
    }

    func results(for query: String) -> Observable<[String]> {
        Observable.fromAsync { try await Self.search(query) }
    }

    func bind(_ stream: AsyncStream<String>, bag: DisposeBag) {
        stream.asObservable()
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { [weak self] value in self?.results.append(value) })
            .disposed(by: bag)
    }
}

final class AsyncBridgeUsageTests: RippleTestCase {
    @MainActor
    func testMainActorCodeUsesTheBridges() async throws {
        let viewModel = AsyncSearchViewModel()
        try await viewModel.consume(Observable.of("a", "b"))
        try await viewModel.consumeCounters(Observable.of(NonSendableCounter(1), NonSendableCounter(2)))
        XCTAssertEqual(viewModel.titles, ["a", "b"])
        XCTAssertEqual(viewModel.counters, [1, 2])
        var found: [[String]] = []
        for try await result in viewModel.results(for: "rx").values {
            found.append(result)
        }
        XCTAssertEqual(found, [["rx!"]])
    }
}
