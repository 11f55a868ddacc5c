import Ripple
/// Where each element of a new array comes from, according to a batch of
/// ``ArrayEdit``s: the reading of the edits that UIKit's batch updates use.
///
/// Deletes and move sources leave the old array; inserts and move destinations
/// take their new positions; the remaining old elements fill the other new
/// positions in their old order. `nil` from ``init(oldCount:newCount:edits:)``
/// means the edits cannot describe a change between arrays of these sizes (an
/// index out of range, an index used twice, an update of a removed element, or
/// counts that do not add up).
@usableFromInline
struct EditMapping {
    /// For each new index: the old index its element comes from, or `-1` for an
    /// insert.
    @usableFromInline let newToOld: [Int]
    /// For each old index: `true` if an `.update` names it.
    @usableFromInline let isUpdated: [Bool]
    /// For each old index: `true` if it is the source of a `.move`.
    @usableFromInline let isMoved: [Bool]

    @usableFromInline
    init?(oldCount: Int, newCount: Int, edits: [ArrayEdit]) {
        // -2: not yet assigned; -1: insert; >= 0: old index of a move.
        var fixed = [Int](repeating: -2, count: newCount)
        var isRemoved = [Bool](repeating: false, count: oldCount)
        var isUpdated = [Bool](repeating: false, count: oldCount)
        var isMoved = [Bool](repeating: false, count: oldCount)
        var removed = 0
        var placed = 0
        for edit in edits {
            switch edit {
            case .delete(let index):
                guard index >= 0, index < oldCount, !isRemoved[index] else { return nil }
                isRemoved[index] = true
                removed += 1
            case .insert(let index):
                guard index >= 0, index < newCount, fixed[index] == -2 else { return nil }
                fixed[index] = -1
                placed += 1
            case .move(let from, let to):
                guard from >= 0, from < oldCount, !isRemoved[from],
                      to >= 0, to < newCount, fixed[to] == -2 else { return nil }
                isRemoved[from] = true
                isMoved[from] = true
                fixed[to] = from
                removed += 1
                placed += 1
            case .update(let index):
                guard index >= 0, index < oldCount, !isUpdated[index] else { return nil }
                isUpdated[index] = true
            }
        }
        guard oldCount - removed == newCount - placed else { return nil }
        for index in 0..<oldCount where isUpdated[index] && isRemoved[index] {
            return nil
        }
        var old = 0
        for index in 0..<newCount where fixed[index] == -2 {
            while isRemoved[old] { old += 1 }
            fixed[index] = old
            old += 1
        }
        self.newToOld = fixed
        self.isUpdated = isUpdated
        self.isMoved = isMoved
    }

    /// `true` if the element at new index `index` must be taken from the new
    /// array (an insert or an update); `false` if it is an old element, unchanged.
    @_alwaysEmitIntoClient
    func takesNewValue(at index: Int) -> Bool {
        let old = newToOld[index]
        return old < 0 || isUpdated[old]
    }

    /// The old index each element of the old array moves to, `-1` when removed.
    @usableFromInline
    func oldToNew(oldCount: Int) -> [Int] {
        var result = [Int](repeating: -1, count: oldCount)
        for (new, old) in newToOld.enumerated() where old >= 0 {
            result[old] = new
        }
        return result
    }

    /// The new array built from `old`, taking inserted and updated elements from
    /// `newValue(index)`.
    @_alwaysEmitIntoClient
    func apply<T>(to old: [T], newValue: (Int) throws -> T) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(newToOld.count)
        for index in newToOld.indices {
            result.append(try takesNewValue(at: index) ? newValue(index) : old[newToOld[index]])
        }
        return result
    }

    /// The mapping for `change` from an array of `oldCount` elements, or a
    /// precondition failure naming `operatorName` if the edits do not fit.
    @usableFromInline
    static func of<T>(_ change: ArrayChange<T>, oldCount: Int, in operatorName: String) -> EditMapping {
        guard let mapping = EditMapping(oldCount: oldCount, newCount: change.elements.count, edits: change.edits) else {
            preconditionFailure(
                "\(operatorName): edits \(change.edits) do not turn the previous \(oldCount) elements into \(change.elements.count); the stream did not start with an initial change or its changes are inconsistent")
        }
        return mapping
    }
}
