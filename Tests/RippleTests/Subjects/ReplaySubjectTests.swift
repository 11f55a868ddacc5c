import Ripple
import RippleTest
import XCTest

final class ReplaySubjectTests: RippleTestCase {
    func testBoundedReplay() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        let (events, d) = record(subject.asObservable())
        subject.onNext(4)
        XCTAssertEqual(events.values, [.next(2), .next(3), .next(4)])
        d.dispose()
    }

    func testUnboundedReplayAndTerminal() {
        let subject = ReplaySubject<Int>.createUnbounded()
        for value in 1...5 { subject.onNext(value) }
        subject.onCompleted()
        let (events, d) = record(subject.asObservable())
        XCTAssertEqual(events.values, [.next(1), .next(2), .next(3), .next(4), .next(5), .completed])
        d.dispose()
    }

    func testReplaysThenError() {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        subject.onNext(1)
        subject.onError(testError)
        let (events, d) = record(subject.asObservable())
        XCTAssertEqual(events.values, [.next(1), .error(testError)])
        d.dispose()
    }

    func testZeroBufferIsAPublishSubject() {
        let subject = ReplaySubject<Int>.create(bufferSize: 0)
        subject.onNext(1)
        let (events, d) = record(subject.asObservable())
        subject.onNext(2)
        XCTAssertEqual(events.values, [.next(2)])
        d.dispose()
    }

    func testNegativeBufferIsReportedAndTreatedAsZero() {
        let previous = Hooks.contractViolationHandler
        defer { Hooks.contractViolationHandler = previous }
        let messages = Recorder<String>()
        Hooks.contractViolationHandler = { messages.append($0) }
        let subject = ReplaySubject<Int>.create(bufferSize: -1)
        subject.onNext(1)
        let (events, d) = record(subject.asObservable())
        XCTAssertEqual(events.values, [])
        XCTAssertEqual(messages.values.count, 1)
        d.dispose()
    }

    func testDisposeDropsBuffer() {
        let subject = ReplaySubject<Int>.createUnbounded()
        subject.onNext(1)
        subject.dispose()
        let (events, d) = record(subject.asObservable())
        guard case .error(RxError.disposed)? = events.values.first else { return XCTFail("got \(events.values)") }
        XCTAssertEqual(events.values.count, 1)
        d.dispose()
    }
}
