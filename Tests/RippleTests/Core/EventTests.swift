import Ripple
import RippleTest
import XCTest

final class EventTests: RippleTestCase {
    func testDescriptionsMatchRxSwift() {
        XCTAssertEqual(Event.next(1).debugDescription, "next(1)")
        XCTAssertEqual(Event<Int>.completed.debugDescription, "completed")
        XCTAssertEqual(Event<Int>.error(testError).debugDescription, "error(TestError(1))")
    }

    func testAccessors() {
        let next = Event.next(3)
        XCTAssertEqual(next.element, 3)
        XCTAssertNil(next.error)
        XCTAssertFalse(next.isStopEvent)
        XCTAssertFalse(next.isCompleted)

        let error = Event<Int>.error(testError)
        XCTAssertNil(error.element)
        XCTAssertEqual(error.error as? TestError, testError)
        XCTAssertTrue(error.isStopEvent)
        XCTAssertFalse(error.isCompleted)

        let completed = Event<Int>.completed
        XCTAssertTrue(completed.isStopEvent)
        XCTAssertTrue(completed.isCompleted)
        XCTAssertNil(completed.element)
    }

    func testMapTransformsNextAndTurnsThrowsIntoErrors() {
        XCTAssertEqual(Event.next(2).map { $0 * 10 }, .next(20))
        XCTAssertEqual(Event<Int>.completed.map { $0 * 10 }, .completed)
        XCTAssertEqual(Event.next(2).map { _ -> Int in throw testError }, .error(testError))
        XCTAssertEqual(Event<Int>.error(testError).map { $0 * 10 }, .error(testError))
    }

    func testErrorEqualityUsesEquatableWhenAvailable() {
        XCTAssertEqual(Event<Int>.error(TestError(1)), .error(TestError(1)))
        XCTAssertNotEqual(Event<Int>.error(TestError(1)), .error(TestError(2)))
        XCTAssertNotEqual(Event<Int>.error(RxError.timeout), .error(RxError.overflow))
        XCTAssertEqual(Event<Int>.error(RxError.timeout), .error(RxError.timeout))
    }

    func testRxErrorDescriptions() {
        XCTAssertEqual(RxError.noElements.debugDescription, "Sequence doesn't contain any elements.")
        XCTAssertEqual(RxError.moreThanOneElement.debugDescription, "Sequence contains more than one element.")
        XCTAssertEqual(RxError.timeout.debugDescription, "Sequence timeout.")
        XCTAssertEqual(RxError.argumentOutOfRange.debugDescription, "Argument out of range.")
        XCTAssertEqual(RxError.overflow.debugDescription, "Arithmetic overflow occurred.")
        XCTAssertEqual(RxError.unknown.debugDescription, "Unknown error occurred.")
        XCTAssertTrue(RxError.disposed(object: NSObjectStub()).debugDescription.hasPrefix("Object `"))
    }
}

final class NSObjectStub: CustomStringConvertible {
    var description: String { "stub" }
}
