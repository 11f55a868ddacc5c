import Dispatch
import Ripple
import RippleTest
import XCTest

/// The paths of the sink machinery added for speed: the serializing sink's
/// one-event fast path and its overflow queue, attaching an upstream that has
/// already terminated, and the nested subscription of the single-source
/// operators (no trampoline lookup).
final class SinkTests: RippleTestCase {
    // MARK: SerializingSink

    func testReentrantEventsWaitBehindTheEventBeingDelivered() {
        // The observer feeds two more elements while the first is being delivered:
        // the first waits in the outbox's inline slot, the second in its queue.
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let subscription = Observable.combineLatest(a, b) { $0 * 10 + $1 }.subscribe(onNext: { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            received.append(value)
            if value == 11 {
                b.onNext(2)
                b.onNext(3)
            }
            depth -= 1
        })
        b.onNext(1)
        a.onNext(1)
        a.onNext(2)
        XCTAssertEqual(received, [11, 12, 13, 23])
        XCTAssertEqual(maxDepth, 1, "a re-entrant event was delivered inside the current one")
        subscription.dispose()
    }

    func testTerminalEventQueuedDuringDeliveryDropsWhatFollows() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = Observable.combineLatest(a, b) { $0 * 10 + $1 }.subscribe { event in
            events.append(event)
            if event == .next(11) {
                b.onNext(2)
                b.onError(testError)
            }
        }
        b.onNext(1)
        a.onNext(1)
        a.onNext(3)
        XCTAssertEqual(events, [.next(11), .next(12), .error(testError)])
        XCTAssertFalse(a.hasObservers)
        subscription.dispose()
    }

    func testManyEventsDecidedByOneUpdateAreDeliveredInOrder() {
        // `buffer(timeSpan:count:)` flushes its last buffer and completes in one
        // update when its source completes: two events, one lock.
        let scheduler = TestScheduler(initialClock: 0)
        let source = PublishSubject<Int>()
        let (recorder, subscription) = record(source.buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler))
        source.onNext(1)
        source.onNext(2)
        source.onNext(3)
        source.onCompleted()
        XCTAssertEqual(recorder.values, [.next([1, 2]), .next([3]), .completed])
        subscription.dispose()
    }

    // MARK: Attaching an upstream

    func testSynchronousChainTerminatesAndReleasesBeforeSubscribeReturns() {
        var log: [String] = []
        let subscription = Observable.just(1)
            .map { $0 + 1 }
            .filter { $0 > 0 }
            .subscribe(
                onNext: { log.append("next \($0)") },
                onCompleted: { log.append("completed") },
                onDisposed: { log.append("disposed") }
            )
        XCTAssertEqual(log, ["next 2", "completed", "disposed"])
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(log, ["next 2", "completed", "disposed"])
    }

    func testErrorAndEmptyThroughASynchronousChain() {
        let (errors, first) = record(Observable<Int>.error(testError).map { $0 + 1 }.filter { $0 > 0 })
        XCTAssertEqual(errors.values, [.error(testError)])
        let (empty, second) = record(Observable<Int>.empty().map { $0 + 1 }.filter { $0 > 0 })
        XCTAssertEqual(empty.values, [.completed])
        first.dispose()
        second.dispose()
    }

    func testJustAndErrorCanBeSubscribedManyTimes() {
        let just = Observable.just("a")
        let failing = Observable<String>.error(testError)
        for _ in 0..<3 {
            let (values, first) = record(just)
            XCTAssertEqual(values.values.compactMap(\.element), ["a"])
            let (errors, second) = record(failing)
            XCTAssertNotNil(errors.values.first?.error)
            first.dispose()
            second.dispose()
        }
    }

    func testDisposingBeforeTheUpstreamIsAttachedDisposesIt() {
        // The observer disposes the chain while the source is still subscribing:
        // the upstream, attached afterwards, is disposed at once.
        let disposed = Recorder<String>()
        let holder = SingleAssignmentDisposable()
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            return Disposables.create { disposed.append("source") }
        }
        holder.setDisposable(source.map { $0 * 2 }.filter { _ in true }.subscribe(onNext: { _ in
            holder.dispose()
        }))
        XCTAssertEqual(disposed.values, ["source"])
    }

    // MARK: Nested subscription

    func testOperatorsInsideAnInnerSequenceKeepTheTrampolineOrder() {
        let mappedInside = Observable.of(1, 2)
            .flatMap { Observable.range(start: $0, count: 3).map { $0 * 10 }.filter { _ in true } }
            .toArray()
        let mappedOutside = Observable.of(1, 2)
            .flatMap { Observable.range(start: $0, count: 3) }
            .map { $0 * 10 }
            .toArray()
        XCTAssertEqual(try mappedInside.toBlocking().single(), try mappedOutside.toBlocking().single())
    }

    func testChainSubscribedOnAnotherThread() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let result = try Observable.range(start: 1, count: 100)
            .map { $0 * 2 }
            .filter { $0 % 3 != 0 }
            .scan(0, accumulator: +)
            .reduce(0, accumulator: max)
            .subscribe(on: scheduler)
            .toBlocking()
            .single()
        let expected = (1...100).map { $0 * 2 }.filter { $0 % 3 != 0 }.reduce(0, +)
        XCTAssertEqual(result, expected)
    }
}

/// Stress tests of `SerializingSink` (the operators that serialize several
/// upstream threads: merge, combineLatest, zip, ...). The CI runs them under
/// ThreadSanitizer.
final class SerializingSinkConcurrencyTests: RippleTestCase {
    /// The thread that delivers a merge's events does so for a bounded turn, not
    /// for as long as another upstream thread keeps emitting (issue 22.2): here
    /// the main thread delivers its own event through `merge` when a producer
    /// starts emitting into the other source in a tight loop; without the bound,
    /// its `onNext` delivered the producer's events until the producer stopped
    /// (at its 5 s limit).
    func testOneCallerIsNotHeldWhileAnotherUpstreamThreadKeepsEmitting() {
        let mine = PublishSubject<Int>()
        let theirs = PublishSubject<Int>()
        let delivered = Atomic<Int>(0)
        let producer = TightLoopProducer { theirs.onNext($0) }
        let subscription = Observable.merge(mine, theirs).subscribe(onNext: { value in
            if value == -1 {
                producer.start()
            } else {
                // Delivering costs more than queuing: an unbounded deliverer
                // never catches up with the producer.
                spin(for: .microseconds(20))
                delivered.add(1, ordering: .relaxed)
            }
        })
        let held = duration { mine.onNext(-1) }
        producer.stop()
        subscription.dispose()
        XCTAssertGreaterThanOrEqual(producer.sent.load(ordering: .relaxed), 100)
        XCTAssertGreaterThanOrEqual(delivered.load(ordering: .relaxed), 100)
        XCTAssertLessThan(held, .seconds(2), "one onNext was held by the other thread's events")
    }
}
