import Ripple
import RippleTest
import XCTest

final class RefCountTests: RippleTestCase {
    func testFirstSubscriberConnectsLastOneDisconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4)])
        let counted = xs.publish().refCount()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var subscriptionA: Disposable?
        var subscriptionB: Disposable?
        scheduler.scheduleAt(200) { subscriptionA = counted.subscribe(a) }
        scheduler.scheduleAt(215) { subscriptionB = counted.subscribe(b) }
        scheduler.scheduleAt(225) { subscriptionA?.dispose() }
        scheduler.scheduleAt(235) { subscriptionB?.dispose() }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(b.events, [.next(220, 2), .next(230, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testReconnectsWhenANewSubscriberArrivesAfterAllLeft() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
        let counted = xs.publish().refCount()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = counted.subscribe(a) }
        scheduler.scheduleAt(215) { subscription?.dispose() }
        scheduler.scheduleAt(300) { subscription = counted.subscribe(b) }
        scheduler.scheduleAt(400) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1)])
        XCTAssertEqual(b.events, [.next(310, 1), .next(320, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215), Subscription(300, 400)])
    }

    func testAfterCompletionAPublishedSequenceReconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let counted = xs.publish().refCount()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = counted.subscribe(a) }
        scheduler.scheduleAt(300) { _ = counted.subscribe(b) }
        scheduler.start()
        // publish() makes a subject per connection (RxSwift): b gets a fresh one
        // and reconnects.
        XCTAssertEqual(a.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(b.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testAfterCompletionAMakeSubjectSequenceReconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let counted = xs.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 3) }).refCount()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = counted.subscribe(a) }
        scheduler.scheduleAt(300) { _ = counted.subscribe(b) }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(b.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testErrorReachesEverySubscriberAndDisconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let counted = xs.publish().refCount()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = counted.subscribe(a) }
        scheduler.scheduleAt(205) { _ = counted.subscribe(b) }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(b.events, a.events)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDisposeMidFlightAndEmptySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2)])
        let res = scheduler.start(disposed: 400) { xs.publish().refCount() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])

        XCTAssertEqual(record(Observable<Int>.empty().replay(1).refCount()).0.values, [.completed])
    }

    func testRefCountOnACustomConnectableType() {
        let connectable = ExternalConnectable()
        let counted = connectable.refCount()
        let (first, firstSubscription) = record(counted)
        XCTAssertEqual(connectable.connects.load(ordering: .relaxed), 1)
        let (second, secondSubscription) = record(counted)
        XCTAssertEqual(connectable.connects.load(ordering: .relaxed), 1)
        connectable.subject.onNext(1)
        firstSubscription.dispose()
        XCTAssertEqual(connectable.disconnects.load(ordering: .relaxed), 0)
        secondSubscription.dispose()
        XCTAssertEqual(connectable.disconnects.load(ordering: .relaxed), 1)
        XCTAssertEqual(first.values, [.next(1)])
        XCTAssertEqual(second.values, [.next(1)])

        let (_, third) = record(counted)
        XCTAssertEqual(connectable.connects.load(ordering: .relaxed), 2)
        third.dispose()
        XCTAssertEqual(connectable.disconnects.load(ordering: .relaxed), 2)
    }

    func testSubscribingFromInsideConnectJoinsWithoutReconnecting() {
        var counted: Observable<Int>!
        var sourceSubscriptions = 0
        var innerEvents: [Event<Int>] = []
        var inner: Disposable?
        let source = Observable<Int>.create { observer in
            sourceSubscriptions += 1
            inner = counted.subscribe { innerEvents.append($0) }
            observer.onNext(1)
            return Disposables.create()
        }
        counted = source.publish().refCount()
        let (outer, outerSubscription) = record(counted)
        XCTAssertEqual(outer.values, [.next(1)])
        XCTAssertEqual(innerEvents, [.next(1)])
        XCTAssertEqual(sourceSubscriptions, 1)
        outerSubscription.dispose()
        inner?.dispose()
        inner = nil
        counted = nil
    }

    func testResubscribingFromTheTerminalHandlerReconnects() {
        var sourceSubscriptions = 0
        let source = Observable<Int>.create { observer in
            sourceSubscriptions += 1
            observer.onNext(sourceSubscriptions)
            if sourceSubscriptions < 3 { observer.onCompleted() }
            return Disposables.create()
        }
        let counted = source.multicast(makeSubject: { PublishSubject<Int>() }).refCount()
        let received = Recorder<Int>()
        var subscriptions: [Disposable] = []
        func subscribe() {
            subscriptions.append(counted.subscribe(onNext: { received.append($0) }, onCompleted: { subscribe() }))
        }
        subscribe()
        XCTAssertEqual(received.values, [1, 2, 3])
        XCTAssertEqual(sourceSubscriptions, 3)
        subscriptions.forEach { $0.dispose() }
    }

    func testDisposingTheOnlySubscriberFromOnNextDisconnects() {
        let subject = PublishSubject<Int>()
        let counted = subject.publish().refCount()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = counted.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }
}
