/// The array that ``ObservableArray/batchUpdate(_:)`` hands to its closure: a
/// mutable collection that records where each element came from, so that all
/// the mutations made through it become *one* ``ArrayChange`` whose edits are
/// exact, whatever the element type (no diffing, no `Hashable` needed).
///
/// Each position remembers the old index of its element (or that it is new) and
/// whether its value was replaced. When the batch ends, elements that are gone
/// are deletes, new ones inserts, old ones out of their relative order moves (the
/// fewest possible), replaced ones updates.
///
/// ```swift
/// todos.batchUpdate { list in
///     list.remove(at: 0)
///     list.append("water the plants")
///     list.move(from: 2, to: 0)
/// }   // subscribers receive one change with three edits
/// ```
///
/// Reorderings made through the collection's own operations (`swapAt`,
/// ``sort(by:)``, `reverse()`, ``move(from:to:)``) are recorded as moves;
/// assigning an element through the subscript records an update of that
/// position.
public struct ArrayBatch<Element>: RandomAccessCollection, MutableCollection {
    /// The current contents.
    public private(set) var elements: [Element]
    /// Parallel to `elements`: `i >= 0` the unchanged old element `i`;
    /// `~i` (negative) the old element `i` with a new value; `Int.min` a new element.
    @usableFromInline var origins: [Int]
    @usableFromInline let oldCount: Int

    @usableFromInline static var inserted: Int { Int.min }

    @usableFromInline
    init(_ elements: [Element]) {
        self.elements = elements
        self.origins = Array(elements.indices)
        self.oldCount = elements.count
    }

    /// Position of the first element.
    public var startIndex: Int { 0 }
    /// Position after the last element.
    public var endIndex: Int { elements.count }

    /// The element at `index`; assigning records an update of that position.
    public subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < elements.count, Self.outOfRange("subscript", index, elements.count))
            return elements[index]
        }
        set {
            precondition(index >= 0 && index < elements.count, Self.outOfRange("subscript", index, elements.count))
            elements[index] = newValue
            let origin = origins[index]
            if origin >= 0 { origins[index] = ~origin }
        }
    }

    /// Swaps two elements, recorded as moves.
    public mutating func swapAt(_ first: Int, _ second: Int) {
        precondition(first >= 0 && first < elements.count, Self.outOfRange("swapAt(_:_:)", first, elements.count))
        precondition(second >= 0 && second < elements.count, Self.outOfRange("swapAt(_:_:)", second, elements.count))
        elements.swapAt(first, second)
        origins.swapAt(first, second)
    }

    /// Adds `element` at the end.
    public mutating func append(_ element: Element) {
        elements.append(element)
        origins.append(Self.inserted)
    }

    /// Adds `newElements` at the end.
    public mutating func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        let before = elements.count
        elements.append(contentsOf: newElements)
        origins.append(contentsOf: repeatElement(Self.inserted, count: elements.count - before))
    }

    /// Inserts `element` at `index` (`0...count`).
    public mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= elements.count, Self.outOfRange("insert(_:at:)", index, elements.count, end: true))
        elements.insert(element, at: index)
        origins.insert(Self.inserted, at: index)
    }

    /// Inserts `newElements` at `index` (`0...count`).
    public mutating func insert<C: Collection>(contentsOf newElements: C, at index: Int) where C.Element == Element {
        precondition(index >= 0 && index <= elements.count, Self.outOfRange("insert(contentsOf:at:)", index, elements.count, end: true))
        elements.insert(contentsOf: newElements, at: index)
        origins.insert(contentsOf: repeatElement(Self.inserted, count: newElements.count), at: index)
    }

    /// Removes and returns the element at `index`.
    @discardableResult
    public mutating func remove(at index: Int) -> Element {
        precondition(index >= 0 && index < elements.count, Self.outOfRange("remove(at:)", index, elements.count))
        origins.remove(at: index)
        return elements.remove(at: index)
    }

    /// Removes every element.
    public mutating func removeAll() {
        elements.removeAll()
        origins.removeAll()
    }

    /// Removes the elements for which `shouldBeRemoved` returns `true`.
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        var keptElements: [Element] = []
        var keptOrigins: [Int] = []
        for index in elements.indices where try !shouldBeRemoved(elements[index]) {
            keptElements.append(elements[index])
            keptOrigins.append(origins[index])
        }
        elements = keptElements
        origins = keptOrigins
    }

    /// Moves the element at `from` so that it ends up at `to` (both in `0..<count`).
    public mutating func move(from: Int, to: Int) {
        precondition(from >= 0 && from < elements.count, Self.outOfRange("move(from:to:)", from, elements.count))
        precondition(to >= 0 && to < elements.count, Self.outOfRange("move(from:to:)", to, elements.count))
        guard from != to else { return }
        elements.insert(elements.remove(at: from), at: to)
        origins.insert(origins.remove(at: from), at: to)
    }

    /// Replaces the elements in `range` with `newElements`: the old ones are
    /// removed, the new ones inserted.
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with newElements: C) where C.Element == Element {
        precondition(range.lowerBound >= 0 && range.upperBound <= elements.count,
                     "ArrayBatch.replaceSubrange(_:with:): range \(range) out of range 0..<\(elements.count)")
        elements.replaceSubrange(range, with: newElements)
        origins.replaceSubrange(range, with: repeatElement(Self.inserted, count: newElements.count))
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

    /// The edits from the array the batch started with to ``elements``.
    @usableFromInline
    func edits() -> [ArrayEdit] {
        var newToOld = [Int](repeating: -1, count: origins.count)
        var touched = false
        for (new, origin) in origins.enumerated() where origin != Self.inserted {
            newToOld[new] = origin >= 0 ? origin : ~origin
            if origin < 0 { touched = true }
        }
        guard touched else { return ArrayDiff.batch(oldCount: oldCount, newToOld: newToOld, isUpdated: nil) }
        return ArrayDiff.batch(oldCount: oldCount, newToOld: newToOld) { _, new in origins[new] < 0 }
    }

    @usableFromInline
    static func outOfRange(_ method: String, _ index: Int, _ count: Int, end: Bool = false) -> String {
        collectionIndexMessage("ArrayBatch.\(method)", index: index, count: count, allowsEnd: end)
    }
}

extension ArrayBatch where Element: Comparable {
    /// Sorts the elements in ascending order (stable), recorded as moves.
    public mutating func sort() {
        sort(by: <)
    }
}

/// The message of a bad index: the method, the index, and the valid range, as
/// `Array`'s own precondition would say it if it said more.
@usableFromInline
func collectionIndexMessage(_ method: String, index: Int, count: Int, allowsEnd: Bool) -> String {
    let valid = allowsEnd ? "0...\(count)" : (count == 0 ? "none, the array is empty" : "0..<\(count)")
    return "\(method): index \(index) is out of range (count \(count), valid indices \(valid))"
}
