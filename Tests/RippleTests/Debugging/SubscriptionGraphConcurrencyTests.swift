import Foundation
import Ripple
import RippleDebugExport
import RippleTest
import XCTest

/// Snapshots taken while other threads subscribe, deliver and dispose are
/// consistent, and run under ThreadSanitizer in the gate (`Concurrency`).
final class SubscriptionGraphConcurrencyTests: RippleTestCase {
    override func tearDown() {
        Hooks.recordsOperatorSites = false
        super.tearDown()
    }

    func testSnapshotsAreConsistentUnderConcurrentSubscribeAndDispose() {
        Hooks.recordsOperatorSites = true
        let subject = PublishSubject<Int>()
        let shared = subject.map { $0 + 1 }.share()
        let scope = NamedSubscriptionScope()
        let done = DispatchGroup()
        let inconsistencies = Recorder<String>()
        for worker in 0..<4 {
            DispatchQueue.global().async(group: done) {
                scope.run {
                    for round in 0..<200 {
                        let subscription = (worker % 2 == 0 ? shared : subject.asObservable())
                            .filter { $0 % 2 == 0 }
                            .map { $0 * 2 }
                            .subscribe()
                        subject.onNext(round)
                        subscription.dispose()
                    }
                }
            }
        }
        DispatchQueue.global().async(group: done) {
            for _ in 0..<200 {
                let graph = SubscriptionGraph.current()
                let ids = Set(graph.nodes.map(\.id))
                for edge in graph.edges where !ids.contains(edge.from) || !ids.contains(edge.to) {
                    inconsistencies.append("edge \(edge.from) → \(edge.to) without its nodes")
                }
                _ = graph.json()
                _ = graph.textTree
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(inconsistencies.values, [])
        XCTAssertEqual(scope.subscriptionGraph().nodes, [], "every subscription was disposed")
    }

    func testEventsFromSeveralThreadsAreAllCounted() {
        Hooks.recordsOperatorSites = true
        let subject = PublishSubject<Int>()
        let scope = NamedSubscriptionScope()
        let subscription = scope.run { subject.map { $0 }.subscribe() }
        let done = DispatchGroup()
        for _ in 0..<4 {
            DispatchQueue.global().async(group: done) {
                for value in 0..<500 { subject.onNext(value) }
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        let map = scope.subscriptionGraph().nodes.first { $0.operatorName == "map" }
        XCTAssertEqual(map?.events, 2_000)
        subscription.dispose()
    }
}
