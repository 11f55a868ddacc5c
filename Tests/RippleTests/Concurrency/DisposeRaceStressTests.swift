import Dispatch
import Foundation
import Ripple
import RippleTest
import XCTest

/// Disposal racing with inner sequences that finish on other threads, for every
/// operator that keeps inner subscriptions. Each scenario is repeated many times:
/// before the fixes these tests pin, the flatMap family corrupted the heap within a
/// few hundred rounds and `subscribe(on:)` lost a quarter of its subscriptions.
///
/// They run in the ThreadSanitizer gate (`Concurrency` in the filter of
/// `scripts/test-all.sh`); the round counts are smaller there (TSan is ~10× slower)
/// but still exercise the same interleavings thousands of times.
final class DisposeRaceStressTests: RippleTestCase {
    override var leakCheckTimeout: TimeInterval { 5 }

    /// Rounds per scenario: fewer under ThreadSanitizer, which is much slower.
    static let rounds: Int = {
        #if DEBUG
        let base = 4_000
        #else
        let base = 20_000
        #endif
        return ProcessInfo.processInfo.environment["RIPPLE_STRESS_ROUNDS"].flatMap(Int.init) ?? base
    }()

    let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)

    /// Subscribes `makeChain(subject)`, sends eight elements, disposes from this
    /// thread while the inner sequences deliver on the concurrent scheduler, and
    /// checks the observer's grammar and that no element arrived twice. Every
    /// eighth round instead completes the subject and waits for the terminal
    /// event: then, where the operator's output is deterministic as a multiset,
    /// the elements must be exactly `expected`.
    private func raceDispose(
        rounds: Int = DisposeRaceStressTests.rounds, expected: [Int]? = Array(0..<8),
        file: StaticString = #filePath, line: UInt = #line,
        _ makeChain: (PublishSubject<Int>) -> Observable<Int>
    ) {
        var violations = 0
        var wrongCounts = 0
        var unfinished = 0
        for round in 0..<rounds {
            let subject = PublishSubject<Int>()
            let probe = GrammarCheck()
            let subscription = makeChain(subject).subscribe { probe.accept($0) }
            for element in 0..<8 { subject.onNext(element) }
            if round % 8 == 7 {
                subject.onCompleted()
                if !probe.waitForTerminal(timeout: 5) {
                    unfinished += 1
                } else if let expected, probe.elements.sorted() != expected {
                    wrongCounts += 1
                }
            }
            subscription.dispose()
            if probe.violations > 0 { violations += 1 }
        }
        XCTAssertEqual(violations, 0, "rounds with an event after a terminal event", file: file, line: line)
        XCTAssertEqual(unfinished, 0, "completed rounds that never terminated", file: file, line: line)
        XCTAssertEqual(wrongCounts, 0, "completed rounds with the wrong elements", file: file, line: line)
    }

    func testFlatMapDisposeRacingInnerCompletion() {
        raceDispose { subject in
            subject.flatMap { [scheduler] x in Observable.just(x).observe(on: scheduler) }
        }
    }

    func testFlatMapFirstDisposeRacingInnerCompletion() {
        // Which elements are dropped depends on timing.
        raceDispose(expected: nil) { subject in
            subject.flatMapFirst { [scheduler] x in Observable.just(x).observe(on: scheduler) }
        }
    }

    func testConcatMapDisposeRacingInnerCompletion() {
        raceDispose { subject in
            subject.concatMap { [scheduler] x in Observable.just(x).observe(on: scheduler) }
        }
    }

    func testMergeMaxConcurrentDisposeRacingInnerCompletion() {
        raceDispose { subject in
            subject.map { [scheduler] x in Observable.just(x).observe(on: scheduler) }.merge(maxConcurrent: 3)
        }
    }

    func testStaticMergeDisposeRacingSourceCompletion() {
        raceDispose(expected: Array(0..<14)) { subject in
            let sources = (8..<14).map { [scheduler] i in Observable.just(i).observe(on: scheduler) }
            return Observable.merge(sources + [subject.asObservable()])
        }
    }

    func testFlatMapLatestDisposeRacingInnerCompletion() {
        raceDispose(expected: nil) { subject in
            subject.flatMapLatest { [scheduler] x in Observable.just(x).observe(on: scheduler) }
        }
    }

    func testSwitchLatestDisposeRacingInnerCompletion() {
        raceDispose(expected: nil) { subject in
            subject.map { [scheduler] x in Observable.just(x).observe(on: scheduler) }.switchLatest()
        }
    }

    func testConcatDisposeRacingSourceCompletion() {
        raceDispose { subject in
            subject.map { [scheduler] x in Observable.just(x).observe(on: scheduler) }.concat()
        }
    }

    func testGroupByFlatMapDisposeRacingInnerCompletion() {
        raceDispose { subject in
            subject.groupBy { $0 % 3 }
                .flatMap { [scheduler] group in group.observe(on: scheduler) }
        }
    }

    func testWindowFlatMapDisposeRacingInnerCompletion() {
        raceDispose(rounds: Self.rounds / 4) { subject in
            subject.window(timeSpan: .seconds(10), count: 3, scheduler: scheduler)
                .flatMap { [scheduler] window in window.observe(on: scheduler) }
        }
    }

    func testRetryResubscriptionDisposeRacing() {
        raceDispose { subject in
            subject.flatMap { [scheduler] x in
                Observable<Int>.error(TestError(x)).observe(on: scheduler).retry(2).catchAndReturn(x)
            }
        }
    }

    func testCatchResubscriptionDisposeRacing() {
        raceDispose { subject in
            subject.flatMap { [scheduler] x in
                Observable<Int>.error(TestError(x)).observe(on: scheduler)
                    .catch { _ in Observable.just(x).observe(on: scheduler) }
            }
        }
    }

    func testShareConnectionChurnRacingInnerCompletion() {
        // The second subscriber takes two elements of the shared stream.
        raceDispose(expected: nil) { subject in
            let shared = subject.flatMap { [scheduler] x in Observable.just(x).observe(on: scheduler) }.share(replay: 1)
            return Observable.merge(shared, shared.take(2))
        }
    }

    // MARK: - subscribe(on:)

    /// A concurrent scheduler may run the subscription before `schedule` returns:
    /// the subscription it made must survive (it was overwritten by the
    /// scheduling's disposable, and the subscriber never got `.completed`).
    func testSubscribeOnConcurrentSchedulerNeverLosesTheSubscription() {
        let subscribers = 2_000
        let subject = PublishSubject<Int>()
        let completed = Atomic<Int>(0)
        let subscribed = Atomic<Int>(0)
        let bag = CompositeDisposable()
        for _ in 0..<subscribers {
            _ = bag.insert(
                subject
                    .do(onSubscribed: { subscribed.add(1, ordering: .relaxed) })
                    .subscribe(on: scheduler)
                    .subscribe(onCompleted: { completed.add(1, ordering: .relaxed) }))
        }
        XCTAssertTrue(waitUntil { subscribed.load(ordering: .relaxed) == subscribers })
        subject.onCompleted()
        XCTAssertTrue(waitUntil { completed.load(ordering: .relaxed) == subscribers })
        XCTAssertEqual(completed.load(ordering: .relaxed), subscribers, "subscriptions lost by subscribe(on:)")
        bag.dispose()
    }

    /// `timer` and `delay` subscriptions made through `subscribe(on:)` all fire.
    func testSubscribeOnTimersAllFire() {
        let count = 1_000
        let fired = Atomic<Int>(0)
        let bag = CompositeDisposable()
        for i in 0..<count {
            _ = bag.insert(
                Observable.just(i).delay(.milliseconds(1), scheduler: scheduler)
                    .subscribe(on: scheduler)
                    .subscribe(onNext: { _ in fired.add(1, ordering: .relaxed) }))
        }
        XCTAssertTrue(waitUntil(timeout: 10) { fired.load(ordering: .relaxed) == count })
        XCTAssertEqual(fired.load(ordering: .relaxed), count)
        bag.dispose()
    }

    /// Disposing right after subscribing through `subscribe(on:)`, while the
    /// scheduled subscription runs on another thread: the source is subscribed and
    /// disposed exactly as often (never left subscribed), and nothing is
    /// delivered after `dispose()` returned.
    func testSubscribeOnDisposeRacingTheScheduledSubscription() {
        let subscribes = Atomic<Int>(0)
        let disposes = Atomic<Int>(0)
        let source = Observable<Int>.create { observer in
            subscribes.add(1, ordering: .relaxed)
            observer.onNext(1)
            return Disposables.create { disposes.add(1, ordering: .relaxed) }
        }
        for _ in 0..<Self.rounds {
            let subscription = source.subscribe(on: scheduler).subscribe()
            subscription.dispose()
        }
        XCTAssertTrue(waitUntil { subscribes.load(ordering: .relaxed) == disposes.load(ordering: .relaxed) })
        XCTAssertEqual(subscribes.load(ordering: .relaxed), disposes.load(ordering: .relaxed),
                       "a source subscription made by subscribe(on:) was never disposed")
    }
}

/// Checks the `next* (error | completed)?` grammar of what one observer gets and
/// keeps its elements. Deliveries to one observer must be serialized: the
/// overlap counter, and ThreadSanitizer on the plain state, catch them if not.
final class GrammarCheck: @unchecked Sendable {
    private let lock = NSLock()
    private let inside = Atomic<Int>(0)
    private var stopped = false
    private var received: [Int] = []
    private var badEvents = 0

    func accept(_ event: Event<Int>) {
        if inside.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            lock.withLock { badEvents += 1 }
        }
        lock.withLock {
            if stopped {
                badEvents += 1
            } else if case .next(let element) = event {
                received.append(element)
            } else {
                stopped = true
            }
        }
        inside.subtract(1, ordering: .acquiringAndReleasing)
    }

    /// Events after the terminal one, or delivered concurrently with another.
    var violations: Int { lock.withLock { badEvents } }
    var elements: [Int] { lock.withLock { received } }

    func waitForTerminal(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !lock.withLock({ stopped }) {
            if Date() >= deadline { return false }
            usleep(50)
        }
        return true
    }
}
