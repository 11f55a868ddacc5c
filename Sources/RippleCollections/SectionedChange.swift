import Ripple
/// A section of a sectioned list: the section's own value (its header, say)
/// and its items. The element of ``ObservableSections`` and of the streams
/// `changes(sectionID:itemID:)` diffs.
public struct SectionModel<Section, Item> {
    /// The section's own value.
    public var section: Section
    /// The items of the section, in order.
    public var items: [Item]

    /// A section with the value `section` and the items `items`.
    public init(_ section: Section, items: [Item]) {
        self.section = section
        self.items = items
    }
}

extension SectionModel: Sendable where Section: Sendable, Item: Sendable {}
extension SectionModel: Equatable where Section: Equatable, Item: Equatable {}
extension SectionModel: Hashable where Section: Hashable, Item: Hashable {}

/// The position of an item in a sectioned list: the section index, then the
/// item index within the section (what `IndexPath(item:section:)` holds).
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section's index.
    public var section: Int
    /// The item's index within its section.
    public var item: Int

    /// The path of item `item` of section `section`.
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Section first, then item.
    public static func < (left: ItemPath, right: ItemPath) -> Bool {
        (left.section, left.item) < (right.section, right.item)
    }

    /// `[section, item]`, as `IndexPath` prints.
    public var description: String { "[\(section), \(item)]" }
}

/// An item-level step of a ``SectionedChange``, addressed like the item edits
/// of a UIKit batch update: deletes, updates and move sources by their path
/// *before* the change, inserts and move destinations by their path *after* it.
public enum ItemEdit: Hashable, Sendable {
    /// The item at this path of the *new* list was inserted.
    case insert(ItemPath)
    /// The item at this path of the *old* list was removed.
    case delete(ItemPath)
    /// The item at this path of the *old* list has new contents and did not move.
    case update(ItemPath)
    /// The item at `from` (old path) is, unchanged, at `to` (new path), possibly
    /// in another section.
    case move(from: ItemPath, to: ItemPath)
}

extension ItemEdit: CustomStringConvertible {
    /// `insert([0, 2])`, `move([1, 0]→[0, 3])`, ...
    public var description: String {
        switch self {
        case .insert(let path): return "insert(\(path))"
        case .delete(let path): return "delete(\(path))"
        case .update(let path): return "update(\(path))"
        case .move(let from, let to): return "move(\(from)→\(to))"
        }
    }
}

/// One change of a sectioned list: the sections after the change, the edits
/// of the sections, and the edits of the items, together one batch update.
///
/// ## The convention (UIKit's `performBatchUpdates`)
/// ```
/// sectionEdits  .delete(s)  .update(s)  .move(from: s, …)   old section indices
///               .insert(t)              .move(…, to: t)     new section indices
/// itemEdits     .delete(p)  .update(p)  .move(from: p, …)   old paths (old section index)
///               .insert(q)              .move(…, to: q)     new paths (new section index)
/// ```
/// - The items of a deleted section and of an inserted section are not listed:
///   deleting or inserting the section covers them.
/// - Items move only between sections that exist before *and* after the
///   change; a section that moved keeps its items, and their edits name it by
///   its old index (deletes, updates, move sources) or its new index (inserts,
///   move destinations), as UIKit expects.
/// - A section `.update` means the section's own value changed (refresh its
///   header); its items are described by the item edits, so do not reload the
///   whole section.
/// - A section or item that both moved and changed is deleted and inserted.
///
/// ``apply(to:)`` performs exactly this reading on the previous sections.
public struct SectionedChange<Section, Item> {
    /// The sections after the change.
    public let sections: [SectionModel<Section, Item>]
    /// The edits of the sections (see the type's documentation).
    public let sectionEdits: [ArrayEdit]
    /// The edits of the items (see the type's documentation).
    public let itemEdits: [ItemEdit]
    /// `true` for the first change of a stream: ``sections`` is the whole list,
    /// with no edits.
    public let isInitial: Bool

    /// A change to `sections` made of these edits (not an initial change).
    public init(sections: [SectionModel<Section, Item>], sectionEdits: [ArrayEdit], itemEdits: [ItemEdit]) {
        self.sections = sections
        self.sectionEdits = sectionEdits
        self.itemEdits = itemEdits
        self.isInitial = false
    }

    init(initial sections: [SectionModel<Section, Item>]) {
        self.sections = sections
        self.sectionEdits = []
        self.itemEdits = []
        self.isInitial = true
    }

    /// The first change of a stream: all of `sections`, no edits.
    public static func initial(_ sections: [SectionModel<Section, Item>]) -> SectionedChange {
        SectionedChange(initial: sections)
    }

    /// `true` if the change has no edits at all.
    public var isEmpty: Bool { sectionEdits.isEmpty && itemEdits.isEmpty }

    /// Turns `previous`, the sections before this change, into ``sections``,
    /// reading the edits as a batch update does: inserted and updated sections
    /// and items are taken from ``sections``, everything else is kept from
    /// `previous`.
    ///
    /// - Precondition: the edits describe a change from `previous` to
    ///   ``sections``.
    public func apply(to previous: inout [SectionModel<Section, Item>]) {
        guard let result = applying(to: previous) else {
            preconditionFailure(
                "SectionedChange.apply(to:): edits \(sectionEdits) / \(itemEdits) do not turn the \(previous.count) previous sections into the \(sections.count) new ones")
        }
        previous = result
    }

    /// ``apply(to:)`` without the precondition: `nil` if the edits do not fit.
    func applying(to previous: [SectionModel<Section, Item>]) -> [SectionModel<Section, Item>]? {
        if isInitial { return sections }
        guard let sectionMapping = EditMapping(oldCount: previous.count, newCount: sections.count, edits: sectionEdits) else {
            return nil
        }
        // Old section -> new section for the sections whose items carry over.
        var newSectionOf = [Int](repeating: -1, count: previous.count)
        for (new, old) in sectionMapping.newToOld.enumerated() where old >= 0 {
            newSectionOf[old] = new
        }
        // Item edits, per new section, as array edits of that section;
        // cross-section moves become a delete in the source section and an
        // insert (of the old item) in the destination.
        var perSection = [[ArrayEdit]](repeating: [], count: sections.count)
        var deletesOf = [[ArrayEdit]](repeating: [], count: previous.count)
        var movedIn: [ItemPath: ItemPath] = [:]
        func carries(_ old: Int) -> Bool { old >= 0 && old < previous.count && newSectionOf[old] >= 0 }
        func carriesNew(_ new: Int) -> Bool { new >= 0 && new < sections.count && sectionMapping.newToOld[new] >= 0 }
        for edit in itemEdits {
            switch edit {
            case .delete(let path):
                guard carries(path.section) else { return nil }
                deletesOf[path.section].append(.delete(path.item))
            case .update(let path):
                guard carries(path.section) else { return nil }
                deletesOf[path.section].append(.update(path.item))
            case .insert(let path):
                guard carriesNew(path.section) else { return nil }
                perSection[path.section].append(.insert(path.item))
            case .move(let from, let to):
                guard carries(from.section), carriesNew(to.section) else { return nil }
                if newSectionOf[from.section] == to.section {
                    perSection[to.section].append(.move(from: from.item, to: to.item))
                } else {
                    deletesOf[from.section].append(.delete(from.item))
                    perSection[to.section].append(.insert(to.item))
                    movedIn[to] = from
                }
            }
        }
        var result: [SectionModel<Section, Item>] = []
        result.reserveCapacity(sections.count)
        for (new, target) in sections.enumerated() {
            let old = sectionMapping.newToOld[new]
            guard old >= 0 else {
                result.append(target)
                continue
            }
            let source = previous[old]
            guard let mapping = EditMapping(
                oldCount: source.items.count, newCount: target.items.count, edits: deletesOf[old] + perSection[new]
            ) else { return nil }
            let items = mapping.apply(to: source.items) { item -> Item in
                if let from = movedIn[ItemPath(section: new, item: item)] {
                    return previous[from.section].items[from.item]
                }
                return target.items[item]
            }
            result.append(SectionModel(sectionMapping.isUpdated[old] ? target.section : source.section, items: items))
        }
        return result
    }
}

extension SectionedChange: Sendable where Section: Sendable, Item: Sendable {}
extension SectionedChange: Equatable where Section: Equatable, Item: Equatable {}

extension SectionedChange: CustomStringConvertible {
    /// The edits, for logs and test failures.
    public var description: String {
        isInitial ? "initial \(sections.count) sections" : "sections \(sectionEdits), items \(itemEdits)"
    }
}
