import Ripple
import RippleTest
import XCTest

final class ShareReplayTests: RippleTestCase {
    // MARK: The classic trap

    /// Three bindings of one mapped text stream run the map three times per
    /// keystroke, until `share()` is added.
    func testThreeSubscribersRunTheMapThreeTimesUntilShareIsAdded() {
        let text = PublishSubject<String>()
        var mapCalls = 0
        let uppercased = text.map { value -> String in
            mapCalls += 1
            return value.uppercased()
        }
        let bag = DisposeBag()
        var labels = ["", "", ""]
        for index in 0..<3 {
            uppercased.subscribe(onNext: { labels[index] = $0 }).disposed(by: bag)
        }
        text.onNext("a")
        text.onNext("ab")
        XCTAssertEqual(mapCalls, 6, "cold: one map per subscriber per keystroke")
        XCTAssertEqual(labels, ["AB", "AB", "AB"])

        mapCalls = 0
        let shared = uppercased.share()
        let sharedBag = DisposeBag()
        for index in 0..<3 {
            shared.subscribe(onNext: { labels[index] = $0 + "!" }).disposed(by: sharedBag)
        }
        text.onNext("abc")
        // The three cold subscriptions above still run; the shared one runs once.
        XCTAssertEqual(mapCalls, 3 + 1)
        XCTAssertEqual(labels, ["ABC!", "ABC!", "ABC!"])
    }

    // MARK: share() (replay 0, whileConnected)

    func testShareSubscribesOnceAndDisposesWhenTheLastSubscriberLeaves() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(500)])
        let shared = xs.share()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var subscriptionA: Disposable?
        var subscriptionB: Disposable?
        scheduler.scheduleAt(200) { subscriptionA = shared.subscribe(a) }
        scheduler.scheduleAt(215) { subscriptionB = shared.subscribe(b) }
        scheduler.scheduleAt(225) { subscriptionA?.dispose() }
        scheduler.scheduleAt(235) { subscriptionB?.dispose() }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(b.events, [.next(220, 2), .next(230, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testShareWithSubscribersAtTheSameVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let shared = xs.share()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = shared.subscribe(a) }
        scheduler.scheduleAt(200) { _ = shared.subscribe(b) }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(b.events, a.events)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testShareResubscribesAfterAllSubscribersLeft() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3)])
        let shared = xs.share()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = shared.subscribe(a) }
        scheduler.scheduleAt(215) { subscription?.dispose() }
        scheduler.scheduleAt(300) { subscription = shared.subscribe(b) }
        scheduler.scheduleAt(400) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1)])
        XCTAssertEqual(b.events, [.next(310, 1), .next(320, 2), .next(330, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215), Subscription(300, 400)])
    }

    func testShareResubscribesAfterCompletionAndAfterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let completing = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let failing = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let sharedCompleting = completing.share()
        let sharedFailing = failing.share()
        let observers = (0..<4).map { _ in scheduler.createObserver(Int.self) }
        scheduler.scheduleAt(200) { _ = sharedCompleting.subscribe(observers[0]) }
        scheduler.scheduleAt(300) { _ = sharedCompleting.subscribe(observers[1]) }
        scheduler.scheduleAt(200) { _ = sharedFailing.subscribe(observers[2]) }
        scheduler.scheduleAt(300) { _ = sharedFailing.subscribe(observers[3]) }
        scheduler.start()
        XCTAssertEqual(observers[0].events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(observers[1].events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(observers[2].events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(observers[3].events, [.next(310, 1), .error(320, testError)])
        XCTAssertEqual(completing.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testShareDisposeMidFlightAndZeroElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2)])
        let res = scheduler.start(disposed: 400) { xs.share() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let empty = scheduler2.createHotObservable([.completed(250, Int.self)])
        XCTAssertEqual(scheduler2.start { empty.share(replay: 1) }.events, [.completed(250)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 250)])
    }

    func testShareOfASynchronousSource() {
        var subscriptions = 0
        let source = Observable.of(1, 2, 3).do(onSubscribe: { subscriptions += 1 })
        let shared = source.share()
        XCTAssertEqual(record(shared).0.values, [.next(1), .next(2), .next(3), .completed])
        // The first subscription completed: the next one starts over.
        XCTAssertEqual(record(shared).0.values, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(subscriptions, 2)

        let forever = source.share(replay: 1, scope: .forever)
        XCTAssertEqual(record(forever).0.values, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(record(forever).0.values, [.next(3), .completed])
        XCTAssertEqual(subscriptions, 3)
    }

    // MARK: share(replay:) whileConnected

    func testShareReplayOneGivesLateSubscribersTheLatestElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let shared = xs.share(replay: 1)
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = shared.subscribe(a) }
        scheduler.scheduleAt(225) { _ = shared.subscribe(b) }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(b.events, [.next(225, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testShareReplayWhileConnectedForgetsTheBufferOnReconnect() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(320, 3), .next(330, 4)])
        let shared = xs.share(replay: 2)
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        let c = scheduler.createObserver(Int.self)
        var subscriptionA: Disposable?
        var subscriptionB: Disposable?
        scheduler.scheduleAt(200) { subscriptionA = shared.subscribe(a) }
        scheduler.scheduleAt(225) { subscriptionB = shared.subscribe(b) }
        scheduler.scheduleAt(250) {
            subscriptionA?.dispose()
            subscriptionB?.dispose()
        }
        scheduler.scheduleAt(300) { subscriptionA = shared.subscribe(c) }
        scheduler.scheduleAt(400) { subscriptionA?.dispose() }
        scheduler.start()
        XCTAssertEqual(b.events, [.next(225, 1), .next(225, 2)])
        // Reconnected with a fresh subject: nothing from the first connection.
        XCTAssertEqual(c.events, [.next(320, 3), .next(330, 4)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(300, 400)])
    }

    func testShareReplayWhileConnectedAfterCompletionStartsOver() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let shared = xs.share(replay: 1)
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = shared.subscribe(a) }
        scheduler.scheduleAt(400) { _ = shared.subscribe(b) }
        scheduler.start()
        XCTAssertEqual(b.events, [.next(410, 1), .next(420, 2), .completed(430)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(400, 430)])
    }

    // MARK: share(replay:scope: .forever)

    func testShareForeverKeepsTheBufferAcrossReconnections() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(320, 3), .next(330, 4)])
        let shared = xs.share(replay: 1, scope: .forever)
        let a = scheduler.createObserver(Int.self)
        let c = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = shared.subscribe(a) }
        scheduler.scheduleAt(250) { subscription?.dispose() }
        scheduler.scheduleAt(300) { subscription = shared.subscribe(c) }
        scheduler.scheduleAt(400) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(c.events, [.next(300, 2), .next(320, 3), .next(330, 4)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(300, 400)])
    }

    func testShareForeverAfterCompletionReplaysWithoutResubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(25, 3), .completed(30)])
        let shared = xs.share(replay: 2, scope: .forever)
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = shared.subscribe(a) }
        scheduler.scheduleAt(400) { _ = shared.subscribe(b) }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2), .next(225, 3), .completed(230)])
        XCTAssertEqual(b.events, [.next(400, 2), .next(400, 3), .completed(400)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testShareForeverWithoutReplayAfterErrorReplaysTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let shared = xs.share(scope: .forever)
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = shared.subscribe(a) }
        scheduler.scheduleAt(400) { _ = shared.subscribe(b) }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(b.events, [.error(400, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testShareForeverWithoutReplayReconnectsAfterAllLeft() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
        let shared = xs.share(replay: 0, scope: .forever)
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = shared.subscribe(a) }
        scheduler.scheduleAt(215) { subscription?.dispose() }
        scheduler.scheduleAt(300) { subscription = shared.subscribe(b) }
        scheduler.scheduleAt(400) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1)])
        XCTAssertEqual(b.events, [.next(310, 1), .next(320, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215), Subscription(300, 400)])
    }

    // MARK: Bad input

    func testShareNegativeReplayFails() {
        var subscribed = false
        let source = Observable.of(1).do(onSubscribe: { subscribed = true })
        XCTAssertEqual(record(source.share(replay: -1)).0.values, [.error(RxError.argumentOutOfRange)])
        XCTAssertEqual(record(source.share(replay: -3, scope: .forever)).0.values, [.error(RxError.argumentOutOfRange)])
        XCTAssertFalse(subscribed)
    }

    // MARK: Re-entrancy

    func testSubscribingFromOnNextJoinsTheSameConnection() {
        let subject = PublishSubject<Int>()
        var subscriptions = 0
        let shared = subject.do(onSubscribe: { subscriptions += 1 }).share(replay: 1)
        let inner = Recorder<Event<Int>>()
        var innerSubscription: Disposable?
        let outer = shared.subscribe(onNext: { value in
            if value == 1 {
                innerSubscription = shared.subscribe { inner.append($0) }
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        // The re-entrant subscriber gets the replayed 1 and then 2.
        XCTAssertEqual(inner.values, [.next(1), .next(2)])
        XCTAssertEqual(subscriptions, 1)
        innerSubscription?.dispose()
        outer.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    func testResubscribingFromTheTerminalHandlerStartsANewConnection() {
        var subscriptions = 0
        let source = Observable<Int>.create { observer in
            subscriptions += 1
            observer.onNext(subscriptions)
            if subscriptions < 3 { observer.onCompleted() }
            return Disposables.create()
        }
        let shared = source.share(replay: 1)
        let received = Recorder<Int>()
        var bag: [Disposable] = []
        func subscribe() {
            bag.append(shared.subscribe(onNext: { received.append($0) }, onCompleted: { subscribe() }))
        }
        subscribe()
        XCTAssertEqual(received.values, [1, 2, 3])
        XCTAssertEqual(subscriptions, 3)
        bag.forEach { $0.dispose() }
    }

    /// RxSwift holds its lock while it subscribes to the source; a source that
    /// subscribes to the same shared sequence then deadlocks (or recurses). Ripple
    /// subscribes to the source, and disposes it, outside its lock.
    func testSourceThatSubscribesToTheSharedSequenceDoesNotDeadlock() {
        var shared: Observable<Int>!
        var sourceSubscriptions = 0
        var innerEvents: [Event<Int>] = []
        var disposalEvents: [Event<Int>] = []
        var innerSubscription: Disposable?
        let source = Observable<Int>.create { observer in
            sourceSubscriptions += 1
            let round = sourceSubscriptions
            if round == 1 {
                innerSubscription = shared.subscribe { innerEvents.append($0) }
            }
            observer.onNext(7 * round)
            return Disposables.create {
                if round == 1 {
                    // Disposal (user code) that subscribes again: a new connection.
                    shared.subscribe { disposalEvents.append($0) }.dispose()
                }
            }
        }
        shared = source.share(replay: 1)
        let (recorder, subscription) = record(shared)
        XCTAssertEqual(recorder.values, [.next(7)])
        XCTAssertEqual(innerEvents, [.next(7)])
        subscription.dispose()
        innerSubscription?.dispose()
        XCTAssertEqual(disposalEvents, [.next(14)])
        XCTAssertEqual(sourceSubscriptions, 2)
        shared = nil
        innerSubscription = nil
    }

    func testDisposingFromOnNextStopsTheSource() {
        let subject = PublishSubject<Int>()
        let shared = subject.share()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = shared.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: Terminal event and disposal, in RxSwift's order

    /// RxSwift 6's `share()` and `share(replay: 1)` (and so every Driver and
    /// Signal) hand the terminal event to their subscribers first; the source's
    /// subscription ends after that.
    func testWhileConnectedDeliversTheTerminalEventBeforeDisposingTheSource() {
        let variants: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 1, scope: .whileConnected)", { $0.share(replay: 1, scope: .whileConnected) }),
        ]
        for (name, makeShared) in variants {
            for fails in [false, true] {
                let scheduler = TestScheduler(initialClock: 0)
                let xs = scheduler.createHotObservable(fails
                    ? [.next(210, 1), .error(220, testError)]
                    : [.next(210, 1), .completed(220)])
                let log = Recorder<String>()
                let shared = makeShared(xs.asObservable().do(onDispose: { log.append("source disposed") }))
                let observer = scheduler.createObserver(Int.self)
                var subscription: Disposable?
                scheduler.scheduleAt(200) {
                    subscription = shared.do(
                        onError: { _ in log.append("error delivered") },
                        onCompleted: { log.append("completed delivered") }
                    ).subscribe(observer)
                }
                scheduler.start()
                XCTAssertEqual(log.values, [fails ? "error delivered" : "completed delivered", "source disposed"], name)
                XCTAssertEqual(observer.events, [.next(210, 1), fails ? .error(220, testError) : .completed(220)], name)
                XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)], name)
                subscription?.dispose()
            }
        }
    }

    /// A larger replay, and `.forever`, are RxSwift's `multicast(...).refCount()`,
    /// whose connection ends before the subject passes the terminal event on.
    func testReplayOfTwoAndForeverDisposeTheSourceBeforeTheTerminalEvent() {
        let variants: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share(replay: 2)", { $0.share(replay: 2) }),
            ("share(scope: .forever)", { $0.share(scope: .forever) }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
        ]
        for (name, makeShared) in variants {
            let subject = PublishSubject<Int>()
            let log = Recorder<String>()
            let shared = makeShared(subject.do(onDispose: { log.append("source disposed") }))
            let subscription = shared.subscribe(onCompleted: { log.append("completed delivered") })
            subject.onCompleted()
            XCTAssertEqual(log.values, ["source disposed", "completed delivered"], name)
            subscription.dispose()
        }
    }

    // MARK: Operators compose

    func testShareAsPartOfAChainReleasesEverything() {
        let subject = BehaviorSubject(value: 1)
        let shared = subject.map { $0 * 2 }.share(replay: 1, scope: .forever).filter { $0 > 0 }
        let (first, firstSubscription) = record(shared)
        subject.onNext(2)
        let (second, secondSubscription) = record(shared)
        XCTAssertEqual(first.values, [.next(2), .next(4)])
        XCTAssertEqual(second.values, [.next(4)])
        firstSubscription.dispose()
        secondSubscription.dispose()
        XCTAssertFalse(subject.hasObservers)
    }
}
