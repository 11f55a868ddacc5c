@testable import Ripple
import RippleTest
import XCTest

/// The pure queue logic of `ActorScheduler`: who starts a drain task, and when
/// the drain hands over to another batch.
final class ActorWorkQueueTests: RippleTestCase {
    private func item() -> ActorScheduledItem {
        ActorScheduledItem { Disposables.create() }
    }

    func testOnlyTheFirstAppendStartsADrain() {
        var queue = ActorWorkQueue()
        XCTAssertTrue(queue.append(item()))
        XCTAssertFalse(queue.append(item()))
        XCTAssertFalse(queue.append(item()))
    }

    func testABatchHoldsTheItemsPresentWhenItStartsInOrder() {
        var queue = ActorWorkQueue()
        let first = item(), second = item(), third = item()
        _ = queue.append(first)
        _ = queue.append(second)
        let batch = queue.takeBatch()
        XCTAssertTrue(batch.elementsEqual([first, second], by: ===))
        // Arrives while the batch runs: not started twice, run in the next batch.
        XCTAssertFalse(queue.append(third))
        XCTAssertTrue(queue.finishBatch(), "work is left: another batch")
        XCTAssertTrue(queue.takeBatch().elementsEqual([third], by: ===))
        XCTAssertFalse(queue.finishBatch(), "empty: the drain ends")
        XCTAssertTrue(queue.append(item()), "the next item starts a new drain")
    }
}
