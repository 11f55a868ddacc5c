import Foundation
import Ripple
import RippleTest
import XCTest

/// `RippleTestCase` checked on itself: each test ends the running check with
/// `tearDown()` while capturing failures, then starts a fresh one with `setUp()`
/// so that XCTest's own `tearDown()` finds nothing.
final class RippleTestCaseTests: RippleTestCase {
    private var captured: [String] = []
    private var capturing = false

    override var leakCheckTimeout: TimeInterval { 0.05 }

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    /// The failures of the current check, ended by `tearDown()`; a new check starts.
    private func endCheck() -> [String] {
        captured = []
        capturing = true
        tearDown()
        capturing = false
        setUp()
        return captured
    }

    // Each test's objects live in a `do` block: a real test's locals are gone by
    // the time XCTest calls `tearDown()`.

    func testATestThatCleansUpPasses() {
        do {
            let subject = PublishSubject<Int>()
            subject.subscribe(onNext: { _ in }).dispose()
        }
        XCTAssertEqual(endCheck(), [])
    }

    func testALeakFailsTheTestWithTheCountAndTheNamedStreams() {
        let relay = PublishRelay<Int>()
        let before = relay.named("before").subscribe(onNext: { _ in })
        setUp()  // `before` now predates the check
        let leaked = relay.named("query").subscribe(onNext: { _ in })
        let failures = endCheck()
        XCTAssertEqual(failures.count, 1)
        let message = failures.first ?? ""
        XCTAssertTrue(message.contains("RippleTestCase: the test left Ripple subscriptions alive"), message)
        XCTAssertTrue(message.contains("  query: 1 live subscription"), message)
        XCTAssertFalse(message.contains("  before:"), message)
        XCTAssertTrue(message.contains("more than before the test"), message)
        leaked.dispose()
        before.dispose()
    }

    func testResourcesReleasedOnAnotherThreadAreWaitedFor() {
        do {
            let subject = PublishSubject<Int>()
            let subscription = subject.subscribe(onNext: { _ in })
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { subscription.dispose() }
        }
        XCTAssertEqual(endCheck(), [])
    }
}
