import Ripple
import RippleTest
import XCTest

final class GroupByTests: RippleTestCase {
    /// What the observers saw: outer events as "key@time" and group events.
    private final class Log {
        var outer: [String] = []
        var groups: [String: [Recorded<Event<String>>]] = [:]
    }

    /// Subscribes at 200 to `groupBy { first letter }`, subscribing to each group
    /// as soon as it arrives (or at `subscribeGroupsAt` if given).
    private func run(
        _ scheduler: TestScheduler, _ source: Observable<String>, disposeAt: Int = 1000,
        subscribeGroupsLate at: Int? = nil, keySelector: @escaping (String) throws -> String = { String($0.prefix(1)) }
    ) -> Log {
        let log = Log()
        var outerSubscription: Disposable?
        var groupSubscriptions: [Disposable] = []
        var received: [GroupedObservable<String, String>] = []
        func subscribe(_ group: GroupedObservable<String, String>) {
            groupSubscriptions.append(group.subscribe { event in
                log.groups[group.key, default: []].append(Recorded(time: scheduler.clock, value: event))
            })
        }
        scheduler.scheduleAt(200) {
            outerSubscription = source.groupBy(keySelector: keySelector).subscribe { event in
                switch event {
                case .next(let group):
                    log.outer.append("\(group.key)@\(scheduler.clock)")
                    if at == nil { subscribe(group) } else { received.append(group) }
                case .error(let error):
                    log.outer.append("error(\(error))@\(scheduler.clock)")
                case .completed:
                    log.outer.append("completed@\(scheduler.clock)")
                }
            }
        }
        if let at {
            scheduler.scheduleAt(at) { received.forEach(subscribe) }
        }
        scheduler.scheduleAt(disposeAt) {
            outerSubscription?.dispose()
            groupSubscriptions.forEach { $0.dispose() }
        }
        scheduler.start()
        return log
    }

    func testGroupsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "z0"), .next(210, "a1"), .next(220, "b1"), .next(230, "a2"), .next(240, "b2"), .completed(300),
        ])
        let log = run(scheduler, xs.asObservable())
        XCTAssertEqual(log.outer, ["a@210", "b@220", "completed@300"])
        XCTAssertEqual(log.groups["a"], [.next(210, "a1"), .next(230, "a2"), .completed(300)])
        XCTAssertEqual(log.groups["b"], [.next(220, "b1"), .next(240, "b2"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSourceErrorFailsGroupsAndResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a1"), .next(220, "b1"), .error(250, testError)])
        let log = run(scheduler, xs.asObservable())
        XCTAssertEqual(log.outer, ["a@210", "b@220", "error(TestError(1))@250"])
        XCTAssertEqual(log.groups["a"], [.next(210, "a1"), .error(250, testError)])
        XCTAssertEqual(log.groups["b"], [.next(220, "b1"), .error(250, testError)])
    }

    func testKeySelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a1"), .next(220, "!"), .next(230, "a2")])
        let log = run(scheduler, xs.asObservable()) { value in
            if value == "!" { throw testError }
            return String(value.prefix(1))
        }
        XCTAssertEqual(log.outer, ["a@210", "error(TestError(1))@220"])
        XCTAssertEqual(log.groups["a"], [.next(210, "a1"), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testGroupSubscribedLateMissesEarlierElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a1"), .next(260, "a2"), .completed(300)])
        let log = run(scheduler, xs.asObservable(), subscribeGroupsLate: 250)
        XCTAssertEqual(log.outer, ["a@210", "completed@300"])
        XCTAssertEqual(log.groups["a"], [.next(260, "a2"), .completed(300)])
    }

    func testGroupSubscribedAfterTerminationGetsTheTerminalEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a1"), .completed(300)])
        let log = run(scheduler, xs.asObservable(), subscribeGroupsLate: 400)
        XCTAssertEqual(log.groups["a"], [.completed(400)])
    }

    func testSubscribedGroupKeepsSourceAliveAfterOuterDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a1"), .next(260, "a2"), .next(270, "b1"), .next(400, "a3")])
        var groupSubscription: Disposable?
        var outer: Disposable?
        var groupEvents: [Recorded<Event<String>>] = []
        var outerKeys: [String] = []
        scheduler.scheduleAt(200) {
            outer = xs.groupBy { String($0.prefix(1)) }.subscribe(onNext: { group in
                outerKeys.append(group.key)
                if group.key == "a" {
                    groupSubscription = group.subscribe { groupEvents.append(Recorded(time: scheduler.clock, value: $0)) }
                }
            })
        }
        scheduler.scheduleAt(250) { outer?.dispose() }
        scheduler.scheduleAt(300) { groupSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(outerKeys, ["a"], "groups created after the outer dispose are not sent")
        XCTAssertEqual(groupEvents, [.next(210, "a1"), .next(260, "a2")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testOuterDisposeWithoutGroupSubscriptionsDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a1"), .next(260, "a2")])
        var keys: [String] = []
        let res = scheduler.start(disposed: 250) {
            xs.groupBy { String($0.prefix(1)) }.map { group -> String in
                keys.append(group.key)
                return group.key
            }
        }
        XCTAssertEqual(res.events, [.next(210, "a")])
        XCTAssertEqual(keys, ["a"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<String>>.completed(300)])
        let log = run(scheduler, xs.asObservable())
        XCTAssertEqual(log.outer, ["completed@300"])
        XCTAssertTrue(log.groups.isEmpty)
    }

    func testReentrantElementFromGroupObserver() {
        let subject = PublishSubject<Int>()
        var values: [String] = []
        let bag = DisposeBag()
        subject.groupBy { $0 % 2 }.subscribe(onNext: { group in
            group.subscribe(onNext: { value in
                values.append("\(group.key):\(value)")
                if value < 4 { subject.onNext(value + 1) }
            }).disposed(by: bag)
        }).disposed(by: bag)
        subject.onNext(1)
        XCTAssertEqual(values, ["1:1", "0:2", "1:3", "0:4"])
        // The subscriptions capture `bag`: completing releases them.
        subject.onCompleted()
    }

    func testSynchronousSource() {
        var values: [String] = []
        let bag = DisposeBag()
        Observable.of(1, 2, 3, 4).groupBy { $0 % 2 }.subscribe(onNext: { group in
            group.subscribe(onNext: { values.append("\(group.key):\($0)") }).disposed(by: bag)
        }).disposed(by: bag)
        XCTAssertEqual(values, ["1:1", "0:2", "1:3", "0:4"])
    }
}
