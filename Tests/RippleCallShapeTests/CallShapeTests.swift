// Each test makes a call as RxSwift code writes it, next to the helpers of
// AppHelpers.swift and RippleCallShapeFixture, and checks by behaviour which
// declaration it reached: the one RxSwift 6.10.2 would resolve it to (issue 34).
// `HelperCalls.take()` lists the helpers that ran; Ripple's operators record
// nothing. Swift 5 language mode, warnings as errors.
import Foundation
import Ripple
import RippleCallShapeFixture
import RippleTest
import XCTest

final class CallShapeTests: RippleTestCase {
    private var bag = DisposeBag()

    override func setUp() {
        super.setUp()
        _ = HelperCalls.take()
    }

    override func tearDown() {
        bag = DisposeBag()
        super.tearDown()
    }

    /// A Driver of `elements`, delivered at once on the main thread (a Driver
    /// built with `Driver.of` schedules each element after the first).
    private func driver<Element>(_ elements: Element...) -> Driver<Element> {
        Observable.from(elements).asDriver(onErrorDriveWith: .empty())
    }

    private func elements<Element>(_ source: Observable<Element>) -> [Element] {
        var values: [Element] = []
        source.subscribe(onNext: { values.append($0) }).dispose()
        return values
    }

    // MARK: A trailing closure still reaches Ripple's operator

    func testTrailingClosureMapIsRipplesMapBesideMapTo() {
        let stream = Observable.of(1, 2, 3).map { ($0, $0 > 1) }
        let hits = stream.filter { $0.1 }.map { $0.0 }
        XCTAssertEqual(elements(hits), [2, 3])
        XCTAssertEqual(HelperCalls.take(), [])
    }

    func testMapToIsCalledWithItsLabel() {
        XCTAssertEqual(elements(Observable.of(1, 2).map(to: "x")), ["x", "x"])
        XCTAssertEqual(HelperCalls.take(), ["Observable.map(to:)"])
    }

    func testMapToOnDriverAndTrailingClosureMap() {
        let driver = driver(1, 2, 3).map { ($0, $0.isMultiple(of: 2)) }.filter { $0.1 }.map { $0.0 }
        var values: [Int] = []
        driver.drive(onNext: { values.append($0) }).disposed(by: bag)
        XCTAssertEqual(values, [2])
        XCTAssertEqual(HelperCalls.take(), [])
        var constants: [String] = []
        Driver.of(1).map(to: "c").drive(onNext: { constants.append($0) }).disposed(by: bag)
        XCTAssertEqual(constants, ["c"])
        XCTAssertEqual(HelperCalls.take(), ["SharedSequence.map(to:)"])
    }

    func testRxSwiftExtPartitionOnDriverCompilesAndSplits() {
        let (evens, odds) = driver(1, 2, 3, 4).partition { $0.isMultiple(of: 2) }
        var even: [Int] = []
        var odd: [Int] = []
        evens.drive(onNext: { even.append($0) }).disposed(by: bag)
        odds.drive(onNext: { odd.append($0) }).disposed(by: bag)
        XCTAssertEqual(even, [2, 4])
        XCTAssertEqual(odd, [1, 3])
        XCTAssertEqual(HelperCalls.take(), ["SharedSequence.partition(_:)"])
    }

    func testPartitionOnObservable() {
        let (small, large) = Observable.of(1, 5, 2, 8).partition { $0 < 4 }
        XCTAssertEqual(elements(small), [1, 2])
        XCTAssertEqual(elements(large), [5, 8])
        XCTAssertEqual(HelperCalls.take(), ["Observable.partition(_:)"])
    }

    func testMapToAndMapOnSingleAndInfallible() {
        var single: [String] = []
        Single.just(1).map(to: "s").subscribe(onSuccess: { single.append($0) }).disposed(by: bag)
        Single.just(2).map { "\($0)" }.subscribe(onSuccess: { single.append($0) }).disposed(by: bag)
        XCTAssertEqual(single, ["s", "2"])
        var infallible: [String] = []
        Infallible.just(1).map(to: "i").subscribe(onNext: { infallible.append($0) }).disposed(by: bag)
        Infallible.just(3).map { "\($0)" }.subscribe(onNext: { infallible.append($0) }).disposed(by: bag)
        XCTAssertEqual(infallible, ["i", "3"])
        XCTAssertEqual(HelperCalls.take(), ["Single.map(to:)", "Infallible.map(to:)"])
    }

    func testMapToUnlabelledOnEveryTrait() {
        var values: [String] = []
        _ = Observable.just(1).mapTo("o").subscribe(onNext: { values.append($0) })
        _ = Single.just(1).mapTo("s").subscribe(onSuccess: { values.append($0) })
        _ = Maybe.just(1).mapTo("m").subscribe(onSuccess: { values.append($0) })
        Driver.just(1).mapTo("d").drive(onNext: { values.append($0) }).disposed(by: bag)
        XCTAssertEqual(values, ["o", "s", "m", "d"])
        XCTAssertEqual(HelperCalls.take(), ["Observable.mapTo(_:)", "Single.mapTo(_:)", "Maybe.mapTo(_:)", "SharedSequence.mapTo(_:)"])
    }

    // MARK: Key paths

    func testKeyPathMapReachesTheAppsHelperAndClosureMapReachesRipple() {
        let users = Observable.of(User(name: "a", isActive: true), User(name: "b", isActive: false))
        XCTAssertEqual(elements(users.map(\.name)), ["a", "b"])
        XCTAssertEqual(HelperCalls.take(), ["Observable.map(keyPath)"])
        XCTAssertEqual(elements(users.map { $0.name.uppercased() }), ["A", "B"])
        XCTAssertEqual(HelperCalls.take(), [])
    }

    func testKeyPathFilterReachesTheAppsHelper() {
        let users = Observable.of(User(name: "a", isActive: true), User(name: "b", isActive: false))
        XCTAssertEqual(elements(users.filter(\.isActive).map { $0.name }), ["a"])
        XCTAssertEqual(HelperCalls.take(), ["Observable.filter(keyPath)"])
        XCTAssertEqual(elements(users.filter { !$0.isActive }.map { $0.name }), ["b"])
        XCTAssertEqual(HelperCalls.take(), [])
    }

    func testKeyPathMapOnDriverAndSingle() {
        var names: [String] = []
        Driver.just(User(name: "d", isActive: true)).map(\.name).drive(onNext: { names.append($0) }).disposed(by: bag)
        Single.just(User(name: "s", isActive: true)).map(\.name).subscribe(onSuccess: { names.append($0) }).disposed(by: bag)
        XCTAssertEqual(names, ["d", "s"])
        XCTAssertEqual(HelperCalls.take(), ["SharedSequence.map(keyPath)", "Single.map(keyPath)"])
    }

    func testMapAtWithAKeyPath() {
        XCTAssertEqual(elements(Observable.just(User(name: "m", isActive: true)).mapAt(\.name)), ["m"])
        XCTAssertEqual(HelperCalls.take(), ["mapAt(_:)"])
    }

    // MARK: Same base name, other parameters

    func testEqualityFilterBesideThePredicateFilter() {
        XCTAssertEqual(elements(Observable.of(1, 2, 1).filter(1)), [1, 1])
        XCTAssertEqual(HelperCalls.take(), ["filter(value)"])
        XCTAssertEqual(elements(Observable.of(1, 2, 1).filter { $0 > 1 }), [2])
        XCTAssertEqual(HelperCalls.take(), [])
    }

    func testRetryWithTheAppsPolicyBesideRipplesCount() {
        var attempts = 0
        let failing = Observable<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(TestError.failed) : .just(attempts)
        }
        XCTAssertEqual(elements(failing.retry(.times(3))), [3])
        XCTAssertEqual(HelperCalls.take(), ["retry(AppRetryPolicy)"])
        attempts = 0
        XCTAssertEqual(elements(failing.retry(3)), [3])
        XCTAssertEqual(HelperCalls.take(), [])
    }

    func testRetryWithRxSwiftExtsRepeatBehavior() {
        var attempts = 0
        let failing = Observable<Int>.deferred {
            attempts += 1
            return attempts < 2 ? .error(TestError.failed) : .just(attempts)
        }
        XCTAssertEqual(elements(failing.retry(.immediate(maxCount: 2), scheduler: SerialDispatchQueueScheduler(qos: .default))), [2])
        XCTAssertEqual(HelperCalls.take(), ["retry(_:scheduler:shouldRetry:)"])
    }

    func testThrottleAndDebounceWithTheAppsDefaultScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        AppSchedulers.scheduler = scheduler
        defer { AppSchedulers.scheduler = MainScheduler.instance }
        let input = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(300, 3), .completed(400)])
        let throttled = scheduler.start { input.throttle(.seconds(50)) }
        XCTAssertEqual(throttled.events, [.next(210, 1), .next(260, 2), .next(310, 3), .completed(400)])
        XCTAssertEqual(HelperCalls.take(), ["throttle(_:)"])

        let second = TestScheduler(initialClock: 0)
        AppSchedulers.scheduler = second
        let typing = second.createHotObservable([.next(210, "a"), .next(220, "ab"), .completed(400)])
        let debounced = second.start { typing.debounce(.seconds(30)) }
        XCTAssertEqual(debounced.events, [.next(250, "ab"), .completed(400)])
        XCTAssertEqual(HelperCalls.take(), ["debounce(_:)"])
    }

    func testThrottleWithASchedulerIsRipples() {
        let scheduler = TestScheduler(initialClock: 0)
        let input = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
        let throttled = scheduler.start { input.throttle(.seconds(50), latest: false, scheduler: scheduler) }
        XCTAssertEqual(throttled.events, [.next(210, 1), .completed(300)])
        XCTAssertEqual(HelperCalls.take(), [])
    }

    func testCatchAndReturnValueBesideAClosureHelper() {
        XCTAssertEqual(elements(Observable<Int>.error(TestError.failed).catchAndReturn(7)), [7])
        XCTAssertEqual(HelperCalls.take(), [])
        XCTAssertEqual(elements(Observable<Int>.error(TestError.failed).catchAndReturn { _ in 8 }), [8])
        XCTAssertEqual(HelperCalls.take(), ["catchAndReturn(handler)"])
    }

    func testMergeWithBesideStaticMerge() {
        XCTAssertEqual(elements(Observable.of(1).merge(with: .of(2))), [1, 2])
        XCTAssertEqual(HelperCalls.take(), ["merge(with:)"])
        XCTAssertEqual(elements(Observable.merge(.of(1), .of(2))), [1, 2])
        XCTAssertEqual(HelperCalls.take(), [])
    }

    func testZipWithBesideStaticZip() {
        XCTAssertEqual(elements(Observable.of(1, 2).zip(with: Observable.of("a", "b")) { "\($0)\($1)" }), ["1a", "2b"])
        XCTAssertEqual(HelperCalls.take(), ["zip(with:resultSelector:)"])
        XCTAssertEqual(elements(Observable.zip(Observable.of(1), Observable.of("a")) { "\($0)\($1)" }), ["1a"])
        XCTAssertEqual(HelperCalls.take(), [])
    }

    // MARK: Names RxSwift does not have, next to names it has

    func testMapToVoidOnEveryKindOfSequence() {
        XCTAssertEqual(elements(Observable.of(1, 2).mapToVoid()).count, 2)
        var count = 0
        Driver.just(1).mapToVoid().drive(onNext: { count += 1 }).disposed(by: bag)
        Single.just(1).mapToVoid().subscribe(onSuccess: { count += 1 }).disposed(by: bag)
        Infallible.just(1).mapToVoid().subscribe(onNext: { count += 1 }).disposed(by: bag)
        XCTAssertEqual(count, 3)
        XCTAssertEqual(HelperCalls.take(), [
            "Observable.mapToVoid()", "SharedSequence.mapToVoid()", "Single.mapToVoid()", "Infallible.mapToVoid()",
        ])
    }

    func testAsDriverOnErrorJustCompleteBesideAsDriver() {
        var events: [String] = []
        Observable<Int>.error(TestError.failed).asDriverOnErrorJustComplete()
            .drive(onNext: { events.append("\($0)") }, onCompleted: { events.append("completed") })
            .disposed(by: bag)
        Observable<Int>.error(TestError.failed).asDriver(onErrorJustReturn: 5)
            .drive(onNext: { events.append("\($0)") })
            .disposed(by: bag)
        XCTAssertEqual(events, ["completed", "5"])
        XCTAssertEqual(HelperCalls.take(), ["asDriverOnErrorJustComplete()"])
    }

    func testUnwrapBesideFilterNil() {
        XCTAssertEqual(elements(Observable.of(1, nil, 3).unwrap()), [1, 3])
        XCTAssertEqual(HelperCalls.take(), ["Observable.unwrap()"])
        XCTAssertEqual(elements(Observable.of(1, nil, 3).compactMap { $0 }), [1, 3])
        var driven: [Int] = []
        driver(1, nil, 2).unwrap().drive(onNext: { driven.append($0) }).disposed(by: bag)
        XCTAssertEqual(driven, [1, 2])
        XCTAssertEqual(HelperCalls.take(), ["SharedSequence.unwrap()"])
    }

    func testRxOptionalOperators() {
        XCTAssertEqual(elements(Observable.of(1, nil).replaceNilWith(0)), [1, 0])
        var error: Error?
        _ = Observable<Int?>.of(nil).errorOnNil().subscribe(onError: { error = $0 })
        XCTAssertEqual(error as? RxOptionalError, .foundNilWhileUnwrappingOptional)
        XCTAssertEqual(elements(Observable.of([1], [], [2, 3]).filterEmpty()), [[1], [2, 3]])
        XCTAssertEqual(HelperCalls.take(), ["replaceNilWith(_:)", "errorOnNil(_:)", "filterEmpty()"])
    }

    func testVariadicIgnoreAndIgnoreWhen() {
        XCTAssertEqual(elements(Observable.of(1, 2, 3, 4).ignore(2, 4)), [1, 3])
        XCTAssertEqual(elements(Observable.of(1, 2, 3).ignoreWhen { $0 == 2 }), [1, 3])
        XCTAssertEqual(HelperCalls.take(), ["ignore(_:)", "ignoreWhen(_:)"])
    }

    func testDistinctAndNotBesideDistinctUntilChanged() {
        XCTAssertEqual(elements(Observable.of(1, 2, 1, 3).distinct()), [1, 2, 3])
        XCTAssertEqual(elements(Observable.of(1, 1, 2, 1).distinctUntilChanged()), [1, 2, 1])
        XCTAssertEqual(elements(Observable.of(true, false).not()), [false, true])
        var driven: [Bool] = []
        Driver.just(true).not().drive(onNext: { driven.append($0) }).disposed(by: bag)
        XCTAssertEqual(driven, [false])
        XCTAssertEqual(HelperCalls.take(), ["distinct()", "Observable.not()", "SharedSequence.not()"])
    }

    func testFilterMapOfTypeAndPairwise() {
        let mapped = Observable.of(1, 2, 3).filterMap { $0 == 2 ? .ignore : .map($0 * 10) }
        XCTAssertEqual(elements(mapped), [10, 30])
        let mixed = Observable<Any>.of(1, "two", 3)
        XCTAssertEqual(elements(mixed.ofType(Int.self)), [1, 3])
        XCTAssertEqual(elements(Observable.of(1, 2, 3).pairwise()).map { [$0.0, $0.1] }, [[1, 2], [2, 3]])
        XCTAssertEqual(HelperCalls.take(), ["filterMap(_:)", "ofType(_:)", "pairwise()", "nwise(_:)"])
    }

    func testMaterializedElementsAndErrors() {
        let events = Observable<Int>.of(1).concat(Observable.error(TestError.failed)).materialize()
        XCTAssertEqual(elements(events.elements()), [1])
        XCTAssertEqual(elements(events.errors()).count, 1)
        XCTAssertEqual(HelperCalls.take(), ["elements()", "errors()"])
    }

    func testApplyCatchErrorJustCompleteAndOnce() {
        let doubled = Observable.of(1, 2).apply { $0.map { $0 * 2 } }
        XCTAssertEqual(elements(doubled), [2, 4])
        var completed = false
        _ = Observable<Int>.error(TestError.failed).catchErrorJustComplete().subscribe(onCompleted: { completed = true })
        XCTAssertTrue(completed)
        XCTAssertEqual(elements(Observable.once(9)), [9])
        XCTAssertEqual(HelperCalls.take(), ["apply(_:)", "catchErrorJustComplete()", "once(_:)"])
    }

    func testPausableAndToSortedArray() {
        let pauser = BehaviorSubject(value: true)
        XCTAssertEqual(elements(Observable.of(1, 2).pausable(pauser)), [1, 2])
        XCTAssertEqual(elements(Observable.of(3, 1, 2).toSortedArray()), [[1, 2, 3]])
        XCTAssertEqual(HelperCalls.take(), ["pausable(_:)", "toSortedArray(ascending:)"])
    }

    func testActivityIndicatorAndErrorTracker() {
        let indicator = ActivityIndicator()
        let tracker = ErrorTracker()
        var loading: [Bool] = []
        var errors = 0
        indicator.asDriver().drive(onNext: { loading.append($0) }).disposed(by: bag)
        tracker.asDriver().drive(onNext: { _ in errors += 1 }).disposed(by: bag)
        _ = Observable<Int>.error(TestError.failed).trackActivity(indicator).trackError(tracker).subscribe()
        XCTAssertEqual(loading, [false, true, false])
        XCTAssertEqual(errors, 1)
        XCTAssertEqual(HelperCalls.take(), ["trackActivity(_:)", "trackError(_:)"])
    }

    func testSubscribeNextAndWithPrevious() {
        var pairs: [[Int]] = []
        Observable.of(1, 2).withPrevious(startWith: 0)
            .subscribeNext { pairs.append([$0.previous, $0.current]) }
            .disposed(by: bag)
        XCTAssertEqual(pairs, [[0, 1], [1, 2]])
        XCTAssertEqual(HelperCalls.take(), ["withPrevious(startWith:)", "subscribeNext(_:)"])
    }

    func testSubscribeWithATrailingClosureIsRipplesEventSubscribe() {
        var events: [String] = []
        Observable.of(1).subscribe { event in events.append("\(event)") }.disposed(by: bag)
        XCTAssertEqual(events, ["next(1)", "completed"])
        XCTAssertEqual(HelperCalls.take(), [])
    }
}

enum TestError: Error {
    case failed
}
