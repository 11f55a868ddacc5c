import Foundation
import Ripple
import RippleTest
import XCTest

/// An invalid argument fails with `RxError.argumentOutOfRange`, matched as in
/// RxSwift, and its message names the operation and the argument.
final class ArgumentOutOfRangeTests: RippleTestCase {
    private func error<Element>(of source: Observable<Element>) -> Swift.Error? {
        let (recorder, subscription) = record(source)
        subscription.dispose()
        guard case .error(let error)? = recorder.values.last else { return nil }
        return error
    }

    func testEveryOperatorNamesItselfAndTheArgument() throws {
        let one = Observable.of(1)
        let scheduler = TestScheduler(initialClock: 0)
        let cases: [(Swift.Error?, String)] = [
            (error(of: one.take(-1)), "count = -1 in take(_:); it must be 0 or more."),
            (error(of: one.takeLast(-2)), "count = -2 in takeLast(_:); it must be 0 or more."),
            (error(of: one.skip(-1)), "count = -1 in skip(_:); it must be 0 or more."),
            (error(of: one.element(at: -1)), "index = -1 in element(at:); it must be 0 or more."),
            (error(of: one.element(at: 3)), "index = 3 in element(at:); the sequence completed after 1 element."),
            (error(of: Observable.of(1, 2).element(at: 5)), "index = 5 in element(at:); the sequence completed after 2 elements."),
            (error(of: one.buffer(timeSpan: .seconds(1), count: 0, scheduler: scheduler)),
             "count = 0 in buffer(timeSpan:count:scheduler:); it must be 1 or more."),
            (error(of: one.window(timeSpan: .seconds(1), count: 0, scheduler: scheduler).flatMap { $0 }),
             "count = 0 in window(timeSpan:count:scheduler:); it must be 1 or more."),
            (error(of: one.retry(-1)), "maxAttemptCount = -1 in retry(_:); it must be 0 or more."),
            (error(of: one.share(replay: -1)), "replay = -1 in share(replay:scope:); it must be 0 or more."),
            (error(of: one.replay(-1).asObservable()), "bufferSize = -1 in replay(_:); it must be 0 or more."),
            (error(of: Observable.just(one).merge(maxConcurrent: 0)), "maxConcurrent = 0 in merge(maxConcurrent:); it must be 1 or more."),
            (error(of: Observable.range(start: 0, count: -1)), "count = -1 in range(start:count:scheduler:); it must be 0 or more."),
        ]
        for (error, detail) in cases {
            let error = try XCTUnwrap(error, detail)
            let expected = "Argument out of range: " + detail
            XCTAssertEqual(String(describing: error), expected)
            XCTAssertEqual(String(reflecting: error), expected)
            XCTAssertEqual(error.localizedDescription, expected)
        }
    }

    func testMatchesAsInRxSwift() throws {
        let error = try XCTUnwrap(error(of: Observable.of(1).take(-1)))

        // `catch` with the case name alone.
        do {
            throw error
        } catch RxError.argumentOutOfRange {
            // expected
        } catch {
            XCTFail("not caught as RxError.argumentOutOfRange: \(error)")
        }

        if case RxError.argumentOutOfRange = error {} else { XCTFail("if case") }
        guard let rxError = error as? RxError else { return XCTFail("not an RxError") }
        switch rxError {
        case .argumentOutOfRange: break
        default: XCTFail("switch: \(rxError)")
        }
        // The detail is there for code that wants it.
        guard case .argumentOutOfRange(let argument) = rxError else { return XCTFail() }
        XCTAssertEqual(argument.operation, "take(_:)")
        XCTAssertEqual(argument.name, "count")
        XCTAssertEqual(argument.value, "-1")
    }

    func testThePlainValueKeepsRxSwiftsWordingAndEqualsADetailedOne() throws {
        // Code that throws it itself, as RxSwift code does.
        let plain: Swift.Error = RxError.argumentOutOfRange
        XCTAssertEqual(String(describing: plain), "Argument out of range.")
        if case RxError.argumentOutOfRange = plain {} else { XCTFail("if case") }

        // RippleTest's comparisons: the plain value stands for any detail...
        XCTAssertEqual(record(Observable.of(1).take(-1)).0.values, [.error(RxError.argumentOutOfRange)])
        // ...and two details must agree.
        let detailed = RxError.argumentOutOfRange(RxError.OutOfRangeArgument(
            operation: "take(_:)", name: "count", value: -1, requirement: "it must be 0 or more"
        ))
        XCTAssertEqual(record(Observable.of(1).take(-1)).0.values, [.error(detailed)])
        XCTAssertNotEqual(record(Observable.of(1).skip(-1)).0.values, [.error(detailed)])
    }
}
