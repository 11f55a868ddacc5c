import Ripple
import RippleTest
import XCTest

final class BufferTests: RippleTestCase {
    private func makeSource(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 0), .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
            .next(370, 7), .next(420, 8), .next(470, 9), .completed(600),
        ])
    }

    func testTimeOrCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7]), .next(440, [8]), .next(510, [9]),
            .next(580, []), .next(600, []), .completed(600),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testErrorDropsBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .error(300, testError)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, [1, 2, 3]), .error(300, testError)])
    }

    func testDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler)
        let res = scheduler.start(disposed: 400) { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7])])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testElementAtTickTimeJoinsTheClosingBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(245)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(30), count: 10, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, [1, 2]), .next(245, []), .completed(245)])
    }

    func testCountOfOneAndEmptySource() {
        XCTAssertEqual(record(Observable.of(1, 2).buffer(timeSpan: .seconds(100), count: 1, scheduler: TestScheduler(initialClock: 0))).0.values,
                       [.next([1]), .next([2]), .next([]), .completed])
        XCTAssertEqual(record(Observable<Int>.empty().buffer(timeSpan: .seconds(100), count: 2, scheduler: TestScheduler(initialClock: 0))).0.values,
                       [.next([]), .completed])
    }

    func testNonPositiveCountFails() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(record(Observable.of(1).buffer(timeSpan: .seconds(1), count: 0, scheduler: scheduler)).0.values,
                       [.error(RxError.argumentOutOfRange)])
    }

    func testReentrantElementFromObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver([Int].self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler).subscribe(onNext: { value in
                observer.onNext(value)
                if value == [1, 2] {
                    subject.onNext(3)
                    subject.onNext(4)
                }
            })
        }
        scheduler.scheduleAt(210) {
            subject.onNext(1)
            subject.onNext(2)
        }
        scheduler.scheduleAt(250) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, [1, 2]), .next(210, [3, 4])])
    }
}

final class WindowTests: RippleTestCase {
    /// Subscribes at 200 and subscribes to each window as it arrives; returns
    /// "w<index>:<value>@time", "w<index>|@time" and outer events.
    private func run(_ scheduler: TestScheduler, _ source: Observable<Observable<Int>>, disposeAt: Int = 1000) -> [String] {
        var log: [String] = []
        var subscriptions: [Disposable] = []
        var outer: Disposable?
        var index = 0
        scheduler.scheduleAt(200) {
            outer = source.subscribe { event in
                switch event {
                case .next(let window):
                    let current = index
                    index += 1
                    log.append("open w\(current)@\(scheduler.clock)")
                    subscriptions.append(window.subscribe { event in
                        switch event {
                        case .next(let value): log.append("w\(current):\(value)@\(scheduler.clock)")
                        case .error: log.append("w\(current)#@\(scheduler.clock)")
                        case .completed: log.append("w\(current)|@\(scheduler.clock)")
                        }
                    })
                case .error: log.append("#@\(scheduler.clock)")
                case .completed: log.append("|@\(scheduler.clock)")
                }
            }
        }
        scheduler.scheduleAt(disposeAt) {
            outer?.dispose()
            subscriptions.forEach { $0.dispose() }
        }
        scheduler.start()
        return log
    }

    func testTimeOrCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
            .next(370, 7), .next(420, 8), .next(470, 9), .completed(600),
        ])
        let log = run(scheduler, xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler))
        XCTAssertEqual(log, [
            "open w0@200", "w0:1@205", "w0:2@210", "w0:3@240", "w0|@240", "open w1@240",
            "w1:4@280", "w1|@310", "open w2@310",
            "w2:5@320", "w2:6@350", "w2:7@370", "w2|@370", "open w3@370",
            "w3:8@420", "w3|@440", "open w4@440",
            "w4:9@470", "w4|@510", "open w5@510",
            "w5|@580", "open w6@580",
            "w6|@600", "|@600",
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testErrorFailsWindowAndResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let log = run(scheduler, xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler))
        XCTAssertEqual(log, ["open w0@200", "w0:1@210", "w0#@220", "#@220"])
    }

    func testDisposeEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(400, 2)])
        let log = run(scheduler, xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler), disposeAt: 300)
        XCTAssertEqual(log, ["open w0@200", "w0:1@210", "w0|@270", "open w1@270"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSubscribedWindowKeepsSourceAliveAfterOuterDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3)])
        var values: [Recorded<Event<Int>>] = []
        var windowSubscription: Disposable?
        scheduler.scheduleAt(200) {
            // take(1): the outer subscription ends as soon as the first window opens.
            _ = xs.window(timeSpan: .seconds(50), count: 10, scheduler: scheduler).take(1).subscribe(onNext: { window in
                windowSubscription = window.subscribe { values.append(Recorded(time: scheduler.clock, value: $0)) }
            })
        }
        scheduler.scheduleAt(900) { windowSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(values, [.next(210, 1), .next(230, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testNonPositiveCountFails() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(record(Observable.of(1).window(timeSpan: .seconds(1), count: -1, scheduler: scheduler).map { _ in 0 }).0.values,
                       [.error(RxError.argumentOutOfRange)])
    }
}
