import Foundation
import Ripple
import RippleTest
import XCTest

final class CreationTests: RippleTestCase {
    func testCreateIgnoresEventsAfterTerminal() {
        var disposed = false
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(testError)
            return Disposables.create { disposed = true }
        }
        let (events, d) = record(source)
        XCTAssertEqual(events.values, [.next(1), .completed])
        XCTAssertTrue(disposed, "the disposable returned by create must be disposed once the sequence terminates")
        d.dispose()
    }

    func testCreateDisposeCallsReturnedDisposable() {
        var disposed = false
        let subject = PublishSubject<Int>()
        let source = Observable<Int>.create { observer in
            let inner = subject.subscribe(observer)
            return Disposables.create {
                disposed = true
                inner.dispose()
            }
        }
        let (events, d) = record(source)
        subject.onNext(1)
        d.dispose()
        subject.onNext(2)
        XCTAssertEqual(events.values, [.next(1)])
        XCTAssertTrue(disposed)
        XCTAssertFalse(subject.hasObservers)
    }

    func testCreateRunsPerSubscriber() {
        var subscriptions = 0
        let source = Observable<Int>.create { observer in
            subscriptions += 1
            observer.onNext(subscriptions)
            observer.onCompleted()
            return Disposables.create()
        }
        let (a, d1) = record(source)
        let (b, d2) = record(source)
        XCTAssertEqual(a.values, [.next(1), .completed])
        XCTAssertEqual(b.values, [.next(2), .completed])
        d1.dispose()
        d2.dispose()
    }

    func testJustEmptyNeverError() {
        XCTAssertEqual(record(Observable.just(1)).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Observable<Int>.empty()).0.values, [.completed])
        XCTAssertEqual(record(Observable<Int>.error(testError)).0.values, [.error(testError)])
        let (never, d) = record(Observable<Int>.never())
        XCTAssertEqual(never.values, [])
        d.dispose()
    }

    func testJustOnSchedulerUsesTwoSteps() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(42, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 42), .completed(202)])
    }

    func testFromOptional() {
        XCTAssertEqual(record(Observable.from(optional: 1)).0.values, [.next(1), .completed])
        XCTAssertEqual(record(Observable<Int>.from(optional: nil)).0.values, [.completed])
        let scheduler = TestScheduler(initialClock: 0)
        let none = scheduler.start { Observable<Int>.from(optional: nil, scheduler: scheduler) }
        XCTAssertEqual(none.events, [.completed(201)])
    }

    func testOfAndFrom() {
        XCTAssertEqual(record(Observable.of(1, 2, 3)).0.values, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(record(Observable.from([4, 5])).0.values, [.next(4), .next(5), .completed])
        XCTAssertEqual(record(Observable.from(Set([7]))).0.values, [.next(7), .completed])
        XCTAssertEqual(record(Observable.from(stride(from: 0, to: 6, by: 2))).0.values, [.next(0), .next(2), .next(4), .completed])
        XCTAssertEqual(record(Observable<Int>.from([])).0.values, [.completed])
    }

    func testOfOnSchedulerOneStepPerElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
    }

    func testOfOnSchedulerStopsWhenDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 202) { Observable.of(1, 2, 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1)])
    }

    func testTakeFromInfiniteSourceStopsIt() {
        XCTAssertEqual(record(Observable.repeatElement(7).take(3)).0.values, [.next(7), .next(7), .next(7), .completed])
    }

    func testRange() {
        XCTAssertEqual(record(Observable.range(start: 5, count: 3)).0.values, [.next(5), .next(6), .next(7), .completed])
        XCTAssertEqual(record(Observable.range(start: 5, count: 0)).0.values, [.completed])
        XCTAssertEqual(record(Observable.range(start: 0, count: -1)).0.values, [.error(RxError.argumentOutOfRange)])
        XCTAssertEqual(record(Observable<Int8>.range(start: 120, count: 10)).0.values, [.error(RxError.overflow)])
        XCTAssertEqual(record(Observable<Int8>.range(start: 120, count: 8)).0.values.count, 9)
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: 1, count: 2, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .completed(203)])
    }

    func testGenerate() {
        let source = Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 })
        XCTAssertEqual(record(source).0.values, [.next(1), .next(3), .next(9), .completed])
        let failing = Observable.generate(initialState: 1, condition: { _ in true }, iterate: { _ in throw testError })
        XCTAssertEqual(record(failing).0.values, [.next(1), .error(testError)])
        let failingCondition = Observable.generate(initialState: 1, condition: { _ in throw testError }, iterate: { $0 })
        XCTAssertEqual(record(failingCondition).0.values, [.error(testError)])
    }

    func testDeferredRunsFactoryPerSubscriber() {
        var count = 0
        let source = Observable.deferred { () -> Observable<Int> in
            count += 1
            return .just(count)
        }
        XCTAssertEqual(record(source).0.values, [.next(1), .completed])
        XCTAssertEqual(record(source).0.values, [.next(2), .completed])
        let failing = Observable<Int>.deferred { throw testError }
        XCTAssertEqual(record(failing).0.values, [.error(testError)])
    }

    func testUsingDisposesResourceOnCompletionAndOnDispose() {
        var log: [String] = []
        let completing = Observable.using({ TestResource { log.append("resource disposed") } }, observableFactory: { _ in
            Observable.of(1, 2)
        })
        XCTAssertEqual(record(completing).0.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(log, ["resource disposed"])

        log = []
        let subject = PublishSubject<Int>()
        let open = Observable.using({ TestResource { log.append("resource disposed") } }, observableFactory: { _ in
            subject.asObservable()
        })
        let (events, d) = record(open)
        subject.onNext(1)
        XCTAssertEqual(log, [])
        d.dispose()
        XCTAssertEqual(log, ["resource disposed"])
        XCTAssertEqual(events.values, [.next(1)])
        XCTAssertFalse(subject.hasObservers)
    }

    func testUsingFactoryErrors() {
        var log: [String] = []
        let failingResource = Observable<Int>.using({ () throws -> TestResource in throw testError }, observableFactory: { _ in .just(1) })
        XCTAssertEqual(record(failingResource).0.values, [.error(testError)])
        let failingFactory = Observable<Int>.using({ TestResource { log.append("disposed") } }, observableFactory: { _ in throw testError })
        XCTAssertEqual(record(failingFactory).0.values, [.error(testError)])
        XCTAssertEqual(log, ["disposed"])
    }

    func testIntervalOnVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 235) { Observable<Int>.interval(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 0), .next(220, 1), .next(230, 2)])
    }

    func testTimerOneShotAndPeriodic() {
        let scheduler = TestScheduler(initialClock: 0)
        let oneShot = scheduler.start { Observable<Int>.timer(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(oneShot.events, [.next(205, 0), .completed(205)])

        let periodicScheduler = TestScheduler(initialClock: 0)
        let periodic = periodicScheduler.start(disposed: 226) {
            Observable<Int>.timer(.seconds(5), period: .seconds(10), scheduler: periodicScheduler)
        }
        XCTAssertEqual(periodic.events, [.next(205, 0), .next(215, 1), .next(225, 2)])
    }

    func testIntervalOnRealScheduler() throws {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "interval")
        let values = try Observable<Int>.interval(.milliseconds(2), scheduler: scheduler).take(3).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(values, [0, 1, 2])
    }

    /// A negative period crashed the process inside libdispatch; it is an error
    /// event now, on every scheduler.
    func testNegativeIntervalPeriodFailsWithArgumentOutOfRange() {
        let dispatch = ConcurrentDispatchQueueScheduler(qos: .default)
        let (recorder, subscription) = record(Observable<Int>.interval(.milliseconds(-5), scheduler: dispatch))
        XCTAssertTrue(waitUntil { !recorder.values.isEmpty })
        subscription.dispose()
        XCTAssertEqual(recorder.values, [.error(RxError.argumentOutOfRange)])
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(1), period: .seconds(-1), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(200, RxError.argumentOutOfRange)])
    }

    /// A negative due time means "now" (as a `DispatchTime` in the past does).
    func testNegativeTimerDueTimeFiresAtOnce() throws {
        let dispatch = SerialDispatchQueueScheduler(internalSerialQueueName: "timer")
        XCTAssertEqual(try Observable<Int>.timer(.milliseconds(-5), scheduler: dispatch).toBlocking(timeout: 5).toArray(), [0])
    }
}

final class TestResource: Disposable {
    private let onDispose: () -> Void
    init(_ onDispose: @escaping () -> Void) { self.onDispose = onDispose }
    func dispose() { onDispose() }
}
