import Ripple
import RippleTest
import XCTest

/// Failure messages print recorded events and subscriptions; their text is
/// RxTest's, so that messages read the same after moving from RxTest.
final class RecordedDescriptionTests: XCTestCase {
    private struct Failure: Error, CustomStringConvertible {
        var description: String { "Failure" }
    }

    func testSubscriptionDescriptionMatchesRxTest() {
        XCTAssertEqual(Subscription(200, 210).debugDescription, "(200: 210)")
        XCTAssertEqual(String(reflecting: Subscription(200, 1000)), "(200: 1000)")
    }

    func testUnfinishedSubscriptionReadsInfinity() {
        XCTAssertEqual(Subscription(200).debugDescription, "(200: Infinity)")
        XCTAssertEqual(Subscription(200, Int.max).debugDescription, "(200: Infinity)")
    }

    func testRecordedDescriptionIsValueAtTime() {
        XCTAssertEqual(Recorded(time: 5, value: "x").debugDescription, "x @ 5")
        XCTAssertEqual(Recorded<Event<Int>>.next(210, 1).debugDescription, "next(1) @ 210")
        XCTAssertEqual(Recorded<Event<Int>>.completed(300).debugDescription, "completed @ 300")
        XCTAssertEqual(Recorded<Event<Int>>.error(250, Failure()).debugDescription, "error(Failure) @ 250")
    }

    func testEventDescriptions() {
        XCTAssertEqual(Event.next("a").debugDescription, "next(a)")
        XCTAssertEqual(Event<Int>.error(Failure()).debugDescription, "error(Failure)")
        XCTAssertEqual(Event<Int>.completed.debugDescription, "completed")
        XCTAssertEqual(String(reflecting: [Recorded<Event<Int>>.next(210, 1), .completed(220)]), "[next(1) @ 210, completed @ 220]")
    }
}
