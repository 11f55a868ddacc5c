import Foundation
import Ripple
@testable import RippleTest
import XCTest

/// `RippleTestCase` checked on itself: each test ends the running check with
/// `tearDown()` while capturing failures, then starts a fresh one with `setUp()`
/// so that XCTest's own `tearDown()` finds nothing.
final class RippleTestCaseTests: RippleTestCase {
    private var captured: [String] = []
    private var capturedLocations: [(file: String, line: Int)] = []
    private var capturing = false
    private var timeout: TimeInterval = 0.05

    override var leakCheckTimeout: TimeInterval { timeout }

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append(description)
            capturedLocations.append((filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    /// The failures of the current check, ended by `tearDown()`; a new check starts.
    private func endCheck() -> [String] {
        captured = []
        capturedLocations = []
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
            nonisolated(unsafe) let subscription = subject.subscribe(onNext: { _ in })
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { subscription.dispose() }
        }
        XCTAssertEqual(endCheck(), [])
    }

    #if !canImport(Darwin)
    func testALeakIsReportedAtTheTestMethod() {
        let declaration = #line - 1
        let subject = PublishSubject<Int>()
        let leaked = subject.subscribe(onNext: { _ in })
        let failures = endCheck()
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(capturedLocations.count, 1)
        let location = capturedLocations.first
        XCTAssertTrue(location?.file.hasSuffix("Tests/RippleTestTests/RippleTestCaseTests.swift") ?? false, "\(String(describing: location))")
        XCTAssertEqual(location?.line, declaration)
        leaked.dispose()
    }
    #endif

    func testAStableLeakIsReportedWithoutWaitingForTheWholeTimeout() {
        timeout = 5
        setUp()  // a check with the 5 s timeout
        let subject = PublishSubject<Int>()
        let leaked = subject.subscribe(onNext: { _ in })
        let start = Date()
        let failures = endCheck()
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(failures.count, 1)
        XCTAssertGreaterThanOrEqual(elapsed, leakCheckSettleTime)
        XCTAssertLessThan(elapsed, 2, "waited for the timeout although nothing changed")
        leaked.dispose()
        timeout = 0.05
    }

    func testReleasesAfterASettledPeriodStillCountWhileTheyKeepChanging() {
        timeout = 5
        setUp()
        do {
            let subject = PublishSubject<Int>()
            // Released one by one, each before the settle time passes.
            for index in 1...3 {
                nonisolated(unsafe) let subscription = subject.subscribe(onNext: { _ in })
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.1 * Double(index)) { subscription.dispose() }
            }
        }
        XCTAssertEqual(endCheck(), [])
        timeout = 0.05
    }
}

/// Finding a test's source from its XCTest name.
final class TestSourceLocatorTests: XCTestCase {
    func testBothFormsOfTestNames() {
        XCTAssertEqual(TestSourceLocator.components(ofTestName: "SearchTests.testQuery")?.method, "testQuery")
        XCTAssertEqual(TestSourceLocator.components(ofTestName: "SearchTests.testQuery")?.type, "SearchTests")
        XCTAssertEqual(TestSourceLocator.components(ofTestName: "-[SearchTests testQuery]")?.type, "SearchTests")
        XCTAssertEqual(TestSourceLocator.components(ofTestName: "-[Module.SearchTests testQuery]")?.type, "SearchTests")
        XCTAssertNil(TestSourceLocator.components(ofTestName: "nothing"))
    }

    func testFindsThisTest() {
        let declaration = #line - 1
        let location = TestSourceLocator.location(ofTest: "TestSourceLocatorTests.testFindsThisTest")
        XCTAssertEqual(location?.line, declaration)
        XCTAssertTrue(location?.file.hasSuffix("RippleTestCaseTests.swift") ?? false)
        XCTAssertNil(TestSourceLocator.location(ofTest: "TestSourceLocatorTests.testThatDoesNotExist"))
    }
}
