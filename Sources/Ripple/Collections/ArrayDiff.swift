/// The diff engine: a pure function from two arrays to the ``ArrayEdit``s that
/// turn one into the other. No locks, no observers: ``ObservableArray``, the
/// `changes()` operators and the derived views all call it.
///
/// ## Algorithm
/// A variant of Paul Heckel's 1978 algorithm, linear in the common case:
/// 1. The common prefix and suffix (same identities, position by position) are
///    matched without hashing: appending, paging and editing one row cost one
///    comparison per element.
/// 2. In the middle, a hash table maps each identity to the old positions that
///    carry it, chained in order; each new element takes the first unused old
///    position with its identity. Duplicates are therefore paired **in order of
///    occurrence**: the first `x` of the new middle is the first `x` of the old
///    middle, and so on; surplus occurrences are inserts or deletes.
/// 3. Matched elements whose old positions increase along the new array stay in
///    place; the others moved. The elements that stay are a longest increasing
///    subsequence of the old positions (patience sorting, O(m log m) for m
///    matched elements), so the number of moves is the smallest possible.
/// 4. A matched element whose contents differ (`isUpdated`) is an `.update` if
///    it stayed, a `.delete` plus an `.insert` if it moved.
///
/// Memory: a fixed number of arrays and one dictionary per diff, sized up
/// front; nothing is allocated per element (the benchmark counts them).
@usableFromInline
enum ArrayDiff {
    /// The edits from `old` to `new`: identity (`id`) decides inserts, deletes
    /// and moves; `isUpdated` (`nil`: never) decides updates of elements of the
    /// same identity. Edits come in the order deletes, inserts, moves, updates,
    /// each sorted by index.
    @inlinable
    static func edits<Element, ID: Hashable>(
        from old: [Element], to new: [Element],
        id: (Element) -> ID, isUpdated: ((Element, Element) -> Bool)?
    ) -> [ArrayEdit] {
        let newToOld = match(old, new, id: id)
        if let isUpdated {
            return batch(oldCount: old.count, newToOld: newToOld) { isUpdated(old[$0], new[$1]) }
        }
        return batch(oldCount: old.count, newToOld: newToOld, isUpdated: nil)
    }

    /// Steps 1 and 2: for each new index, the old index of the same identity, or
    /// `-1`.
    @inlinable
    static func match<Element, ID: Hashable>(_ old: [Element], _ new: [Element], id: (Element) -> ID) -> [Int] {
        var newToOld = [Int](repeating: -1, count: new.count)
        var start = 0
        let shorter = Swift.min(old.count, new.count)
        while start < shorter && id(old[start]) == id(new[start]) {
            newToOld[start] = start
            start += 1
        }
        var oldEnd = old.count
        var newEnd = new.count
        while oldEnd > start && newEnd > start && id(old[oldEnd - 1]) == id(new[newEnd - 1]) {
            oldEnd -= 1
            newEnd -= 1
            newToOld[newEnd] = oldEnd
        }
        guard start < oldEnd && start < newEnd else { return newToOld }
        // Identity -> first unused old position; `nextOld` chains the others.
        var table = [ID: Int](minimumCapacity: oldEnd - start)
        var nextOld = [Int](repeating: -1, count: oldEnd - start)
        var index = oldEnd - 1
        while index >= start {
            let key = id(old[index])
            if let slot = table.index(forKey: key) {
                nextOld[index - start] = table.values[slot]
                table.values[slot] = index
            } else {
                table[key] = index
            }
            index -= 1
        }
        for index in start..<newEnd {
            guard let slot = table.index(forKey: id(new[index])) else { continue }
            let head = table.values[slot]
            if head >= 0 {
                newToOld[index] = head
                table.values[slot] = nextOld[head - start]
            }
        }
        return newToOld
    }

    /// Steps 3 and 4: the edits for a matching. `newToOld[j]` is the old index of
    /// the element at new index `j` (`-1`: inserted); every old index appears at
    /// most once. `isUpdated(old, new)` is asked once per matched pair.
    @inlinable
    static func batch(oldCount: Int, newToOld: [Int], isUpdated: ((Int, Int) -> Bool)?) -> [ArrayEdit] {
        let newCount = newToOld.count
        // For each old index: its new index, or -1.
        var oldToNew = [Int](repeating: -1, count: oldCount)
        for new in 0..<newCount where newToOld[new] >= 0 {
            oldToNew[newToOld[new]] = new
        }
        let stays = longestIncreasingRun(newToOld, oldCount: oldCount)
        var changed: [Bool] = []
        if let isUpdated {
            changed = [Bool](repeating: false, count: newCount)
            for new in 0..<newCount where newToOld[new] >= 0 {
                changed[new] = isUpdated(newToOld[new], new)
            }
        }
        let hasChanges = !changed.isEmpty
        var edits: [ArrayEdit] = []
        for old in 0..<oldCount {
            let new = oldToNew[old]
            if new < 0 || (!stays[old] && hasChanges && changed[new]) {
                edits.append(.delete(old))
            }
        }
        for new in 0..<newCount {
            let old = newToOld[new]
            if old < 0 || (!stays[old] && hasChanges && changed[new]) {
                edits.append(.insert(new))
            }
        }
        for new in 0..<newCount {
            let old = newToOld[new]
            if old >= 0 && !stays[old] && !(hasChanges && changed[new]) {
                edits.append(.move(from: old, to: new))
            }
        }
        if hasChanges {
            for old in 0..<oldCount {
                let new = oldToNew[old]
                if new >= 0 && stays[old] && changed[new] {
                    edits.append(.update(old))
                }
            }
        }
        return edits
    }

    /// For each old index: `true` if it belongs to a longest increasing
    /// subsequence of the matched old indices taken in new order (patience
    /// sorting with back pointers).
    @inlinable
    static func longestIncreasingRun(_ newToOld: [Int], oldCount: Int) -> [Bool] {
        var stays = [Bool](repeating: false, count: oldCount)
        // Fast path: already increasing (no moves), the common case.
        var previous = -1
        var increasing = true
        for old in newToOld where old >= 0 {
            if old < previous {
                increasing = false
                break
            }
            previous = old
        }
        if increasing {
            for old in newToOld where old >= 0 { stays[old] = true }
            return stays
        }
        // tails[k]: the new index ending the best increasing run of length k + 1.
        var tails: [Int] = []
        var back = [Int](repeating: -1, count: newToOld.count)
        for new in newToOld.indices {
            let old = newToOld[new]
            guard old >= 0 else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) >> 1
                if newToOld[tails[middle]] < old { low = middle + 1 } else { high = middle }
            }
            back[new] = low > 0 ? tails[low - 1] : -1
            if low == tails.count { tails.append(new) } else { tails[low] = new }
        }
        var new = tails.last ?? -1
        while new >= 0 {
            stays[newToOld[new]] = true
            new = back[new]
        }
        return stays
    }
}
