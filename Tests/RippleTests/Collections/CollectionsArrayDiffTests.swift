import Ripple
import RippleCollections
import RippleTest
import XCTest

/// The diff engine, specified by examples and by properties over thousands of
/// seeded random arrays.
final class CollectionsArrayDiffTests: RippleTestCase {
    // MARK: Examples

    func testEqualArraysHaveNoEdits() {
        XCTAssertEqual(ArrayChange(from: [1, 2, 3], to: [1, 2, 3]).edits, [])
        XCTAssertEqual(ArrayChange<Int>(from: [], to: []).edits, [])
    }

    func testAppendingIsInsertsAtTheEnd() {
        XCTAssertEqual(ArrayChange(from: [1, 2], to: [1, 2, 3, 4]).edits, [.insert(2), .insert(3)])
    }

    func testRemovingIsDeletesInOldIndices() {
        XCTAssertEqual(ArrayChange(from: ["a", "b", "c", "d"], to: ["a", "d"]).edits, [.delete(1), .delete(2)])
    }

    func testMovingOneElementIsOneMove() {
        XCTAssertEqual(ArrayChange(from: [1, 2, 3, 4, 5], to: [5, 1, 2, 3, 4]).edits, [.move(from: 4, to: 0)])
        XCTAssertEqual(ArrayChange(from: [1, 2, 3, 4, 5], to: [2, 3, 4, 5, 1]).edits, [.move(from: 0, to: 4)])
    }

    func testTheDocumentedExample() {
        let old = [Item(0, "a"), Item(1, "b"), Item(2, "c"), Item(3, "d")]
        let new = [Item(3, "d"), Item(0, "a"), Item(4, "x"), Item(2, "c'")]
        let change = ArrayChange(from: old, to: new)
        XCTAssertEqual(change.edits, [.delete(1), .insert(2), .move(from: 3, to: 0), .update(2)])
        assertApplies(change, to: old)
    }

    func testAnElementThatMovesAndChangesIsDeletedAndInserted() {
        let old = [Item(1, "a"), Item(2, "b")]
        let new = [Item(2, "B"), Item(1, "a")]
        let change = ArrayChange(from: old, to: new)
        XCTAssertEqual(change.edits, [.delete(1), .insert(0)])
        assertApplies(change, to: old)
    }

    func testFullReplacementDeletesEverythingAndInsertsEverything() {
        let change = ArrayChange(from: [1, 2], to: [3, 4, 5])
        XCTAssertEqual(change.edits, [.delete(0), .delete(1), .insert(0), .insert(1), .insert(2)])
    }

    func testDuplicatesArePairedInOrderOfOccurrence() {
        // Walking in step, the x that follows a is the second old x: the first
        // old x is the one deleted, and nothing moves.
        let change = ArrayChange(from: ["x", "a", "x", "b"], to: ["a", "x", "c"])
        XCTAssertEqual(change.edits, [.delete(0), .delete(3), .insert(2)])
        assertApplies(change, to: ["x", "a", "x", "b"])
        // Out of step, the hash table pairs the first new x with the first old x.
        let shuffled = ArrayChange(from: Array("xyzxw"), to: Array("wxxv"))
        XCTAssertEqual(shuffled.edits, [.delete(1), .delete(2), .insert(3), .move(from: 4, to: 0)])
        assertApplies(shuffled, to: Array("xyzxw"))
    }

    func testElementsInStepStayInPlace() {
        // [<, x, a, x, >] to [<, a, x, >]: back in step after skipping the first
        // x, so [a, x, >] stay and only the first x is removed.
        XCTAssertEqual(ArrayChange(from: ["<", "x", "a", "x", ">"], to: ["<", "a", "x", ">"]).edits, [.delete(1)])
    }

    // MARK: Identity and overload resolution

    func testIdentifiableAndHashableElementsAreIdentifiedByID() {
        // `Item` is both: the same id with other text is an update, not a
        // delete and an insert (which the `Hashable` overload would give).
        let change = ArrayChange(from: [Item(1, "a")], to: [Item(1, "b")])
        XCTAssertEqual(change.edits, [.update(0)])
    }

    func testIdentifiableElementsThatAreOnlyEquatable() {
        let change = ArrayChange(from: [Row(id: 1, value: 0), Row(id: 2, value: 0)], to: [Row(id: 2, value: 5)])
        XCTAssertEqual(change.edits, [.delete(0), .update(1)])
    }

    func testIdentifiedByAClosure() {
        let change = ArrayChange(from: ["apple", "banana"], to: ["Banana", "apple"], identifiedBy: { $0.lowercased() })
        XCTAssertEqual(change.edits, [.delete(1), .insert(0)])
        assertApplies(change, to: ["apple", "banana"])
    }

    // MARK: apply(to:)

    func testApplyTakesUnchangedElementsFromThePreviousArray() {
        // Only inserts and updates come from `elements`: a change that forgot an
        // update would not reproduce the new array.
        let change = ArrayChange(elements: [Item(1, "new")], edits: [])
        var old = [Item(1, "old")]
        change.apply(to: &old)
        XCTAssertEqual(old, [Item(1, "old")])
    }

    func testApplyOfAnInitialChangeIsTheElements() {
        var old = [1, 2, 3]
        ArrayChange.initial([4]).apply(to: &old)
        XCTAssertEqual(old, [4])
    }

    // MARK: Properties

    func testPropertyHashableDiffAppliesForRandomArrays() {
        var random = SeededRandomNumberGenerator(seed: 15)
        for round in 0..<5_000 {
            let (old, new) = random.pair()
            let change = ArrayChange(from: old, to: new)
            assertApplies(change, to: old, "round \(round)")
            if old == new { XCTAssertEqual(change.edits, [], "round \(round)") }
        }
    }

    func testPropertyIdentifiedDiffAppliesWithUpdatesAndDuplicateIDs() {
        var random = SeededRandomNumberGenerator(seed: 16)
        for round in 0..<5_000 {
            let (oldIDs, newIDs) = random.pair()
            // Contents drawn from a small alphabet: some same-id elements change.
            let old = oldIDs.map { Item($0, ["a", "b"].randomElement(using: &random)!) }
            let new = newIDs.map { Item($0, ["a", "b"].randomElement(using: &random)!) }
            assertApplies(ArrayChange(from: old, to: new), to: old, "round \(round)")
            let rows = { (items: [Item]) in items.map { Row(id: $0.id, value: $0.text.count) } }
            assertApplies(ArrayChange(from: rows(old), to: rows(new)), to: rows(old), "rows, round \(round)")
        }
    }

    func testPropertyLargeArraysWithFewEdits() {
        var random = SeededRandomNumberGenerator(seed: 17)
        for round in 0..<200 {
            let old = (0..<500).map { _ in Int.random(in: 0..<400, using: &random) }
            var new = old
            for _ in 0..<Int.random(in: 0...10, using: &random) {
                new = random.edited(new, values: 400)
            }
            assertApplies(ArrayChange(from: old, to: new), to: old, "round \(round)")
        }
    }

    func testMovesAreTheFewestPossibleForAPermutation() {
        var random = SeededRandomNumberGenerator(seed: 18)
        for _ in 0..<500 {
            let old = Array(0..<10)
            let new = old.shuffled(using: &random)
            let edits = ArrayChange(from: old, to: new).edits
            // Elements that stay form a longest increasing subsequence.
            XCTAssertEqual(edits.count, 10 - longestIncreasingSubsequenceLength(new))
        }
    }

    private func longestIncreasingSubsequenceLength(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }
}

/// `apply(to:transform:)`: keeping a derived array (rendered rows) in step.
final class CollectionsDerivedApplyTests: RippleTestCase {
    func testOnlyInsertedAndUpdatedElementsAreTransformed() {
        let old = [Item(1, "a"), Item(2, "b"), Item(3, "c")]
        let new = [Item(3, "c"), Item(1, "A"), Item(4, "d")]
        var rows = old.map { "row \($0)" }
        var transformed: [Item] = []
        ArrayChange(from: old, to: new).apply(to: &rows) { item in
            transformed.append(item)
            return "row \(item)"
        }
        XCTAssertEqual(rows, new.map { "row \($0)" })
        XCTAssertEqual(transformed, [Item(1, "A"), Item(4, "d")])
    }
}
