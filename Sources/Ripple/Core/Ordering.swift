// Ripple's own sorts (the DWARF line table's rows, the ELF symbols, the
// subscription graph's nodes and edges, named subscriptions) and RippleHTTP's
// (header fields, parameters) go through `orderedPositions(ascending:)`. The
// standard library's `sort(by:)` is generic over the element type and, given a
// closure literal, the optimiser compiles it again for that closure: about 3 KB
// of code for each call site, which every app linking Ripple carried (ten
// copies in an app using RippleHTTP). Sorting positions by keys instead, it is
// compiled once for each type of key (`UInt64` in Ripple, `String` in
// RippleHTTP): `@inline(never)` keeps the function, and with it the sort, from
// being inlined into each caller, and emitting it into its clients lets each
// module specialise it for its own keys.

/// The positions of `keys`, in ascending order of their keys; positions with
/// equal keys in their original order (the standard library's sort is stable).
@_alwaysEmitIntoClient @inline(never)
package func orderedPositions<Key: Comparable>(ascending keys: [Key]) -> [Int] {
    var positions = Array(keys.indices)
    positions.sort { keys[$0] < keys[$1] }
    return positions
}

extension Sequence {
    /// The elements in ascending order of `key` (computed once per element),
    /// elements with equal keys in their original order.
    @_alwaysEmitIntoClient
    package func sorted<Key: Comparable>(byKey key: (Element) throws -> Key) rethrows -> [Element] {
        let elements = Array(self)
        return try orderedPositions(ascending: elements.map(key)).map { elements[$0] }
    }
}
