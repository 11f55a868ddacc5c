import Foundation
import Ripple
import RippleDebugExport
import RippleTest
import XCTest

final class SubscriptionGraphTests: RippleTestCase {
    override func setUp() {
        super.setUp()
        Hooks.recordsOperatorSites = true
    }

    override func tearDown() {
        Hooks.recordsOperatorSites = false
        super.tearDown()
    }

    func testSharedNodeAppearsOnceWithItsThreeSubscribers() {
        let bag = DisposeBag()
        let query = PublishRelay<String>()
        let scope = NamedSubscriptionScope()
        let lengths = query.map { $0.count }.share()
        scope.run {
            for _ in 0..<3 {
                lengths.subscribe(onNext: { _ in }).disposed(by: bag)
            }
        }
        query.accept("ripple")
        query.accept("rx")

        let graph = scope.subscriptionGraph()
        // PublishRelay → map → share → 3 subscribers.
        XCTAssertEqual(graph.nodes.count, 6, graph.textTree)
        XCTAssertEqual(graph.edges.count, 5, graph.textTree)
        let share = try? XCTUnwrap(graph.nodes.first { $0.operatorName == "share" })
        XCTAssertEqual(share?.kind, .shared)
        XCTAssertEqual(share?.subscribers, 3)
        XCTAssertEqual(share?.events, 6, "two elements, each delivered to three subscribers")
        XCTAssertEqual(share?.site?.fileName, "SubscriptionGraphTests.swift")
        let map = graph.nodes.first { $0.operatorName == "map" }
        XCTAssertEqual(map?.kind, .operator)
        XCTAssertEqual(map?.events, 2, "the map runs once per element: it is shared")
        XCTAssertEqual(map?.elementType, "Int")
        XCTAssertEqual(map?.site?.line, #line - 22)
        let relay = graph.nodes.first { $0.operatorName == "PublishRelay" }
        XCTAssertEqual(relay?.kind, .shared)
        XCTAssertEqual(graph.nodes.filter { $0.kind == .subscriber }.count, 3)
        XCTAssertNotNil(share?.lastEventAt)
    }

    func testColdOperatorSubscribedTwiceIsTwoNodes() {
        let bag = DisposeBag()
        let query = PublishSubject<String>()
        let scope = NamedSubscriptionScope()
        let lengths = query.map { $0.count }
        scope.run {
            lengths.subscribe().disposed(by: bag)
            lengths.subscribe().disposed(by: bag)
        }
        let graph = scope.subscriptionGraph()
        XCTAssertEqual(graph.nodes.filter { $0.operatorName == "map" }.count, 2, graph.textTree)
        XCTAssertEqual(graph.nodes.filter { $0.operatorName == "PublishSubject" }.count, 1)
        XCTAssertEqual(graph.node(graph.nodes.first { $0.operatorName == "PublishSubject" }!.id)?.subscribers, 2)
    }

    func testDisposedSubscriptionsLeaveTheGraph() {
        let query = PublishSubject<String>()
        let scope = NamedSubscriptionScope()
        let subscription = scope.run { query.map { $0 }.filter { !$0.isEmpty }.subscribe() }
        XCTAssertEqual(scope.subscriptionGraph().nodes.count, 4)
        subscription.dispose()
        XCTAssertEqual(scope.subscriptionGraph().nodes, [])
        XCTAssertEqual(scope.subscriptionGraph().edges, [])
    }

    func testTerminatedSubscriptionsLeaveTheGraph() {
        let scope = NamedSubscriptionScope()
        let query = PublishSubject<Int>()
        _ = scope.run { query.map { $0 + 1 }.subscribe() }
        XCTAssertEqual(scope.subscriptionGraph().nodes.count, 3)
        query.onCompleted()
        XCTAssertEqual(scope.subscriptionGraph().nodes, [])
    }

    func testInnerSubscriptionsOfFlatMapAreEdgesIntoIt() {
        let bag = DisposeBag()
        let query = PublishSubject<String>()
        let responses = PublishSubject<Int>()
        let scope = NamedSubscriptionScope()
        scope.run {
            query.flatMapLatest { _ in responses.map { $0 * 2 } }.subscribe().disposed(by: bag)
        }
        query.onNext("a")
        let graph = scope.subscriptionGraph()
        let flat = try? XCTUnwrap(graph.nodes.first { $0.operatorName == "flatMapLatest" })
        let upstream = flat.map { graph.upstream(of: $0).map(\.operatorName).sorted() }
        XCTAssertEqual(upstream, ["PublishSubject", "map"], graph.textTree)
    }

    func testEveryFactoryIsNamedWithItsSite() {
        let bag = DisposeBag()
        let scope = NamedSubscriptionScope()
        // On a scheduler that is never advanced, each stays subscribed and in the graph.
        let scheduler = TestScheduler(initialClock: 0)
        let line = #line
        scope.run {
            Observable.of(1, 2, scheduler: scheduler).subscribe().disposed(by: bag)
            Observable.from([1], scheduler: scheduler).subscribe().disposed(by: bag)
            Observable.range(start: 0, count: 2, scheduler: scheduler).subscribe().disposed(by: bag)
            Observable.repeatElement(1, scheduler: scheduler).subscribe().disposed(by: bag)
            Observable.generate(initialState: 0, condition: { $0 < 2 }, scheduler: scheduler, iterate: { $0 + 1 })
                .subscribe().disposed(by: bag)
            Observable.from(optional: 1, scheduler: scheduler).subscribe().disposed(by: bag)
            NotificationCenter.default.rx.notification(Notification.Name("ripple.tests.graph")).subscribe().disposed(by: bag)
            Observable<Int>.never().asSingle().subscribe().disposed(by: bag)
            Observable<Int>.never().asMaybe().subscribe().disposed(by: bag)
            Observable<Int>.interval(.seconds(1), scheduler: scheduler).subscribe().disposed(by: bag)
        }
        let graph = scope.subscriptionGraph()
        let sites = graph.nodes.compactMap { node in node.site.map { "\(node.operatorName) \($0.line - line)" } }
        XCTAssertEqual(sites.sorted(), [
            "asMaybe 11", "asSingle 10", "from 3", "from 8", "generate 6", "interval 12", "never 10", "never 11",
            "notification 9", "of 2", "range 4", "repeatElement 5",
        ], graph.textTree)

        // Errors name their origin.
        struct Failure: Error {}
        var traces: [String?] = []
        let errorLine = #line
        Observable.generate(initialState: 0, condition: { _ in throw Failure() }, iterate: { $0 + 1 })
            .subscribe(onError: { traces.append($0.rippleTrace?.description) }).disposed(by: bag)
        Observable<Int>.empty().asSingle()
            .subscribe(onFailure: { traces.append($0.rippleTrace?.description) }).disposed(by: bag)
        Observable<Int>.error(Failure()).concat(Observable.just(1))
            .subscribe(onError: { traces.append($0.rippleTrace?.description) }).disposed(by: bag)
        XCTAssertEqual(traces, [
            "subscriber ← generate at SubscriptionGraphTests.swift:\(errorLine + 1)",
            "subscriber ← asSingle at SubscriptionGraphTests.swift:\(errorLine + 3)",
            "subscriber ← concat at SubscriptionGraphTests.swift:\(errorLine + 5) ← error at SubscriptionGraphTests.swift:\(errorLine + 5)",
        ])
    }

    func testInnerSequencesAndAndThenAreNamed() {
        let bag = DisposeBag()
        let scope = NamedSubscriptionScope()
        let subject = PublishSubject<Int>()
        let scheduler = TestScheduler(initialClock: 0)
        let line = #line
        scope.run {
            subject.window(timeSpan: .seconds(100), count: 3, scheduler: scheduler).flatMap { $0 }.subscribe().disposed(by: bag)
            subject.groupBy { $0 % 2 }.flatMap { $0.asObservable() }.subscribe().disposed(by: bag)
            Completable.create { _ in Disposables.create() }.andThen(Single.just(1)).subscribe().disposed(by: bag)
            Completable.create { _ in Disposables.create() }.andThen(Completable.empty()).subscribe().disposed(by: bag)
        }
        subject.onNext(1)
        let graph = scope.subscriptionGraph()
        let names = Set(graph.nodes.map(\.operatorName))
        XCTAssertTrue(names.isSuperset(of: ["window", "group", "andThen", "Completable"]), graph.textTree)
        XCTAssertTrue(names.isDisjoint(with: ["forwarding", "concat", "Producer", "value"]), graph.textTree)
        let andThen = graph.nodes.filter { $0.operatorName == "andThen" }.compactMap { $0.site?.line }
        XCTAssertEqual(andThen.sorted(), [line + 4, line + 5], graph.textTree)
    }

    func testNothingIsRecordedWhenRecordingIsOff() {
        Hooks.recordsOperatorSites = false
        let bag = DisposeBag()
        let scope = NamedSubscriptionScope()
        scope.run { PublishSubject<Int>().map { $0 }.subscribe().disposed(by: bag) }
        XCTAssertEqual(scope.subscriptionGraph().nodes, [])
    }

    func testExportsNameEveryNode() {
        let bag = DisposeBag()
        let query = PublishRelay<String>()
        let scope = NamedSubscriptionScope()
        scope.run {
            query.named("query").map { $0.count }.subscribe().disposed(by: bag)
        }
        query.accept("abc")
        let graph = scope.subscriptionGraph()
        let ids = graph.nodes.map(\.id)
        XCTAssertEqual(ids.count, 4)
        for id in ids {
            XCTAssertTrue(graph.dot.contains("n\(id) ["), graph.dot)
            XCTAssertTrue(graph.mermaid.contains("n\(id)"), graph.mermaid)
        }
        XCTAssertTrue(graph.dot.hasPrefix("digraph subscriptions {"))
        XCTAssertTrue(graph.dot.contains("named(\\\"query\\\")"), graph.dot)
        XCTAssertTrue(graph.mermaid.hasPrefix("flowchart LR"))
        XCTAssertEqual(graph.edges.filter { graph.mermaid.contains("n\($0.from) -->|\($0.events ?? -1)| n\($0.to)") }.count, 3)

        let json = try? JSONSerialization.jsonObject(with: Data(graph.json().utf8)) as? [String: Any]
        XCTAssertEqual(json?["schema"] as? String, "ripple.subscription-graph")
        XCTAssertEqual(json?["version"] as? Int, 1)
        let nodes = json?["nodes"] as? [[String: Any]]
        XCTAssertEqual(nodes?.count, 4)
        let map = nodes?.first { $0["operator"] as? String == "map" }
        XCTAssertEqual(map?["events"] as? Int, 1)
        XCTAssertEqual(map?["elementType"] as? String, "Int")
        XCTAssertEqual((map?["site"] as? [String: Any])?["file"] as? String, "RippleTests/SubscriptionGraphTests.swift")
        XCTAssertTrue(graph.json().contains("\"RippleTests/SubscriptionGraphTests.swift\""), "a path's slashes are not escaped")
        XCTAssertEqual((json?["edges"] as? [Any])?.count, 3)

        let tree = graph.textTree.split(separator: "\n").map(String.init)
        XCTAssertEqual(tree.count, 4, graph.textTree)
        XCTAssertTrue(tree[0].hasPrefix("subscriber #"))
        XCTAssertTrue(tree[1].hasPrefix("└─ map at SubscriptionGraphTests.swift:"), tree[1])
        XCTAssertTrue(tree[2].hasPrefix("   └─ named(\"query\") at SubscriptionGraphTests.swift:"), tree[2])
        XCTAssertTrue(tree[3].hasPrefix("      └─ PublishRelay · String"), tree[3])
    }
}
