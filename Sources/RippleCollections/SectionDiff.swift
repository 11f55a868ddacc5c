import Ripple
/// The diff engine for sectioned lists, on top of ``ArrayDiff``.
///
/// 1. Sections are diffed as an array (identity `sectionID`, update when the
///    section value differs): section inserts, deletes, moves and updates.
/// 2. The sections that exist before and after (matched, and not reported as a
///    delete and an insert) carry their items. Items of all those sections are
///    matched by `itemID` in one pass over the flattened lists (so an item can
///    move to another section); duplicates pair in order of occurrence.
/// 3. Per section, matched items that stayed in that section and whose old
///    positions increase along the new order stay (a longest increasing
///    subsequence); the others move. An item that moved and changed is deleted
///    and inserted; one that stayed and changed is updated.
@usableFromInline
enum SectionDiff {
    @_alwaysEmitIntoClient
    static func change<Section, Item, SectionID: Hashable, ItemID: Hashable>(
        from old: [SectionModel<Section, Item>], to new: [SectionModel<Section, Item>],
        sectionID: (Section) -> SectionID, itemID: (Item) -> ItemID,
        isSectionUpdated: ((Section, Section) -> Bool)?, isItemUpdated: ((Item, Item) -> Bool)?
    ) -> SectionedChange<Section, Item> {
        let sectionNewToOld = ArrayDiff.match(old, new) { sectionID($0.section) }
        let sectionEdits: [ArrayEdit]
        if let isSectionUpdated {
            sectionEdits = ArrayDiff.batch(oldCount: old.count, newToOld: sectionNewToOld) {
                isSectionUpdated(old[$0].section, new[$1].section)
            }
        } else {
            sectionEdits = ArrayDiff.batch(oldCount: old.count, newToOld: sectionNewToOld, isUpdated: nil)
        }
        // Sections that carry their items: matched, not deleted (a section that
        // moved and changed is deleted and inserted).
        var isDeleted = [Bool](repeating: false, count: old.count)
        for case .delete(let index) in sectionEdits { isDeleted[index] = true }
        var newSectionOf = [Int](repeating: -1, count: old.count)
        var oldSectionOf = [Int](repeating: -1, count: new.count)
        for (newIndex, oldIndex) in sectionNewToOld.enumerated() where oldIndex >= 0 && !isDeleted[oldIndex] {
            newSectionOf[oldIndex] = newIndex
            oldSectionOf[newIndex] = oldIndex
        }
        // Flatten the items of those sections.
        var oldPaths: [ItemPath] = []
        var oldIDs: [ItemID] = []
        for (section, model) in old.enumerated() where newSectionOf[section] >= 0 {
            for (item, value) in model.items.enumerated() {
                oldPaths.append(ItemPath(section: section, item: item))
                oldIDs.append(itemID(value))
            }
        }
        var newPaths: [ItemPath] = []
        var newIDs: [ItemID] = []
        for (section, model) in new.enumerated() where oldSectionOf[section] >= 0 {
            for (item, value) in model.items.enumerated() {
                newPaths.append(ItemPath(section: section, item: item))
                newIDs.append(itemID(value))
            }
        }
        let flatNewToOld = ArrayDiff.match(oldIDs, newIDs) { $0 }
        var isOldMatched = [Bool](repeating: false, count: oldPaths.count)
        // Per new section: for each item, the old item index if it came from the
        // same (carried) section, else -1; then the items that stay.
        var stays = [[Bool]](repeating: [], count: new.count)
        var start = 0
        while start < newPaths.count {
            let section = newPaths[start].section
            var end = start
            while end < newPaths.count && newPaths[end].section == section { end += 1 }
            let oldSection = oldSectionOf[section]
            let local = (start..<end).map { flat -> Int in
                let match = flatNewToOld[flat]
                return match >= 0 && oldPaths[match].section == oldSection ? oldPaths[match].item : -1
            }
            stays[section] = ArrayDiff.longestIncreasingRun(local, oldCount: old[oldSection].items.count)
            start = end
        }
        var deletes: [ItemPath] = []
        var inserts: [ItemPath] = []
        var moves: [ItemEdit] = []
        var updates: [ItemPath] = []
        for (flat, match) in flatNewToOld.enumerated() {
            let to = newPaths[flat]
            guard match >= 0 else {
                inserts.append(to)
                continue
            }
            isOldMatched[match] = true
            let from = oldPaths[match]
            let changed = isItemUpdated.map { $0(old[from.section].items[from.item], new[to.section].items[to.item]) } ?? false
            let stayed = newSectionOf[from.section] == to.section && stays[to.section][from.item]
            switch (stayed, changed) {
            case (true, true): updates.append(from)
            case (true, false): break
            case (false, true):
                deletes.append(from)
                inserts.append(to)
            case (false, false): moves.append(.move(from: from, to: to))
            }
        }
        for (flat, path) in oldPaths.enumerated() where !isOldMatched[flat] {
            deletes.append(path)
        }
        deletes.sort()
        inserts.sort()
        updates.sort()
        let itemEdits = deletes.map { ItemEdit.delete($0) } + inserts.map { ItemEdit.insert($0) } + moves + updates.map { ItemEdit.update($0) }
        return SectionedChange(sections: new, sectionEdits: sectionEdits, itemEdits: itemEdits)
    }
}

extension SectionedChange where Section: Equatable, Item: Equatable {
    /// The change from `old` to `new`, by diffing: `sectionID` and `itemID`
    /// decide which sections and items are the same (inserts, deletes, moves,
    /// items moving between sections); the same identity with different
    /// contents is an update. Duplicates pair in order of occurrence.
    public init<SectionID: Hashable, ItemID: Hashable>(
        from old: [SectionModel<Section, Item>], to new: [SectionModel<Section, Item>],
        sectionID: (Section) -> SectionID, itemID: (Item) -> ItemID
    ) {
        self = SectionDiff.change(from: old, to: new, sectionID: sectionID, itemID: itemID, isSectionUpdated: !=, isItemUpdated: !=)
    }
}

extension SectionedChange where Section: Identifiable & Equatable, Item: Identifiable & Equatable {
    /// The change from `old` to `new`, by diffing on the sections' and items' `id`.
    public init(from old: [SectionModel<Section, Item>], to new: [SectionModel<Section, Item>]) {
        self.init(from: old, to: new, sectionID: \.id, itemID: \.id)
    }
}

extension SectionedChange where Section: Hashable, Item: Hashable {
    /// The change from `old` to `new`, by diffing: sections and items are their
    /// own identity (no updates).
    public init(from old: [SectionModel<Section, Item>], to new: [SectionModel<Section, Item>]) {
        self = SectionDiff.change(from: old, to: new, sectionID: { $0 }, itemID: { $0 }, isSectionUpdated: nil, isItemUpdated: nil)
    }
}

extension SectionedChange where Section: Identifiable & Hashable, Item: Identifiable & Hashable {
    /// The change from `old` to `new` when sections and items are both
    /// `Identifiable` and `Hashable`: identity is the `id` (chosen over the
    /// `Hashable` overload), so the same `id` with other contents is an update.
    public init(from old: [SectionModel<Section, Item>], to new: [SectionModel<Section, Item>]) {
        self.init(from: old, to: new, sectionID: \.id, itemID: \.id)
    }
}

extension ObservableType {
    /// Turns a stream of sectioned lists into a stream of ``SectionedChange``s:
    /// the first list as an initial change, then the section and item edits from
    /// each list to the next, found by diffing (see
    /// ``SectionedChange/init(from:to:sectionID:itemID:)``).
    ///
    /// ```
    /// source:   --[A:[1,2]]------[A:[2], B:[1]]----------------|
    /// changes:  --initial--------insert(1), move([0,0]→[1,0])--|
    /// ```
    ///
    /// A list that brings no edits sends nothing. Completes and fails with the
    /// source.
    public func changes<Section: Equatable, Item: Equatable, SectionID: Hashable, ItemID: Hashable>(
        sectionID: @escaping (Section) -> SectionID, itemID: @escaping (Item) -> ItemID
    ) -> Observable<SectionedChange<Section, Item>> where Element == [SectionModel<Section, Item>] {
        statefulMap({ nil as [SectionModel<Section, Item>]? }) { previous, sections in
            defer { previous = sections }
            guard let old = previous else { return .initial(sections) }
            let change = SectionedChange(from: old, to: sections, sectionID: sectionID, itemID: itemID)
            return change.isEmpty ? nil : change
        }
    }

    /// ``changes(sectionID:itemID:)`` with the sections' and items' `id`.
    public func changes<Section: Identifiable & Equatable, Item: Identifiable & Equatable>()
        -> Observable<SectionedChange<Section, Item>> where Element == [SectionModel<Section, Item>] {
        changes(sectionID: \.id, itemID: \.id)
    }
}
