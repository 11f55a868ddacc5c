import Foundation
@testable import RippleHTTP
import RippleTest
import XCTest

/// When the thread that reads the network waits for the delegate queue of a
/// `URLSessionHTTPClient` (`URLSessionDeliveryQueue`): the pure decision.
final class DeliveryBacklogTests: RippleTestCase {
    func testTheReadingWaitsOnceTheBoundIsPendingAndGoesOnWhenOneFinishes() {
        var backlog = DeliveryBacklog(bound: 3, stallTimeout: 1)
        for _ in 0..<3 {
            XCTAssertFalse(backlog.mustWait(now: 10))
            backlog.enqueued(now: 10)
        }
        XCTAssertTrue(backlog.mustWait(now: 10), "3 pending: the fourth waits")
        XCTAssertTrue(backlog.finished(now: 10.2), "one finished: a waiting reader may go on")
        XCTAssertFalse(backlog.mustWait(now: 10.2))
        backlog.enqueued(now: 10.2)
        XCTAssertEqual(backlog.pending, 3)
    }

    func testWithoutABoundTheReadingNeverWaits() {
        var backlog = DeliveryBacklog(bound: 0, stallTimeout: 1)
        for _ in 0..<10_000 { backlog.enqueued(now: 0) }
        XCTAssertFalse(backlog.mustWait(now: 0))
    }

    func testWhileOneOfRipplesCallsIntoTheSessionWaitsTheBoundIsRelaxed() {
        var backlog = DeliveryBacklog(bound: 1, relaxedBound: 3, stallTimeout: 1)
        backlog.enqueued(now: 0)
        XCTAssertTrue(backlog.mustWait(now: 0))
        backlog.beginSessionCall()
        XCTAssertFalse(backlog.mustWait(now: 0), "a cancel waits for FoundationNetworking's work queue: the reading may run ahead")
        backlog.enqueued(now: 0)
        backlog.enqueued(now: 0)
        XCTAssertTrue(backlog.mustWait(now: 0), "but not without bound")
        backlog.beginSessionCall()
        backlog.endSessionCall()
        XCTAssertEqual(backlog.currentBound, 3, "one call still waits")
        backlog.endSessionCall()
        XCTAssertEqual(backlog.currentBound, 1)
        XCTAssertFalse(backlog.finished(now: 0.1), "2 pending of a bound of 1 again: a waiting reader stays")
        XCTAssertEqual(DeliveryBacklog(bound: 4, relaxedBound: 2, stallTimeout: 1).relaxedBound, 4, "never below the bound")
    }

    func testTheReadingStopsWaitingForADelegateQueueThatFinishesNothing() {
        var backlog = DeliveryBacklog(bound: 2, stallTimeout: 1)
        backlog.enqueued(now: 5)
        backlog.enqueued(now: 5.5)
        XCTAssertEqual(backlog.waitDeadline, 6, "a second after the calls began to pile up")
        XCTAssertTrue(backlog.mustWait(now: 5.9))
        XCTAssertFalse(backlog.mustWait(now: 6), "stalled for a second: no more waiting")
        XCTAssertTrue(backlog.finished(now: 7), "it moved again, at 7")
        XCTAssertEqual(backlog.pending, 1)
        backlog.enqueued(now: 7)
        XCTAssertTrue(backlog.mustWait(now: 7.5), "full again: the reading waits again, until 8 at most")
        XCTAssertEqual(backlog.waitDeadline, 8)
    }
}
