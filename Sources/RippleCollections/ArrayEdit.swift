import Ripple
/// One step of an ``ArrayChange``, addressed the way a UIKit or AppKit batch
/// update (`performBatchUpdates`) addresses it.
///
/// All the edits of one change happen *at once*, as one batch:
///
/// | edit | index | meaning |
/// |---|---|---|
/// | `.delete(i)` | old | the element at `i` of the previous array is gone |
/// | `.insert(j)` | new | the element at `j` of the new array is new |
/// | `.move(from: i, to: j)` | old → new | the element at `i` before is the same, equal element at `j` after |
/// | `.update(i)` | old | the element at `i` before is still there, with new contents |
///
/// Every element no edit mentions kept its value, and these elements kept their
/// order: they fill the new positions that are not inserts or move destinations,
/// in their old order. An element that both moved and changed is reported as a
/// `.delete` of its old index and an `.insert` of its new one, since a batch update
/// cannot reload and move the same row.
///
/// ```
/// old:   [a, b, c, d]
/// new:   [d, a, x, c']       (b removed, d moved to the front, x new, c changed)
/// edits: .delete(1), .insert(2), .move(from: 3, to: 0), .update(2)
/// ```
public enum ArrayEdit: Hashable, Sendable {
    /// The element at this index of the *new* array was inserted.
    case insert(Int)
    /// The element at this index of the *old* array was removed.
    case delete(Int)
    /// The element at this index of the *old* array has new contents and did not move.
    case update(Int)
    /// The element at `from` in the *old* array is, unchanged, at `to` in the *new* one.
    case move(from: Int, to: Int)
}

extension ArrayEdit: CustomStringConvertible {
    /// `insert(2)`, `delete(0)`, `update(1)` or `move(3→0)`.
    public var description: String {
        switch self {
        case .insert(let index): return "insert(\(index))"
        case .delete(let index): return "delete(\(index))"
        case .update(let index): return "update(\(index))"
        case .move(let from, let to): return "move(\(from)→\(to))"
        }
    }
}
