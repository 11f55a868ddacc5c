import Ripple
import RippleCollections
import RippleTest
import XCTest

/// An independent reading of UIKit's batch-update convention for sections:
/// remove items (old paths, bottom up), remove sections (old indices), insert
/// sections (new indices), insert items (new paths, top down), then reload the
/// updated sections' values and items where they ended up.
func simulateSectionedBatch<S, I>(_ change: SectionedChange<S, I>, from old: [SectionModel<S, I>]) -> [SectionModel<S, I>]? {
    typealias Tagged = (old: ItemPath?, value: I)
    let new = change.sections
    var sections: [(old: Int?, value: S, items: [Tagged])] = old.enumerated().map { index, model in
        (index, model.section, model.items.enumerated().map { (ItemPath(section: index, item: $0.offset), $0.element) })
    }
    var itemRemovals: [ItemPath] = []
    var itemPlacements: [(to: ItemPath, from: ItemPath?)] = []
    var itemUpdates = Set<ItemPath>()
    for edit in change.itemEdits {
        switch edit {
        case .delete(let path): itemRemovals.append(path)
        case .insert(let path): itemPlacements.append((path, nil))
        case .move(let from, let to):
            itemRemovals.append(from)
            itemPlacements.append((to, from))
        case .update(let path): itemUpdates.insert(path)
        }
    }
    guard Set(itemRemovals).count == itemRemovals.count else { return nil }
    for path in itemRemovals.sorted(by: >) {
        guard sections.indices.contains(path.section), sections[path.section].items.indices.contains(path.item) else { return nil }
        sections[path.section].items.remove(at: path.item)
    }
    var sectionRemovals: [Int] = []
    var sectionPlacements: [(to: Int, from: Int?)] = []
    var sectionUpdates = Set<Int>()
    for edit in change.sectionEdits {
        switch edit {
        case .delete(let index): sectionRemovals.append(index)
        case .insert(let index): sectionPlacements.append((index, nil))
        case .move(let from, let to):
            sectionRemovals.append(from)
            sectionPlacements.append((to, from))
        case .update(let index): sectionUpdates.insert(index)
        }
    }
    guard Set(sectionRemovals).count == sectionRemovals.count else { return nil }
    // Items may not be edited inside deleted sections.
    let deletedSections = Set(change.sectionEdits.compactMap { if case .delete(let index) = $0 { return index } else { return nil } })
    if itemRemovals.contains(where: { deletedSections.contains($0.section) }) { return nil }
    var moved: [Int: (old: Int?, value: S, items: [Tagged])] = [:]
    for index in sectionRemovals.sorted(by: >) {
        guard sections.indices.contains(index) else { return nil }
        moved[index] = sections.remove(at: index)
    }
    let insertedSections = Set(change.sectionEdits.compactMap { if case .insert(let index) = $0 { return index } else { return nil } })
    for (to, from) in sectionPlacements.sorted(by: { $0.to < $1.to }) {
        guard to <= sections.count, to < new.count else { return nil }
        if let from {
            sections.insert(moved[from]!, at: to)
        } else {
            let model = new[to]
            sections.insert((nil, model.section, model.items.map { (nil, $0) }), at: to)
        }
    }
    guard sections.count == new.count else { return nil }
    for (to, from) in itemPlacements.sorted(by: { $0.to < $1.to }) {
        guard !insertedSections.contains(to.section), sections.indices.contains(to.section),
              to.item <= sections[to.section].items.count, new[to.section].items.indices.contains(to.item) else { return nil }
        if let from {
            guard old.indices.contains(from.section), old[from.section].items.indices.contains(from.item) else { return nil }
            sections[to.section].items.insert((from, old[from.section].items[from.item]), at: to.item)
        } else {
            sections[to.section].items.insert((nil, new[to.section].items[to.item]), at: to.item)
        }
    }
    var result: [SectionModel<S, I>] = []
    for (index, section) in sections.enumerated() {
        guard section.items.count == new[index].items.count else { return nil }
        let value = section.old.map { sectionUpdates.contains($0) } == true ? new[index].section : section.value
        let items = section.items.enumerated().map { item, tagged in
            tagged.old.map { itemUpdates.contains($0) } == true ? new[index].items[item] : tagged.value
        }
        result.append(SectionModel(value, items: items))
    }
    return result
}

func assertApplies<S: Equatable, I: Equatable>(
    _ change: SectionedChange<S, I>, to old: [SectionModel<S, I>], _ context: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    guard !change.isInitial else { return }
    let simulated = simulateSectionedBatch(change, from: old)
    XCTAssertEqual(simulated, change.sections, "batch update \(change) from \(old) \(context())", file: file, line: line)
    if simulated == change.sections {
        var applied = old
        change.apply(to: &applied)
        XCTAssertEqual(applied, change.sections, "apply(to:) \(context())", file: file, line: line)
    }
}

/// `SectionedChange` diffing and `ObservableSections`.
final class CollectionsSectionsTests: RippleTestCase {
    typealias Model = SectionModel<String, Item>

    func testItemsMovingBetweenSections() {
        let old = [SectionModel("A", items: [1, 2]), SectionModel("B", items: [3])]
        let new = [SectionModel("A", items: [2]), SectionModel("B", items: [3, 1])]
        let change = SectionedChange(from: old, to: new)
        XCTAssertEqual(change.sectionEdits, [])
        XCTAssertEqual(change.itemEdits, [.move(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 1, item: 1))])
        assertApplies(change, to: old)
    }

    func testItemsOfInsertedAndDeletedSectionsAreNotListed() {
        let old = [SectionModel("A", items: [1]), SectionModel("B", items: [2, 3])]
        let new = [SectionModel("C", items: [4, 5]), SectionModel("A", items: [1])]
        let change = SectionedChange(from: old, to: new)
        XCTAssertEqual(change.sectionEdits, [.delete(1), .insert(0)])
        XCTAssertEqual(change.itemEdits, [])
        assertApplies(change, to: old)
    }

    func testAMovedSectionKeepsItsItemsAndTheirEditsUseOldAndNewIndices() {
        let old = [SectionModel("A", items: [1]), SectionModel("B", items: [2, 3])]
        let new = [SectionModel("B", items: [3, 4]), SectionModel("A", items: [1])]
        let change = SectionedChange(from: old, to: new)
        XCTAssertEqual(change.sectionEdits, [.move(from: 1, to: 0)])
        XCTAssertEqual(change.itemEdits, [.delete(ItemPath(section: 1, item: 0)), .insert(ItemPath(section: 0, item: 1))])
        assertApplies(change, to: old)
    }

    func testUpdatesOfSectionValuesAndItems() {
        struct Header: Identifiable, Equatable { var id: Int; var title: String }
        let old = [SectionModel(Header(id: 1, title: "a"), items: [Item(1, "x")])]
        let new = [SectionModel(Header(id: 1, title: "b"), items: [Item(1, "y")])]
        let change = SectionedChange(from: old, to: new)
        XCTAssertEqual(change.sectionEdits, [.update(0)])
        XCTAssertEqual(change.itemEdits, [.update(ItemPath(section: 0, item: 0))])
        var applied = old
        change.apply(to: &applied)
        XCTAssertEqual(applied.map(\.section.title), ["b"])
        XCTAssertEqual(applied[0].items, [Item(1, "y")])
    }

    func testPropertyRandomSectionedDiffsApply() {
        var random = SeededRandomNumberGenerator(seed: 155)
        func randomSections() -> [Model] {
            (0..<Int.random(in: 0...4, using: &random)).map { _ in
                SectionModel(["A", "B", "C", "D", "E"].randomElement(using: &random)!,
                             items: random.array(maxCount: 6, values: 10).map { Item($0, ["a", "b"].randomElement(using: &random)!) })
            }
        }
        func edited(_ sections: [Model]) -> [Model] {
            var result = sections
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                switch Int.random(in: 0..<5, using: &random) {
                case 0: result.insert(SectionModel("F", items: [Item(Int.random(in: 0..<10, using: &random))]),
                                      at: Int.random(in: 0...result.count, using: &random))
                case 1 where !result.isEmpty: result.remove(at: Int.random(in: 0..<result.count, using: &random))
                case 2 where result.count > 1:
                    let section = result.remove(at: Int.random(in: 0..<result.count, using: &random))
                    result.insert(section, at: Int.random(in: 0...result.count, using: &random))
                case 3 where result.count > 1:
                    // An item moves to another section.
                    let from = Int.random(in: 0..<result.count, using: &random)
                    guard !result[from].items.isEmpty else { continue }
                    let item = result[from].items.remove(at: Int.random(in: 0..<result[from].items.count, using: &random))
                    let to = Int.random(in: 0..<result.count, using: &random)
                    result[to].items.insert(item, at: Int.random(in: 0...result[to].items.count, using: &random))
                default:
                    guard !result.isEmpty else { continue }
                    let section = Int.random(in: 0..<result.count, using: &random)
                    let ids = random.edited(result[section].items.map(\.id), values: 10)
                    result[section].items = ids.map { Item($0, ["a", "b"].randomElement(using: &random)!) }
                }
            }
            return result
        }
        for round in 0..<3_000 {
            let old = randomSections()
            let new = Int.random(in: 0..<4, using: &random) == 0 ? randomSections() : edited(old)
            let change = SectionedChange(from: old, to: new, sectionID: { $0 }, itemID: \.id)
            assertApplies(change, to: old, "round \(round)")
            if old == new { XCTAssertTrue(change.isEmpty, "round \(round)") }
        }
    }

    // MARK: ObservableSections

    func testEachMutationIsOneChange() {
        let list = ObservableSections<String, Item>([SectionModel("A", items: [Item(1)])], sectionID: { $0 }, itemID: \.id)
        let recorder = Recorder<SectionedChange<String, Item>>()
        let subscription = list.changes.subscribe(onNext: { recorder.append($0) })
        list.appendSection(SectionModel("B", items: []))
        list.append(Item(2), toSection: 1)
        list.insert(Item(3), at: ItemPath(section: 0, item: 0))
        list[ItemPath(section: 0, item: 1)] = Item(1, "changed")
        list.move(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 1, item: 0))
        XCTAssertEqual(list.remove(at: ItemPath(section: 1, item: 1)), Item(2))
        list.moveSection(from: 1, to: 0)
        list.insertSection(SectionModel("C", items: [Item(9)]), at: 1)
        list.removeSection(at: 2)
        list.replace(with: [SectionModel("C", items: [Item(9), Item(3)])])
        list.batchUpdate { $0.append(SectionModel("D", items: [])) }
        let changes = recorder.values
        XCTAssertEqual(changes.count, 12)
        XCTAssertTrue(changes[0].isInitial)
        XCTAssertEqual(changes[4].itemEdits, [.update(ItemPath(section: 0, item: 1))])
        XCTAssertEqual(changes[5].itemEdits, [.move(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 1, item: 0))])
        for index in 1..<changes.count {
            assertApplies(changes[index], to: changes[index - 1].sections, "change \(index)")
        }
        XCTAssertEqual(list.value, [SectionModel("C", items: [Item(9), Item(3)]), SectionModel("D", items: [])])
        subscription.dispose()
    }
}
