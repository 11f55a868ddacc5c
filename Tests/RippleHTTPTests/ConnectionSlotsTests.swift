@testable import RippleHTTP
import XCTest

/// The per-host connection limit as a pure state machine: who runs, who waits,
/// who gets a freed slot.
final class ConnectionSlotsTests: XCTestCase {
    func testRequestsBeyondTheLimitWaitInOrderAndInheritFreedSlots() {
        var slots = ConnectionSlots(limit: 2)
        XCTAssertTrue(slots.acquire(1, host: "a"))
        XCTAssertTrue(slots.acquire(2, host: "a"))
        XCTAssertFalse(slots.acquire(3, host: "a"))
        XCTAssertFalse(slots.acquire(4, host: "a"))
        XCTAssertTrue(slots.acquire(5, host: "b"), "another host has its own slots")
        XCTAssertEqual(slots.running, ["a": 2, "b": 1])
        XCTAssertEqual(slots.waiting, ["a": [3, 4]])

        XCTAssertEqual(slots.freed, [:])
        XCTAssertEqual(slots.release(host: "a"), 3, "the oldest waiting request gets the slot")
        XCTAssertEqual(slots.running["a"], 2)
        XCTAssertEqual(slots.freed, ["a": 1], "a waiting request sees the queue move")
        XCTAssertEqual(slots.release(host: "a"), 4)
        XCTAssertNil(slots.release(host: "a"))
        XCTAssertEqual(slots.freed, ["a": 3])
        XCTAssertNil(slots.release(host: "a"))
        XCTAssertNil(slots.release(host: "b"))
        XCTAssertEqual(slots, ConnectionSlots(limit: 2), "everything given back, the counts of drained hosts too")
    }

    func testAWithdrawnRequestNeverGetsASlot() {
        var slots = ConnectionSlots(limit: 1)
        XCTAssertTrue(slots.acquire(1, host: "a"))
        XCTAssertFalse(slots.acquire(2, host: "a"))
        XCTAssertFalse(slots.acquire(3, host: "a"))
        XCTAssertTrue(slots.withdraw(2, host: "a"))
        XCTAssertFalse(slots.withdraw(2, host: "a"), "only once")
        XCTAssertFalse(slots.withdraw(1, host: "a"), "a running request holds its slot")
        XCTAssertEqual(slots.release(host: "a"), 3)
        XCTAssertNil(slots.release(host: "a"))
        XCTAssertEqual(slots, ConnectionSlots(limit: 1))
    }

    func testANewRequestDoesNotOvertakeWaitingOnes() {
        var slots = ConnectionSlots(limit: 1)
        XCTAssertTrue(slots.acquire(1, host: "a"))
        XCTAssertFalse(slots.acquire(2, host: "a"))
        // 1 finishes: its slot goes to 2, so 3 waits even though it asked "after a release".
        XCTAssertEqual(slots.release(host: "a"), 2)
        XCTAssertFalse(slots.acquire(3, host: "a"))
        XCTAssertEqual(slots.release(host: "a"), 3)
    }

    func testALimitBelowOneMeansOne() {
        var slots = ConnectionSlots(limit: 0)
        XCTAssertEqual(slots.limit, 1)
        XCTAssertTrue(slots.acquire(1, host: ""))
        XCTAssertFalse(slots.acquire(2, host: ""))
    }

    func testTheLimiterRunsGrantsOutsideItsLockAndInOrder() {
        let limiter = ConnectionLimiter(limit: 1)
        let granted = LockedList()
        for id in 1...4 as ClosedRange<UInt64> {
            limiter.acquire(id, host: "h") {
                // Re-entering the limiter from a grant must not deadlock.
                _ = limiter.snapshot
                granted.append(id)
            }
        }
        XCTAssertEqual(granted.values, [1])
        XCTAssertTrue(limiter.withdraw(3, host: "h"))
        limiter.release(host: "h")
        limiter.release(host: "h")
        limiter.release(host: "h")
        XCTAssertEqual(granted.values, [1, 2, 4])
        XCTAssertEqual(limiter.snapshot, ConnectionSlots(limit: 1))
    }
}

private final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt64] = []
    func append(_ value: UInt64) { lock.lock(); storage.append(value); lock.unlock() }
    var values: [UInt64] { lock.lock(); defer { lock.unlock() }; return storage }
}
