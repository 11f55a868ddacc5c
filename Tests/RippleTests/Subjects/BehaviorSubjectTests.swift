import Ripple
import RippleTest
import XCTest

final class BehaviorSubjectTests: RippleTestCase {
    func testReplaysCurrentValueThenLaterEvents() throws {
        let subject = BehaviorSubject(value: 0)
        let (first, d1) = record(subject.asObservable())
        subject.onNext(1)
        let (second, d2) = record(subject.asObservable())
        subject.onNext(2)
        XCTAssertEqual(first.values, [.next(0), .next(1), .next(2)])
        XCTAssertEqual(second.values, [.next(1), .next(2)])
        XCTAssertEqual(try subject.value(), 2)
        d1.dispose()
        d2.dispose()
    }

    func testValueAfterCompletionIsLastValue() throws {
        let subject = BehaviorSubject(value: "a")
        subject.onNext("b")
        subject.onCompleted()
        XCTAssertEqual(try subject.value(), "b")
        let (late, d) = record(subject.asObservable())
        XCTAssertEqual(late.values, [.completed])
        d.dispose()
    }

    func testValueThrowsAfterError() {
        let subject = BehaviorSubject(value: 1)
        subject.onError(testError)
        XCTAssertThrowsError(try subject.value()) { XCTAssertEqual($0 as? TestError, testError) }
        let (late, d) = record(subject.asObservable())
        XCTAssertEqual(late.values, [.error(testError)])
        d.dispose()
    }

    func testValueThrowsDisposedAfterDispose() {
        let subject = BehaviorSubject(value: 1)
        subject.dispose()
        XCTAssertThrowsError(try subject.value()) { error in
            guard case RxError.disposed = error else { return XCTFail("got \(error)") }
        }
        let (late, d) = record(subject.asObservable())
        guard case .error(RxError.disposed)? = late.values.first else { return XCTFail("got \(late.values)") }
        d.dispose()
    }

    func testReentrantSubscribeReceivesCurrentValueImmediately() {
        let subject = BehaviorSubject(value: 0)
        let log = Recorder<String>()
        let inner = Recorder<Disposable>()
        let outer = subject.subscribe(onNext: { value in
            log.append("outer \(value)")
            if value == 1 {
                inner.append(subject.subscribe(onNext: { log.append("inner \($0)") }))
                log.append("after inner subscribe")
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        outer.dispose()
        inner.values.forEach { $0.dispose() }
        XCTAssertEqual(log.values, ["outer 0", "outer 1", "inner 1", "after inner subscribe", "outer 2", "inner 2"])
    }
}
