import Dispatch
import Foundation
@testable import Ripple
import RippleTest
import XCTest

/// Ripple's own lock (`PlatformLock`, `LockedState`) and atomics (`AtomicCell` on
/// `CRippleAtomics`) hammered from many threads: every count must come out exact.
/// The class name contains `Concurrency`, so `scripts/test-all.sh` also runs it
/// under ThreadSanitizer, which must report nothing (the C atomics are
/// instrumented as atomic accesses; the `&cell` pointer arguments are not
/// instrumented as Swift accesses).
final class AtomicsConcurrencyTests: RippleTestCase {
    private let threads = 8
    private let iterations = 50_000

    /// Runs `body(thread)` on `threads` threads of their own, all released at
    /// once, and returns when every one has finished.
    private func onThreads(_ body: @escaping @Sendable (Int) -> Void) {
        let go = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for thread in 0..<threads {
            finished.enter()
            Thread {
                go.wait()
                body(thread)
                finished.leave()
            }.start()
        }
        for _ in 0..<threads { go.signal() }
        finished.wait()
    }

    // MARK: Atomics

    func testConcurrentAddsAndSubtractsAreNeverLost() {
        let cells = Cells()
        onThreads { [iterations] thread in
            for index in 0..<iterations {
                AtomicCell.add(&cells.count, 1, ordering: .relaxed)
                AtomicCell.add(&cells.wide, UInt64(index), ordering: .acquiringAndReleasing)
                if thread % 2 == 0 { AtomicCell.subtract(&cells.balance, 2, ordering: .releasing) }
                else { AtomicCell.add(&cells.balance, 2, ordering: .acquiring) }
            }
        }
        let perThread = UInt64(iterations * (iterations - 1) / 2)
        XCTAssertEqual(AtomicCell.load(&cells.count, ordering: .relaxed), threads * iterations)
        XCTAssertEqual(AtomicCell.load(&cells.wide, ordering: .sequentiallyConsistent), UInt64(threads) * perThread)
        XCTAssertEqual(AtomicCell.load(&cells.balance, ordering: .acquiring), 0)
    }

    func testCompareExchangeLoopsCountEveryIncrement() {
        let cells = Cells()
        let retries = Atomic<Int>(0)
        onThreads { [iterations] _ in
            for _ in 0..<iterations {
                var current = AtomicCell.load(&cells.count, ordering: .relaxed)
                while true {
                    let (exchanged, original) = AtomicCell.compareExchange(
                        &cells.count, expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
                    if exchanged { break }
                    XCTAssertNotEqual(original, current, "a failed exchange reports the value it found")
                    current = original
                    retries.add(1, ordering: .relaxed)
                }
            }
        }
        XCTAssertEqual(AtomicCell.load(&cells.count, ordering: .acquiring), threads * iterations)
        // Not asserted: how often threads collided (it depends on the machine).
        _ = retries.load(ordering: .relaxed)
    }

    func testEachThreadsBitIsSetAndClearedWithoutDisturbingTheOthers() {
        let cells = Cells()
        let wrong = Atomic<Int>(0)
        onThreads { [iterations] thread in
            let bit = 1 << thread
            for _ in 0..<iterations {
                let set = AtomicCell.bitwiseOr(&cells.flags, bit, ordering: .acquiringAndReleasing)
                if set.oldValue & bit != 0 || set.newValue & bit == 0 { wrong.add(1, ordering: .relaxed) }
                let cleared = AtomicCell.bitwiseAnd(&cells.flags, ~bit, ordering: .acquiringAndReleasing)
                if cleared.oldValue & bit == 0 || cleared.newValue & bit != 0 { wrong.add(1, ordering: .relaxed) }
            }
        }
        XCTAssertEqual(wrong.load(ordering: .relaxed), 0)
        XCTAssertEqual(AtomicCell.load(&cells.flags, ordering: .acquiring), 0)
    }

    func testExactlyOneThreadWinsEachExchange() {
        let rounds = 500
        let wins = Atomic<Int>(0)
        for _ in 0..<rounds {
            let cells = Cells()
            onThreads { _ in
                if !AtomicCell.exchange(&cells.taken, true, ordering: .acquiringAndReleasing) {
                    wins.add(1, ordering: .relaxed)
                }
            }
        }
        XCTAssertEqual(wins.load(ordering: .relaxed), rounds)
    }

    func testReleasingStorePublishesWhatWasWrittenBeforeIt() {
        // Message passing: a plain (non-atomic) payload written before a releasing
        // store is seen complete by whoever acquires the flag. Under
        // ThreadSanitizer, a missing ordering would be reported as a race.
        let rounds = 2_000
        let torn = Atomic<Int>(0)
        for round in 0..<rounds {
            let message = Message()
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                while !AtomicCell.load(&message.ready, ordering: .acquiring) {}
                if message.payload != [round, round + 1, round + 2] { torn.add(1, ordering: .relaxed) }
            }
            message.payload = [round, round + 1, round + 2]
            AtomicCell.store(&message.ready, true, ordering: .releasing)
            group.wait()
        }
        XCTAssertEqual(torn.load(ordering: .relaxed), 0)
    }

    func testValuesKeepTheirBitsThroughTheCell() {
        let cells = Cells()
        for value in [Int.min, -1, 0, 1, Int.max] {
            AtomicCell.store(&cells.count, value, ordering: .relaxed)
            XCTAssertEqual(AtomicCell.load(&cells.count, ordering: .relaxed), value)
            XCTAssertEqual(AtomicCell.exchange(&cells.count, 7, ordering: .relaxed), value)
        }
        for value in [UInt.min, 1, UInt.max] {
            AtomicCell.store(&cells.thread, value, ordering: .relaxed)
            XCTAssertEqual(AtomicCell.load(&cells.thread, ordering: .relaxed), value)
        }
        for value in [UInt64.min, 1, UInt64.max] {
            AtomicCell.store(&cells.wide, value, ordering: .relaxed)
            XCTAssertEqual(AtomicCell.load(&cells.wide, ordering: .relaxed), value)
        }
        XCTAssertEqual(AtomicCell.add(&cells.wide, 1, ordering: .relaxed).newValue, 0, "additions wrap around")
        XCTAssertEqual(AtomicCell.subtract(&cells.count, 8, ordering: .relaxed).newValue, -1)
        XCTAssertFalse(AtomicCell.compareExchange(&cells.taken, expected: true, desired: false, ordering: .relaxed).exchanged)
        XCTAssertTrue(AtomicCell.compareExchange(&cells.taken, expected: false, desired: true, ordering: .relaxed).exchanged)
        XCTAssertTrue(AtomicCell.load(&cells.taken, ordering: .relaxed))
    }

    func testACellIsOperatedOnInPlace() {
        // What `AtomicCell` relies on: `&object.cell` passed to a pointer parameter
        // is the address of the stored property itself, the same on every call.
        // For a root class whose first stored property is the cell, that is the
        // start of the object's stored properties.
        let cells = Cells()
        let first = address(&cells.count)
        XCTAssertEqual(first, address(&cells.count))
        XCTAssertEqual(first, UInt(bitPattern: _getUnsafePointerToStoredProperties(cells)))
        // `SubscriptionBase.lifecycle`, the cell every subscription has.
        let subscription = ClosureSubscription(onDisposed: nil)
        XCTAssertEqual(address(&subscription.lifecycle), UInt(bitPattern: _getUnsafePointerToStoredProperties(subscription)))
        // A global cell has one address too.
        XCTAssertEqual(address(&_resourceCount), address(&_resourceCount))
    }

    // MARK: The lock

    func testLockedStateLetsOneThreadAtATimeIn() {
        let state = LockedState((count: 0, inside: 0, overlaps: 0))
        onThreads { [iterations] _ in
            for _ in 0..<iterations {
                state.withLock { state in
                    state.inside += 1
                    if state.inside != 1 { state.overlaps += 1 }
                    state.count += 1
                    state.inside -= 1
                }
            }
        }
        let result = state.withLock { $0 }
        XCTAssertEqual(result.count, threads * iterations)
        XCTAssertEqual(result.overlaps, 0)
    }

    func testPlatformLockGuardsPlainMemory() {
        let lock = PlatformLock()
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        counter.initialize(to: 0)
        defer { counter.deallocate() }
        let shared = UncheckedPointer(counter)
        onThreads { [iterations] _ in
            for _ in 0..<iterations {
                lock.lock()
                shared.pointer.pointee += 1
                lock.unlock()
            }
        }
        XCTAssertEqual(lock.withLock { counter.pointee }, threads * iterations)
    }

    func testLockAndAtomicsTogetherKeepTheirCounts() {
        // The subjects' and collections' shape: an atomic work-in-progress count
        // decides who drains a queue that a lock guards.
        let queue = LockedState([Int]())
        let cells = Cells()
        let drained = Atomic<Int>(0)
        onThreads { [iterations] thread in
            for index in 0..<iterations {
                queue.withLock { $0.append(thread * iterations + index) }
                if AtomicCell.add(&cells.count, 1, ordering: .acquiringAndReleasing).oldValue != 0 { continue }
                var missed = 1
                repeat {
                    let batch = queue.withLock { queue -> [Int] in
                        defer { queue.removeAll() }
                        return queue
                    }
                    drained.add(batch.count, ordering: .relaxed)
                    missed = AtomicCell.subtract(&cells.count, missed, ordering: .acquiringAndReleasing).newValue
                } while missed != 0
            }
        }
        let leftover = queue.withLock { $0.count }
        XCTAssertEqual(drained.load(ordering: .relaxed) + leftover, threads * iterations)
        XCTAssertEqual(leftover, 0, "every element queued was drained by the thread that found work in progress")
        XCTAssertEqual(AtomicCell.load(&cells.count, ordering: .acquiring), 0)
    }
}

/// Cells of every value type, each a stored property of one object (the first is
/// also its first stored property: see ``AtomicsConcurrencyTests/testACellIsOperatedOnInPlace()``).
private final class Cells: @unchecked Sendable {
    @exclusivity(unchecked) final var count = AtomicCell<Int>(0)
    @exclusivity(unchecked) final var balance = AtomicCell<Int>(0)
    @exclusivity(unchecked) final var flags = AtomicCell<Int>(0)
    @exclusivity(unchecked) final var thread = AtomicCell<UInt>(0)
    @exclusivity(unchecked) final var wide = AtomicCell<UInt64>(0)
    @exclusivity(unchecked) final var taken = AtomicCell<Bool>(false)
}

/// A payload published with a releasing store of `ready`.
private final class Message: @unchecked Sendable {
    var payload: [Int] = []
    @exclusivity(unchecked) final var ready = AtomicCell<Bool>(false)
}

/// A pointer handed to other threads; the test's lock orders every access.
private struct UncheckedPointer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int>
    init(_ pointer: UnsafeMutablePointer<Int>) { self.pointer = pointer }
}

/// The address a pointer argument receives.
private func address(_ pointer: UnsafeMutableRawPointer) -> UInt {
    UInt(bitPattern: pointer)
}
