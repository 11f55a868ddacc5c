import Ripple
import RippleDebugExport
import RippleTest
import XCTest

/// A subject (and `share`) keeps the handlers of `subscribe(onNext:...)` in its
/// subscription and calls them itself, while an operator or an `ObserverType`
/// listens through its observer (docs/Architecture.md, "Pipelines"). Both kinds of
/// subscriber on one subject must see the same events, in the order they
/// subscribed, with the same disposal and re-entrancy rules.
final class SubjectHandlersTests: RippleTestCase {
    func testHandlersAndObserversOnOneSubjectSeeTheSameEventsInSubscriptionOrder() {
        let subject = PublishSubject<Int>()
        let log = Recorder<String>()
        let bag = DisposeBag()
        subject.subscribe(onNext: { log.append("handlers \($0)") }, onCompleted: { log.append("handlers done") })
            .disposed(by: bag)
        subject.map { $0 * 10 }
            .subscribe(onNext: { log.append("map \($0)") }, onCompleted: { log.append("map done") })
            .disposed(by: bag)
        subject.subscribe(AnyObserver<Int> { event in log.append("observer \(event)") }).disposed(by: bag)
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(log.values, [
            "handlers 1", "map 10", "observer next(1)",
            "handlers done", "map done", "observer completed",
        ])
    }

    func testBehaviorAndReplaySubjectsReplayToHandlers() {
        let behavior = BehaviorSubject(value: 1)
        let replay = ReplaySubject<Int>.create(bufferSize: 2)
        replay.onNext(7)
        replay.onNext(8)
        replay.onNext(9)
        var seen: [Int] = []
        let first = behavior.subscribe(onNext: { seen.append($0) })
        let second = replay.subscribe(onNext: { seen.append($0) })
        behavior.onNext(2)
        replay.onNext(10)
        XCTAssertEqual(seen, [1, 8, 9, 2, 10])
        first.dispose()
        second.dispose()
    }

    func testAStoppedSubjectSendsItsTerminalEventToLateHandlers() {
        let subject = PublishSubject<Int>()
        subject.onError(TestError(7))
        var errors: [String] = []
        var disposed = 0
        _ = subject.subscribe(onError: { errors.append("\($0)") }, onDisposed: { disposed += 1 })
        XCTAssertEqual(errors, ["\(TestError(7))"])
        XCTAssertEqual(disposed, 1)
    }

    func testHandlersDisposingAnotherSubscriberDuringDeliveryStopItsEvents() {
        let subject = PublishSubject<Int>()
        var seenByB: [Int] = []
        var b: Disposable?
        let a = subject.subscribe(onNext: { value in
            if value == 2 { b?.dispose() }
        })
        b = subject.subscribe(onNext: { seenByB.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        XCTAssertEqual(seenByB, [1])
        a.dispose()
    }

    func testDisposingTheReturnedSubscriptionRemovesTheHandlersFromTheSubject() {
        let subject = PublishSubject<Int>()
        var seen: [Int] = []
        var disposed = 0
        let subscription = subject.subscribe(onNext: { seen.append($0) }, onDisposed: { disposed += 1 })
        XCTAssertTrue(subject.hasObservers)
        subject.onNext(1)
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(2)
        XCTAssertEqual(seen, [1])
        XCTAssertEqual(disposed, 1)
    }

    func testAnErrorWithoutOnErrorStillReachesTheDefaultErrorHandler() {
        let subject = PublishSubject<Int>()
        let reported = Recorder<String>()
        let saved = Hooks.defaultErrorHandler
        Hooks.defaultErrorHandler = { _, error in reported.append("\(error)") }
        defer { Hooks.defaultErrorHandler = saved }
        _ = subject.subscribe(onNext: { _ in })
        subject.onError(TestError(8))
        XCTAssertEqual(reported.values, ["\(TestError(8))"])
    }

    func testShareHandsHandlersToItsSubjectForEveryScope() {
        for scope in [SubjectLifetimeScope.whileConnected, .forever] {
            let source = PublishSubject<Int>()
            var subscriptions = 0
            let shared = source.do(onSubscribe: { subscriptions += 1 }).share(replay: 1, scope: scope)
            var first: [Int] = []
            var second: [Int] = []
            let a = shared.subscribe(onNext: { first.append($0) })
            source.onNext(1)
            let b = shared.subscribe(onNext: { second.append($0) })
            source.onNext(2)
            XCTAssertEqual(first, [1, 2], "\(scope)")
            XCTAssertEqual(second, [1, 2], "\(scope)")
            XCTAssertEqual(subscriptions, 1, "\(scope)")
            a.dispose()
            b.dispose()
        }
    }

    func testShareForeverReplaysToHandlersAfterTheSourceTerminated() {
        let source = PublishSubject<Int>()
        let shared = source.share(replay: 1, scope: .forever)
        let bag = DisposeBag()
        shared.subscribe().disposed(by: bag)
        source.onNext(5)
        source.onCompleted()
        var events: [String] = []
        shared.subscribe(onNext: { events.append("next \($0)") }, onCompleted: { events.append("completed") })
            .disposed(by: bag)
        XCTAssertEqual(events, ["next 5", "completed"])
    }

    func testWhileSubscriptionsAreRecordedTheSubscriberKeepsItsNode() {
        Hooks.recordsOperatorSites = true
        defer { Hooks.recordsOperatorSites = false }
        let subject = PublishSubject<Int>()
        let scope = NamedSubscriptionScope()
        let subscription = scope.run { subject.subscribe(onNext: { _ in }) }
        let graph = scope.subscriptionGraph()
        XCTAssertEqual(graph.nodes.filter { $0.kind == .subscriber }.count, 1, graph.textTree)
        XCTAssertEqual(graph.nodes.filter { $0.operatorName == "PublishSubject" }.count, 1, graph.textTree)
        subject.onNext(1)
        subscription.dispose()
    }
}
