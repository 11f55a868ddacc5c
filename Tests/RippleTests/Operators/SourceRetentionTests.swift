import Ripple
import RippleTest
import XCTest

/// What operators over several sources keep alive while they run: a source they
/// are done with, and what it captured, must be free to go (RxSwift's
/// `CompletableAndThenTest.testCompletable_FirstCompletableNotRetainedBeyondCompletion`
/// and its siblings), while the subscription itself is still held.
///
/// Each test builds sources whose `do` closure captures a `Tracked` object, lets a
/// source finish in virtual time, drops every reference the test holds to it, and
/// checks that the object is gone while the operator's subscription is alive.
final class SourceRetentionTests: RippleTestCase {
    private final class Tracked {}

    /// `source` with `object` captured by a closure that the source keeps: the
    /// object lives as long as the source (or a subscription to it) does.
    private func capturing<Element>(_ object: Tracked?, _ source: Observable<Element>) -> Observable<Element> {
        source.do(onCompleted: { [object] in _ = object }, onDispose: { [object] in _ = object })
    }

    // MARK: - andThen (RxSwift's tests, and every form)

    func testAndThenDoesNotRetainTheFirstCompletableBeyondItsCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let first: TestableObservable<Never> = scheduler.createHotObservable([.completed(210)])
        var object = Optional.some(Tracked())
        var completable = first.asCompletable().do(onCompleted: { [object] in _ = object })

        let subscription = completable.andThen(.never()).subscribe()
        defer { subscription.dispose() }

        scheduler.advanceTo(300)
        weak let watched = object
        object = nil
        completable = .never()

        XCTAssertNil(watched, "the first completable completed at 210: nothing may keep it")
    }

    func testAndThenDoesNotRetainTheFirstCompletableBeyondItsFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let first: TestableObservable<Never> = scheduler.createHotObservable([.error(210, testError)])
        var object = Optional.some(Tracked())
        var completable = first.asCompletable().do(onCompleted: { [object] in _ = object })

        let subscription = completable.andThen(.never()).subscribe(onError: { _ in })
        defer { subscription.dispose() }

        scheduler.advanceTo(300)
        weak let watched = object
        object = nil
        completable = .never()

        XCTAssertNil(watched)
    }

    func testEveryAndThenFormReleasesTheFirstCompletableOnceItCompleted() {
        // Single, Maybe, Completable and Observable as the second sequence.
        let forms: [(String, (Completable) -> Disposable)] = [
            ("Single", { $0.andThen(Single<Int>.never()).subscribe() }),
            ("Maybe", { $0.andThen(Maybe<Int>.never()).subscribe() }),
            ("Completable", { $0.andThen(Completable.never()).subscribe() }),
            ("Observable", { $0.andThen(Observable<Int>.never()).subscribe() }),
        ]
        for (name, subscribe) in forms {
            let scheduler = TestScheduler(initialClock: 0)
            let first: TestableObservable<Never> = scheduler.createHotObservable([.completed(210)])
            var object = Optional.some(Tracked())
            var completable = first.asCompletable().do(onCompleted: { [object] in _ = object })

            let subscription = subscribe(completable)
            scheduler.advanceTo(300)
            weak let watched = object
            object = nil
            completable = .never()

            XCTAssertNil(watched, "andThen(\(name))")
            XCTAssertEqual(first.subscriptions, [Subscription(0, 210)], "andThen(\(name))")
            subscription.dispose()
        }
    }

    func testAndThenStillRunsTheSecondSequenceAfterReleasingTheFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let first: TestableObservable<Never> = scheduler.createHotObservable([.completed(210)])
        let second = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        var object = Optional.some(Tracked())
        weak let watched = object
        var completable = first.asCompletable().do(onCompleted: { [object] in _ = object })
        object = nil

        let res = scheduler.createObserver(Int.self)
        let subscription = completable.andThen(second.asObservable()).subscribe(res)
        completable = .never()
        scheduler.advanceTo(215)
        XCTAssertNil(watched, "released as soon as the second sequence took over")
        scheduler.start()

        XCTAssertEqual(res.events, [.next(220, 1), .completed(230)])
        XCTAssertEqual(second.subscriptions, [Subscription(210, 230)])
        subscription.dispose()
    }

    // MARK: - concat

    func testConcatOfACollectionReleasesEachSourceOnceItMovesOn() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(205, 1), .completed(210)])
        let b = scheduler.createHotObservable([.next(215, 2), .completed(220)])
        var objects = [Tracked(), Tracked(), Tracked()]
        weak let watchedA = objects[0]
        weak let watchedB = objects[1]
        weak let watchedC = objects[2]
        var sources: [Observable<Int>]? = [
            capturing(objects[0], a.asObservable()),
            capturing(objects[1], b.asObservable()),
            capturing(objects[2], Observable<Int>.never()),
        ]
        objects = []

        let res = scheduler.createObserver(Int.self)
        let subscription = Observable.concat(sources!).subscribe(res)
        sources = nil

        scheduler.advanceTo(212)
        XCTAssertNil(watchedA, "a completed at 210")
        XCTAssertNotNil(watchedB, "b runs")
        scheduler.advanceTo(300)
        XCTAssertNil(watchedB, "b completed at 220")
        XCTAssertNotNil(watchedC, "the running source stays")
        XCTAssertEqual(res.events, [.next(205, 1), .next(215, 2)])

        subscription.dispose()
        XCTAssertNil(watchedC, "released on dispose")
    }

    func testConcatOfASecondSequenceAndVariadicConcatReleaseFinishedSources() {
        let forms: [(String, (Observable<Int>, Observable<Int>) -> Observable<Int>)] = [
            ("concat(_ second:)", { $0.concat($1) }),
            ("concat(a, b)", { Observable.concat($0, $1) }),
            ("concat(sequence)", { first, second in Observable.concat(AnySequence([first, second])) }),
        ]
        for (name, concat) in forms {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(205, 1), .completed(210)])
            var object = Optional.some(Tracked())
            weak let watched = object
            var first: Observable<Int>? = capturing(object, a.asObservable())
            object = nil

            let subscription = concat(first!, .never()).subscribe()
            first = nil
            scheduler.advanceTo(300)

            if name == "concat(sequence)" {
                // A lazily iterated sequence is held by its iterator: the
                // sources go when the iterator is done or the subscription is
                // disposed (RxSwift keeps it the same way).
                XCTAssertNotNil(watched, name)
                subscription.dispose()
                XCTAssertNil(watched, name)
            } else {
                XCTAssertNil(watched, name)
                subscription.dispose()
            }
        }
    }

    func testNestedConcatsReleaseFinishedSources() {
        // `a.concat(b).concat(c)` runs as one flattened list (no nesting of
        // subscriptions): the flattening must not keep finished sources either.
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.completed(210)] as [Recorded<Event<Int>>])
        let b = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        var objects = [Tracked(), Tracked()]
        weak let watchedA = objects[0]
        weak let watchedB = objects[1]
        var chain: Observable<Int>? = capturing(objects[0], a.asObservable())
            .concat(capturing(objects[1], b.asObservable()))
            .concat(Observable<Int>.never())
        objects = []

        let subscription = chain!.subscribe()
        chain = nil
        scheduler.advanceTo(215)
        XCTAssertNil(watchedA)
        XCTAssertNotNil(watchedB)
        scheduler.advanceTo(300)
        XCTAssertNil(watchedB)
        subscription.dispose()
    }

    func testCompletableConcatReleasesFinishedCompletables() {
        let scheduler = TestScheduler(initialClock: 0)
        let a: TestableObservable<Never> = scheduler.createHotObservable([.completed(210)])
        var object = Optional.some(Tracked())
        weak let watched = object
        var first: Completable? = a.asCompletable().do(onCompleted: { [object] in _ = object })
        object = nil

        let subscription = Completable.concat([first!, .never()]).subscribe()
        first = nil
        scheduler.advanceTo(300)
        XCTAssertNil(watched)
        subscription.dispose()
    }

    func testConcatOfAnObservableOfObservablesReleasesFinishedInnerSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(205, 1), .completed(210)])
        var object = Optional.some(Tracked())
        weak let watched = object
        let outer = PublishSubject<Observable<Int>>()

        let subscription = outer.concat().subscribe()
        outer.onNext(capturing(object, a.asObservable()))
        outer.onNext(.never())
        object = nil
        scheduler.advanceTo(300)

        XCTAssertNil(watched, "the first inner sequence completed at 210")
        subscription.dispose()
    }

    // MARK: - Other operators over several sources

    func testAmbReleasesTheLosers() {
        // RxSwift's amb keeps both sources for the subscription's life; Ripple
        // lets the loser go once the race is decided.
        let scheduler = TestScheduler(initialClock: 0)
        let winner = scheduler.createHotObservable([.next(205, 1)])
        var object = Optional.some(Tracked())
        weak let watched = object
        var loser: Observable<Int>? = capturing(object, Observable<Int>.never())
        object = nil

        var amb: Observable<Int>? = winner.asObservable().amb(loser!)
        let subscription = amb!.subscribe()
        loser = nil
        amb = nil
        scheduler.advanceTo(300)

        XCTAssertNil(watched)
        subscription.dispose()
    }

    func testCatchSequenceRetryAndRetryWhenReleaseTheirSourcesOnDispose() {
        let forms: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("catch(sequence:)", { Observable.catch(sequence: [$0, .never()]) }),
            ("retry()", { $0.retry() }),
            ("retry(3)", { $0.retry(3) }),
            ("retry(when:)", { $0.retry(when: { (errors: Observable<Error>) in errors }) }),
        ]
        for (name, operate) in forms {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(205, 1)])
            var object = Optional.some(Tracked())
            weak let watched = object
            var observable: Observable<Int>? = operate(capturing(object, source.asObservable()))
            object = nil

            let subscription = observable!.subscribe()
            observable = nil
            scheduler.advanceTo(300)
            XCTAssertNotNil(watched, "\(name): the running source stays")
            subscription.dispose()
            XCTAssertNil(watched, "\(name): released on dispose")
        }
    }
    // MARK: - A finished source among running ones

    /// RxSwift disposes a source's subscription as soon as the source completes,
    /// even when the operator goes on with the others: what that source's
    /// operators captured goes with it.
    func testCombiningOperatorsReleaseASourceThatCompleted() {
        // The finishing source sends an element first where the operator would
        // otherwise end with it (combineLatest of a source that never sent one),
        // and none where an element would end the operator (take(until:)).
        //
        // A result selector, or a `map` after the operator, is a pipeline stage,
        // and a pipeline's sink holds its stages, which hold the operator they
        // follow (as RxSwift's combineLatest and zip sinks hold their `parent`,
        // hence their sources): the *subscription* of the finished source ends
        // at once all the same, and what it captured goes when the subscription
        // is disposed (`heldUntilDisposed`).
        let forms: [(String, Bool, (Observable<Int>, Observable<Int>) -> Observable<Int>)] = [
            ("combineLatest", true, { Observable.combineLatest($0, $1) { $0 + $1 } }),
            ("combineLatest(collection)", true, { Observable.combineLatest([$0, $1]).map { $0.reduce(0, +) } }),
            ("zip", true, { Observable.zip($0, $1) { $0 + $1 } }),
            ("merge", true, { Observable.merge($0, $1) }),
            ("withLatestFrom (second)", true, { $1.withLatestFrom($0) }),
            ("take(until:)", false, { $1.take(until: $0) }),
            ("skip(until:)", false, { $1.skip(until: $0) }),
            ("flatMap (outer)", true, { outer, inner in outer.flatMap { _ in inner } }),
            ("flatMapLatest (outer)", true, { outer, inner in outer.flatMapLatest { _ in inner } }),
            ("concatMap (outer)", true, { outer, inner in outer.concatMap { _ in inner } }),
            ("merge() (outer)", true, { outer, inner in outer.map { _ in inner }.merge() }),
            ("switchLatest (outer)", true, { outer, inner in outer.map { _ in inner }.switchLatest() }),
        ]
        for (name, sendsFirst, combine) in forms {
            let scheduler = TestScheduler(initialClock: 0)
            let finishing = scheduler.createHotObservable([.completed(210)] as [Recorded<Event<Int>>])
            let running = scheduler.createHotObservable([Recorded<Event<Int>>]())
            var object = Optional.some(Tracked())
            weak let watched = object
            var first: Observable<Int>? = capturing(object, sendsFirst ? finishing.asObservable().startWith(1) : finishing.asObservable())
            object = nil

            let subscription = combine(first!, running.asObservable()).subscribe()
            first = nil
            scheduler.advanceTo(300)

            XCTAssertEqual(finishing.subscriptions, [Subscription(0, 210)], name)
            let heldUntilDisposed = ["combineLatest", "combineLatest(collection)", "zip"].contains(name)
            if !heldUntilDisposed {
                XCTAssertNil(watched, "\(name): the source completed at 210")
            }
            subscription.dispose()
            XCTAssertNil(watched, "\(name): the subscription was disposed")
        }
    }
}
