@testable import Ripple
import RippleTest
import XCTest

/// The transitions of `DeliveryTurn`, with plain values: no threads, no locks.
/// Threads are numbers; a queue is the number of items in it.
final class DeliveryTurnTests: XCTestCase {
    /// A serializer's queue and its turn, driven by hand.
    struct Serializer {
        var turn = DeliveryTurn()
        var pending = 0
        /// What `DeliveryWaits` answers for a thread past the allowance.
        var waiting = DeliveryTurn.Waiting.allowed

        mutating func arrive(_ thread: UInt) -> DeliveryTurn.Arrival {
            pending += 1
            let waiting = self.waiting
            return turn.arrive(thread, pending: pending, waiting: { _, _ in waiting })
        }

        /// Takes up to `limit` items; 0 means the turn ended (and, as the
        /// serializers do, the next turn's allowance is set).
        mutating func take(limit: Int = 1) -> Int {
            let count = turn.take(pending: pending, limit: limit)
            pending -= count
            if count == 0 { turn.resetAllowance() }
            return count
        }

        /// Takes items until the turn ends; returns how many.
        mutating func takeAll() -> Int {
            var total = 0
            while case let count = take(), count > 0 { total += count }
            return total
        }
    }

    func testTheFirstArrivalDeliversAndTheDelivererOwesItsItem() {
        var serializer = Serializer()
        XCTAssertEqual(serializer.arrive(1), .deliver)
        XCTAssertTrue(serializer.turn.isDelivering)
        XCTAssertEqual(serializer.turn.deliverer, 1)
        XCTAssertEqual(serializer.takeAll(), 1)
        XCTAssertFalse(serializer.turn.isDelivering)
        XCTAssertEqual(serializer.turn.taken, 1)
    }

    func testOtherThreadsLeaveTheirItemsUntilTheAllowanceIsUsedThenWait() {
        var serializer = Serializer()
        XCTAssertEqual(serializer.arrive(1), .deliver)
        for _ in 0..<DeliveryTurn.batch {
            XCTAssertEqual(serializer.arrive(2), .leave)
        }
        XCTAssertEqual(serializer.arrive(2), .wait(ticket: UInt64(DeliveryTurn.batch) + 1, recorded: 1))
        XCTAssertEqual(serializer.turn.waiters, 1)
        // The deliverer takes its own item and the allowance, not the waiting one.
        XCTAssertEqual(serializer.takeAll(), 1 + DeliveryTurn.batch)
        XCTAssertFalse(serializer.turn.isDelivering)
        XCTAssertEqual(serializer.pending, 1)
    }

    func testReentrantItemsAreOwedWithoutUsingTheAllowance() {
        var serializer = Serializer()
        XCTAssertEqual(serializer.arrive(1), .deliver)
        for _ in 0..<(2 * DeliveryTurn.batch) {
            XCTAssertEqual(serializer.arrive(1), .leave)
        }
        XCTAssertEqual(serializer.turn.allowance, DeliveryTurn.batch)
        XCTAssertEqual(serializer.takeAll(), 1 + 2 * DeliveryTurn.batch)
    }

    func testAWaitingThreadTakesOverWhenTheTurnEnds() {
        var serializer = Serializer()
        _ = serializer.arrive(1)
        serializer.turn.allowance = 0
        guard case .wait(let ticket, _) = serializer.arrive(2) else { return XCTFail("thread 2 must wait") }
        XCTAssertEqual(serializer.turn.check(ticket: ticket, thread: 2, intent: .wait), .wait(deliverer: 1, taken: 0))
        XCTAssertEqual(serializer.takeAll(), 1)
        // Nobody delivers: the waiting thread begins its turn, owing its own item.
        XCTAssertEqual(serializer.turn.check(ticket: ticket, thread: 2, intent: .wait), .deliver)
        XCTAssertEqual(serializer.turn.deliverer, 2)
        XCTAssertEqual(serializer.turn.waiters, 0)
        XCTAssertEqual(serializer.turn.allowance, DeliveryTurn.batch)
        XCTAssertEqual(serializer.takeAll(), 1)
        XCTAssertEqual(serializer.pending, 0)
    }

    func testAWaitingThreadWhoseItemWasDeliveredIsDone() {
        var serializer = Serializer()
        _ = serializer.arrive(1)
        serializer.turn.allowance = 0
        guard case .wait(let ticket, _) = serializer.arrive(2) else { return XCTFail("thread 2 must wait") }
        // Thread 1 queues more re-entrantly: it owes that, and so delivers thread
        // 2's item on the way.
        XCTAssertEqual(serializer.arrive(1), .leave)
        XCTAssertEqual(serializer.takeAll(), 3)
        XCTAssertEqual(serializer.turn.check(ticket: ticket, thread: 2, intent: .wait), .done)
        XCTAssertEqual(serializer.turn.waiters, 0)
    }

    func testAThreadThatGivesUpLeavesItsItemToTheDeliverer() {
        var serializer = Serializer()
        _ = serializer.arrive(1)
        serializer.turn.allowance = 0
        guard case .wait(let ticket, _) = serializer.arrive(2) else { return XCTFail("thread 2 must wait") }
        XCTAssertEqual(serializer.turn.check(ticket: ticket, thread: 2, intent: .giveUp), .done)
        XCTAssertEqual(serializer.turn.waiters, 0)
        XCTAssertEqual(serializer.takeAll(), 2)
    }

    func testADeliveringThreadLeavesItsItemAsADebtAndPaysItLater() {
        var serializer = Serializer()
        _ = serializer.arrive(1)
        serializer.turn.allowance = 0
        // Thread 2 delivers a turn of its own.
        serializer.waiting = .deferred
        XCTAssertEqual(serializer.arrive(2), .owe(ticket: 1))
        XCTAssertEqual(serializer.turn.waiters, 0)
        // The deliverer does not owe the debt: its turn ends without it.
        XCTAssertEqual(serializer.takeAll(), 1)
        XCTAssertEqual(serializer.pending, 1)
        // Paid: thread 2 finds nobody delivering and delivers its item itself.
        XCTAssertTrue(serializer.turn.rewait(ticket: 1))
        XCTAssertEqual(serializer.turn.check(ticket: 1, thread: 2, intent: .wait), .deliver)
        XCTAssertEqual(serializer.takeAll(), 1)
        XCTAssertFalse(serializer.turn.rewait(ticket: 1))
    }

    func testDebtsStopOnceTheQueueHoldsAnAllowanceOfItemsNobodyOwes() {
        var turn = DeliveryTurn()
        XCTAssertEqual(turn.arrive(1, pending: 1, waiting: { _, _ in .allowed }), .deliver)
        turn.allowance = 0
        // A delivering thread: a debt while there is room, a wait after.
        let delivering: (UInt, Bool) -> DeliveryTurn.Waiting = { _, mayDefer in mayDefer ? .deferred : .allowed }
        for pending in 2...(turn.nextAllowance + 1) {
            XCTAssertEqual(turn.arrive(2, pending: pending, waiting: delivering), .owe(ticket: UInt64(pending - 1)))
        }
        let pending = turn.nextAllowance + 2
        XCTAssertEqual(turn.arrive(2, pending: pending, waiting: delivering), .wait(ticket: UInt64(pending - 1), recorded: 1))
    }

    func testADebtPaidWhileTheDelivererStillDeliversIsWaitedFor() {
        var serializer = Serializer()
        _ = serializer.arrive(1)
        serializer.turn.allowance = 0
        serializer.waiting = .deferred
        XCTAssertEqual(serializer.arrive(2), .owe(ticket: 1))
        XCTAssertTrue(serializer.turn.rewait(ticket: 1))
        XCTAssertEqual(serializer.turn.check(ticket: 1, thread: 2, intent: .wait), .wait(deliverer: 1, taken: 0))
        // Thread 1 queues more re-entrantly, behind the debt: it delivers it on the way.
        XCTAssertEqual(serializer.arrive(1), .leave)
        XCTAssertEqual(serializer.takeAll(), 3)
        XCTAssertEqual(serializer.turn.check(ticket: 1, thread: 2, intent: .wait), .done)
    }

    func testAThreadTheDelivererWaitsForLeavesItsItemToIt() {
        var serializer = Serializer()
        _ = serializer.arrive(1)
        serializer.turn.allowance = 0
        serializer.waiting = .refused
        XCTAssertEqual(serializer.arrive(2), .leave)
        XCTAssertEqual(serializer.takeAll(), 2)
    }

    func testWaitingThreadsAreWokenWhenTheirItemIsTakenOrTheTurnEnds() {
        var serializer = Serializer()
        _ = serializer.arrive(1)
        _ = serializer.arrive(1)
        serializer.turn.allowance = 0
        _ = serializer.arrive(2)
        XCTAssertEqual(serializer.take(), 1)
        XCTAssertFalse(serializer.turn.takeWake())
        XCTAssertEqual(serializer.arrive(1), .leave)  // owed, behind thread 2's item
        XCTAssertEqual(serializer.take(), 1)
        XCTAssertFalse(serializer.turn.takeWake())
        XCTAssertEqual(serializer.take(), 1)  // thread 2's item
        XCTAssertTrue(serializer.turn.takeWake())
        XCTAssertEqual(serializer.take(), 1)
        XCTAssertFalse(serializer.turn.takeWake())
        XCTAssertEqual(serializer.take(), 0)
        XCTAssertTrue(serializer.turn.takeWake(), "the turn ended with a thread still registered as waiting")
    }

    func testOwedArrivalsNeverWait() {
        var serializer = Serializer()
        _ = serializer.arrive(1)
        serializer.turn.allowance = 0
        serializer.pending += 1
        XCTAssertEqual(serializer.turn.arriveOwed(2, pending: serializer.pending), .leave)
        XCTAssertEqual(serializer.takeAll(), 2)
        serializer.pending += 1
        XCTAssertEqual(serializer.turn.arriveOwed(2, pending: serializer.pending), .deliver)
    }

    func testAnAdoptedTurnOwesNothingQueuedBeforeItsFirstArrival() {
        var serializer = Serializer()
        serializer.pending = 1
        serializer.turn.adopt(owner: 7, pending: serializer.pending)
        XCTAssertEqual(serializer.turn.deliverer, 7)
        XCTAssertEqual(serializer.turn.owedEnd, 0)
        XCTAssertEqual(serializer.turn.arrive(7, pending: serializer.pending, waiting: { _, _ in .allowed }), .leave)
        XCTAssertEqual(serializer.takeAll(), 1)
    }

    func testABatchTakesOnlyWhatTheTurnOwesWhileThreadsWait() {
        var serializer = Serializer()
        _ = serializer.arrive(1)
        _ = serializer.arrive(2)
        serializer.turn.allowance = 0
        _ = serializer.arrive(3)
        _ = serializer.arrive(4)
        XCTAssertEqual(serializer.take(limit: .max), 2)
        XCTAssertEqual(serializer.take(limit: .max), 0)
        XCTAssertEqual(serializer.pending, 2)
    }

    /// The bound, over random interleavings of four threads: one call delivers at
    /// most what was queued when it began, plus the turn's allowance; every item
    /// is delivered; no turn ends while an item is neither owed nor waited for.
    func testThePaceOfATurnSetsTheNextAllowance() {
        var turn = DeliveryTurn()
        // 11 calls (10 of other threads and the turn's own) in 2.2 ms: 200 µs
        // each, so about 10 calls fill the next turns' 2 ms.
        turn.allowance = turn.nextAllowance - 10
        turn.recordPace(duration: .microseconds(2_200))
        XCTAssertEqual(turn.nanosecondsPerCall, 200_000)
        XCTAssertEqual(turn.nextAllowance, 16, "at least 16")
        XCTAssertEqual(turn.allowance, turn.nextAllowance)
        // Fast calls: the allowance grows, up to 4 096.
        for _ in 0..<40 {
            turn.allowance = turn.nextAllowance - 99
            turn.recordPace(duration: .microseconds(10))
        }
        XCTAssertEqual(turn.nextAllowance, 4_096)
        // A call whose observers send many more items to the same serializer
        // counts with everything it causes: slow calls, small allowance.
        for _ in 0..<40 {
            turn.allowance = turn.nextAllowance - 9
            turn.recordPace(duration: .microseconds(200))
        }
        XCTAssertEqual(turn.nextAllowance, 100)
    }

    func testOneCallDeliversAtMostWhatWasQueuedBeforeItPlusOneAllowance() {
        var random = SeededRandomNumberGenerator(seed: 0x5EED)
        for _ in 0..<200 {
            var serializer = Serializer()
            // Per thread: nil (idle), or its call: the ticket it waits for (if
            // it waits), the items queued when it began, the items it took.
            struct Call { var ticket: UInt64?; var queuedAtStart: Int; var taken = 0; var delivering = false }
            var calls: [UInt: Call] = [:]
            var queued = 0
            var delivered = 0
            for _ in 0..<2_000 {
                let thread = UInt(random.next() % 4) + 1
                if var call = calls[thread] {
                    if call.delivering {
                        let count = serializer.take()
                        call.taken += count
                        delivered += count
                        XCTAssertLessThanOrEqual(call.taken, call.queuedAtStart + 1 + DeliveryTurn.batch)
                        if count == 0 {
                            // The turn ended: everything left is waited for.
                            let waited = calls.values.filter { call in
                                !call.delivering && call.ticket.map { $0 >= serializer.turn.taken } == true
                            }
                            XCTAssertEqual(serializer.pending, waited.count)
                            calls[thread] = nil
                        } else {
                            calls[thread] = call
                        }
                    } else if let ticket = call.ticket {
                        switch serializer.turn.check(ticket: ticket, thread: thread, intent: .wait) {
                        case .done: calls[thread] = nil
                        case .deliver:
                            call.delivering = true
                            calls[thread] = call
                        case .wait: break
                        }
                    }
                    continue
                }
                let queuedAtStart = serializer.pending
                queued += 1
                switch serializer.arrive(thread) {
                case .deliver: calls[thread] = Call(ticket: nil, queuedAtStart: queuedAtStart, delivering: true)
                case .leave, .owe: break
                case .wait(let ticket, _): calls[thread] = Call(ticket: ticket, queuedAtStart: queuedAtStart)
                }
            }
            // Let every call finish.
            while let (thread, call) = calls.first(where: { $0.value.delivering }) ?? calls.first {
                if call.delivering {
                    let count = serializer.take()
                    delivered += count
                    if count == 0 { calls[thread] = nil }
                } else {
                    switch serializer.turn.check(ticket: call.ticket!, thread: thread, intent: .wait) {
                    case .done: calls[thread] = nil
                    case .deliver: calls[thread]?.delivering = true
                    case .wait: XCTFail("a thread waits while nobody delivers"); return
                    }
                }
            }
            XCTAssertEqual(delivered, queued)
            XCTAssertEqual(serializer.pending, 0)
            XCTAssertFalse(serializer.turn.isDelivering)
        }
    }
}
