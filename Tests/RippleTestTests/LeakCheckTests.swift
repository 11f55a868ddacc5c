import Dispatch
import Foundation
import Ripple
import RippleTest
import Testing
import XCTest

// MARK: - XCTest

final class LeakCheckXCTests: FailureCapturingTestCase {
    func testABlockThatCleansUpPasses() {
        let relay = BehaviorRelay(value: "")
        let failures = capture {
            let count = assertNoLeaks {
                var received: [String] = []
                let bag = DisposeBag()
                relay.named("query").subscribe(onNext: { received.append($0) }).disposed(by: bag)
                relay.accept("ripple")
                return received.count
            }
            XCTAssertEqual(count, 2)
        }
        XCTAssertTrue(failures.isEmpty, "\(failures)")
    }

    func testALeakedNamedSubscriptionIsNamed() {
        let relay = PublishRelay<String>()
        var leaked: [Disposable] = []
        let line = #line + 2
        let failures = capture {
            assertNoLeaks(timeout: 0.05) {
                leaked.append(relay.named("query").subscribe(onNext: { _ in }))
                leaked.append(relay.named("results").subscribe(onNext: { _ in }))
                leaked.append(relay.named("results").subscribe(onNext: { _ in }))
                relay.named("finished").take(1).subscribe(onNext: { _ in }).dispose()
            }
        }
        let ids = Resources.liveNamedSubscriptions.map(\.id)
        leaked.forEach { $0.dispose() }
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, line)
        let message = failures.first?.description ?? ""
        XCTAssertTrue(message.contains("assertNoLeaks: the block left Ripple subscriptions alive"), message)
        XCTAssertTrue(message.contains("  query: 1 live subscription (#\(ids[0]))"), message)
        XCTAssertTrue(message.contains("  results: 2 live subscriptions (#\(ids[1]), #\(ids[2]))"), message)
        XCTAssertFalse(message.contains("finished"), message)
        XCTAssertTrue(message.contains("Resources.total:"), message)
    }

    func testARecordedLeakNamesItsChainAndSites() {
        Hooks.recordsOperatorSites = true
        defer { Hooks.recordsOperatorSites = false }
        let relay = PublishRelay<String>()
        var leaked: [Disposable] = []
        let line = #line + 3
        let failures = capture {
            assertNoLeaks(timeout: 0.05) {
                leaked.append(relay.named("query").map { $0.count }.subscribe(onNext: { _ in }))
                relay.map { $0 }.take(1).subscribe(onNext: { _ in }).dispose()
            }
        }
        leaked.forEach { $0.dispose() }
        let message = failures.first?.description ?? ""
        XCTAssertEqual(failures.count, 1)
        let lines = message.split(separator: "\n").map(String.init)
        let start = lines.firstIndex { $0 == "  1 recorded subscription still alive, nearest operator first:" }
        XCTAssertNotNil(start, message)
        guard let start, lines.count >= start + 5 else { return }
        XCTAssertTrue(lines[start + 1].hasPrefix("    subscriber #"), message)
        XCTAssertTrue(lines[start + 2].hasPrefix("    └─ map at LeakCheckTests.swift:\(line) · Int"), message)
        XCTAssertTrue(lines[start + 3].hasPrefix("       └─ named(\"query\") at LeakCheckTests.swift:\(line) · String"), message)
        XCTAssertTrue(lines[start + 4].hasPrefix("          └─ PublishRelay · String"), message)
        XCTAssertEqual(lines.count, start + 5, message)
    }

    func testAnUnnamedLeakIsCountedWithAHint() {
        let subject = PublishSubject<Int>()
        var leaked: Disposable?
        let failures = capture {
            assertNoLeaks(timeout: 0.05) {
                leaked = subject.map { $0 }.subscribe()
            }
        }
        leaked?.dispose()
        XCTAssertEqual(failures.count, 1)
        let message = failures.first?.description ?? ""
        XCTAssertTrue(message.contains("Resources.total: "), message)
        XCTAssertTrue(message.contains("tag streams with .named(_:) to see which one leaked"), message)

        // Only named streams: the unnamed leak goes unnoticed.
        let namedOnly = capture {
            assertNoLeaks(.namedStreams, timeout: 0.05) {
                leaked = subject.map { $0 }.subscribe()
            }
        }
        leaked?.dispose()
        XCTAssertTrue(namedOnly.isEmpty, "\(namedOnly)")
    }

    /// A leak that nothing releases is reported once it has stopped changing
    /// (0.2 s), not after the whole timeout (it used to take the default 2 s).
    func testALeakIsReportedWithoutWaitingForTheWholeTimeout() {
        let subject = PublishSubject<Int>()
        var leaked: Disposable?
        let start = Date()
        let failures = capture {
            assertNoLeaks(timeout: 30) {
                leaked = subject.named("kept").subscribe()
            }
        }
        let elapsed = Date().timeIntervalSince(start)
        leaked?.dispose()
        XCTAssertEqual(failures.count, 1)
        XCTAssertGreaterThanOrEqual(elapsed, 0.2)
        XCTAssertLessThan(elapsed, 5, "reported after \(elapsed) s")
    }

    func testSubscriptionsReleasedOnAnotherThreadAreWaitedFor() {
        let subject = PublishSubject<Int>()
        let failures = capture {
            assertNoLeaks(timeout: 5) {
                let subscription = SerialDisposable()
                subscription.disposable = subject.named("late").subscribe()
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { subscription.dispose() }
            }
        }
        XCTAssertTrue(failures.isEmpty, "\(failures)")
    }

    func testErrorsOfTheBlockAreRethrown() {
        struct Oops: Error {}
        XCTAssertThrowsError(try assertNoLeaks { throw Oops() }) { XCTAssertTrue($0 is Oops) }
    }
}

// MARK: - Swift Testing

@Suite struct LeakCheckSwiftTests {
    @Test func cleanBlockPassesEvenWithParallelTests() {
        let subject = PublishSubject<Int>()
        let value = assertNoLeaks {
            let bag = DisposeBag()
            subject.named("clean").subscribe().disposed(by: bag)
            return 42
        }
        #expect(value == 42)
    }

    @Test func leakBecomesAnIssueNamingTheStream() {
        let subject = PublishSubject<Int>()
        var leaked: Disposable?
        withKnownIssue {
            assertNoLeaks(timeout: 0.05) {
                leaked = subject.named("swift-testing leak").subscribe()
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("swift-testing leak: 1 live subscription") }
        }
        leaked?.dispose()
    }

    @Test func asyncBlocksAreChecked() async {
        let subject = PublishSubject<Int>()
        let count = await assertNoLeaks { () async -> Int in
            let subscription = subject.named("async clean").subscribe()
            await Task.yield()
            subscription.dispose()
            return 1
        }
        #expect(count == 1)

        var leaked: Disposable?
        await withKnownIssue {
            await assertNoLeaks(timeout: 0.05) { () async in
                await Task.yield()
                leaked = subject.named("async leak").subscribe()
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("async leak: 1 live subscription") }
        }
        leaked?.dispose()
    }
}
