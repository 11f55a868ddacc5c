import Foundation
import Ripple
import RippleTest
import XCTest

extension BlockingTests {
    // MARK: - single(predicate)

    func testSinglePredicateStopsAtTheSecondMatch() {
        var evaluated: [Int] = []
        XCTAssertThrowsError(try Observable.of(1, 2, 3, 4, 5, 6).toBlocking().single { element in
            evaluated.append(element)
            return element.isMultiple(of: 2)
        }) { error in
            guard case RxError.moreThanOneElement = error else { return XCTFail("\(error)") }
        }
        // 2 and 4 match; nothing after the second match is looked at.
        XCTAssertEqual(evaluated, [1, 2, 3, 4])
    }

    func testSinglePredicateEvaluatesEverythingUpToCompletion() throws {
        var evaluated: [Int] = []
        let match = try Observable.of(1, 2, 3).toBlocking().single { element in
            evaluated.append(element)
            return element == 2
        }
        XCTAssertEqual(match, 2)
        XCTAssertEqual(evaluated, [1, 2, 3])
    }

    // MARK: - Timeouts with synchronous sources

    func testTimeoutStopsASynchronousInfiniteSourceInFirst() {
        // `repeatElement` emits forever during `subscribe`, so `first()` only
        // returns if the wait is not tied to the subscribing call.
        let start = Date()
        XCTAssertEqual(try Observable.repeatElement(7).toBlocking(timeout: 0.5).first(), 7)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testTimeoutStopsASynchronousInfiniteSourceInToArray() {
        let start = Date()
        XCTAssertThrowsError(try Observable.range(start: 0, count: Int.max).toBlocking(timeout: 0.3).toArray()) { error in
            guard case RxError.timeout = error else { return XCTFail("\(error)") }
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testTimeoutStopsRepeatElementInToArray() {
        let start = Date()
        XCTAssertThrowsError(try Observable.repeatElement(7).toBlocking(timeout: 0.3).toArray()) { error in
            guard case RxError.timeout = error else { return XCTFail("\(error)") }
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testTimeoutStopsASynchronousInfiniteSourceFromABackgroundThread() {
        let done = expectation(description: "background")
        DispatchQueue.global().async {
            let result = Observable.repeatElement(7).toBlocking(timeout: 0.3).materialize()
            guard case .failed(_, RxError.timeout) = result else { return XCTFail("\(result)") }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }
}
