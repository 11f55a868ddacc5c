import Ripple
import RippleTest
import XCTest

/// A connectable sequence written outside Ripple, the way RxSwift code bases do in
/// their tests: it must be possible to conform to `ConnectableObservableType` and
/// get `refCount()` and the other operators for free.
final class ExternalConnectable: ConnectableObservableType, @unchecked Sendable {
    typealias Element = Int

    let subject = PublishSubject<Int>()
    let connects = Atomic<Int>(0)
    let disconnects = Atomic<Int>(0)

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        subject.subscribe(observer)
    }

    func connect() -> Disposable {
        connects.add(1, ordering: .relaxed)
        return Disposables.create { self.disconnects.add(1, ordering: .relaxed) }
    }
}

/// A subject written outside Ripple (a custom `SubjectType`), to check that the
/// `multicast` family only relies on the protocol.
final class ExternalSubject: SubjectType, ObserverType, @unchecked Sendable {
    typealias Element = Int
    let inner = PublishSubject<Int>()

    func on(_ event: Event<Int>) { inner.on(event) }
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        inner.subscribe(observer)
    }
    func asObserver() -> ExternalSubject { self }
}

final class MulticastTests: RippleTestCase {
    // MARK: multicast(_ subject:)

    func testMulticastDoesNothingUntilConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let subject = PublishSubject<Int>()
        let res = scheduler.start { xs.multicast(subject) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testMulticastConnectDisconnectReconnect() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(260, 2), .next(350, 3), .next(450, 4), .next(550, 5), .completed(600),
        ])
        let connectable = xs.multicast(PublishSubject<Int>())
        let observer = scheduler.createObserver(Int.self)
        var connection: Disposable?
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = connectable.subscribe(observer) }
        scheduler.scheduleAt(250) { connection = connectable.connect() }
        scheduler.scheduleAt(400) { connection?.dispose() }
        scheduler.scheduleAt(500) { connection = connectable.connect() }
        scheduler.scheduleAt(700) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(260, 2), .next(350, 3), .next(550, 5), .completed(600)])
        XCTAssertEqual(xs.subscriptions, [Subscription(250, 400), Subscription(500, 600)])
    }

    func testMulticastConnectWhileConnectedReturnsTheSameConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        let connectable = xs.multicast(PublishSubject<Int>())
        let observer = scheduler.createObserver(Int.self)
        var connections: [Disposable] = []
        scheduler.scheduleAt(200) { _ = connectable.subscribe(observer) }
        scheduler.scheduleAt(205) { connections.append(connectable.connect()) }
        scheduler.scheduleAt(206) { connections.append(connectable.connect()) }
        scheduler.scheduleAt(250) { connections[1].dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 250)])
        XCTAssertTrue(connections[0] as AnyObject === connections[1] as AnyObject)
    }

    func testMulticastErrorReachesSubscribersAndLateSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError), .next(230, 2)])
        let connectable = xs.multicast(PublishSubject<Int>())
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = connectable.subscribe(early) }
        scheduler.scheduleAt(200) { _ = connectable.connect() }
        scheduler.scheduleAt(300) { _ = connectable.subscribe(late) }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(late.events, [.error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testMulticastWithCustomSubjectType() {
        let subject = ExternalSubject()
        let connectable = Observable.of(1, 2, 3).multicast(subject)
        let (recorder, subscription) = record(connectable.asObservable())
        let connection = connectable.connect()
        XCTAssertEqual(recorder.values, [.next(1), .next(2), .next(3), .completed])
        connection.dispose()
        subscription.dispose()
    }

    func testConnectableObservableIsAnObservable() {
        let connectable: ConnectableObservable<Int> = Observable.of(1, 2).publish()
        let observable: Observable<Int> = connectable
        XCTAssertTrue(observable === connectable.asObservable())
        let (recorder, subscription) = record(connectable.map { $0 * 10 })
        _ = connectable.connect()
        XCTAssertEqual(recorder.values, [.next(10), .next(20), .completed])
        subscription.dispose()
    }

    // MARK: multicast(makeSubject:)

    func testMulticastMakeSubjectUsesAFreshSubjectPerConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        var made = 0
        let connectable = xs.multicast(makeSubject: { () -> ReplaySubject<Int> in
            made += 1
            return ReplaySubject.create(bufferSize: 1)
        })
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let third = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = connectable.subscribe(first) }
        scheduler.scheduleAt(200) { _ = connectable.connect() }
        // After the first connection ended (230) the subject is forgotten: this
        // subscriber gets a fresh one, which the next connection feeds.
        scheduler.scheduleAt(300) { _ = connectable.subscribe(second) }
        scheduler.scheduleAt(400) { _ = connectable.connect() }
        scheduler.scheduleAt(500) { _ = connectable.subscribe(third) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(second.events, [.next(410, 1), .next(420, 2), .completed(430)])
        // The second connection ended too; a fresh subject, never connected.
        XCTAssertEqual(third.events, [])
        XCTAssertEqual(made, 3)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(400, 430)])
    }

    func testMulticastMakeSubjectIsLazy() {
        var made = 0
        let connectable = Observable<Int>.never().multicast(makeSubject: { () -> PublishSubject<Int> in
            made += 1
            return PublishSubject()
        })
        XCTAssertEqual(made, 0)
        let subscription = connectable.subscribe()
        XCTAssertEqual(made, 1)
        let connection = connectable.connect()
        XCTAssertEqual(made, 1)
        connection.dispose()
        subscription.dispose()
    }

    // MARK: multicast(_:selector:)

    func testMulticastSelectorSubscribesTheSourceOncePerSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { shared in
                // Uses the shared sequence twice (a hand-made merge).
                Observable<Int>.create { observer in
                    let a = shared.subscribe(onNext: { observer.onNext($0) })
                    let b = shared.map { $0 * 10 }.subscribe(observer)
                    return Disposables.create(a, b)
                }
            })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(210, 10), .next(220, 2), .next(220, 20), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testMulticastSelectorColdSourceEachSubscriberHasItsOwnConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let multicast = xs.multicast({ PublishSubject<Int>() }, selector: { $0.map { $0 + 1 } })
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = multicast.subscribe(first) }
        scheduler.scheduleAt(300) { _ = multicast.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 2), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 2), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testMulticastSelectorErrorsAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(
            scheduler.start { failing.multicast({ PublishSubject<Int>() }, selector: { $0 }) }.events,
            [.next(210, 1), .error(220, testError)]
        )
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let open = scheduler2.createHotObservable([.next(210, 1), .next(500, 2)])
        let res = scheduler2.start(disposed: 400) { open.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(open.subscriptions, [Subscription(200, 400)])
    }

    func testMulticastSelectorThrowingFactories() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let subjectFails = scheduler.start {
            xs.multicast({ () throws -> PublishSubject<Int> in throw testError }, selector: { $0 })
        }
        XCTAssertEqual(subjectFails.events, [.error(200, testError)])

        let selectorFails = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
            xs.multicast({ PublishSubject<Int>() }, selector: { _ -> Observable<Int> in throw testError2 })
        }
        XCTAssertEqual(selectorFails.events, [.error(1200, testError2)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testMulticastSelectorWithEmptySource() {
        let result = Observable<Int>.empty().multicast({ ReplaySubject<Int>.createUnbounded() }, selector: { $0 })
        XCTAssertEqual(record(result).0.values, [.completed])
    }

    // MARK: publish / replay / replayAll

    func testPublishLateSubscriberGetsOnlyLaterEventsThenTerminal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let published = xs.publish()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let afterEnd = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = published.subscribe(early) }
        scheduler.scheduleAt(200) { _ = published.connect() }
        scheduler.scheduleAt(225) { _ = published.subscribe(late) }
        scheduler.scheduleAt(400) { _ = published.subscribe(afterEnd) }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(late.events, [.next(230, 3), .completed(300)])
        // The connection ended at 300 with its subject: a subscriber at 400 is on a
        // fresh subject and waits for the next connect() (RxSwift's publish()).
        XCTAssertEqual(afterEnd.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testPublishReconnectAfterCompletionResubscribesWithAFreshSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let published = xs.publish()
        let observer = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = published.subscribe(observer) }
        scheduler.scheduleAt(200) { _ = published.connect() }
        scheduler.scheduleAt(290) { _ = published.subscribe(second) }
        scheduler.scheduleAt(300) { _ = published.connect() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testReplayBuffersForLateSubscribersUntilTheConnectionEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let replayed = xs.replay(2)
        let late = scheduler.createObserver(Int.self)
        let afterEnd = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = replayed.connect() }
        scheduler.scheduleAt(235) { _ = replayed.subscribe(late) }
        scheduler.scheduleAt(400) { _ = replayed.subscribe(afterEnd) }
        scheduler.start()
        XCTAssertEqual(late.events, [.next(235, 2), .next(235, 3), .completed(300)])
        // The buffer belonged to the connection that ended at 300.
        XCTAssertEqual(afterEnd.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testReplayZeroBehavesLikePublish() {
        let subject = PublishSubject<Int>()
        let replayed = subject.replay(0)
        let connection = replayed.connect()
        subject.onNext(1)
        let (recorder, subscription) = record(replayed.asObservable())
        subject.onNext(2)
        XCTAssertEqual(recorder.values, [.next(2)])
        subscription.dispose()
        connection.dispose()
    }

    func testReplayNegativeBufferFailsEverySubscriber() {
        let subject = PublishSubject<Int>()
        let replayed = subject.replay(-1)
        let connection = replayed.connect()
        XCTAssertFalse(subject.hasObservers)
        XCTAssertEqual(record(replayed.asObservable()).0.values, [.error(RxError.argumentOutOfRange)])
        connection.dispose()
    }

    func testReplayAllReplaysEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        let replayed = xs.replayAll()
        let late = scheduler.createObserver(Int.self)
        let afterEnd = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = replayed.connect() }
        scheduler.scheduleAt(225) { _ = replayed.subscribe(late) }
        scheduler.scheduleAt(400) { _ = replayed.subscribe(afterEnd) }
        scheduler.start()
        XCTAssertEqual(late.events, [.next(225, 1), .next(225, 2), .error(230, testError)])
        XCTAssertEqual(afterEnd.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testReplayDisconnectStartsAFreshSubjectForTheNextConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(310, 3)])
        let replayed = xs.replay(1)
        let observer = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var connection: Disposable?
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(replayed.subscribe(observer)) }
        scheduler.scheduleAt(200) { connection = replayed.connect() }
        scheduler.scheduleAt(250) { connection?.dispose() }
        scheduler.scheduleAt(270) { subscriptions.append(replayed.subscribe(late)) }
        scheduler.scheduleAt(300) { connection = replayed.connect() }
        scheduler.scheduleAt(400) {
            connection?.dispose()
            subscriptions.forEach { $0.dispose() }
        }
        scheduler.start()
        // As in RxSwift: the first connection's subject is forgotten at 250, so
        // `observer` hears nothing more, and `late` (on the next subject) gets
        // nothing replayed from the first connection.
        XCTAssertEqual(observer.events, [.next(210, 1)])
        XCTAssertEqual(late.events, [.next(310, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(300, 400)])
    }

    /// `publish`, `replay`, `replayAll` and `multicast(makeSubject:)` make a new
    /// subject for each connection: after the first connection ended (the source
    /// completed, or the connection was disposed), subscribers of the second one
    /// see nothing of the first. `multicast(_:)` with a given subject reuses it.
    func testEachConnectionHasAFreshSubject() {
        let variants: [(String, (Observable<Int>) -> ConnectableObservable<Int>)] = [
            ("publish()", { $0.publish() }),
            ("replay(2)", { $0.replay(2) }),
            ("replayAll()", { $0.replayAll() }),
            ("multicast(makeSubject:)", { $0.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 1) }) }),
        ]
        for (name, makeConnectable) in variants {
            for endsByCompleting in [true, false] {
                let scheduler = TestScheduler(initialClock: 0)
                let xs = scheduler.createColdObservable(endsByCompleting
                    ? [.next(10, 1), .next(20, 2), .completed(30)]
                    : [.next(10, 1), .next(20, 2)])
                let connectable = makeConnectable(xs.asObservable())
                let first = scheduler.createObserver(Int.self)
                let second = scheduler.createObserver(Int.self)
                var connection: Disposable?
                scheduler.scheduleAt(200) { _ = connectable.subscribe(first) }
                scheduler.scheduleAt(200) { connection = connectable.connect() }
                scheduler.scheduleAt(250) { connection?.dispose() }
                scheduler.scheduleAt(300) { _ = connectable.subscribe(second) }
                scheduler.scheduleAt(400) { connection = connectable.connect() }
                scheduler.scheduleAt(500) { connection?.dispose() }
                scheduler.start()
                let firstRun: [Recorded<Event<Int>>] = endsByCompleting
                    ? [.next(210, 1), .next(220, 2), .completed(230)]
                    : [.next(210, 1), .next(220, 2)]
                let secondRun: [Recorded<Event<Int>>] = endsByCompleting
                    ? [.next(410, 1), .next(420, 2), .completed(430)]
                    : [.next(410, 1), .next(420, 2)]
                XCTAssertEqual(first.events, firstRun, name)
                XCTAssertEqual(second.events, secondRun, name)
                XCTAssertEqual(xs.subscriptions, endsByCompleting
                    ? [Subscription(200, 230), Subscription(400, 430)]
                    : [Subscription(200, 250), Subscription(400, 500)], name)
            }
        }
    }

    func testMulticastWithAGivenSubjectReusesItForEveryConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
        let connectable = xs.multicast(ReplaySubject<Int>.create(bufferSize: 1))
        let second = scheduler.createObserver(Int.self)
        var connection: Disposable?
        scheduler.scheduleAt(200) { connection = connectable.connect() }
        scheduler.scheduleAt(250) { connection?.dispose() }
        scheduler.scheduleAt(300) { _ = connectable.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(second.events, [.next(300, 2)])
    }

    // MARK: Re-entrancy

    func testConnectFromInsideTheSourceSubscriptionDoesNotDeadlock() {
        var connectable: ConnectableObservable<Int>!
        var inner: Disposable?
        let source = Observable<Int>.create { observer in
            // Re-entrant connect: returns the connection being made.
            inner = connectable.connect()
            observer.onNext(1)
            return Disposables.create()
        }
        connectable = source.publish()
        let (recorder, subscription) = record(connectable.asObservable())
        let connection = connectable.connect()
        XCTAssertEqual(recorder.values, [.next(1)])
        XCTAssertTrue(inner as AnyObject === connection as AnyObject)
        connection.dispose()
        subscription.dispose()
        inner = nil
        connectable = nil
    }

    func testSubscribingFromATerminalHandlerOfAMakeSubjectConnectableGetsTheNextConnection() {
        let subject = PublishSubject<Int>()
        let connectable = subject.multicast(makeSubject: { PublishSubject<Int>() })
        let recorder = Recorder<Event<Int>>()
        var inner: Disposable?
        let outer = connectable.subscribe(onError: { _ in
            inner = connectable.subscribe { recorder.append($0) }
        })
        _ = connectable.connect()
        subject.onError(testError)
        // The terminated connection is gone; the re-entrant subscriber waits for the
        // next connection, with a fresh subject.
        XCTAssertEqual(recorder.values, [])
        let subject2Connection = connectable.connect()
        XCTAssertEqual(recorder.values, [.error(testError)], "the subject itself replays the error to its source subscription")
        subject2Connection.dispose()
        inner?.dispose()
        outer.dispose()
    }
}
