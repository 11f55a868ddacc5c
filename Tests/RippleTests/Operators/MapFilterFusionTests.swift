import Ripple
import RippleTest
import XCTest

/// `map { }.filter { }`, `filter { }.map { }` and `filter { }.filter { }` run as one
/// operator (one sink).
/// These tests pin that the fused operator behaves exactly like the two it
/// replaces, and that the fusion really happens.
final class MapFilterFusionTests: RippleTestCase {
    func testMapThenFilterInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.map { $0 * 10 }.filter { $0 != 30 } }
        XCTAssertEqual(res.events, [.next(210, 20), .next(230, 40), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSourceErrorAndDisposalPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { failing.map { $0 + 1 }.filter { _ in true } }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let open = scheduler2.createHotObservable([.next(210, 1), .next(500, 2)])
        let res2 = scheduler2.start(disposed: 400) { open.map { $0 }.filter { _ in true } }
        XCTAssertEqual(res2.events, [.next(210, 1)])
        XCTAssertEqual(open.subscriptions, [Subscription(200, 400)])
    }

    func testThrowingTransformEndsTheStreamAndSkipsThePredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let predicateCalls = Recorder<Int>()
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 2 { throw testError }
                return value
            }
            .filter { predicateCalls.append($0); return true }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(predicateCalls.values, [1])
    }

    func testThrowingPredicateEndsTheStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start {
            xs.map { $0 * 2 }.filter { value in
                if value == 4 { throw testError2 }
                return true
            }
        }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testChainedFiltersCallEachPredicateOnlyForWhatThePreviousLetThrough() {
        let calls = Recorder<String>()
        let chain = Observable.of(1, 2, 3, 4, 5, 6)
            .map { value -> Int in calls.append("map \(value)"); return value }
            .filter { value in calls.append("odd? \(value)"); return value % 2 == 1 }
            .filter { value in calls.append("> 1? \(value)"); return value > 1 }
            .filter { value in calls.append("< 5? \(value)"); return value < 5 }
        let (recorder, subscription) = record(chain)
        XCTAssertEqual(recorder.values, [.next(3), .completed])
        XCTAssertEqual(calls.values, [
            "map 1", "odd? 1", "> 1? 1",
            "map 2", "odd? 2",
            "map 3", "odd? 3", "> 1? 3", "< 5? 3",
            "map 4", "odd? 4",
            "map 5", "odd? 5", "> 1? 5", "< 5? 5",
            "map 6", "odd? 6",
        ])
        subscription.dispose()
    }

    func testFilterThenMapInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.filter { $0 != 3 }.map { "\($0)" } }
        XCTAssertEqual(res.events, [.next(210, "2"), .next(230, "4"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFilterMapFilterCallsInOrderAndSkipsTheTransformForRejectedElements() {
        let calls = Recorder<String>()
        let chain = Observable.of(1, 2, 3, 4)
            .filter { value in calls.append("even? \(value)"); return value % 2 == 0 }
            .filter { value in calls.append("> 2? \(value)"); return value > 2 }
            .map { value -> Int in calls.append("map \(value)"); return value * 10 }
            .filter { value in calls.append("< 50? \(value)"); return value < 50 }
        let (recorder, subscription) = record(chain)
        XCTAssertEqual(recorder.values, [.next(40), .completed])
        XCTAssertEqual(calls.values, [
            "even? 1", "even? 2", "> 2? 2", "even? 3", "even? 4", "> 2? 4", "map 4", "< 50? 40",
        ])
        subscription.dispose()
    }

    func testFilterThenMapErrors() {
        let throwingPredicate = Observable.of(1, 2).filter { _ in throw testError }.map { $0 + 1 }
        XCTAssertEqual(record(throwingPredicate).0.values, [.error(testError)])
        let throwingTransform = Observable.of(1, 2).filter { _ in true }.map { value -> Int in
            if value == 2 { throw testError2 }
            return value
        }
        XCTAssertEqual(record(throwingTransform).0.values, [.next(1), .error(testError2)])
        let throwingAfter = Observable.of(1, 2).filter { _ in true }.map { $0 }.filter { value in
            if value == 2 { throw testError }
            return true
        }
        XCTAssertEqual(record(throwingAfter).0.values, [.next(1), .error(testError)])
    }

    func testFilterThenFilterWithoutMap() {
        let xs = Observable.from(Array(0..<30))
        let fused = xs.filter { $0 % 2 == 0 }.filter { $0 % 3 == 0 }.filter { $0 != 12 }
        let expected = Array(0..<30).filter { $0 % 2 == 0 && $0 % 3 == 0 && $0 != 12 }
        XCTAssertEqual(record(fused).0.values, expected.map { .next($0) } + [.completed])
        XCTAssertEqual(record(Observable.of(1).filter { _ in true }.filter { _ in throw testError }).0.values, [.error(testError)])
    }

    func testMixedChainMatchesArrayReference() {
        let values = Array(-50..<50)
        let chain = Observable.from(values)
            .map { $0 * 3 }
            .filter { $0 % 2 == 0 }
            .map { "\($0)" }
            .filter { !$0.hasPrefix("-") }
            .filter { $0.count < 3 }
        let expected = values.map { $0 * 3 }.filter { $0 % 2 == 0 }.map { "\($0)" }
            .filter { !$0.hasPrefix("-") }.filter { $0.count < 3 }
        XCTAssertEqual(record(chain).0.values, expected.map { .next($0) } + [.completed])
    }

    func testTheUnfusedStreamsStayUsable() {
        let subject = PublishSubject<Int>()
        let filtered = subject.filter { $0 % 2 == 1 }
        let mapped = filtered.map { $0 * 100 }
        let (odd, a) = record(filtered)
        let (hundreds, b) = record(mapped)
        for value in 1...4 { subject.onNext(value) }
        subject.onError(testError)
        XCTAssertEqual(odd.values, [.next(1), .next(3), .error(testError)])
        XCTAssertEqual(hundreds.values, [.next(100), .next(300), .error(testError)])
        [a, b].forEach { $0.dispose() }
    }

    func testTheUnfilteredStreamStaysUsable() {
        let subject = PublishSubject<Int>()
        let mapped = subject.map { $0 * 10 }
        let filtered = mapped.filter { $0 > 10 }
        let filteredTwice = filtered.filter { $0 < 30 }
        let (all, a) = record(mapped)
        let (some, b) = record(filtered)
        let (fewer, c) = record(filteredTwice)
        for value in 1...3 { subject.onNext(value) }
        subject.onCompleted()
        XCTAssertEqual(all.values, [.next(10), .next(20), .next(30), .completed])
        XCTAssertEqual(some.values, [.next(20), .next(30), .completed])
        XCTAssertEqual(fewer.values, [.next(20), .completed])
        [a, b, c].forEach { $0.dispose() }
    }

    /// Issue 22.4: an observable reachable only through a weak reference is still
    /// reachable. Applying `filter` to its last strong reference must leave it
    /// what it was (uniqueness checks do not see weak references, so an in-place
    /// fusion turned the plain `map` behind the weak reference into the filter).
    func testAFilterNeverChangesAMapReachableThroughAWeakReference() {
        let subject = PublishSubject<Int>()
        weak var weakMap: Observable<Int>?
        var filtered: Observable<Int>?
        do {
            let mapped = subject.map { $0 + 1 }
            weakMap = mapped
            filtered = (consume mapped).filter { $0 > 1000 }
        }
        weak var weakFilter: Observable<Int>?
        var filteredTwice: Observable<Int>?
        do {
            let filteredOnce = subject.filter { $0 > 2 }
            weakFilter = filteredOnce
            filteredTwice = (consume filteredOnce).filter { $0 > 1000 }
        }
        let plain = weakMap.map(record)
        let once = weakFilter.map(record)
        let (none, c) = record(filtered!)
        let (neither, d) = record(filteredTwice!)
        (1...5).forEach(subject.onNext)
        // Whatever is still reachable behaves as it did when it was built.
        if let (values, subscription) = plain {
            XCTAssertEqual(values.values, (2...6).map { .next($0) })
            subscription.dispose()
        }
        if let (values, subscription) = once {
            XCTAssertEqual(values.values, (3...5).map { .next($0) })
            subscription.dispose()
        }
        XCTAssertEqual(none.values, [])
        XCTAssertEqual(neither.values, [])
        [c, d].forEach { $0.dispose() }
    }

    /// A `map` still referenced elsewhere is copied, never changed: the other
    /// holder keeps the unfiltered stream, and each `filter` gets its own.
    func testASharedMapIsNeverChangedInPlace() {
        let subject = PublishSubject<Int>()
        let mapped = subject.map { $0 * 10 }
        let large = mapped.filter { $0 > 20 }
        let small = mapped.filter { $0 < 20 }
        XCTAssertFalse(large === mapped)
        XCTAssertFalse(small === mapped)
        let (all, a) = record(mapped)
        let (big, b) = record(large)
        let (little, c) = record(small)
        for value in 1...3 { subject.onNext(value) }
        XCTAssertEqual(all.values, [.next(10), .next(20), .next(30)])
        XCTAssertEqual(big.values, [.next(30)])
        XCTAssertEqual(little.values, [.next(10)])
        [a, b, c].forEach { $0.dispose() }
    }

    func testDisposingFromOnNextStopsTransformAndPredicate() {
        let subject = PublishSubject<Int>()
        let transformed = Recorder<Int>()
        var subscription: Disposable?
        let received = Recorder<Int>()
        subscription = subject
            .map { value -> Int in transformed.append(value); return value }
            .filter { _ in true }
            .subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received.values, [1])
        XCTAssertEqual(transformed.values, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    /// The fusion is real: a subscription to `map.filter` (or `filter.map`, or
    /// `filter.filter`) holds as many live Ripple objects as one to `map` alone.
    func testMapFilterHoldsNoMoreObjectsThanMap() {
        let subject = PublishSubject<Int>()
        func liveObjects(_ observable: Observable<Int>) -> Int32 {
            let before = Resources.total
            let subscription = observable.subscribe(onNext: { _ in })
            let during = Resources.total
            subscription.dispose()
            return during - before
        }
        let mapped = subject.map { $0 + 1 }
        let mapFiltered = mapped.filter { $0 > 0 }
        let mapFilteredTwice = mapFiltered.filter { $0 > 1 }
        let filtered = subject.filter { $0 > 0 }
        // A pipeline makes one sink per subscription, whatever its steps (it
        // calls `subscribe(onNext:)`'s handlers itself).
        XCTAssertEqual(liveObjects(mapped), liveObjects(subject.asObservable()) + 1)
        XCTAssertEqual(liveObjects(mapFiltered), liveObjects(mapped))
        XCTAssertEqual(liveObjects(mapFilteredTwice), liveObjects(mapped))
        XCTAssertEqual(liveObjects(filtered.filter { $0 > 1 }), liveObjects(filtered))
        // An operator in between prevents the fusion (and still works).
        XCTAssertEqual(liveObjects(filtered.map { $0 * 2 }), liveObjects(mapped))
        XCTAssertEqual(liveObjects(filtered.map { $0 * 2 }.filter { $0 > 4 }), liveObjects(mapped))
        let separated = mapped.do(onNext: { _ in }).filter { $0 > 0 }
        XCTAssertGreaterThan(liveObjects(separated), liveObjects(mapped))
    }

    // MARK: subscribe(onNext:onError:onCompleted:onDisposed:) on a fused chain
    //
    // There the step runs in the handlers' own closure (no sink at all), so these
    // go through `subscribe(onNext:...)`, not `record` or a TestScheduler observer.

    /// Subscribes with every handler and logs what they receive.
    private func log<Element>(_ source: Observable<Element>) -> (Recorder<String>, Disposable) {
        let log = Recorder<String>()
        let subscription = source.subscribe(
            onNext: { log.append("next \($0)") },
            onError: { log.append("error \($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        return (log, subscription)
    }

    func testEveryFusedShapeDeliversToTheHandlers() {
        let values = Array(0..<20)
        let shapes: [(String, Observable<Int>, [Int])] = [
            ("map", Observable.from(values).map { $0 * 3 }, values.map { $0 * 3 }),
            ("filter", Observable.from(values).filter { $0 % 2 == 0 }, values.filter { $0 % 2 == 0 }),
            ("map.filter", Observable.from(values).map { $0 * 3 }.filter { $0 % 2 == 0 },
             values.map { $0 * 3 }.filter { $0 % 2 == 0 }),
            ("filter.map", Observable.from(values).filter { $0 > 5 }.map { $0 - 5 },
             values.filter { $0 > 5 }.map { $0 - 5 }),
            ("filter.map.filter", Observable.from(values).filter { $0 > 5 }.map { $0 * 2 }.filter { $0 < 30 },
             values.filter { $0 > 5 }.map { $0 * 2 }.filter { $0 < 30 }),
        ]
        for (name, chain, expected) in shapes {
            let (events, subscription) = log(chain)
            XCTAssertEqual(events.values, expected.map { "next \($0)" } + ["completed", "disposed"], name)
            subscription.dispose()
            XCTAssertEqual(events.values.filter { $0 == "disposed" }.count, 1, name)
        }
    }

    func testAThrowingStepGoesToOnErrorAndReleasesTheSource() {
        let subject = PublishSubject<Int>()
        let transformed = Recorder<Int>()
        let (events, subscription) = log(subject.map { value -> Int in
            transformed.append(value)
            if value == 2 { throw testError }
            return value
        }.filter { _ in true })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        XCTAssertEqual(events.values, ["next 1", "error TestError(1)", "disposed"])
        XCTAssertEqual(transformed.values, [1, 2])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()

        let (filterEvents, filterSubscription) = log(subject.filter { _ in throw testError2 })
        subject.onNext(1)
        XCTAssertEqual(filterEvents.values, ["error TestError(2)", "disposed"])
        XCTAssertFalse(subject.hasObservers)
        filterSubscription.dispose()
    }

    func testSourceErrorsAndDisposalReachTheHandlers() {
        let subject = PublishSubject<Int>()
        let (events, subscription) = log(subject.filter { $0 > 0 }.map { $0 * 2 })
        subject.onNext(0)
        subject.onNext(1)
        subject.onError(testError)
        subject.onNext(2)
        XCTAssertEqual(events.values, ["next 2", "error TestError(1)", "disposed"])
        subscription.dispose()

        let open = PublishSubject<Int>()
        let (openEvents, openSubscription) = log(open.map { $0 })
        open.onNext(7)
        openSubscription.dispose()
        open.onNext(8)
        XCTAssertEqual(openEvents.values, ["next 7", "disposed"])
        XCTAssertFalse(open.hasObservers)
    }

    func testAThrowingStepWithoutOnErrorGoesToTheDefaultErrorHandler() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        let errors = Recorder<String>()
        Hooks.defaultErrorHandler = { _, error in errors.append("\(error)") }
        _ = Observable.of(1, 2).map { _ -> Int in throw testError }.subscribe(onNext: { _ in XCTFail("no element") })
        _ = Observable.of(1, 2).filter { _ in throw testError2 }.subscribe(onNext: { _ in XCTFail("no element") })
        XCTAssertEqual(errors.values, ["TestError(1)", "TestError(2)"])
    }

    func testSubscribeWithObjectOnAFusedChain() {
        final class Owner { var values: [Int] = [] }
        let owner = Owner()
        let subscription = Observable.of(1, 2, 3).map { $0 * 10 }.filter { $0 != 20 }
            .subscribe(with: owner, onNext: { owner, value in owner.values.append(value) })
        XCTAssertEqual(owner.values, [10, 30])
        subscription.dispose()
    }
}
