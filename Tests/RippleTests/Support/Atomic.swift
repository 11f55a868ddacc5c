@testable import Ripple

/// A shared counter or flag for the tests: the part of `Synchronization.Atomic`'s
/// API that they use, on Ripple's own ``AtomicCell``. `Synchronization` exists on
/// Apple platforms only from macOS 15 / iOS 18 on, and the tests build for
/// Ripple's minimum (macOS 10.15 / iOS 13). A class, so that it is stored and
/// captured like any reference (the standard library's `Atomic` is a
/// non-copyable struct); the cell is its only stored property.
///
/// Its orderings are ``TestAtomicOrdering`` (the standard library's names), so
/// that files without `@testable import Ripple` can name them.
final class Atomic<Value: AtomicCellValue>: @unchecked Sendable {
    @exclusivity(unchecked)
    private final var cell: AtomicCell<Value>

    init(_ value: Value) {
        cell = AtomicCell(value)
    }

    func load(ordering: TestAtomicOrdering) -> Value {
        AtomicCell.load(&cell, ordering: ordering.load)
    }

    func store(_ value: Value, ordering: TestAtomicOrdering) {
        AtomicCell.store(&cell, value, ordering: ordering.store)
    }

    @discardableResult
    func exchange(_ value: Value, ordering: TestAtomicOrdering) -> Value {
        AtomicCell.exchange(&cell, value, ordering: ordering.update)
    }

    @discardableResult
    func compareExchange(expected: Value, desired: Value, ordering: TestAtomicOrdering) -> (exchanged: Bool, original: Value) {
        AtomicCell.compareExchange(&cell, expected: expected, desired: desired, ordering: ordering.update)
    }
}

extension Atomic where Value: FixedWidthInteger {
    @discardableResult
    func add(_ operand: Value, ordering: TestAtomicOrdering) -> (oldValue: Value, newValue: Value) {
        AtomicCell.add(&cell, operand, ordering: ordering.update)
    }

    @discardableResult
    func subtract(_ operand: Value, ordering: TestAtomicOrdering) -> (oldValue: Value, newValue: Value) {
        AtomicCell.subtract(&cell, operand, ordering: ordering.update)
    }

    /// Stores the larger of the value held and `operand`.
    @discardableResult
    func max(_ operand: Value, ordering: TestAtomicOrdering) -> (oldValue: Value, newValue: Value) {
        var current = AtomicCell.load(&cell, ordering: .relaxed)
        while current < operand {
            let (exchanged, original) = AtomicCell.compareExchange(&cell, expected: current, desired: operand, ordering: ordering.update)
            if exchanged { return (current, operand) }
            current = original
        }
        return (current, current)
    }
}

/// The memory ordering of an ``Atomic`` operation.
enum TestAtomicOrdering {
    case relaxed, acquiring, releasing, acquiringAndReleasing, sequentiallyConsistent

    var load: AtomicLoadOrdering {
        switch self {
        case .relaxed: .relaxed
        case .acquiring: .acquiring
        case .sequentiallyConsistent: .sequentiallyConsistent
        case .releasing, .acquiringAndReleasing: preconditionFailure("\(self) is not an ordering for a load")
        }
    }

    var store: AtomicStoreOrdering {
        switch self {
        case .relaxed: .relaxed
        case .releasing: .releasing
        case .sequentiallyConsistent: .sequentiallyConsistent
        case .acquiring, .acquiringAndReleasing: preconditionFailure("\(self) is not an ordering for a store")
        }
    }

    var update: AtomicUpdateOrdering {
        switch self {
        case .relaxed: .relaxed
        case .acquiring: .acquiring
        case .releasing: .releasing
        case .acquiringAndReleasing: .acquiringAndReleasing
        case .sequentiallyConsistent: .sequentiallyConsistent
        }
    }
}
