import Ripple
import Foundation

/// The array that ``ObservableArray/batchUpdate(_:)`` hands to its closure: a
/// `RangeReplaceableCollection`, `MutableCollection` and `RandomAccessCollection`
/// of `Int` indices, so anything you can do to an `inout [Element]` works on it
/// (`append`, `insert(contentsOf:at:)`, `removeFirst()`, `popLast()`,
/// `removeSubrange(_:)`, `+=`, `replaceSubrange(_:with:)` with any collection,
/// `sort()`, `reverse()`, `shuffle()`, `partition(by:)`, `swapAt(_:_:)`, slices,
/// and generic algorithms written for those protocols). All the mutations become
/// *one* ``ArrayChange``, whose edits are exact whatever the element type (no
/// `Equatable` or `Hashable` needed) and as few as the batch can tell.
///
/// ```swift
/// todos.batchUpdate { list in
///     list.removeFirst()
///     list += ["water the plants", "read"]
///     list.sort()
/// }   // subscribers receive one change
/// ```
///
/// ## How the edits are found
/// Each position remembers which element of the array the batch started with
/// it holds (or that it is new) and whether its value was replaced. When the
/// batch ends, old elements that are gone are deletes, new ones inserts, old
/// ones out of their relative order moves (the fewest possible: the same
/// longest-increasing-run step as the diff engine), replaced ones updates.
/// - Reorderings through the batch's own operations (`swapAt`, `sort`,
///   `reverse()`, `shuffle()`, `partition(by:)`, ``move(from:to:)``) and elements
///   moved through its slices (`list.insert(contentsOf: list[2..<4], at: 0)`) are
///   tracked exactly.
/// - Assigning through the subscript (`list[i] = x`, `list[i].title = "…"`)
///   replaces position `i`'s value: an update of it, unless `x` is, bit for bit,
///   an old element that is nowhere else in the batch any more, which then moved
///   to `i` (or came back). So algorithms that move elements by assignment (a
///   swap through a temporary, `swapAt` on a slice) still produce moves, and an
///   element you remove and insert again (`list.insert(list.remove(at: 3), at: 0)`)
///   is one move. Assigning a position the very value it holds
///   (`list[i] = list[i]`) is an update: how to report a change inside an
///   element of a reference type, which no comparison can see.
/// - Two values with the same bits are the same value, so the change is always
///   right; values equal for `==` but stored differently are simply not
///   recognised (an update, or a delete and an insert, instead of a move).
/// - An element copied (not moved) keeps its identity in its first position;
///   the other copies are inserts.
/// - A batch you build from scratch (`ArrayBatch()`, a literal, or what a
///   generic `RangeReplaceableCollection.filter` returns) holds new elements.
///   Assigned to the batch of an update, its elements that are, bit for bit,
///   old ones are recognised; but an element given new contents in it is a
///   delete and an insert. (`list = list.filter { ... }` called on the batch
///   itself keeps every identity.)
public struct ArrayBatch<Element>: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    /// The current contents.
    public private(set) var elements: [Element]
    /// Parallel to `elements`: where each position's element came from (see
    /// `BatchOrigin`).
    var origins: [Int]
    /// The array of the ``ObservableArray/batchUpdate(_:)`` call that
    /// `origins` refer to; `nil` for a batch made by you (`ArrayBatch()`, a
    /// literal), whose elements are all new. A batch value copied out of one
    /// update and assigned in another is thus recognised, and read as all new.
    var start: BatchStart<Element>?

    @usableFromInline static var inserted: Int { BatchOrigin.inserted }

    /// The batch a ``ObservableArray/batchUpdate(_:)`` hands out: `start`'s
    /// elements, each one unchanged.
    @usableFromInline
    init(_ start: BatchStart<Element>) {
        self.elements = start.elements
        self.origins = Array(start.elements.indices)
        self.start = start
    }

    /// An empty batch. Assigned to the batch of an update, it removes every
    /// element.
    public init() {
        elements = []
        origins = []
        start = nil
    }

    /// Position of the first element.
    public var startIndex: Int { 0 }
    /// Position after the last element.
    public var endIndex: Int { elements.count }

    /// The element at `index`; assigning records an update of that position (or
    /// a move, see the type's documentation).
    public subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < elements.count, Self.outOfRange("subscript", index, elements.count))
            return elements[index]
        }
        set {
            precondition(index >= 0 && index < elements.count, Self.outOfRange("subscript", index, elements.count))
            let origin = identify(index, holding: elements[index])
            origins[index] = BatchOrigin.written(origin, sameValue: Self.sameBits(elements[index], newValue))
            elements[index] = newValue
        }
    }

    /// The elements in `bounds`; assigning a slice of this batch (or of a copy
    /// of it) keeps where its elements came from, like ``replaceSubrange(_:with:)``.
    public subscript(bounds: Range<Int>) -> Slice<ArrayBatch<Element>> {
        get {
            precondition(bounds.lowerBound >= 0 && bounds.upperBound <= elements.count, Self.outOfRange(bounds, elements.count))
            return Slice(base: self, bounds: bounds)
        }
        set {
            replaceSubrange(bounds, with: newValue)
        }
    }

    /// Swaps two elements, recorded as moves.
    public mutating func swapAt(_ first: Int, _ second: Int) {
        precondition(first >= 0 && first < elements.count, Self.outOfRange("swapAt(_:_:)", first, elements.count))
        precondition(second >= 0 && second < elements.count, Self.outOfRange("swapAt(_:_:)", second, elements.count))
        elements.swapAt(first, second)
        origins.swapAt(first, second)
    }

    /// Replaces the elements in `range` with `newElements`: the old ones are
    /// removed, the new ones inserted (elements of this batch's slices keep
    /// their identity).
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with newElements: C) where C.Element == Element {
        precondition(range.lowerBound >= 0 && range.upperBound <= elements.count, Self.outOfRange(range, elements.count))
        let newOrigins = origins(of: newElements)
        elements.replaceSubrange(range, with: newElements)
        origins.replaceSubrange(range, with: newOrigins)
    }

    /// Reserves room for `minimumCapacity` elements.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        elements.reserveCapacity(minimumCapacity)
        origins.reserveCapacity(minimumCapacity)
    }

    /// Adds `element` at the end.
    public mutating func append(_ element: Element) {
        elements.append(element)
        origins.append(Self.inserted)
    }

    /// Adds `newElements` at the end.
    public mutating func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        // Only a batch (or a slice of one) carries origins of its own; any other
        // sequence is new elements. (Two concrete casts, not one to
        // `any Collection<Element>`: a cast to a parameterized protocol type
        // needs macOS 13 / iOS 16 at run time.)
        if let batch = newElements as? ArrayBatch<Element> {
            replaceSubrange(endIndex..<endIndex, with: batch)
        } else if let slice = newElements as? Slice<ArrayBatch<Element>> {
            replaceSubrange(endIndex..<endIndex, with: slice)
        } else {
            let before = elements.count
            elements.append(contentsOf: newElements)
            origins.append(contentsOf: repeatElement(Self.inserted, count: elements.count - before))
        }
    }

    /// Inserts `element` at `index` (`0...count`).
    public mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= elements.count, Self.outOfRange("insert(_:at:)", index, elements.count, end: true))
        elements.insert(element, at: index)
        origins.insert(Self.inserted, at: index)
    }

    /// Removes and returns the element at `index`.
    @discardableResult
    public mutating func remove(at index: Int) -> Element {
        precondition(index >= 0 && index < elements.count, Self.outOfRange("remove(at:)", index, elements.count))
        origins.remove(at: index)
        return elements.remove(at: index)
    }

    /// Removes every element.
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        elements.removeAll(keepingCapacity: keepCapacity)
        origins.removeAll(keepingCapacity: keepCapacity)
    }

    /// Removes the elements for which `shouldBeRemoved` returns `true`.
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        var kept = 0
        for index in elements.indices where try !shouldBeRemoved(elements[index]) {
            if kept != index {
                elements.swapAt(kept, index)
                origins.swapAt(kept, index)
            }
            kept += 1
        }
        elements.removeSubrange(kept...)
        origins.removeSubrange(kept...)
    }

    /// The elements for which `isIncluded` returns `true`, as a batch whose
    /// elements keep their identity: `list = list.filter { ... }` removes the
    /// others.
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> ArrayBatch<Element> {
        var result = self
        try result.removeAll { try !isIncluded($0) }
        return result
    }

    /// Moves the element at `from` so that it ends up at `to` (both in `0..<count`).
    public mutating func move(from: Int, to: Int) {
        precondition(from >= 0 && from < elements.count, Self.outOfRange("move(from:to:)", from, elements.count))
        precondition(to >= 0 && to < elements.count, Self.outOfRange("move(from:to:)", to, elements.count))
        guard from != to else { return }
        elements.insert(elements.remove(at: from), at: to)
        origins.insert(origins.remove(at: from), at: to)
    }

    /// Sorts the elements in place (stable), recorded as moves.
    public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
        var order = Array(elements.indices)
        // A stable sort of positions: ties keep their current order.
        try order.sort { left, right in
            if try areInIncreasingOrder(elements[left], elements[right]) { return true }
            if try areInIncreasingOrder(elements[right], elements[left]) { return false }
            return left < right
        }
        elements = order.map { elements[$0] }
        origins = order.map { origins[$0] }
    }

    /// Calls `body` with the elements' storage, which it may change in place
    /// (the standard library's `sort` and `partition(by:)` on any
    /// `MutableCollection`, and on this batch's slices, work this way).
    ///
    /// Afterwards each position that holds, bit for bit, an element that was in
    /// the storage before is that element (a move, or no change); any other value
    /// is an update of its position.
    public mutating func withContiguousMutableStorageIfAvailable<R>(
        _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R
    ) rethrows -> R? {
        // `before` shares the storage, so the first write copies it: `before`
        // keeps what the storage held.
        let before = elements
        defer { reidentify(before: before) }
        return try elements.withUnsafeMutableBufferPointer { try body(&$0) }
    }

    /// Updates ``origins`` for ``elements``, a permutation (with perhaps some new
    /// values) of `before`.
    private mutating func reidentify(before: [Element]) {
        let after = elements
        let size = MemoryLayout<Element>.size
        let stride = MemoryLayout<Element>.stride
        let changed = before.withUnsafeBytes { old in
            after.withUnsafeBytes { new in
                before.indices.filter { index in
                    size > 0 && memcmp(old.baseAddress! + index * stride, new.baseAddress! + index * stride, size) != 0
                }
            }
        }
        guard !changed.isEmpty else { return }
        let previous = origins
        var matched = Set<Int>()
        for (new, old) in Self.sameBits(before, changed, after, changed) {
            origins[new] = previous[old]
            matched.insert(new)
        }
        for index in changed where !matched.contains(index) {
            // A value that was not there before: written to this position.
            origins[index] = previous[index]
            origins[index] = BatchOrigin.written(identify(index, holding: before[index]), sameValue: false)
        }
    }

    /// Calls `body` with the elements' storage, read-only.
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R? {
        try elements.withUnsafeBufferPointer(body)
    }

    // MARK: Origins

    /// The origins of `newElements` about to be added: kept for elements of this
    /// batch (or of a copy made during the same update), new otherwise.
    private mutating func origins<C: Collection>(of newElements: C) -> [Int] where C.Element == Element {
        let source: (start: BatchStart<Element>?, origins: ArraySlice<Int>)
        if let batch = newElements as? ArrayBatch<Element> {
            source = (batch.start, batch.origins[...])
        } else if let slice = newElements as? Slice<ArrayBatch<Element>> {
            source = (slice.base.start, slice.base.origins[slice.startIndex..<slice.endIndex])
        } else {
            return Array(repeating: Self.inserted, count: newElements.count)
        }
        if source.start === start || source.start == nil {
            return Array(source.origins)
        }
        if start == nil && !origins.contains(where: { $0 != Self.inserted }) {
            // A batch of your own, with nothing old in it, takes on the update
            // its new elements come from: `list = [x] + list` keeps `list`'s.
            start = source.start
            return Array(source.origins)
        }
        return Array(repeating: Self.inserted, count: source.origins.count)
    }

    /// The origin of position `index`, which holds `value`: its own if it is
    /// known. Otherwise, if `value` has the bits of an old element, it is that
    /// element, back here through moves the batch could not follow (removed and
    /// inserted again, moved by assignment), so that a new value given to it is
    /// an update of that element; the positions that only had that element
    /// before being assigned something else no longer claim it.
    private mutating func identify(_ index: Int, holding value: Element) -> Int {
        let origin = origins[index]
        guard BatchOrigin.known(origin) == nil, let start, let oldIndex = start.oldIndex(withBitsOf: value) else {
            return origin
        }
        let stale = ~oldIndex
        for position in origins.indices where position != index && origins[position] == stale {
            origins[position] = Self.inserted
        }
        return oldIndex
    }

    /// The edits from the array of `expected`, the update's start, to
    /// ``elements``.
    @usableFromInline
    func edits(from expected: BatchStart<Element>) -> [ArrayEdit] {
        let old = expected.elements
        // A batch from another update is read as all new (its elements may
        // still be recognised by their bits below).
        let origins = start === expected || start == nil ? origins : Array(repeating: Self.inserted, count: elements.count)
        var newToOld = [Int](repeating: -1, count: elements.count)
        var claimed = [Bool](repeating: false, count: old.count)
        var isUpdated: [Bool] = []
        func claim(_ new: Int, _ oldIndex: Int, updated: Bool) {
            newToOld[new] = oldIndex
            claimed[oldIndex] = true
            if updated {
                if isUpdated.isEmpty { isUpdated = [Bool](repeating: false, count: elements.count) }
                isUpdated[new] = true
            }
        }
        // Known elements first (unchanged, or assigned their own value again):
        // each old element at most once, in its first copy.
        var unsettled: [Int] = []
        for (new, origin) in origins.enumerated() {
            if let oldIndex = BatchOrigin.known(origin), oldIndex < old.count, !claimed[oldIndex] {
                claim(new, oldIndex, updated: BatchOrigin.isReassigned(origin))
            } else {
                unsettled.append(new)
            }
        }
        guard !unsettled.isEmpty else { return diff(old.count, newToOld, isUpdated) }
        // An unsettled element with the bits of an old element that is nowhere
        // else is that element, moved or left in place, unchanged.
        let unclaimed = old.indices.filter { !claimed[$0] }
        if !unclaimed.isEmpty {
            for (new, oldIndex) in Self.sameBits(old, unclaimed, elements, unsettled) {
                claim(new, oldIndex, updated: false)
            }
        }
        // A position assigned a new value whose old element is still free is an
        // update of it; anything else is new.
        for new in unsettled where newToOld[new] < 0 {
            if let oldIndex = BatchOrigin.written(origins[new]), oldIndex < old.count, !claimed[oldIndex] {
                claim(new, oldIndex, updated: true)
            }
        }
        return diff(old.count, newToOld, isUpdated)
    }

    private func diff(_ oldCount: Int, _ newToOld: [Int], _ isUpdated: [Bool]) -> [ArrayEdit] {
        if isUpdated.isEmpty {
            return ArrayDiff.batch(oldCount: oldCount, newToOld: newToOld, isUpdated: nil)
        }
        return ArrayDiff.batch(oldCount: oldCount, newToOld: newToOld) { _, new in isUpdated[new] }
    }

    /// `true` if `a` and `b` have the same bits.
    private static func sameBits(_ a: Element, _ b: Element) -> Bool {
        withUnsafeBytes(of: a) { a in
            withUnsafeBytes(of: b) { b in
                a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
            }
        }
    }

    /// Pairs positions `candidates` of `new` with positions `available` of `old`
    /// holding the same bits, each in order of occurrence.
    private static func sameBits(_ old: [Element], _ available: [Int], _ new: [Element], _ candidates: [Int]) -> [(new: Int, old: Int)] {
        let size = MemoryLayout<Element>.size
        let stride = MemoryLayout<Element>.stride
        var matches: [(new: Int, old: Int)] = []
        old.withUnsafeBytes { oldBytes in
            new.withUnsafeBytes { newBytes in
                func bits(_ base: UnsafeRawBufferPointer, _ index: Int) -> BitPattern {
                    BitPattern(bytes: UnsafeRawBufferPointer(rebasing: base[index * stride ..< index * stride + size]))
                }
                // Each bit pattern: its available old positions, in order, and
                // how many of them are taken.
                var table: [BitPattern: (positions: [Int], taken: Int)] = [:]
                table.reserveCapacity(available.count)
                for oldIndex in available {
                    table[bits(oldBytes, oldIndex), default: ([], 0)].positions.append(oldIndex)
                }
                for candidate in candidates {
                    let key = bits(newBytes, candidate)
                    guard let entry = table[key], entry.taken < entry.positions.count else { continue }
                    matches.append((candidate, entry.positions[entry.taken]))
                    table[key]!.taken += 1
                }
            }
        }
        return matches
    }

    // MARK: Messages

    @usableFromInline
    static func outOfRange(_ method: String, _ index: Int, _ count: Int, end: Bool = false) -> String {
        collectionIndexMessage("ArrayBatch.\(method)", index: index, count: count, allowsEnd: end)
    }

    static func outOfRange(_ range: Range<Int>, _ count: Int) -> String {
        "ArrayBatch: range \(range) is out of range (count \(count), valid bounds 0...\(count))"
    }
}

extension ArrayBatch where Element: Comparable {
    /// Sorts the elements in ascending order (stable), recorded as moves.
    public mutating func sort() {
        sort(by: <)
    }
}

extension ArrayBatch: ExpressibleByArrayLiteral {
    /// A batch of new elements: `list = ["a", "b"]` replaces the contents.
    public init(arrayLiteral elements: Element...) {
        self.elements = elements
        origins = Array(repeating: Self.inserted, count: elements.count)
        start = nil
    }
}

extension ArrayBatch: Equatable where Element: Equatable {
    /// Two batches are equal when their elements are.
    public static func == (lhs: ArrayBatch, rhs: ArrayBatch) -> Bool {
        lhs.elements == rhs.elements
    }
}

extension ArrayBatch: CustomStringConvertible, CustomDebugStringConvertible {
    /// The elements, written as an array's.
    public var description: String { elements.description }
    /// The elements, written as an array's.
    public var debugDescription: String { elements.debugDescription }
}

extension ArrayBatch: Sendable where Element: Sendable {}

/// Where the element at a position of an ``ArrayBatch`` came from, packed in an
/// `Int` (the batch keeps an array of them beside its elements):
///
/// | value | meaning |
/// |---|---|
/// | `i >= 0` | old element `i`, unchanged |
/// | `~i` (`-1 - i`) | position of old element `i`, since assigned another value: which element it holds is found at the end, by its bits |
/// | `Int.min + 1 + i` | old element `i`, assigned its own value again: an explicit update (what a reference type needs to report a change inside its object) |
/// | `Int.min` | a new element |
@usableFromInline
enum BatchOrigin {
    @usableFromInline static var inserted: Int { Int.min }
    private static var reassignedBase: Int { Int.min + 1 }
    /// Written values use `-1 ... -count`, reassigned ones start at
    /// `Int.min + 1`: the two ranges meet only past 2^62 elements.
    private static func isReassignedRange(_ origin: Int) -> Bool { origin > Int.min && origin <= Int.min / 2 }

    /// The old element of an unchanged or reassigned position.
    static func known(_ origin: Int) -> Int? {
        if origin >= 0 { return origin }
        return isReassignedRange(origin) ? origin - reassignedBase : nil
    }

    /// The old position a written position had.
    static func written(_ origin: Int) -> Int? {
        origin < 0 && !isReassignedRange(origin) && origin != inserted ? ~origin : nil
    }

    static func isReassigned(_ origin: Int) -> Bool {
        isReassignedRange(origin)
    }

    /// The origin after a value is assigned to a position with `origin`:
    /// `sameValue` if the value has the bits of the one it replaces.
    static func written(_ origin: Int, sameValue: Bool) -> Int {
        if origin == inserted { return inserted }
        if let old = known(origin) {
            return sameValue ? reassignedBase + old : ~old
        }
        return origin
    }
}

/// The array a batch update started with, shared by its batch and the batch's
/// copies: it tells which array a batch's origins refer to (by identity), and
/// finds an old element by its bits (an index built on first use).
@usableFromInline
final class BatchStart<Element>: @unchecked Sendable {
    let elements: [Element]
    /// Hash of an element's bits → the old indices with that hash, in order.
    /// Built under the lock (a batch may be copied to another thread).
    private let bitIndex: LockedState<[Int: [Int]]?>

    @usableFromInline
    init(_ elements: [Element]) {
        bitIndex = LockedState(nil)
        self.elements = elements
    }

    /// The first old element with the bits of `value`.
    func oldIndex(withBitsOf value: Element) -> Int? {
        let size = MemoryLayout<Element>.size
        let stride = MemoryLayout<Element>.stride
        return elements.withUnsafeBytes { old in
            withUnsafeBytes(of: value) { bytes -> Int? in
                func bits(_ index: Int) -> UnsafeRawBufferPointer {
                    UnsafeRawBufferPointer(rebasing: old[index * stride ..< index * stride + size])
                }
                let candidates = bitIndex.withLock { index -> [Int] in
                    if index == nil {
                        var built: [Int: [Int]] = [:]
                        for position in elements.indices {
                            built[BitPattern(bytes: bits(position)).hashValue, default: []].append(position)
                        }
                        index = built
                    }
                    return index![BitPattern(bytes: bytes).hashValue] ?? []
                }
                return candidates.first { BitPattern(bytes: bits($0)) == BitPattern(bytes: bytes) }
            }
        }
    }
}

/// The bytes of one element, compared and hashed as they are.
private struct BitPattern: Hashable {
    let bytes: UnsafeRawBufferPointer

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes: bytes)
    }

    static func == (lhs: BitPattern, rhs: BitPattern) -> Bool {
        lhs.bytes.count == rhs.bytes.count
            && (lhs.bytes.isEmpty || memcmp(lhs.bytes.baseAddress!, rhs.bytes.baseAddress!, lhs.bytes.count) == 0)
    }
}

/// The message of a bad index: the method, the index, and the valid range, as
/// `Array`'s own precondition would say it if it said more.
@usableFromInline
func collectionIndexMessage(_ method: String, index: Int, count: Int, allowsEnd: Bool) -> String {
    let valid = allowsEnd ? "0...\(count)" : (count == 0 ? "none, the array is empty" : "0..<\(count)")
    return "\(method): index \(index) is out of range (count \(count), valid indices \(valid))"
}
