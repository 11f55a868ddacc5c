import Ripple
import RippleTest
import XCTest

/// `Recorded.events` calls as RxTest users write them: long argument lists with
/// arithmetic. They must type-check quickly; `scripts/test-all.sh` builds the
/// tests with `-warn-long-expression-type-checking` and fails on any warning, so
/// an overload that slows these calls down shows up there (and, when it is bad
/// enough, as "unable to type-check this expression in reasonable time" here).
final class RecordedTypeCheckingTests: XCTestCase {
    func testVariadicEventsWithArithmetic() {
        let events = Recorded.events(
            .next(210, 0 * 10 + 1),
            .next(220, 1 * 10 + 1),
            .next(230, 2 * 10 + 1),
            .next(240, 3 * 10 + 1),
            .next(250, 4 * 10 + 1),
            .next(260, 5 * 10 + 1),
            .next(270, 6 * 10 + 1),
            .next(280, 7 * 10 + 1),
            .next(290, 8 * 10 + 1),
            .completed(300)
        )
        XCTAssertEqual(events.count, 10)
        XCTAssertEqual(events.first, .next(210, 1))
        XCTAssertEqual(events[8], .next(290, 81))
        XCTAssertEqual(events.last, .completed(300, Int.self))
    }

    func testVariadicEventsWithTimeArithmetic() {
        let events = Recorded.events(
            .next(200 + 1 * 10, 1 + 1),
            .next(200 + 2 * 10, 2 + 2),
            .next(200 + 3 * 10, 3 + 3),
            .next(200 + 4 * 10, 4 + 4),
            .next(200 + 5 * 10, 5 + 5),
            .next(200 + 6 * 10, 6 + 6),
            .next(200 + 7 * 10, 7 + 7),
            .next(200 + 8 * 10, 8 + 8),
            .error(200 + 9 * 10, RxError.timeout)
        )
        XCTAssertEqual(events.count, 9)
        XCTAssertEqual(events[7], .next(280, 16))
        XCTAssertEqual(events.last, .error(290, RxError.timeout))
    }

    func testArrayEventsWithArithmetic() {
        let events = Recorded.events([
            .next(210, 0 * 10 + 1),
            .next(220, 1 * 10 + 1),
            .next(230, 2 * 10 + 1),
            .next(240, 3 * 10 + 1),
            .next(250, 4 * 10 + 1),
            .next(260, 5 * 10 + 1),
            .next(270, 6 * 10 + 1),
            .next(280, 7 * 10 + 1),
            .completed(300),
        ])
        XCTAssertEqual(events.map(\.time), [210, 220, 230, 240, 250, 260, 270, 280, 300])
    }

    func testEventsAsTestSchedulerInput() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Recorded.events(
            .next(210, 0 * 10 + 1),
            .next(220, 1 * 10 + 1),
            .next(230, 2 * 10 + 1),
            .next(240, 3 * 10 + 1),
            .next(250, 4 * 10 + 1),
            .next(260, 5 * 10 + 1),
            .next(270, 6 * 10 + 1),
            .next(280, 7 * 10 + 1),
            .completed(300)
        ))
        let res = scheduler.start { xs.map { $0 * 2 } }
        XCTAssertEqual(res.events, Recorded.events(
            .next(210, 2 * (0 * 10 + 1)),
            .next(220, 2 * (1 * 10 + 1)),
            .next(230, 2 * (2 * 10 + 1)),
            .next(240, 2 * (3 * 10 + 1)),
            .next(250, 2 * (4 * 10 + 1)),
            .next(260, 2 * (5 * 10 + 1)),
            .next(270, 2 * (6 * 10 + 1)),
            .next(280, 2 * (7 * 10 + 1)),
            .completed(300)
        ))
    }
}
