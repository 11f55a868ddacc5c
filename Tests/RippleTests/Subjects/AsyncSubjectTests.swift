import Ripple
import RippleTest
import XCTest

final class AsyncSubjectTests: RippleTestCase {
    func testEmitsLastElementOnCompletion() {
        let subject = AsyncSubject<Int>()
        let (events, d1) = record(subject.asObservable())
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(events.values, [])
        subject.onCompleted()
        XCTAssertEqual(events.values, [.next(2), .completed])
        let (late, d2) = record(subject.asObservable())
        XCTAssertEqual(late.values, [.next(2), .completed])
        d1.dispose()
        d2.dispose()
    }

    func testEmptyCompletion() {
        let subject = AsyncSubject<Int>()
        let (events, d) = record(subject.asObservable())
        subject.onCompleted()
        XCTAssertEqual(events.values, [.completed])
        d.dispose()
    }

    func testErrorDropsElement() {
        let subject = AsyncSubject<Int>()
        subject.onNext(1)
        subject.onError(testError)
        let (events, d) = record(subject.asObservable())
        XCTAssertEqual(events.values, [.error(testError)])
        d.dispose()
    }
}
