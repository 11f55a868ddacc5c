import Ripple
/// A thread-safe sectioned list that you mutate and observe: the
/// ``ObservableArray`` of lists with sections (the RxDataSources use case).
///
/// Each mutation is one ``SectionedChange`` for the subscribers of ``changes``,
/// with section edits and item edits addressed by ``ItemPath``, together one
/// UIKit batch update (see ``SectionedChange`` for the convention).
///
/// ```swift
/// let inbox = ObservableSections<String, Mail>(
///     [SectionModel("Today", items: []), SectionModel("Earlier", items: old)],
///     sectionID: { $0 }, itemID: \.id)
/// inbox.insert(mail, at: ItemPath(section: 0, item: 0))   // insert([0, 0])
/// inbox.move(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 1, item: 0))
/// inbox.replace(with: fetched)                             // diffed
/// ```
///
/// Single mutations produce their edits directly; ``replace(with:)`` and
/// ``batchUpdate(_:)`` find them by diffing with the identities given at
/// creation. Mutations may come from any thread; changes reach each subscriber
/// one at a time, in mutation order, never under a lock, on the thread that
/// mutates (or one already delivering an earlier change). A bad index stops with
/// a precondition failure naming the method, the index and the count.
public final class ObservableSections<Section, Item>: @unchecked Sendable {
    /// A section and its items.
    public typealias Model = SectionModel<Section, Item>

    let store: ChangeStore<[Model], SectionedChange<Section, Item>>

    let diff: ([Model], [Model]) -> SectionedChange<Section, Item>

    /// A list holding `sections`, whose sections and items are identified by
    /// `sectionID` and `itemID` when a change is found by diffing.
    public init<SectionID: Hashable, ItemID: Hashable>(
        _ sections: [Model] = [], sectionID: @escaping (Section) -> SectionID, itemID: @escaping (Item) -> ItemID
    ) where Section: Equatable, Item: Equatable {
        store = ChangeStore(sections, typeName: "ObservableSections") { .initial($0) }
        diff = { SectionedChange(from: $0, to: $1, sectionID: sectionID, itemID: itemID) }
    }

    /// A list holding `sections`, identified by the sections' and items' `id`.
    public convenience init(_ sections: [Model] = []) where Section: Identifiable & Equatable, Item: Identifiable & Equatable {
        self.init(sections, sectionID: \.id, itemID: \.id)
    }

    // MARK: Reading

    /// A snapshot of the sections.
    public var value: [Model] {
        store.read("value") { $0 }
    }

    /// The number of sections.
    public var sectionCount: Int {
        store.read("sectionCount") { $0.count }
    }

    /// The item at `path`; assigning replaces it: `.update(path)`.
    public subscript(path: ItemPath) -> Item {
        get {
            store.read("subscript") { sections in
                Self.check(path, in: sections, "subscript")
                return sections[path.section].items[path.item]
            }
        }
        set {
            // The item replaced is returned, to be released after the lock (its
            // `deinit` may use this list; see "User code" in `ChangeStore`).
            _ = store.mutate("subscript") { sections in
                Self.check(path, in: sections, "subscript")
                let replaced = sections[path.section].items[path.item]
                sections[path.section].items[path.item] = newValue
                return (SectionedChange(sections: sections, sectionEdits: [], itemEdits: [.update(path)]), replaced)
            }
        }
    }

    // MARK: Observing

    /// The changes of the list: at once, an initial change with the current
    /// sections; then one change per mutation. Never fails or completes.
    ///
    /// "At once" means before `subscribe` returns, on the subscribing thread, even
    /// while another thread is delivering changes: that thread parks the later
    /// changes for the new subscriber, which receives them after its initial
    /// change, in order, before `subscribe` returns.
    public var changes: Observable<SectionedChange<Section, Item>> {
        store.changes
    }

    /// The sections after each change, starting with the current ones.
    public func asObservable() -> Observable<[Model]> {
        changes.map { $0.sections }
    }

    // MARK: Sections

    /// Adds `section` at the end: a section `.insert`.
    public func appendSection(_ section: Model) {
        store.mutate("appendSection(_:)") { sections in
            sections.append(section)
            return (Self.sectionChange(sections, [.insert(sections.count - 1)]), ())
        }
    }

    /// Inserts `section` at `index` (`0...sectionCount`).
    public func insertSection(_ section: Model, at index: Int) {
        store.mutate("insertSection(_:at:)") { sections in
            precondition(index >= 0 && index <= sections.count,
                         collectionIndexMessage("ObservableSections.insertSection(_:at:)", index: index, count: sections.count, allowsEnd: true))
            sections.insert(section, at: index)
            return (Self.sectionChange(sections, [.insert(index)]), ())
        }
    }

    /// Removes and returns the section at `index`, with its items.
    @discardableResult
    public func removeSection(at index: Int) -> Model {
        store.mutate("removeSection(at:)") { sections in
            precondition(index >= 0 && index < sections.count,
                         collectionIndexMessage("ObservableSections.removeSection(at:)", index: index, count: sections.count, allowsEnd: false))
            let removed = sections.remove(at: index)
            return (Self.sectionChange(sections, [.delete(index)]), removed)
        }
    }

    /// Moves the section at `from` so that it ends up at `to`, with its items.
    public func moveSection(from: Int, to: Int) {
        store.mutate("moveSection(from:to:)") { sections in
            for index in [from, to] {
                precondition(index >= 0 && index < sections.count,
                             collectionIndexMessage("ObservableSections.moveSection(from:to:)", index: index, count: sections.count, allowsEnd: false))
            }
            guard from != to else { return (nil, ()) }
            sections.insert(sections.remove(at: from), at: to)
            return (Self.sectionChange(sections, [.move(from: from, to: to)]), ())
        }
    }

    // MARK: Items

    /// Adds `item` at the end of section `section`.
    public func append(_ item: Item, toSection section: Int) {
        store.mutate("append(_:toSection:)") { sections in
            precondition(section >= 0 && section < sections.count,
                         collectionIndexMessage("ObservableSections.append(_:toSection:)", index: section, count: sections.count, allowsEnd: false))
            sections[section].items.append(item)
            let path = ItemPath(section: section, item: sections[section].items.count - 1)
            return (SectionedChange(sections: sections, sectionEdits: [], itemEdits: [.insert(path)]), ())
        }
    }

    /// Inserts `item` at `path` (its item index may be the section's count).
    public func insert(_ item: Item, at path: ItemPath) {
        store.mutate("insert(_:at:)") { sections in
            Self.check(path, in: sections, "insert(_:at:)", allowsEnd: true)
            sections[path.section].items.insert(item, at: path.item)
            return (SectionedChange(sections: sections, sectionEdits: [], itemEdits: [.insert(path)]), ())
        }
    }

    /// Removes and returns the item at `path`.
    @discardableResult
    public func remove(at path: ItemPath) -> Item {
        store.mutate("remove(at:)") { sections in
            Self.check(path, in: sections, "remove(at:)")
            let removed = sections[path.section].items.remove(at: path.item)
            return (SectionedChange(sections: sections, sectionEdits: [], itemEdits: [.delete(path)]), removed)
        }
    }

    /// Moves the item at `from` so that it ends up at `to`, in the same or
    /// another section (`to` is a path in the list after the move).
    public func move(from: ItemPath, to: ItemPath) {
        store.mutate("move(from:to:)") { sections in
            Self.check(from, in: sections, "move(from:to:)")
            // `to` is checked against the list after the removal, before anything changes.
            var afterRemoval = sections
            afterRemoval[from.section].items.removeLast()
            Self.check(to, in: afterRemoval, "move(from:to:)", allowsEnd: true)
            guard from != to else { return (nil, ()) }
            let item = sections[from.section].items.remove(at: from.item)
            sections[to.section].items.insert(item, at: to.item)
            return (SectionedChange(sections: sections, sectionEdits: [], itemEdits: [.move(from: from, to: to)]), ())
        }
    }

    // MARK: Diffed mutations

    /// Replaces the whole list with `sections`, delivered as the *diff* from the
    /// current list (not as a reset). Sends nothing if nothing changed.
    public func replace(with sections: [Model]) {
        // The sections replaced are returned, to be released after the lock.
        _ = store.mutate("replace(with:)") { current in
            let change = diff(current, sections)
            let replaced = current
            current = sections
            return (change.isEmpty ? nil : change, replaced)
        }
    }

    /// Makes any number of changes to the sections, delivered as **one** change
    /// found by diffing the list before and after (with the identities given at
    /// creation). If `body` throws, nothing changes; if it changes nothing,
    /// nothing is sent.
    ///
    /// `body` runs while the list is locked (other threads wait); it must not
    /// use this `ObservableSections`.
    @discardableResult
    public func batchUpdate<Result>(_ body: (inout [Model]) throws -> Result) rethrows -> Result {
        // `sections` ends up holding what was replaced (or what `body` made
        // before it threw), released after the lock.
        let (outcome, _) = store.mutate("batchUpdate(_:)", runsUserCode: true) {
            current -> (SectionedChange<Section, Item>?, (Swift.Result<Result, any Error>, [Model])) in
            var sections = current
            let result: Result
            do {
                result = try body(&sections)
            } catch {
                return (nil, (.failure(error), sections))
            }
            let change = diff(current, sections)
            swap(&current, &sections)
            return (change.isEmpty ? nil : change, (.success(result), sections))
        }
        return try rethrowing(outcome, rescue: { throw $0 })
    }

    static func sectionChange(_ sections: [Model], _ edits: [ArrayEdit]) -> SectionedChange<Section, Item> {
        SectionedChange(sections: sections, sectionEdits: edits, itemEdits: [])
    }

    static func check(_ path: ItemPath, in sections: [Model], _ method: String, allowsEnd: Bool = false) {
        precondition(path.section >= 0 && path.section < sections.count,
                     collectionIndexMessage("ObservableSections.\(method) section", index: path.section, count: sections.count, allowsEnd: false))
        let count = sections[path.section].items.count
        precondition(path.item >= 0 && (allowsEnd ? path.item <= count : path.item < count),
                     collectionIndexMessage("ObservableSections.\(method) item of section \(path.section)", index: path.item, count: count, allowsEnd: allowsEnd))
    }
}
