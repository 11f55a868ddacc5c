import Dispatch
import Foundation
import Ripple
import RippleTest
import XCTest

/// Counts the subscriptions and disposals of a trait built with `create`.
final class SubscriptionProbe: @unchecked Sendable {
    let subscriptions = Atomic<Int>(0)
    let disposals = Atomic<Int>(0)

    var subscribed: Int { subscriptions.load(ordering: .acquiring) }
    var disposed: Int { disposals.load(ordering: .acquiring) }

    /// A `Single` that never reports an outcome and counts its subscriptions
    /// and disposals.
    func neverEndingSingle() -> Single<Int> {
        Single.create { _ in
            self.subscriptions.add(1, ordering: .acquiringAndReleasing)
            return Disposables.create { self.disposals.add(1, ordering: .acquiringAndReleasing) }
        }
    }

    func neverEndingMaybe() -> Maybe<Int> {
        Maybe.create { _ in
            self.subscriptions.add(1, ordering: .acquiringAndReleasing)
            return Disposables.create { self.disposals.add(1, ordering: .acquiringAndReleasing) }
        }
    }

    func neverEndingCompletable() -> Completable {
        Completable.create { _ in
            self.subscriptions.add(1, ordering: .acquiringAndReleasing)
            return Disposables.create { self.disposals.add(1, ordering: .acquiringAndReleasing) }
        }
    }
}

final class TraitAsyncTests: RippleTestCase {
    // MARK: - Single.value

    func testSingleValueReturnsTheElement() async throws {
        let value = try await Single.just(1).value
        XCTAssertEqual(value, 1)
        let mapped = try await Single.just(2).map { "\($0)" }.value
        XCTAssertEqual(mapped, "2")
    }

    func testSingleValueThrowsTheError() async {
        do {
            _ = try await Single<Int>.error(testError).value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testSingleValueOfACompletionWithoutElementThrowsNoElements() async {
        do {
            // retry(0) completes at once without an element.
            _ = try await Single.just(1).retry(0).value
            XCTFail("expected an error")
        } catch RxError.noElements {
        } catch {
            XCTFail("\(error)")
        }
    }

    func testSingleValueFromAnotherThread() async throws {
        let value = try await Single.just(3)
            .delay(.milliseconds(5), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
            .value
        XCTAssertEqual(value, 3)
    }

    func testSingleValueDisposesTheSubscriptionAfterTheOutcome() async throws {
        let probe = SubscriptionProbe()
        let single = Single<Int>.create { observer in
            probe.subscriptions.add(1, ordering: .relaxed)
            observer(.success(5))
            return Disposables.create { probe.disposals.add(1, ordering: .relaxed) }
        }
        let value = try await single.value
        XCTAssertEqual(value, 5)
        XCTAssertEqual(probe.subscribed, 1)
        XCTAssertEqual(probe.disposed, 1)
    }

    func testCancellingTheAwaitingTaskDisposesAndThrowsCancellationError() async {
        let probe = SubscriptionProbe()
        let single = probe.neverEndingSingle()
        let task = Task { try await single.value }
        let subscribed = await eventually { probe.subscribed == 1 }
        XCTAssertTrue(subscribed)
        XCTAssertEqual(probe.disposed, 0)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(probe.disposed, 1)
    }

    func testAlreadyCancelledTaskSubscribesThenThrowsCancellationError() async {
        let probe = SubscriptionProbe()
        let single = probe.neverEndingSingle()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await single.value
        }
        do {
            _ = try await task.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        // As in RxSwift: subscribed first, then disposed for the cancellation.
        XCTAssertEqual(probe.subscribed, 1)
        XCTAssertEqual(probe.disposed, 1)
    }

    func testAlreadyCancelledTaskGetsAnOutcomeDeliveredDuringSubscribe() async throws {
        let task = Task { () -> (Int, Int?, Int?) in
            withUnsafeCurrentTask { $0?.cancel() }
            let single = try await Single.just(1).value
            let empty = try await Maybe<Int>.empty().value
            let just = try await Maybe.just(3).value
            try await Completable.empty().value
            return (single, empty, just)
        }
        let (single, empty, just) = try await task.value
        XCTAssertEqual(single, 1)
        XCTAssertNil(empty, "Maybe.empty() in a cancelled task returns nil, not CancellationError")
        XCTAssertEqual(just, 3)
    }

    func testAlreadyCancelledTaskGetsAnErrorDeliveredDuringSubscribe() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Maybe<Int>.error(testError).value
        }
        do {
            _ = try await task.value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testAlreadyCancelledTaskAwaitingAnEndlessMaybeOrCompletableThrows() async {
        let probe = SubscriptionProbe()
        let maybe = probe.neverEndingMaybe()
        let completable = probe.neverEndingCompletable()
        let task = Task { () -> [Bool] in
            withUnsafeCurrentTask { $0?.cancel() }
            var cancelled: [Bool] = []
            do { _ = try await maybe.value } catch { cancelled.append(error is CancellationError) }
            do { try await completable.value } catch { cancelled.append(error is CancellationError) }
            return cancelled
        }
        let cancelled = await task.value
        XCTAssertEqual(cancelled, [true, true])
        XCTAssertEqual(probe.subscribed, 2)
        XCTAssertEqual(probe.disposed, 2)
    }

    func testCancellationAfterTheOutcomeChangesNothing() async throws {
        let task = Task { () -> Int in
            let value = try await Single.just(7).value
            withUnsafeCurrentTask { $0?.cancel() }
            return value
        }
        let value = try await task.value
        XCTAssertEqual(value, 7)
    }

    func testManyAwaitsLeakNothing() async throws {
        var sum = 0
        for index in 0..<1_000 {
            sum += try await Single.just(index).value
            _ = try await Maybe<Int>.empty().value
            try await Completable.empty().value
        }
        XCTAssertEqual(sum, (0..<1_000).reduce(0, +))
    }

    func testManyCancellationsLeakNothingAndResumeOnce() async {
        let probe = SubscriptionProbe()
        var cancellations = 0
        for _ in 0..<200 {
            let single = probe.neverEndingSingle()
            let task = Task { try await single.value }
            await Task.yield()
            task.cancel()
            do {
                _ = try await task.value
            } catch is CancellationError {
                cancellations += 1
            } catch {
                XCTFail("\(error)")
            }
        }
        XCTAssertEqual(cancellations, 200)
        XCTAssertEqual(probe.subscribed, probe.disposed)
    }

    // MARK: - Maybe.value

    func testMaybeValue() async throws {
        let some = try await Maybe.just(1).value
        XCTAssertEqual(some, 1)
        let none = try await Maybe<Int>.empty().value
        XCTAssertNil(none)
        do {
            _ = try await Maybe<Int>.error(testError).value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
        let late = try await Maybe.just(2).delay(.milliseconds(5), scheduler: ConcurrentDispatchQueueScheduler(qos: .default)).value
        XCTAssertEqual(late, 2)
    }

    func testMaybeValueCancellation() async {
        let probe = SubscriptionProbe()
        let maybe = probe.neverEndingMaybe()
        let task = Task { try await maybe.value }
        _ = await eventually { probe.subscribed == 1 }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(probe.disposed, 1)
    }

    // MARK: - Completable.value

    func testCompletableValue() async throws {
        try await Completable.empty().value
        let value: Void = try await Completable.empty().delay(.milliseconds(5), scheduler: ConcurrentDispatchQueueScheduler(qos: .default)).value
        _ = value
        do {
            try await Completable.error(testError).value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testCompletableValueCancellation() async {
        let probe = SubscriptionProbe()
        let completable = probe.neverEndingCompletable()
        let task = Task { try await completable.value }
        _ = await eventually { probe.subscribed == 1 }
        task.cancel()
        do {
            try await task.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(probe.disposed, 1)
    }

    // MARK: - Single.create(detached:priority:work:)

    func testCreateFromAsyncWorkSucceeds() async throws {
        let single = Single.create { () async throws -> Int in
            try await Task.sleep(nanoseconds: 1_000_000)
            return 42
        }
        let value = try await single.value
        XCTAssertEqual(value, 42)
        XCTAssertEqual(try single.asObservable().toBlocking(timeout: 5).toArray(), [42])
    }

    func testCreateFromAsyncWorkThatThrowsFails() {
        let single = Single<Int>.create(work: { throw testError })
        guard case .failed(let elements, let error) = single.asObservable().toBlocking(timeout: 5).materialize() else {
            return XCTFail("expected a failure")
        }
        XCTAssertEqual(elements, [])
        XCTAssertEqual(error as? TestError, testError)
    }

    func testCreateWithWorkAndWithSubscribeLiveSideBySide() throws {
        // A closure taking an observer picks `create(subscribe:)`; one taking
        // nothing picks `create(work:)`.
        let fromObserver = Single<Int>.create { observer in
            observer(.success(1))
            return Disposables.create()
        }
        let fromWork = Single<Int>.create { 2 }
        XCTAssertEqual(try fromObserver.asObservable().toBlocking(timeout: 5).toArray(), [1])
        XCTAssertEqual(try fromWork.asObservable().toBlocking(timeout: 5).toArray(), [2])
    }

    func testCreateRunsTheWorkOncePerSubscription() throws {
        let probe = AsyncProbe()
        let single = Single.create { () -> Int in probe.runs.add(1, ordering: .relaxed).newValue }
        _ = try single.asObservable().toBlocking(timeout: 5).toArray()
        _ = try single.asObservable().toBlocking(timeout: 5).toArray()
        XCTAssertEqual(probe.runs.load(ordering: .relaxed), 2)
    }

    func testCreateDetachedWithPriority() throws {
        let probe = AsyncProbe()
        let single = Single.create(detached: true, priority: .utility) { () -> Int in
            probe.priority.value = Task.currentPriority
            return 1
        }
        XCTAssertEqual(try single.asObservable().toBlocking(timeout: 5).toArray(), [1])
        XCTAssertEqual(probe.priority.value, .utility)

        let attached = Single.create(priority: .background) { () -> Int in
            probe.priority.value = Task.currentPriority
            return 2
        }
        XCTAssertEqual(try attached.asObservable().toBlocking(timeout: 5).toArray(), [2])
        XCTAssertEqual(probe.priority.value, .background)
    }

    func testDisposingCancelsTheWorkAndReportsNothing() async {
        let probe = AsyncProbe()
        let single = Single.create { () async throws -> Int in
            try await probe.waitForCancellation()
            return 1
        }
        let outcomes = Recorder<String>()
        let subscription = single.subscribe(
            onSuccess: { outcomes.append("success \($0)") },
            onFailure: { outcomes.append("failure \($0)") },
            onDisposed: { outcomes.append("disposed") }
        )
        let waiting = await eventually { probe.waiting.load(ordering: .acquiring) == 1 }
        XCTAssertTrue(waiting)
        subscription.dispose()
        let cancelled = await eventually { probe.sawIsCancelled.load(ordering: .acquiring) == 1 }
        XCTAssertTrue(cancelled, "the work saw Task.isCancelled")
        try? await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(outcomes.values, ["disposed"], "no CancellationError after dispose")
    }

    func testCancellingTheAwaitingTaskCancelsTheWork() async {
        let probe = AsyncProbe()
        let single = Single.create { () async throws -> Int in
            try await probe.waitForCancellation()
            return 1
        }
        let task = Task { try await single.value }
        _ = await eventually { probe.waiting.load(ordering: .acquiring) == 1 }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        let cancelled = await eventually { probe.cancellations.load(ordering: .acquiring) == 1 }
        XCTAssertTrue(cancelled)
    }

    func testAsyncRoundTripThroughOperators() async throws {
        let user = try await Single.create { "ripple" }
            .flatMap { name in Single.just(name.count) }
            .map { $0 * 2 }
            .value
        XCTAssertEqual(user, 12)
        let zipped = try await Single.zip(Single.create { 1 }, Single.create { 2 }) { $0 + $1 }.value
        XCTAssertEqual(zipped, 3)
        try await Completable.empty().andThen(Single.create { () in }).value
    }
}

/// Cancellation racing the outcome, from several threads; also run under
/// ThreadSanitizer.
final class TraitsConcurrencyTests: RippleTestCase {
    func testSingleValueCancellationRacingTheOutcomeResumesExactlyOnce() async {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        var successes = 0
        var cancellations = 0
        let rounds = 500
        for round in 0..<rounds {
            let single = Single.just(round).observe(on: scheduler)
            let task = Task { try await single.value }
            if round % 3 == 0 { await Task.yield() }
            task.cancel()
            do {
                let value = try await task.value
                XCTAssertEqual(value, round)
                successes += 1
            } catch is CancellationError {
                cancellations += 1
            } catch {
                XCTFail("\(error)")
            }
        }
        XCTAssertEqual(successes + cancellations, rounds)
    }

    func testMaybeAndCompletableValueCancellationRacingTheOutcome() async {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        var finished = 0
        for round in 0..<300 {
            let maybe = (round % 2 == 0 ? Maybe.just(round) : Maybe<Int>.empty()).observe(on: scheduler)
            let completable = Completable.empty().observe(on: scheduler)
            let maybeTask = Task { try await maybe.value }
            let completableTask = Task { try await completable.value }
            maybeTask.cancel()
            completableTask.cancel()
            do {
                let value = try await maybeTask.value
                XCTAssertEqual(value, round % 2 == 0 ? round : nil)
            } catch {
                XCTAssertTrue(error is CancellationError, "\(error)")
            }
            do {
                try await completableTask.value
            } catch {
                XCTAssertTrue(error is CancellationError, "\(error)")
            }
            finished += 1
        }
        XCTAssertEqual(finished, 300)
    }

    func testOutcomeFromAnotherThreadWhileTheTaskIsCancelledFromAThird() async {
        let probe = SubscriptionProbe()
        let outcomes = Atomic<Int>(0)
        for round in 0..<300 {
            let subject = PublishSubject<Int>()
            let single = subject.asSingle().do(onSubscribed: { probe.subscriptions.add(1, ordering: .relaxed) })
            let task = Task { try await single.value }
            _ = await eventually { subject.hasObservers }
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                subject.onNext(round)
                subject.onCompleted()
            }
            DispatchQueue.global().async(group: group) {
                task.cancel()
            }
            do {
                let value = try await task.value
                XCTAssertEqual(value, round)
            } catch {
                XCTAssertTrue(error is CancellationError, "\(error)")
            }
            outcomes.add(1, ordering: .relaxed)
            await withCheckedContinuation { continuation in
                group.notify(queue: .global()) { continuation.resume() }
            }
            XCTAssertFalse(subject.hasObservers)
        }
        XCTAssertEqual(outcomes.load(ordering: .relaxed), 300)
        XCTAssertEqual(probe.subscribed, 300)
    }

    func testCreateDisposedFromManyThreadsWhileTheWorkFinishes() async {
        final class Counts: @unchecked Sendable {
            let reported = Atomic<Int>(0)
            let disposedEarly = Atomic<Int>(0)
        }
        let counts = Counts()
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<200 {
                group.addTask {
                    let single = Single.create { () async -> Int in
                        if round % 2 == 0 { await Task.yield() }
                        return round
                    }
                    let done = Recorder<Bool>()
                    let subscription = single.subscribe(
                        onSuccess: { _ in counts.reported.add(1, ordering: .relaxed) },
                        onDisposed: { done.append(true) }
                    )
                    if round % 3 == 0 {
                        subscription.dispose()
                        counts.disposedEarly.add(1, ordering: .relaxed)
                    }
                    _ = await eventually { !done.values.isEmpty }
                    subscription.dispose()
                }
            }
        }
        let reported = counts.reported.load(ordering: .relaxed)
        XCTAssertGreaterThanOrEqual(reported, 200 - counts.disposedEarly.load(ordering: .relaxed))
        XCTAssertLessThanOrEqual(reported, 200)
    }
}
