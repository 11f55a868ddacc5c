import Ripple
import RippleCollections
import RippleTest
import XCTest

/// An element whose bits are its identity and its contents: no two elements of a
/// test share an `id`, and `version` changes when an element gets new contents.
struct Tagged: Equatable, CustomStringConvertible {
    var id: Int
    var version: Int = 0

    var description: String { version == 0 ? "\(id)" : "\(id)v\(version)" }
}

/// What `[Tagged]` and `ArrayBatch<Tagged>` both are. The requirements beyond the
/// standard protocols make a call through this protocol reach each type's own
/// method, as a direct call would (`ArrayBatch.sort(by:)`, `move(from:to:)`).
protocol TaggedList: RangeReplaceableCollection, MutableCollection, RandomAccessCollection
where Element == Tagged, Index == Int {
    mutating func sort(by areInIncreasingOrder: (Tagged, Tagged) throws -> Bool) rethrows
    mutating func move(from: Int, to: Int)
    func filter(_ isIncluded: (Tagged) throws -> Bool) rethrows -> Self
}

extension Array: TaggedList where Element == Tagged {
    mutating func move(from: Int, to: Int) {
        insert(remove(at: from), at: to)
    }

    func filter(_ isIncluded: (Tagged) throws -> Bool) rethrows -> [Tagged] {
        var result: [Tagged] = []
        for element in self where try isIncluded(element) { result.append(element) }
        return result
    }
}

/// `RangeReplaceableCollection`'s own `filter`, as generic code reaches it: it
/// builds a new collection with `init()` and `append`.
func genericFilter<C: RangeReplaceableCollection>(_ collection: C, _ isIncluded: (C.Element) -> Bool) -> C {
    collection.filter(isIncluded)
}

extension ArrayBatch: TaggedList where Element == Tagged {}

// MARK: - Generic algorithms, written only against the standard protocols

/// Rotates left by `distance` with `swapAt` (three reversals).
func rotateLeft<C: MutableCollection & BidirectionalCollection>(_ collection: inout C, by distance: Int) {
    let count = collection.count
    guard count > 1 else { return }
    let split = collection.index(collection.startIndex, offsetBy: distance % count)
    collection[..<split].reverse()
    collection[split...].reverse()
    collection.reverse()
}

/// Moves the elements matching `predicate` to the front, keeping their order,
/// by removing and inserting them.
func moveToFront<C: RangeReplaceableCollection & MutableCollection>(_ collection: inout C, where predicate: (C.Element) -> Bool) {
    var insertion = collection.startIndex
    var index = collection.startIndex
    while index != collection.endIndex {
        if predicate(collection[index]) {
            let element = collection.remove(at: index)
            collection.insert(element, at: insertion)
            collection.formIndex(after: &insertion)
        }
        collection.formIndex(after: &index)
    }
}

/// A bubble sort that swaps through a temporary, by assignment.
func bubbleSortByAssignment<C: MutableCollection & RandomAccessCollection>(_ collection: inout C, by less: (C.Element, C.Element) -> Bool) {
    guard collection.count > 1 else { return }
    for pass in 0..<collection.count {
        for offset in 0..<(collection.count - 1 - pass) {
            let i = collection.index(collection.startIndex, offsetBy: offset)
            let j = collection.index(after: i)
            if less(collection[j], collection[i]) {
                let saved = collection[i]
                collection[i] = collection[j]
                collection[j] = saved
            }
        }
    }
}

/// The standard library's `sort` as generic code reaches it.
func genericSort<C: MutableCollection & RandomAccessCollection>(_ collection: inout C, by less: (C.Element, C.Element) -> Bool) {
    collection.sort(by: less)
}

// MARK: - Operations

/// One mutation, with everything random drawn beforehand, so that an array and a
/// batch can be given exactly the same one.
struct BatchStep: CustomStringConvertible {
    enum Kind: CaseIterable {
        case append, appendArray, appendSequence, appendOwnSlice
        case insert, insertArray, insertOwnSlice, moveBlock
        case removeAt, removeFirst, removeFirstK, removeLast, removeLastK, popLast
        case removeSubrange, removeClosedRange, removeFromIndex, removeAll, removeAllKeepingCapacity, removeAllWhere
        case replaceWithArray, replaceWithReversedSlice, replaceWithEmpty
        case plusEquals, plusEqualsSequence, plusOperator, prependOperator, reserveCapacity
        case bump, assignFresh, swapThroughTemporary, assignOwnSlice
        case sortByID, sortByIDDescending, reverse, shuffle, partition, swapAt, move
        case sliceReverse, sliceSort, sliceShuffle
        case genericSort, genericRotate, genericBubbleSort, genericMoveToFront
        case filterAssign, genericFilterAssign, assignEmpty, assignFresh2, mutableStorage, removeAndReinsert

        /// Keeps every element's identity: no copies, and new values only as
        /// new elements (not assigned over old ones).
        var keepsIdentities: Bool {
            switch self {
            case .appendOwnSlice, .insertOwnSlice, .assignOwnSlice, .assignFresh, .bump: return false
            default: return true
            }
        }

        /// Moves elements by assigning them (a swap through a temporary, the
        /// standard library's `swapAt` on a slice), or builds a new batch
        /// (`RangeReplaceableCollection.filter`): the batch then recognises
        /// elements by their bits, and a new element moved over a position is
        /// an update of that position rather than a delete and an insert.
        var movesByAssignment: Bool {
            switch self {
            case .swapThroughTemporary, .genericBubbleSort, .sliceReverse, .sliceShuffle, .genericRotate, .genericFilterAssign:
                return true
            default:
                return false
            }
        }
    }

    let kind: Kind
    let a: Int
    let b: Int
    let c: Int
    let fresh: [Tagged]
    let version: Int

    var description: String { "\(kind)(\(a), \(b), \(c))" }

    /// A range of `0..<count` chosen by `a` and `b`.
    func range(_ count: Int) -> Range<Int> {
        let lower = a % (count + 1)
        return lower..<(lower + b % (count - lower + 1))
    }

    func index(_ count: Int) -> Int { a % count }
    func position(_ count: Int) -> Int { c % (count + 1) }

    /// Applies the step; works the same on an array and on a batch.
    func apply<List: TaggedList>(to list: inout List) {
        let count = list.count
        switch kind {
        case .append: list.append(fresh[0])
        case .appendArray: list.append(contentsOf: fresh)
        case .appendSequence: list.append(contentsOf: AnySequence(fresh))
        case .appendOwnSlice: list.append(contentsOf: list[range(count)])
        case .insert: list.insert(fresh[0], at: position(count))
        case .insertArray: list.insert(contentsOf: fresh, at: position(count))
        case .insertOwnSlice: list.insert(contentsOf: list[range(count)], at: position(count))
        case .moveBlock:
            let block = list[range(count)]
            list.removeSubrange(block.startIndex..<block.endIndex)
            list.insert(contentsOf: block, at: position(list.count))
        case .removeAt where count > 0: list.remove(at: index(count))
        case .removeFirst where count > 0: list.removeFirst()
        case .removeFirstK: list.removeFirst(a % (count + 1))
        case .removeLast where count > 0: list.removeLast()
        case .removeLastK: list.removeLast(a % (count + 1))
        case .popLast: _ = list.popLast()
        case .removeSubrange: list.removeSubrange(range(count))
        case .removeClosedRange where count > 0:
            let lower = a % count
            list.removeSubrange(lower...(lower + b % (count - lower)))
        case .removeFromIndex: list.removeSubrange(position(count)...)
        case .removeAll: list.removeAll()
        case .removeAllKeepingCapacity: list.removeAll(keepingCapacity: true)
        case .removeAllWhere: list.removeAll { $0.id % 3 == a % 3 }
        case .replaceWithArray: list.replaceSubrange(range(count), with: fresh)
        case .replaceWithReversedSlice:
            let range = range(count)
            list.replaceSubrange(range, with: list[range].reversed())
        case .replaceWithEmpty: list.replaceSubrange(range(count), with: EmptyCollection())
        case .plusEquals: list += fresh
        case .plusEqualsSequence: list += fresh.lazy.map { $0 }
        case .plusOperator: list = list + fresh
        case .prependOperator: list = fresh + list
        case .reserveCapacity: list.reserveCapacity(count + a % 8)
        case .bump where count > 0: list[index(count)].version = version
        case .assignFresh where count > 0: list[index(count)] = fresh[0]
        case .swapThroughTemporary where count > 1:
            let i = index(count)
            let j = (i + 1 + b % (count - 1)) % count
            let saved = list[i]
            list[i] = list[j]
            list[j] = saved
        case .assignOwnSlice:
            let target = range(count)
            let sourceLower = c % (count - target.count + 1)
            list[target] = list[sourceLower..<(sourceLower + target.count)]
        case .sortByID: list.sort { $0.id < $1.id }
        case .sortByIDDescending: list.sort { $0.id > $1.id }
        case .reverse: list.reverse()
        case .shuffle:
            var generator = SeededRandomNumberGenerator(seed: UInt64(a))
            list.shuffle(using: &generator)
        case .partition: _ = list.partition { $0.id % 2 == a % 2 }
        case .swapAt where count > 0: list.swapAt(index(count), c % count)
        case .move where count > 0: list.move(from: index(count), to: c % count)
        case .sliceReverse: list[range(count)].reverse()
        case .sliceSort: list[range(count)].sort { $0.id < $1.id }
        case .sliceShuffle:
            var generator = SeededRandomNumberGenerator(seed: UInt64(b))
            list[range(count)].shuffle(using: &generator)
        case .genericSort: genericSort(&list) { $0.id % 5 < $1.id % 5 }
        case .genericRotate: rotateLeft(&list, by: a)
        case .genericBubbleSort: bubbleSortByAssignment(&list) { $0.id < $1.id }
        case .genericMoveToFront: moveToFront(&list) { $0.id % 4 == a % 4 }
        case .filterAssign: list = list.filter { $0.id % 3 != a % 3 }
        case .genericFilterAssign: list = genericFilter(list) { $0.id % 3 != a % 3 }
        case .assignEmpty: list = List()
        case .assignFresh2: list = List(fresh)
        case .mutableStorage:
            _ = list.withContiguousMutableStorageIfAvailable { buffer in
                buffer.reverse()
            }
        case .removeAndReinsert where count > 0:
            let element = list.remove(at: index(count))
            list.insert(element, at: position(list.count))
        default:
            break
        }
    }
}

/// `ObservableArray.batchUpdate`'s `ArrayBatch`: everything an `inout [Element]`
/// does, as one change whose edits turn the old array into the new one, and are
/// those of the diff engine when the batch can know every element's identity.
final class CollectionsArrayBatchTests: RippleTestCase {
    private var nextID = 0
    private var nextVersion = 0

    private func fresh(_ count: Int) -> [Tagged] {
        (0..<count).map { _ in
            nextID += 1
            return Tagged(id: nextID)
        }
    }

    private func randomStep(_ random: inout SeededRandomNumberGenerator, from kinds: [BatchStep.Kind]) -> BatchStep {
        nextVersion += 1
        return BatchStep(
            kind: kinds[random.below(kinds.count)],
            a: random.below(1_000), b: random.below(1_000), c: random.below(1_000),
            fresh: fresh(1 + random.below(3)), version: nextVersion
        )
    }

    /// Runs `body` in a batch update of `array` and returns the change it sent
    /// (`nil` if none).
    private func change(_ array: ObservableArray<Tagged>, _ body: (inout ArrayBatch<Tagged>) -> Void) -> ArrayChange<Tagged>? {
        let recorder = Recorder<ArrayChange<Tagged>>()
        let subscription = array.changes.skip(1).subscribe(onNext: { recorder.append($0) })
        array.batchUpdate(body)
        subscription.dispose()
        XCTAssertLessThanOrEqual(recorder.values.count, 1, "one batch, one change")
        return recorder.values.first
    }

    // MARK: Properties

    func testPropertyEveryMutatingMethodDoesWhatItDoesToAnArrayAndTheChangeApplies() {
        var random = SeededRandomNumberGenerator(seed: 2_025)
        let array = ObservableArray(fresh(8))
        var used = Set<String>()
        for round in 0..<3_000 {
            if array.count > 40 { array.batchUpdate { $0.removeSubrange(10...) } }
            let old = array.value
            var expected = old
            let steps = (0..<(1 + random.below(6))).map { _ in randomStep(&random, from: BatchStep.Kind.allCases) }
            for step in steps { step.apply(to: &expected) }
            let sent = change(array) { list in
                for step in steps { step.apply(to: &list) }
            }
            let context = "round \(round): \(steps) on \(old)"
            XCTAssertEqual(array.value, expected, context)
            if let sent {
                XCTAssertEqual(sent.elements, expected, context)
                assertApplies(sent, to: old, context)
            } else {
                XCTAssertEqual(old, expected, "no change sent, so nothing changed: \(context)")
            }
            steps.forEach { used.insert("\($0.kind)") }
        }
        XCTAssertEqual(used.count, BatchStep.Kind.allCases.count, "every method ran")
    }

    /// Random batches of `kinds`, then a few elements given new contents; checks
    /// each change against the diff engine's (by `id`, updated when the version
    /// changed).
    private func compareWithTheDiffEngine(
        seed: UInt64, kinds: [BatchStep.Kind], _ check: (_ batch: [ArrayEdit], _ diffed: [ArrayEdit], _ context: String) -> Void
    ) {
        var random = SeededRandomNumberGenerator(seed: seed)
        let array = ObservableArray(fresh(8))
        for round in 0..<3_000 {
            if array.count > 40 { array.batchUpdate { $0.removeSubrange(10...) } }
            let old = array.value
            let steps = (0..<(1 + random.below(6))).map { _ in randomStep(&random, from: kinds) }
            // New contents last: an element whose contents changed can then
            // not be mistaken for another (its bits are no old element's).
            let bumps = (0..<random.below(3)).map { _ in randomStep(&random, from: [.bump]) }
            let sent = change(array) { list in
                for step in steps + bumps { step.apply(to: &list) }
            }
            let diffed = ArrayChange(from: old, to: array.value, identifiedBy: \.id)
            check(sent?.edits ?? [], diffed.edits, "round \(round): \(steps + bumps) on \(old)")
            if let sent { assertApplies(sent, to: old) }
        }
    }

    func testPropertyEditsAreTheDiffEnginesWhenTheBatchFollowsEveryElement() {
        // Every reordering, insertion and removal through the batch's own
        // operations, its slices and generic algorithms that call them: the
        // batch knows where each element went, so its change is the diff
        // engine's, edit for edit.
        let kinds = BatchStep.Kind.allCases.filter { $0.keepsIdentities && !$0.movesByAssignment }
        compareWithTheDiffEngine(seed: 2_026, kinds: kinds) { batch, diffed, context in
            XCTAssertEqual(batch, diffed, context)
        }
    }

    func testPropertyEditsAreNeverMoreThanTheDiffEnginesWhenElementsMoveByAssignment() {
        // Elements moved by assignment are recognised by their bits; a new
        // element assigned over an old one's position is an update of that
        // position (the diff engine, by `id`, sees a delete and an insert).
        // (Not `genericFilterAssign`: the batch `RangeReplaceableCollection.filter`
        // builds with `init()` and `append` knows no old element, so an element
        // given new contents after it is a delete and an insert.)
        let kinds = BatchStep.Kind.allCases.filter { $0.keepsIdentities && $0 != .genericFilterAssign }
        compareWithTheDiffEngine(seed: 2_028, kinds: kinds) { batch, diffed, context in
            XCTAssertLessThanOrEqual(batch.count, diffed.count, "\(batch) against \(diffed), \(context)")
        }
    }

    // MARK: What the issue asked for, spelled out

    func testRangeReplaceableMethodsCompileAndGiveMinimalEdits() {
        let array = ObservableArray([Tagged(id: 1), Tagged(id: 2), Tagged(id: 3), Tagged(id: 4), Tagged(id: 5)])
        let sent = change(array) { list in
            XCTAssertEqual(list.removeFirst(), Tagged(id: 1))
            XCTAssertEqual(list.removeLast(), Tagged(id: 5))
            XCTAssertEqual(list.popLast(), Tagged(id: 4))
            list += [Tagged(id: 6)]
            list.insert(contentsOf: [Tagged(id: 7)], at: 0)
            list.reserveCapacity(10)
        }
        XCTAssertEqual(array.value.map(\.id), [7, 2, 3, 6])
        XCTAssertEqual(sent?.edits, [.delete(0), .delete(3), .delete(4), .insert(0), .insert(3)])
    }

    func testAMovedBlockIsMoves() {
        let array = ObservableArray((1...6).map { Tagged(id: $0) })
        let sent = change(array) { list in
            let block = list[3..<5]
            list.removeSubrange(3..<5)
            list.insert(contentsOf: block, at: 0)
        }
        XCTAssertEqual(array.value.map(\.id), [4, 5, 1, 2, 3, 6])
        XCTAssertEqual(sent?.edits, [.move(from: 3, to: 0), .move(from: 4, to: 1)])
    }

    /// Asserts that `sent` is the diff engine's change from `old` to the array's
    /// value, and that it has only moves.
    private func assertMovesOnly(_ sent: ArrayChange<Tagged>?, from old: [Tagged], to array: ObservableArray<Tagged>, file: StaticString = #filePath, line: UInt = #line) {
        let edits = sent?.edits ?? []
        XCTAssertFalse(edits.isEmpty, file: file, line: line)
        XCTAssertEqual(edits, ArrayChange(from: old, to: array.value, identifiedBy: \.id).edits, file: file, line: line)
        XCTAssertTrue(edits.allSatisfy { if case .move = $0 { return true } else { return false } }, "\(edits)", file: file, line: line)
    }

    func testSortingThroughGenericCodeOrASliceIsMoves() {
        let array = ObservableArray([3, 1, 2, 5, 4].map { Tagged(id: $0) })
        var old = array.value
        let sorted = change(array) { genericSort(&$0) { $0.id < $1.id } }
        XCTAssertEqual(array.value.map(\.id), [1, 2, 3, 4, 5])
        assertMovesOnly(sorted, from: old, to: array)
        old = array.value
        let reversed = change(array) { $0[2...].reverse() }
        XCTAssertEqual(array.value.map(\.id), [1, 2, 5, 4, 3])
        assertMovesOnly(reversed, from: old, to: array)
        old = array.value
        let rotated = change(array) { rotateLeft(&$0, by: 2) }
        XCTAssertEqual(array.value.map(\.id), [5, 4, 3, 1, 2])
        assertMovesOnly(rotated, from: old, to: array)
    }

    func testASwapThroughATemporaryIsAMoveAndSwappingBackIsNothing() {
        let array = ObservableArray([1, 2, 3].map { Tagged(id: $0) })
        let old = array.value
        let swapped = change(array) { list in
            let saved = list[0]
            list[0] = list[2]
            list[2] = saved
        }
        XCTAssertEqual(array.value.map(\.id), [3, 2, 1])
        assertMovesOnly(swapped, from: old, to: array)
        let none = change(array) { list in
            list.swapAt(0, 1)
            let saved = list[0]
            list[0] = list[1]
            list[1] = saved
        }
        XCTAssertNil(none, "back where they were: no change")
    }

    func testAnElementRemovedAndInsertedAgainIsOneMove() {
        let array = ObservableArray((1...5).map { Tagged(id: $0) })
        let sent = change(array) { list in list.insert(list.remove(at: 3), at: 0) }
        XCTAssertEqual(sent?.edits, [.move(from: 3, to: 0)])
    }

    func testAssigningAValueToItsOwnPositionIsAnUpdate() {
        // A reference type changed in place: only an explicit assignment can say so.
        final class Contact {
            var name: String
            init(_ name: String) { self.name = name }
        }
        let array = ObservableArray([Contact("Ann"), Contact("Bob")])
        let recorder = Recorder<ArrayChange<Contact>>()
        let subscription = array.changes.skip(1).subscribe(onNext: { recorder.append($0) })
        array.batchUpdate { list in
            list[1].name = "Bobby"
            list[1] = list[1]
        }
        XCTAssertEqual(recorder.values.map(\.edits), [[.update(1)]])
        subscription.dispose()
    }

    func testAssigningTheWholeBatch() {
        let array = ObservableArray((1...4).map { Tagged(id: $0) })
        let filtered = change(array) { list in list = list.filter { $0.id % 2 == 0 } }
        XCTAssertEqual(filtered?.edits, [.delete(0), .delete(2)])
        let prepended = change(array) { list in list = [Tagged(id: 9)] + list }
        XCTAssertEqual(prepended?.edits, [.insert(0)], "a new batch built from the old one keeps its elements")
        let emptied = change(array) { list in list = [] }
        XCTAssertEqual(emptied?.edits, [.delete(0), .delete(1), .delete(2)])
        XCTAssertEqual(array.value, [])
    }

    func testABatchFromAnotherUpdateIsReadAsNewElements() {
        let first = ObservableArray([Tagged(id: 1), Tagged(id: 2)])
        var leaked = ArrayBatch<Tagged>()
        first.batchUpdate { list in
            list.append(Tagged(id: 3))
            leaked = list
        }
        let second = ObservableArray([Tagged(id: 7), Tagged(id: 8), Tagged(id: 1)])
        let sent = change(second) { $0 = leaked }
        XCTAssertEqual(second.value.map(\.id), [1, 2, 3])
        // Its origins say "first's element 0", which is not second's element 0:
        // only the bits decide, and `1` is second's element 2.
        XCTAssertEqual(sent?.edits, [.delete(0), .delete(1), .insert(1), .insert(2)])
        assertApplies(sent!, to: [Tagged(id: 7), Tagged(id: 8), Tagged(id: 1)])
    }

    func testABatchReadsLikeAnArray() {
        var batch: ArrayBatch<Int> = [1, 2, 3]
        XCTAssertEqual(batch.description, "[1, 2, 3]")
        XCTAssertEqual(batch, [1, 2, 3])
        XCTAssertEqual(batch.withContiguousStorageIfAvailable { Array($0) }, [1, 2, 3])
        batch.sort(by: >)
        XCTAssertEqual(batch.elements, [3, 2, 1])
        XCTAssertEqual(Array(batch[1...]), [2, 1])
    }

    // MARK: ObservableSections

    func testPropertySectionsBatchMutatedWithEveryMethodApplies() {
        typealias Model = SectionModel<String, Item>
        var random = SeededRandomNumberGenerator(seed: 2_027)
        var next = 0
        func item() -> Item {
            next += 1
            return Item(next)
        }
        let list = ObservableSections<String, Item>(
            [SectionModel("A", items: [item(), item()]), SectionModel("B", items: [item()])], sectionID: { $0 }, itemID: \.id)
        let recorder = Recorder<SectionedChange<String, Item>>()
        let subscription = list.changes.subscribe(onNext: { recorder.append($0) })
        var changedRounds = 0
        for round in 0..<1_000 {
            let old = list.value
            let sent = recorder.values.count
            list.batchUpdate { sections in
                for _ in 0..<(1 + random.below(4)) {
                    let count = sections.count
                    let section = count > 0 ? random.below(count) : 0
                    switch random.below(12) {
                    case 0: sections.append(SectionModel("S\(round)", items: [item()]))
                    case 1 where count > 1: sections.swapAt(0, count - 1)
                    case 2 where count > 0: sections.removeFirst()
                    case 3: _ = sections.popLast()
                    case 4: sections.reverse()
                    case 5: sections.sort { $0.section < $1.section }
                    case 6 where count > 0: sections[section].items += [item(), item()]
                    case 7 where count > 0 && !sections[section].items.isEmpty: sections[section].items.removeLast()
                    case 8 where count > 0: sections[section].items.reverse()
                    case 9 where count > 0: sections[section].items.removeAll { $0.id % 2 == 0 }
                    case 10 where count > 0:
                        var generator = SeededRandomNumberGenerator(seed: UInt64(round))
                        sections[section].items.shuffle(using: &generator)
                    case 11 where count > 1 && !sections[0].items.isEmpty:
                        sections[count - 1].items.insert(sections[0].items.removeFirst(), at: 0)
                    default: break
                    }
                }
                if sections.count > 6 { sections.removeSubrange(6...) }
            }
            if recorder.values.count > sent {
                XCTAssertEqual(recorder.values.count, sent + 1, "one batch, one change")
                assertApplies(recorder.values[sent], to: old, "round \(round)")
            } else {
                XCTAssertEqual(list.value, old, "no change sent, so nothing changed")
            }
            changedRounds += recorder.values.count > sent ? 1 : 0
        }
        XCTAssertGreaterThan(changedRounds, 400)
        subscription.dispose()
    }
}
