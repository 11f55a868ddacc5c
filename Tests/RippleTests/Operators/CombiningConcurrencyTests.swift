import Dispatch
import Foundation
import Ripple
import RippleTest
import XCTest

/// Stress tests of the combining operators fed from several threads at once. They
/// also run under ThreadSanitizer: `Probe` keeps plain (unsynchronized) state,
/// which is only race-free if the operator really delivers one event at a time.
final class CombiningConcurrencyTests: RippleTestCase {
    /// Records what one observer receives and counts overlapping deliveries.
    final class Probe<Element>: @unchecked Sendable {
        private let inside = Atomic<Int>(0)
        private let overlapCount = Atomic<Int>(0)
        private let terminalCount = Atomic<Int>(0)
        private let nextCount = Atomic<Int>(0)
        /// Touched only by deliveries, which must be serialized.
        private(set) var elements: [Element] = []
        private(set) var completions = 0
        private(set) var errors = 0
        private(set) var eventsAfterTerminal = 0

        var overlaps: Int { overlapCount.load(ordering: .acquiring) }
        var isTerminated: Bool { terminalCount.load(ordering: .acquiring) > 0 }
        /// The number of elements received; readable while deliveries run.
        var count: Int { nextCount.load(ordering: .acquiring) }

        func on(_ event: Event<Element>) {
            if inside.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
                overlapCount.add(1, ordering: .relaxed)
            }
            if completions + errors > 0 {
                eventsAfterTerminal += 1
            }
            switch event {
            case .next(let element):
                elements.append(element)
                nextCount.add(1, ordering: .releasing)
            case .error:
                errors += 1
            case .completed:
                completions += 1
            }
            inside.subtract(1, ordering: .acquiringAndReleasing)
            if event.isStopEvent {
                terminalCount.add(1, ordering: .releasing)
            }
        }
    }

    /// Counts how many times a closure runs concurrently with itself.
    final class ReentryDetector: @unchecked Sendable {
        private let inside = Atomic<Int>(0)
        private let overlapCount = Atomic<Int>(0)

        var overlaps: Int { overlapCount.load(ordering: .acquiring) }

        func run<Result>(_ body: () throws -> Result) rethrows -> Result {
            if inside.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
                overlapCount.add(1, ordering: .relaxed)
            }
            defer { inside.subtract(1, ordering: .acquiringAndReleasing) }
            return try body()
        }
    }

    private let producers = 4
    private let perProducer = 5_000

    private func assertPerProducerOrder(_ pairs: [(Int, Int)], file: StaticString = #filePath, line: UInt = #line) {
        var last: [Int: Int] = [:]
        var violations = 0
        for (producer, index) in pairs {
            if let previous = last[producer], previous >= index { violations += 1 }
            last[producer] = index
        }
        XCTAssertEqual(violations, 0, "elements of one producer arrived out of order", file: file, line: line)
    }

    // MARK: merge

    func testStaticMergeFromManyThreads() {
        let subjects = (0..<producers).map { _ in PublishSubject<(Int, Int)>() }
        let probe = Probe<(Int, Int)>()
        let subscription = Observable.merge(subjects.map { $0.asObservable() }).subscribe(probe.on)
        let perProducer = perProducer
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 0..<perProducer {
                subjects[producer].onNext((producer, index))
            }
            subjects[producer].onCompleted()
        }
        // Every producer has returned, so every event has been delivered.
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.elements.count, producers * perProducer)
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.eventsAfterTerminal, 0)
        assertPerProducerOrder(probe.elements)
        subscription.dispose()
    }

    func testMergeOfObservablesWithAnErrorRacingTheOtherSources() {
        for _ in 0..<50 {
            let subjects = (0..<producers).map { _ in PublishSubject<Int>() }
            let probe = Probe<Int>()
            let subscription = Observable.from(subjects.map { $0.asObservable() }).merge().subscribe(probe.on)
            DispatchQueue.concurrentPerform(iterations: producers) { producer in
                for index in 0..<200 {
                    subjects[producer].onNext(index)
                    if producer == 0 && index == 100 {
                        subjects[producer].onError(testError)
                    }
                }
            }
            XCTAssertEqual(probe.overlaps, 0)
            XCTAssertEqual(probe.errors, 1)
            XCTAssertEqual(probe.completions, 0)
            XCTAssertEqual(probe.eventsAfterTerminal, 0)
            for subject in subjects {
                XCTAssertFalse(subject.hasObservers, "an error disposes every source")
            }
            subscription.dispose()
        }
    }

    func testMergeMaxConcurrentWithInnersOnAConcurrentScheduler() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let active = Atomic<Int>(0)
        let maxActive = Atomic<Int>(0)
        let inners = Observable.range(start: 0, count: 300).map { value in
            Observable<Int>.create { observer in
                let now = active.add(1, ordering: .acquiringAndReleasing).newValue
                var seen = maxActive.load(ordering: .relaxed)
                while now > seen {
                    let (exchanged, original) = maxActive.compareExchange(expected: seen, desired: now, ordering: .relaxed)
                    if exchanged { break }
                    seen = original
                }
                let work = scheduler.schedule(()) { _ in
                    observer.onNext(value)
                    observer.onCompleted()
                    return Disposables.create()
                }
                return Disposables.create {
                    active.subtract(1, ordering: .acquiringAndReleasing)
                    work.dispose()
                }
            }
        }
        let probe = Probe<Int>()
        let subscription = inners.merge(maxConcurrent: 3).subscribe(probe.on)
        XCTAssertTrue(waitUntil { probe.isTerminated })
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.elements.sorted(), Array(0..<300))
        XCTAssertLessThanOrEqual(maxActive.load(ordering: .relaxed), 3)
        subscription.dispose()
    }

    // MARK: flatMap family

    func testFlatMapWithInnersFedFromManyThreads() {
        let outer = PublishSubject<Int>()
        let inners = (0..<producers).map { _ in PublishSubject<(Int, Int)>() }
        let probe = Probe<(Int, Int)>()
        let subscription = outer.flatMap { inners[$0] }.subscribe(probe.on)
        for producer in 0..<producers {
            outer.onNext(producer)
        }
        outer.onCompleted()
        let perProducer = perProducer
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 0..<perProducer {
                inners[producer].onNext((producer, index))
            }
            inners[producer].onCompleted()
        }
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.elements.count, producers * perProducer)
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.eventsAfterTerminal, 0)
        assertPerProducerOrder(probe.elements)
        subscription.dispose()
    }

    func testFlatMapSubscribesWhileInnersCompleteOnOtherThreads() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let probe = Probe<Int>()
        let subscription = Observable.range(start: 0, count: 2_000)
            .flatMap { Observable.just($0, scheduler: scheduler) }
            .subscribe(probe.on)
        XCTAssertTrue(waitUntil { probe.isTerminated })
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.elements.sorted(), Array(0..<2_000))
        subscription.dispose()
    }

    func testConcatMapKeepsOrderWithInnersOnAConcurrentScheduler() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let probe = Probe<Int>()
        let subscription = Observable.range(start: 0, count: 500)
            .concatMap { Observable.of($0 * 2, $0 * 2 + 1, scheduler: scheduler) }
            .subscribe(probe.on)
        XCTAssertTrue(waitUntil { probe.isTerminated })
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.elements, Array(0..<1_000))
        subscription.dispose()
    }

    func testStaticConcatWithSourcesOnAConcurrentScheduler() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let probe = Probe<Int>()
        let sources = (0..<500).map { Observable.just($0, scheduler: scheduler) }
        let subscription = Observable.concat(sources).subscribe(probe.on)
        XCTAssertTrue(waitUntil { probe.isTerminated })
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.elements, Array(0..<500))
        subscription.dispose()
    }

    /// Runs `body` while one thread per subject sends it 0, 1, 2, ... (stopping
    /// at a million); returns when `body` and every emitter are done.
    func whileEmitting(into subjects: [PublishSubject<Int>], _ body: () -> Void) {
        let stop = Atomic<Bool>(false)
        let group = DispatchGroup()
        for subject in subjects {
            group.enter()
            DispatchQueue.global().async {
                var value = 0
                while !stop.load(ordering: .acquiring) && value < 1_000_000 {
                    subject.onNext(value)
                    value += 1
                }
                group.leave()
            }
        }
        body()
        stop.store(true, ordering: .releasing)
        group.wait()
    }

    func testFlatMapLatestSwitchingWhileInnersEmit() {
        let outer = PublishSubject<Int>()
        let inners = (0..<3).map { _ in PublishSubject<Int>() }
        let probe = Probe<Int>()
        let subscription = outer.flatMapLatest { inners[$0 % 3] }.subscribe(probe.on)
        whileEmitting(into: inners) {
            for value in 0..<3_000 {
                outer.onNext(value)
            }
        }
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.completions, 0)
        outer.onCompleted()
        inners[0].onCompleted()  // 2_999 % 3 == 2: not the latest inner
        XCTAssertEqual(probe.completions, 0)
        inners[2].onCompleted()
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.eventsAfterTerminal, 0)
        subscription.dispose()
    }

    /// Inner `just`s are forwarded without a subscription; switching between them
    /// and live inners that emit on other threads still delivers one event at a
    /// time, drops the superseded inners' events and forwards every `just`.
    func testFlatMapLatestAlternatingJustsAndLiveInners() {
        let outer = PublishSubject<Int>()
        let inners = (0..<2).map { _ in PublishSubject<Int>() }
        let probe = Probe<Int>()
        let subscription = outer
            .flatMapLatest { $0 % 3 == 2 ? Observable.just(-$0) : inners[$0 % 3].asObservable() }
            .subscribe(probe.on)
        whileEmitting(into: inners) {
            for value in 0..<3_000 {
                outer.onNext(value)
            }
        }
        XCTAssertEqual(probe.overlaps, 0)
        let justs = probe.elements.filter { $0 < 0 }
        XCTAssertEqual(justs, stride(from: 2, to: 3_000, by: 3).map { -$0 })
        // 2_999 % 3 == 2: the latest inner is a `just`, which has completed.
        outer.onCompleted()
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.eventsAfterTerminal, 0)
        subscription.dispose()
    }

    /// `flatMap` of `just`s from several threads at once, interleaved with a live
    /// inner: every element arrives, one at a time.
    func testFlatMapOfJustsFromManyThreads() {
        let outer = PublishSubject<Int>()
        let live = PublishSubject<Int>()
        let probe = Probe<Int>()
        let subscription = outer
            .flatMap { $0 == 0 ? live.asObservable() : Observable.just($0) }
            .subscribe(probe.on)
        outer.onNext(0)
        let threads = 4
        let perThread = 5_000
        DispatchQueue.concurrentPerform(iterations: threads + 1) { thread in
            if thread == threads {
                for value in 0..<perThread { live.onNext(-value - 1) }
            } else {
                for value in 0..<perThread { outer.onNext(1 + thread * perThread + value) }
            }
        }
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.elements.filter { $0 > 0 }.sorted(), Array(1...(threads * perThread)))
        XCTAssertEqual(probe.elements.filter { $0 < 0 }, (0..<perThread).map { -$0 - 1 })
        subscription.dispose()
    }

    // MARK: combineLatest / zip

    func testCombineLatestFromManyThreads() {
        let subjects = (0..<producers).map { _ in PublishSubject<Int>() }
        let probe = Probe<[Int]>()
        let selector = ReentryDetector()
        let subscription = Observable.combineLatest(subjects.map { $0.asObservable() }) { values in
            selector.run { values }
        }.subscribe(probe.on)
        let perProducer = perProducer
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 1...perProducer {
                subjects[producer].onNext(index)
            }
            subjects[producer].onCompleted()
        }
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(selector.overlaps, 0, "the result selector never runs concurrently with itself")
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.eventsAfterTerminal, 0)
        XCTAssertEqual(probe.elements.last, Array(repeating: perProducer, count: producers))
        // Snapshots leave in the order they were taken: no component goes back.
        var violations = 0
        for (previous, next) in zip(probe.elements, probe.elements.dropFirst()) {
            for source in 0..<producers where next[source] < previous[source] {
                violations += 1
            }
        }
        XCTAssertEqual(violations, 0)
        subscription.dispose()
    }

    func testCombineLatestArityFormFromManyThreads() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let c = PublishSubject<Int>()
        let probe = Probe<Int>()
        let subscription = Observable.combineLatest(a, b, c) { $0 + $1 + $2 }.subscribe(probe.on)
        let subjects = [a, b, c]
        DispatchQueue.concurrentPerform(iterations: 3) { producer in
            for index in 1...2_000 {
                subjects[producer].onNext(index)
            }
            subjects[producer].onCompleted()
        }
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.elements.last, 6_000)
        XCTAssertEqual(probe.elements, probe.elements.sorted(), "sums of non-decreasing sources never decrease")
        subscription.dispose()
    }

    func testZipFromManyThreads() {
        let subjects = (0..<producers).map { _ in PublishSubject<Int>() }
        let probe = Probe<[Int]>()
        let subscription = Observable.zip(subjects.map { $0.asObservable() }).subscribe(probe.on)
        let perProducer = perProducer
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 0..<perProducer {
                subjects[producer].onNext(index)
            }
            subjects[producer].onCompleted()
        }
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.eventsAfterTerminal, 0)
        XCTAssertEqual(probe.elements.count, perProducer)
        XCTAssertTrue(probe.elements.enumerated().allSatisfy { index, values in values.allSatisfy { $0 == index } })
        subscription.dispose()
    }

    func testZipArityFormWithSelectorFromManyThreads() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let probe = Probe<Int>()
        let selector = ReentryDetector()
        let subscription = Observable.zip(a, b) { x, y in selector.run { x * 10_000 + y } }.subscribe(probe.on)
        DispatchQueue.concurrentPerform(iterations: 2) { producer in
            let subject = producer == 0 ? a : b
            for index in 0..<3_000 {
                subject.onNext(index)
            }
            subject.onCompleted()
        }
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(selector.overlaps, 0)
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.elements, (0..<3_000).map { $0 * 10_000 + $0 })
        subscription.dispose()
    }

    // MARK: withLatestFrom / amb

    func testWithLatestFromWithBothSourcesOnDifferentThreads() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let probe = Probe<(Int, Int)>()
        let subscription = first.withLatestFrom(second) { ($0, $1) }.subscribe(probe.on)
        second.onNext(0)
        DispatchQueue.concurrentPerform(iterations: 2) { producer in
            if producer == 0 {
                for index in 0..<5_000 { first.onNext(index) }
                first.onCompleted()
            } else {
                for index in 1...5_000 { second.onNext(index) }
            }
        }
        XCTAssertEqual(probe.overlaps, 0)
        XCTAssertEqual(probe.completions, 1)
        XCTAssertEqual(probe.elements.map(\.0), Array(0..<5_000))
        let latest = probe.elements.map(\.1)
        XCTAssertEqual(latest, latest.sorted(), "the latest value of `second` never goes back")
        XCTAssertFalse(second.hasObservers)
        subscription.dispose()
    }

    func testAmbRaceHasExactlyOneWinner() {
        for _ in 0..<200 {
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            let probe = Probe<Int>()
            let subscription = a.amb(b).subscribe(probe.on)
            DispatchQueue.concurrentPerform(iterations: 2) { producer in
                let subject = producer == 0 ? a : b
                for index in 0..<50 {
                    subject.onNext(producer * 1_000 + index)
                }
                subject.onCompleted()
            }
            XCTAssertEqual(probe.overlaps, 0)
            XCTAssertEqual(Set(probe.elements.map { $0 / 1_000 }).count, 1)
            XCTAssertEqual(probe.elements.count, 50)
            XCTAssertEqual(probe.completions, 1)
            XCTAssertFalse(a.hasObservers || b.hasObservers)
            subscription.dispose()
        }
    }

    // MARK: Disposal racing emission

    func testDisposingWhileSourcesEmitFromOtherThreads() {
        typealias Operator = ([Observable<Int>]) -> Observable<Int>
        let operators: [Operator] = [
            { Observable.merge($0) },
            { Observable.from($0).flatMap { $0 } },
            { Observable.from($0).flatMapLatest { $0 } },
            { Observable.combineLatest($0) { $0.reduce(0, +) } },
            { Observable.zip($0) { $0.reduce(0, +) } },
            { $0[0].withLatestFrom($0[1]) },
            { Observable.amb($0) },
        ]
        for make in operators {
            for _ in 0..<30 {
                let subjects = (0..<2).map { _ in PublishSubject<Int>() }
                let probe = Probe<Int>()
                let subscription = make(subjects.map { $0.asObservable() }).subscribe(probe.on)
                let stop = Atomic<Bool>(false)
                let group = DispatchGroup()
                for subject in subjects {
                    group.enter()
                    DispatchQueue.global().async {
                        var value = 0
                        while !stop.load(ordering: .acquiring) && value < 100_000 {
                            subject.onNext(value)
                            value += 1
                        }
                        group.leave()
                    }
                }
                // Let events flow for a moment (some operators only emit once
                // every source has), then dispose mid-stream.
                let deadline = Date().addingTimeInterval(0.05)
                while probe.count < 20 && Date() < deadline {
                    usleep(50)
                }
                subscription.dispose()
                let countAfterDispose = probe.count
                stop.store(true, ordering: .releasing)
                group.wait()
                // An event whose delivery had begun may end after `dispose()`
                // returned; nothing starts afterwards.
                XCTAssertLessThanOrEqual(probe.count, countAfterDispose + 1)
                XCTAssertEqual(probe.overlaps, 0)
                for subject in subjects {
                    XCTAssertFalse(subject.hasObservers)
                }
            }
        }
    }
}
