import Ripple
import RippleTest
import XCTest

/// RippleTest's `XCTAssertEqual` overloads for event lists report a failure where
/// the assertion was written, as XCTest's own do (they reported it in
/// RippleTest's source, where Xcode and the test log then pointed).
final class XCTestRippleAssertionTests: FailureCapturingTestCase {
    func testEveryOverloadReportsTheCallersFileAndLine() {
        let line = #line
        let failures = capture {
            XCTAssertEqual([Event<Int>.next(1)], [.next(2)])
            XCTAssertEqual([Recorded.next(210, 1)], [Recorded<Event<Int>>.next(210, 2)])
            XCTAssertEqual([SingleEvent<Int>.success(1)], [.success(2)])
            XCTAssertEqual([MaybeEvent<Int>.success(1)], [.completed])
            XCTAssertEqual([CompletableEvent.completed], [])
            XCTAssertRecordedElements([Recorded.next(210, 1)], [2])
        }
        XCTAssertEqual(failures.map(\.line), Array(line + 2...line + 7), "\(failures)")
        XCTAssertTrue(failures.allSatisfy { $0.file.hasSuffix("XCTest+RippleTests.swift") }, "\(failures.map(\.file))")
        XCTAssertTrue(failures[0].description.contains("next(1)"), failures[0].description)
    }

    func testEqualListsReportNothing() {
        let failures = capture {
            XCTAssertEqual([Event<Int>.next(1), .completed], [.next(1), .completed])
            XCTAssertEqual([Recorded.next(210, 1)], [Recorded<Event<Int>>.next(210, 1)])
            XCTAssertRecordedElements([Recorded.next(210, 1), .completed(300)], [1])
        }
        XCTAssertTrue(failures.isEmpty, "\(failures)")
    }
}
