// Traits, subjects and relays, schedulers, disposables, hooks, RxCocoa's
// Foundation extensions: the rest of what an app written for RxSwift 6 uses.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Ripple
import RippleHTTP
import RippleTest
import XCTest

final class TraitTests: RippleTestCase {
    func testSingle() throws {
        let single = Single.just(2)
            .map { $0 * 10 }
            .flatMap { Single.just($0 + 1) }
            .filter { $0 > 0 }
            .asObservable().asSingle()
        XCTAssertEqual(try single.toBlocking().single(), 21)
        XCTAssertEqual(try Single<Int>.error(AppError.offline).catchAndReturn(0).toBlocking().single(), 0)
        XCTAssertEqual(try Single<Int>.error(AppError.offline).catch { _ in .just(1) }.toBlocking().single(), 1)
        XCTAssertEqual(try Single.deferred { .just(3) }.retry(1).toBlocking().single(), 3)
        XCTAssertEqual(try Single.just(4).compactMap { $0 }.toBlocking().toArray(), [4])
        XCTAssertEqual(try Single.just(5).asMaybe().toBlocking().toArray(), [5])
        XCTAssertEqual(try Single.zip(Single.just(1), Single.just(2)) { $0 + $1 }.toBlocking().single(), 3)
        XCTAssertEqual(try Single.zip([Single.just(1), Single.just(2)]).toBlocking().single(), [1, 2])
        XCTAssertEqual(try Single.using({ Token() }, primitiveSequenceFactory: { _ in Single.just(6) }).toBlocking().single(), 6)
        var events: [String] = []
        let disposable = Single.just(7).do(onSuccess: { events.append("do \($0)") }).subscribe(
            onSuccess: { events.append("success \($0)") },
            onFailure: { _ in events.append("failure") },
            onDisposed: { events.append("disposed") }
        )
        disposable.dispose()
        XCTAssertEqual(events, ["do 7", "success 7", "disposed"])
        let owner = Token()
        _ = Single.just(8).subscribe(with: owner, onSuccess: { owner, value in events.append("\(owner.isDisposed) \(value)") })
        XCTAssertEqual(events.last, "false 8")
        _ = Single.just(9).subscribe { result in
            if case .success(let value) = result { events.append("result \(value)") }
        }
        XCTAssertEqual(events.last, "result 9")
    }

    func testSingleTimeOperators() {
        // The completion is delayed too: scheduled after the element, it runs a
        // tick later on a TestScheduler (as in RxTest).
        XCTAssertEqual(virtualTime { Single.just(1).delay(.seconds(5), scheduler: $0).asObservable() },
                       [.next(205, 1), .completed(206)])
        XCTAssertEqual(virtualTime { Single.just(1).delaySubscription(.seconds(5), scheduler: $0).asObservable() },
                       [.next(205, 1), .completed(205)])
        XCTAssertEqual(virtualTime { Single<Int>.timer(.seconds(5), scheduler: $0).asObservable() },
                       [.next(205, 0), .completed(205)])
        XCTAssertEqual(virtualTime { scheduler in
            Single.just(1).observe(on: scheduler).subscribe(on: scheduler)
                .retry(when: { (errors: Observable<Error>) in errors }).asObservable()
        }, [.next(202, 1), .completed(203)])
    }

    func testMaybeAndCompletable() throws {
        XCTAssertEqual(try Maybe.just(1).map { $0 + 1 }.filter { $0 > 1 }.toBlocking().toArray(), [2])
        XCTAssertEqual(try Maybe<Int>.empty().ifEmpty(default: 3).toBlocking().single(), 3)
        XCTAssertEqual(try Maybe<Int>.empty().ifEmpty(switchTo: Single.just(4)).toBlocking().single(), 4)
        XCTAssertEqual(try Maybe<Int>.never().timeout(.milliseconds(10), other: Maybe.just(5), scheduler: MainScheduler.instance).toBlocking(timeout: 2).toArray(), [5])
        var completed = 0
        let disposable = Maybe<Int>.empty().subscribe(onSuccess: { _ in }, onError: { _ in }, onCompleted: { completed += 1 })
        disposable.dispose()
        XCTAssertEqual(completed, 1)
        guard case .failed(let elements, let error) = Observable.of(1, 2).asMaybe().toBlocking().materialize() else {
            return XCTFail("two elements are no Maybe")
        }
        XCTAssertEqual(elements, [])
        guard case .moreThanOneElement? = error as? RxError else { return XCTFail("\(error)") }

        var steps: [String] = []
        let step = { (name: String) in Completable.create { completable in
            steps.append(name)
            completable(.completed)
            return Disposables.create()
        } }
        _ = step("a").andThen(step("b")).andThen(Observable.just(1)).subscribe()
        _ = step("c").andThen(Single.just(1)).subscribe(onSuccess: { _ in steps.append("single") })
        _ = step("d").andThen(Maybe.just(1)).subscribe(onSuccess: { _ in steps.append("maybe") })
        _ = Completable.concat(step("e"), step("f")).subscribe(onCompleted: { steps.append("concat") }, onError: { _ in })
        _ = Completable.zip(step("g"), step("h")).subscribe(onCompleted: { steps.append("zip") })
        XCTAssertEqual(steps, ["a", "b", "c", "single", "d", "maybe", "e", "f", "concat", "g", "h", "zip"])
        XCTAssertEqual(try Observable<Int>.empty().ignoreElements().asCompletable().toBlocking().toArray().count, 0)
        XCTAssertThrowsError(try Completable.error(AppError.offline).toBlocking().toArray())
        _ = Completable.empty().subscribe { event in
            if case .completed = event { steps.append("event") }
        }
        XCTAssertEqual(steps.last, "event")
    }

    func testInfallible() throws {
        let source = Infallible.from([1, 2, 3])
        XCTAssertEqual(try source.map { $0 * 2 }.filter { $0 > 2 }.asObservable().toBlocking().toArray(), [4, 6])
        XCTAssertEqual(try Infallible.combineLatest(Infallible.just(1), Infallible.of(2)) { $0 + $1 }.asObservable().toBlocking().toArray(), [3])
        XCTAssertEqual(try Infallible.zip(Infallible.just(1), Infallible.just(2)) { $0 * $1 }.asObservable().toBlocking().toArray(), [2])
        XCTAssertEqual(try Infallible.merge(Infallible.just(1), Infallible.just(2)).asObservable().toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Infallible.concat(Infallible.just(1), Infallible.just(2)).asObservable().toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Infallible<Int>.deferred { .just(9) }.scan(0, accumulator: +).asObservable().toBlocking().toArray(), [9])
        XCTAssertEqual(try Observable<Int>.error(AppError.offline).asInfallible(onErrorJustReturn: 0).asObservable().toBlocking().toArray(), [0])
        XCTAssertEqual(try Observable<Int>.error(AppError.offline).asInfallible(onErrorFallbackTo: .just(1)).asObservable().toBlocking().toArray(), [1])
        XCTAssertEqual(try Observable<Int>.error(AppError.offline).asInfallible(onErrorRecover: { _ in .just(2) }).asObservable().toBlocking().toArray(), [2])
        var values: [Int] = []
        let relay = BehaviorRelay(value: 0)
        let bag = DisposeBag()
        Infallible<Int>.create { observer in
            observer(.next(5))
            observer(.completed)
            return Disposables.create()
        }
        .compactMap { $0 }.skip(0).take(1).startWith(4).distinctUntilChanged()
        .flatMapLatest { Infallible.just($0) }.share()
        .subscribe(onNext: { values.append($0) })
        .disposed(by: bag)
        Infallible.just(7).bind(to: relay).disposed(by: bag)
        XCTAssertEqual(values, [4, 5])
        XCTAssertEqual(relay.value, 7)
        _ = Infallible<Int>.never().subscribe(with: self, onNext: { _, _ in })
        _ = Infallible<Int>.empty()
    }

    func testDriverAndSignal() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let relay = PublishRelay<Int>()
            let signal = relay.asSignal()
            let driver = BehaviorRelay(value: 1).asDriver()
            let observer = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            signal.emit(to: observer).disposed(by: bag)
            driver.drive(observer).disposed(by: bag)
            scheduler.scheduleAt(210) { relay.accept(2) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(1, 1), .next(211, 2)])
            let failing = Observable<Int>.error(AppError.offline).asSignal(onErrorJustReturn: 0)
            let recovered = scheduler.createObserver(Int.self)
            failing.emit(to: recovered).disposed(by: bag)
            scheduler.advanceTo(300)
            XCTAssertEqual(recovered.events.map(\.value), [.next(0), .completed])
        }
        SharingScheduler.mock(makeScheduler: { MainScheduler.instance }) {
            XCTAssertTrue(SharingScheduler.make() is MainScheduler)
        }
        let relay = BehaviorRelay(value: "a")
        let field = ControlProperty(values: relay.asObservable(), valueSink: relay.asObserver())
        var changes: [String] = []
        let subscription = field.changed.subscribe(onNext: { changes.append($0) })
        field.onNext("b")
        subscription.dispose()
        XCTAssertEqual(changes, ["b"])
        XCTAssertEqual(relay.value, "b")
    }
}

extension BehaviorRelay {
    /// An observer that accepts into the relay (apps write this helper).
    func asObserver() -> AnyObserver<Element> {
        AnyObserver { [weak self] event in
            if case .next(let value) = event { self?.accept(value) }
        }
    }
}

final class SubjectAndRelayTests: RippleTestCase {
    func testSubjects() throws {
        let publish = PublishSubject<Int>()
        let behavior = BehaviorSubject(value: 0)
        let replay = ReplaySubject<Int>.create(bufferSize: 2)
        let async = AsyncSubject<Int>()
        let collector = Collector<Int>()
        let bag = DisposeBag()
        publish.subscribe(collector).disposed(by: bag)
        XCTAssertTrue(publish.hasObservers)
        publish.bind(to: behavior).disposed(by: bag)
        publish.bind(to: replay.asObserver(), async.asObserver()).disposed(by: bag)
        publish.onNext(1)
        publish.onNext(2)
        publish.onCompleted()
        XCTAssertEqual(try behavior.value(), 2)
        XCTAssertEqual(try replay.toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try async.toBlocking().toArray(), [2])
        XCTAssertEqual(collector.events, [.next(1), .next(2), .completed])
        behavior.dispose()
        XCTAssertTrue(behavior.isDisposed)
        XCTAssertThrowsError(try behavior.value())
        XCTAssertEqual(try ReplaySubject<Int>.createUnbounded().asObservable().take(0).toBlocking().toArray(), [])

        let counting = CountingSubject<Int>()
        Observable.of(1, 2).subscribe(counting.asObserver()).disposed(by: bag)
        XCTAssertEqual(counting.count, 2)
    }

    func testRelays() {
        let publish = PublishRelay<String>()
        let behavior = BehaviorRelay<String?>(value: nil)
        let replay = ReplayRelay<String>.create(bufferSize: 1)
        let bag = DisposeBag()
        publish.bind(to: behavior).disposed(by: bag)
        publish.bind(to: replay).disposed(by: bag)
        publish.accept("a")
        XCTAssertEqual(behavior.value, "a")
        XCTAssertEqual(try replay.asObservable().take(1).toBlocking().single(), "a")
        var seen: [String] = []
        publish.asInfallible().subscribe(onNext: { seen.append($0) }).disposed(by: bag)
        behavior.asObservable().compactMap { $0 }.subscribe(onNext: { seen.append("b:\($0)") }).disposed(by: bag)
        publish.accept("c")
        XCTAssertEqual(seen, ["b:a", "b:c", "c"])
        Observable.just("d").bind(onNext: { seen.append($0) }).disposed(by: bag)
        XCTAssertEqual(seen.last, "d")
    }
}

final class SchedulerAndDisposableTests: RippleTestCase {
    func testSchedulers() {
        let done = expectation(description: "scheduled everywhere")
        done.expectedFulfillmentCount = 6
        let schedulers: [ImmediateSchedulerType] = [
            MainScheduler.instance,
            MainScheduler.asyncInstance,
            ConcurrentDispatchQueueScheduler(qos: .userInitiated),
            SerialDispatchQueueScheduler(qos: .utility, internalSerialQueueName: "migration"),
            OperationQueueScheduler(operationQueue: OperationQueue(), queuePriority: .normal),
            ConcurrentMainScheduler.instance,
        ]
        let bag = DisposeBag()
        for scheduler in schedulers {
            scheduler.schedule(()) { _ in
                done.fulfill()
                return Disposables.create()
            }.disposed(by: bag)
        }
        wait(for: [done], timeout: 5)
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired, "nothing runs on the trampoline here")
        var insideTrampoline = true
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            insideTrampoline = !CurrentThreadScheduler.isScheduleRequired
            return Disposables.create()
        }
        XCTAssertTrue(insideTrampoline)
        let now: RxTime = MainScheduler.instance.now
        XCTAssertLessThanOrEqual(now, Date())
        _ = SerialDispatchQueueScheduler(internalSerialQueueName: "a")
        _ = SerialDispatchQueueScheduler(queue: .global(), internalSerialQueueName: "b")
        _ = SerialDispatchQueueScheduler(serialQueue: DispatchQueue(label: "c"))
        _ = ConcurrentDispatchQueueScheduler(queue: .global())
        MainScheduler.ensureExecutingOnScheduler()
        MainScheduler.ensureRunningOnMainThread()

        let historical = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
        var fired: [RxTime] = []
        _ = historical.scheduleRelative((), dueTime: .seconds(5)) { _ in
            fired.append(historical.now)
            return Disposables.create()
        }
        historical.advanceTo(Date(timeIntervalSince1970: 10))
        XCTAssertEqual(fired, [Date(timeIntervalSince1970: 5)])

        var recursive: [Int] = []
        _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
            recursive.append(value)
            if value < 2 { recurse(value + 1) }
        }
        XCTAssertEqual(recursive, [0, 1, 2])
        let periodic = TestScheduler(initialClock: 0)
        var ticks = 0
        let timer = periodic.schedulePeriodic(0, startAfter: .seconds(1), period: .seconds(1)) { state in
            ticks += 1
            return state + 1
        }
        periodic.advanceTo(5)
        timer.dispose()
        XCTAssertEqual(ticks, 5)
    }

    func testDisposables() {
        var log: [String] = []
        let composite = CompositeDisposable()
        let key = composite.insert(Disposables.create { log.append("removed") })
        _ = composite.insert(Disposables.create { log.append("composite") })
        XCTAssertEqual(composite.count, 2)
        if let key { composite.remove(for: key) }
        composite.dispose()
        let serial = SerialDisposable()
        serial.disposable = Disposables.create { log.append("serial 1") }
        serial.disposable = Disposables.create { log.append("serial 2") }
        serial.dispose()
        let single = SingleAssignmentDisposable()
        single.setDisposable(Disposables.create { log.append("single") })
        single.dispose()
        let boolean = BooleanDisposable()
        boolean.dispose()
        let refCount = RefCountDisposable(disposable: Disposables.create { log.append("refCount") })
        let retained = refCount.retain()
        refCount.dispose()
        retained.dispose()
        let scheduled = ScheduledDisposable(scheduler: CurrentThreadScheduler.instance, disposable: Disposables.create { log.append("scheduled") })
        scheduled.dispose()
        Disposables.create(Token(), Token()).dispose()
        Disposables.create(Token(), Token(), Token()).dispose()
        Disposables.create([Token()]).dispose()
        Disposables.create().dispose()
        var bag: DisposeBag? = DisposeBag(disposing: Disposables.create { log.append("bag") })
        bag?.insert(Disposables.create { log.append("bag 2") })
        bag?.insert {
            Disposables.create { log.append("builder") }
        }
        bag?.insert(Disposables.create { log.append("variadic 1") }, Disposables.create { log.append("variadic 2") })
        bag?.insert([Disposables.create { log.append("array") }])
        bag = nil
        XCTAssertTrue(boolean.isDisposed)
        XCTAssertEqual(log, ["removed", "composite", "serial 1", "serial 2", "single", "refCount", "scheduled", "bag", "bag 2", "builder", "variadic 1", "variadic 2", "array"])
    }

    func testHooksAndErrors() {
        let previous = Hooks.defaultErrorHandler
        var unhandled: [String] = []
        Hooks.defaultErrorHandler = { _, error in unhandled.append("\(error)") }
        Hooks.recordCallStackOnError = false
        Hooks.customCaptureSubscriptionCallstack = { [] }
        defer { Hooks.defaultErrorHandler = previous }
        _ = Observable<Int>.error(RxError.noElements).subscribe()
        XCTAssertEqual(unhandled, ["Sequence doesn't contain any elements."])
        let errors: [RxError] = [.unknown, .disposed(object: Token()), .overflow, .argumentOutOfRange, .noElements, .moreThanOneElement, .timeout]
        XCTAssertEqual(errors.count, 7)
        let event = Event<Int>.next(1)
        XCTAssertEqual(event.element, 1)
        XCTAssertNil(event.error)
        XCTAssertFalse(event.isStopEvent)
        XCTAssertTrue(Event<Int>.completed.isCompleted)
        XCTAssertEqual(event.map { $0 + 1 }, .next(2))
        XCTAssertEqual("\(event)", "next(1)")
        let observer = AnyObserver<Int>(eventHandler: { _ in })
        let mapped: AnyObserver<String> = observer.mapObserver { $0.count }
        mapped.onNext("abc")
        _ = AnyObserver(Collector<Int>())
    }
}

final class FoundationExtensionTests: RippleTestCase {
    func testNotificationCenter() {
        let center = NotificationCenter()
        let name = Notification.Name("MigrationTests")
        var received = 0
        let subscription = center.rx.notification(name).subscribe(onNext: { _ in received += 1 })
        center.post(name: name, object: nil)
        subscription.dispose()
        center.post(name: name, object: nil)
        XCTAssertEqual(received, 1)
    }

    func testURLSessionRxReportsRxCocoasErrors() throws {
        // A scheme URLSession does not speak: its own error, passed on as is.
        let url = URL(string: "gopher://example.invalid/repos")!
        URLSession.rx.shouldLogRequest = { _ in false }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let result = session.rx.json(url: url).toBlocking(timeout: 10).materialize()
        guard case .failed(_, let error) = result else { return XCTFail("\(result)") }
        XCTAssertEqual((error as NSError).domain, NSURLErrorDomain)
        // How the app told its failures apart.
        func message(_ error: Error) -> String {
            switch error as? RxCocoaURLError {
            case .httpRequestFailed(let response, _)?: return "HTTP \(response.statusCode)"
            case .deserializationError?: return "bad JSON"
            case .nonHTTPResponse?, .unknown?: return "no response"
            case nil: return "network"
            }
        }
        XCTAssertEqual(message(error), "network")
        _ = session.rx.data(request: URLRequest(url: url))
        _ = session.rx.response(request: URLRequest(url: url))
        let failed = RxCocoaURLError.httpRequestFailed(response: HTTPURLResponse(url: url, statusCode: 500, httpVersion: nil, headerFields: nil)!, data: nil)
        XCTAssertEqual(message(failed), "HTTP 500")
        XCTAssertEqual(failed.debugDescription, "HTTP request failed with `500`.")
    }
}

/// The rest of the surface: every `subscribe` form of the traits, the
/// remaining Infallible and SharedSequence operators, RxTest's other builders.
final class RemainingSurfaceTests: RippleTestCase {
    func testEverySubscribeForm() {
        var log: [String] = []
        let owner = Token()
        let bag = DisposeBag()
        Observable.of(1).subscribe(with: owner, onNext: { _, value in log.append("observable \(value)") }, onError: nil, onCompleted: nil, onDisposed: nil).disposed(by: bag)
        Observable.of(1).subscribe(onNext: { _ in }, onError: { _ in }, onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") }).disposed(by: bag)
        Observable<Int>.empty().subscribe { event in log.append("\(event)") }.disposed(by: bag)
        Single.just(2).subscribe(with: owner, onSuccess: { _, value in log.append("single \(value)") }, onFailure: nil, onDisposed: nil).disposed(by: bag)
        Single.just(3).subscribe { event in
            if case .success(let value) = event { log.append("single event \(value)") }
        }.disposed(by: bag)
        Maybe.just(4).subscribe { event in
            if case .success(let value) = event { log.append("maybe event \(value)") }
        }.disposed(by: bag)
        Maybe<Int>.empty().subscribe(with: owner, onSuccess: { _, _ in }, onError: nil, onCompleted: { _ in log.append("maybe completed") }, onDisposed: nil).disposed(by: bag)
        Completable.empty().subscribe(onCompleted: { log.append("completable") }, onError: { _ in }, onDisposed: nil).disposed(by: bag)
        Completable.empty().subscribe(with: owner, onCompleted: { _ in log.append("completable with") }, onError: nil, onDisposed: nil).disposed(by: bag)
        Single.just(5).asCompletable().subscribe(onCompleted: { log.append("as completable") }).disposed(by: bag)
        XCTAssertEqual(log, [
            "observable 1", "completed", "disposed", "completed", "single 2", "single event 3", "maybe event 4",
            "maybe completed", "completable", "completable with", "as completable",
        ])
    }

    func testInfallibleAndSharedSequenceOperatorsInVirtualTime() {
        XCTAssertEqual(virtualTime { ticks($0).asInfallible(onErrorJustReturn: 0).debounce(.seconds(20), scheduler: $0).asObservable() },
                       [.next(235, 2), .next(260, 3), .next(320, 4), .completed(400)])
        XCTAssertEqual(virtualTime { ticks($0).asInfallible(onErrorJustReturn: 0).throttle(.seconds(20), latest: false, scheduler: $0).asObservable() },
                       [.next(210, 1), .next(240, 3), .next(300, 4), .completed(400)])
        XCTAssertEqual(virtualTime { scheduler in
            ticks(scheduler).asInfallible(onErrorJustReturn: 0).withLatestFrom(Infallible.just("x")) { "\($0)\($1)" }.asObservable()
        }.count, 5)
        let owner = Token()
        XCTAssertEqual(virtualTime { ticks($0).asInfallible(onErrorJustReturn: 0).withUnretained(owner).map { $1 }.asObservable() }.count, 5)
        XCTAssertEqual(virtualTime { ticks($0).asInfallible(onErrorJustReturn: 0).flatMap { Infallible.just($0) }.asObservable() }.count, 5)
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = Observable<Int>.error(AppError.offline).asSignal(onErrorRecover: { _ in .just(1) })
            let driver = Driver.just(2).flatMapLatest { Driver.just($0 * 10) }.distinctUntilChanged().startWith(0)
            let signals = scheduler.createObserver(Int.self)
            let drivers = scheduler.createObserver(Int.self)
            let relay = BehaviorRelay(value: 0)
            let bag = DisposeBag()
            signal.emit(to: signals).disposed(by: bag)
            driver.drive(drivers).disposed(by: bag)
            driver.drive(relay).disposed(by: bag)
            scheduler.start()
            XCTAssertEqual(signals.events.map(\.value), [.next(1), .completed])
            XCTAssertEqual(drivers.events.map(\.value), [.next(0), .next(20), .completed])
            XCTAssertEqual(relay.value, 20)
        }
    }

    func testRxTestBuilders() {
        let time: TestTime = 210
        let recorded: [Recorded<Event<Int>>] = Recorded.events([.next(time, 1), .completed(220)])
        XCTAssertEqual(recorded, [.next(210, 1), .completed(220)])
        XCTAssertEqual(Subscription(200), Subscription(200, Int.max))
        let failing: [Recorded<Event<Int>>] = [.error(230, AppError.offline)]
        XCTAssertEqual(failing, [.error(230, AppError.offline)])
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 }, 2)
    }

    func testControlEventAsDriverAndSignal() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let button = Button()
            let field = TextField()
            let taps = scheduler.createObserver(Void.self)
            let texts = scheduler.createObserver(String?.self)
            let bag = DisposeBag()
            button.rx.tap.asSignal().emit(to: taps).disposed(by: bag)
            field.rx.text.asDriver().drive(texts).disposed(by: bag)
            scheduler.scheduleAt(210) {
                button.tap()
                field.type("a")
            }
            scheduler.start()
            XCTAssertEqual(taps.events.count, 1)
            XCTAssertEqual(texts.events.map(\.value), [.next(nil), .next("a")])
        }
    }

    #if canImport(ObjectiveC)
    func testDeallocated() {
        var owner: Token? = Token()
        var completed = false
        _ = owner!.rx.deallocated.subscribe(onCompleted: { completed = true })
        owner = nil
        XCTAssertTrue(completed)
    }
    #endif
}

extension Token: ReactiveCompatible {}
