#if os(iOS) || os(tvOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleUIKitInterface
#else
import UIKit
#endif
import Foundation
import Ripple

// Ripple's observable collections on table and collection views: each
// `ArrayChange`/`SectionedChange` is one animated batch update, its edits
// handed over as they are (they are addressed the way UIKit reads a batch:
// deletes, updates and move sources by old index, inserts and move
// destinations by new index; see the Collections guide).

/// A table view data source for `ArrayChange`s (`observableArray.changes`,
/// `observable.changes()`, derived views): the initial change reloads the
/// table, every later change is one `performBatchUpdates` with its edits.
@MainActor
public final class TableViewArrayChangeDataSource<Element>: NSObject, UITableViewDataSource,
    RxTableViewDataSourceType, SectionedViewDataSourceType, UserMoveFollowing {
    /// The animation of inserted, deleted and reloaded rows.
    public var animation: UITableView.RowAnimation = .automatic
    /// Makes the cell of `row` for `element`.
    public let cellFactory: (UITableView, Int, Element) -> UITableViewCell
    /// The elements shown.
    public private(set) var elements: [Element]?
    private var pendingUserMoves: [ArrayEdit] = []

    /// A data source whose cells `cellFactory(tableView, row, element)` makes.
    public init(cellFactory: @escaping (UITableView, Int, Element) -> UITableViewCell) {
        self.cellFactory = cellFactory
        super.init()
    }

    /// Applies one change: the initial one (or the first one seen) reloads the
    /// table; a later one is one batch update with the change's edits.
    public func tableView(_ tableView: UITableView, observedEvent: Event<ArrayChange<Element>>) {
        guard case .next(let change) = observedEvent else { return }
        guard elements != nil, !change.isInitial else {
            elements = change.elements
            pendingUserMoves = []
            tableView.reloadData()
            return
        }
        // A move the user made on screen comes back from the model as a change
        // with that move: the table shows it already.
        if !pendingUserMoves.isEmpty, change.edits == [pendingUserMoves[0]] {
            pendingUserMoves.removeFirst()
            elements = change.elements
            return
        }
        pendingUserMoves = []
        if change.edits.isEmpty {
            elements = change.elements
            return
        }
        let animation = self.animation
        tableView.performBatchUpdates({
            self.elements = change.elements
            for edit in change.edits {
                switch edit {
                case .delete(let i): tableView.deleteRows(at: [IndexPath(row: i, section: 0)], with: animation)
                case .insert(let i): tableView.insertRows(at: [IndexPath(row: i, section: 0)], with: animation)
                case .update(let i): tableView.reloadRows(at: [IndexPath(row: i, section: 0)], with: animation)
                case .move(let from, let to): tableView.moveRow(at: IndexPath(row: from, section: 0), to: IndexPath(row: to, section: 0))
                }
            }
        }, completion: nil)
    }

    public func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        elements?.count ?? 0
    }

    public func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        cellFactory(tableView, indexPath.row, elements![indexPath.row])
    }

    /// The element shown at `indexPath`.
    public func model(at indexPath: IndexPath) throws -> Any {
        guard let elements else { throw RxCocoaError.itemsNotYetBound(object: self) }
        return elements[indexPath.row]
    }

    func userMoved(from source: IndexPath, to destination: IndexPath) {
        guard var elements, source.row != destination.row else { return }
        elements.insert(elements.remove(at: source.row), at: destination.row)
        self.elements = elements
        pendingUserMoves.append(.move(from: source.row, to: destination.row))
    }
}

/// A table view data source for `SectionedChange`s (`observableSections.changes`):
/// one section per `SectionModel`, the initial change reloads the table, every
/// later change is one batch update with its section and item edits.
@MainActor
public final class TableViewSectionedChangeDataSource<Section, Item>: NSObject, UITableViewDataSource,
    RxTableViewDataSourceType, SectionedViewDataSourceType {
    /// The animation of inserted, deleted and reloaded rows and sections.
    public var animation: UITableView.RowAnimation = .automatic
    /// Makes the cell at `indexPath` for `item`.
    public let cellFactory: (UITableView, IndexPath, Item) -> UITableViewCell
    /// The header title of a section, or `nil` for none.
    public var titleForHeaderInSection: ((Section) -> String?)?
    /// The sections shown.
    public private(set) var sections: [SectionModel<Section, Item>]?

    /// A data source whose cells `cellFactory(tableView, indexPath, item)` makes.
    public init(cellFactory: @escaping (UITableView, IndexPath, Item) -> UITableViewCell) {
        self.cellFactory = cellFactory
        super.init()
    }

    /// Applies one change: the initial one (or the first one seen) reloads the
    /// table; a later one is one batch update with the change's edits.
    public func tableView(_ tableView: UITableView, observedEvent: Event<SectionedChange<Section, Item>>) {
        guard case .next(let change) = observedEvent else { return }
        guard sections != nil, !change.isInitial else {
            sections = change.sections
            tableView.reloadData()
            return
        }
        guard !change.isEmpty else {
            sections = change.sections
            return
        }
        let animation = self.animation
        tableView.performBatchUpdates({
            self.sections = change.sections
            for edit in change.sectionEdits {
                switch edit {
                case .delete(let s): tableView.deleteSections(IndexSet(integer: s), with: animation)
                case .insert(let s): tableView.insertSections(IndexSet(integer: s), with: animation)
                // The section's own value changed (its header): its items have their own edits.
                case .update: break
                case .move(let from, let to): tableView.moveSection(from, toSection: to)
                }
            }
            for edit in change.itemEdits {
                switch edit {
                case .delete(let p): tableView.deleteRows(at: [IndexPath(row: p.item, section: p.section)], with: animation)
                case .insert(let p): tableView.insertRows(at: [IndexPath(row: p.item, section: p.section)], with: animation)
                case .update(let p): tableView.reloadRows(at: [IndexPath(row: p.item, section: p.section)], with: animation)
                case .move(let from, let to):
                    tableView.moveRow(at: IndexPath(row: from.item, section: from.section), to: IndexPath(row: to.item, section: to.section))
                }
            }
        }, completion: nil)
    }

    public func numberOfSections(in tableView: UITableView) -> Int {
        sections?.count ?? 0
    }

    public func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        sections?[section].items.count ?? 0
    }

    public func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        cellFactory(tableView, indexPath, sections![indexPath.section].items[indexPath.row])
    }

    public func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
        guard let sections, let title = titleForHeaderInSection else { return nil }
        return title(sections[section].section)
    }

    /// The item shown at `indexPath`.
    public func model(at indexPath: IndexPath) throws -> Any {
        guard let sections else { throw RxCocoaError.itemsNotYetBound(object: self) }
        return sections[indexPath.section].items[indexPath.row]
    }
}

/// A collection view data source for `ArrayChange`s: the initial change
/// reloads, every later change is one `performBatchUpdates` with its edits.
@MainActor
public final class CollectionViewArrayChangeDataSource<Element>: NSObject, UICollectionViewDataSource,
    RxCollectionViewDataSourceType, SectionedViewDataSourceType, UserMoveFollowing {
    /// Makes the cell of `item` for `element`.
    public let cellFactory: (UICollectionView, Int, Element) -> UICollectionViewCell
    /// The elements shown.
    public private(set) var elements: [Element]?
    private var pendingUserMoves: [ArrayEdit] = []

    /// A data source whose cells `cellFactory(collectionView, item, element)` makes.
    public init(cellFactory: @escaping (UICollectionView, Int, Element) -> UICollectionViewCell) {
        self.cellFactory = cellFactory
        super.init()
    }

    /// Applies one change (see ``TableViewArrayChangeDataSource``).
    public func collectionView(_ collectionView: UICollectionView, observedEvent: Event<ArrayChange<Element>>) {
        guard case .next(let change) = observedEvent else { return }
        guard elements != nil, !change.isInitial else {
            elements = change.elements
            pendingUserMoves = []
            collectionView.reloadData()
            return
        }
        if !pendingUserMoves.isEmpty, change.edits == [pendingUserMoves[0]] {
            pendingUserMoves.removeFirst()
            elements = change.elements
            return
        }
        pendingUserMoves = []
        if change.edits.isEmpty {
            elements = change.elements
            return
        }
        collectionView.performBatchUpdates({
            self.elements = change.elements
            for edit in change.edits {
                switch edit {
                case .delete(let i): collectionView.deleteItems(at: [IndexPath(item: i, section: 0)])
                case .insert(let i): collectionView.insertItems(at: [IndexPath(item: i, section: 0)])
                case .update(let i): collectionView.reloadItems(at: [IndexPath(item: i, section: 0)])
                case .move(let from, let to): collectionView.moveItem(at: IndexPath(item: from, section: 0), to: IndexPath(item: to, section: 0))
                }
            }
        }, completion: nil)
    }

    public func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        elements?.count ?? 0
    }

    public func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        cellFactory(collectionView, indexPath.item, elements![indexPath.item])
    }

    /// The element shown at `indexPath`.
    public func model(at indexPath: IndexPath) throws -> Any {
        guard let elements else { throw RxCocoaError.itemsNotYetBound(object: self) }
        return elements[indexPath.item]
    }

    func userMoved(from source: IndexPath, to destination: IndexPath) {
        guard var elements, source.item != destination.item else { return }
        elements.insert(elements.remove(at: source.item), at: destination.item)
        self.elements = elements
        pendingUserMoves.append(.move(from: source.item, to: destination.item))
    }
}

@MainActor
extension Reactive where Base: UITableView {
    /// Binds a stream of `ArrayChange`s (an `ObservableArray`'s `changes`, or
    /// `changes()` of a stream of arrays) to the table's rows: the initial
    /// change reloads the table, each later change is one animated batch
    /// update with exactly its edits. Each row's cell is dequeued with
    /// `cellIdentifier`, cast to `cellType` and given to `configureCell(row, element, cell)`.
    ///
    /// ```swift
    /// todos.changes
    ///     .bind(to: tableView.rx.items(cellIdentifier: "Todo", cellType: UITableViewCell.self)) { row, todo, cell in
    ///         cell.textLabel?.text = todo.title
    ///     }
    ///     .disposed(by: bag)
    /// ```
    public func items<Element, Cell: UITableViewCell, Source: ObservableType>(
        cellIdentifier: String, cellType: Cell.Type = Cell.self
    ) -> (_ source: Source) -> (_ configureCell: @escaping (Int, Element, Cell) -> Void) -> Disposable
    where Source.Element == ArrayChange<Element> {
        { source in
            { configureCell in
                let dataSource = TableViewArrayChangeDataSource<Element> { tableView, row, element in
                    let cell = tableView.dequeueReusableCell(withIdentifier: cellIdentifier, for: IndexPath(row: row, section: 0)) as! Cell
                    configureCell(row, element, cell)
                    return cell
                }
                return items(dataSource: dataSource)(source)
            }
        }
    }

    /// Binds a stream of `ArrayChange`s to the table's rows with animated batch
    /// updates; `cellFactory(tableView, row, element)` makes each cell.
    public func items<Element, Source: ObservableType>(_ source: Source)
        -> (_ cellFactory: @escaping (UITableView, Int, Element) -> UITableViewCell)
        -> Disposable where Source.Element == ArrayChange<Element> {
        { cellFactory in
            items(dataSource: TableViewArrayChangeDataSource(cellFactory: cellFactory))(source)
        }
    }

    /// Binds a stream of `SectionedChange`s (an `ObservableSections`' `changes`)
    /// to the table, one table section per section, with animated batch
    /// updates; each cell is dequeued with `cellIdentifier` and given to
    /// `configureCell(indexPath, item, cell)`. For section headers, bind a
    /// ``TableViewSectionedChangeDataSource`` with `items(dataSource:)`.
    public func items<Section, Item, Cell: UITableViewCell, Source: ObservableType>(
        cellIdentifier: String, cellType: Cell.Type = Cell.self
    ) -> (_ source: Source) -> (_ configureCell: @escaping (IndexPath, Item, Cell) -> Void) -> Disposable
    where Source.Element == SectionedChange<Section, Item> {
        { source in
            { configureCell in
                let dataSource = TableViewSectionedChangeDataSource<Section, Item> { tableView, indexPath, item in
                    let cell = tableView.dequeueReusableCell(withIdentifier: cellIdentifier, for: indexPath) as! Cell
                    configureCell(indexPath, item, cell)
                    return cell
                }
                return items(dataSource: dataSource)(source)
            }
        }
    }
}

@MainActor
extension Reactive where Base: UICollectionView {
    /// Binds a stream of `ArrayChange`s to the collection's items with animated
    /// batch updates; each cell is dequeued with `cellIdentifier`, cast to
    /// `cellType` and given to `configureCell(item, element, cell)`.
    public func items<Element, Cell: UICollectionViewCell, Source: ObservableType>(
        cellIdentifier: String, cellType: Cell.Type = Cell.self
    ) -> (_ source: Source) -> (_ configureCell: @escaping (Int, Element, Cell) -> Void) -> Disposable
    where Source.Element == ArrayChange<Element> {
        { source in
            { configureCell in
                let dataSource = CollectionViewArrayChangeDataSource<Element> { collectionView, item, element in
                    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: cellIdentifier, for: IndexPath(item: item, section: 0)) as! Cell
                    configureCell(item, element, cell)
                    return cell
                }
                return items(dataSource: dataSource)(source)
            }
        }
    }
}

#if RIPPLE_COCOA_INTERFACE
// The interface's simulated runtime cannot read a Swift class's method list to
// answer `responds(to:)`; Apple's runtime reads it from the class. These lists
// say what it would find (a wrong list stops the tests: sending checks it).
// None of these data sources implements `tableView(_:commit:forRowAt:)` or a
// move method: rows can be deleted or moved only while `rx.itemDeleted` or
// `rx.itemMoved` is observed, as in RxCocoa.
extension TableViewArrayChangeDataSource: SimulatedMethodList {
    public static var implementedOptionalMethods: Set<Selector> { [] }
}

extension TableViewSectionedChangeDataSource: SimulatedMethodList {
    public static var implementedOptionalMethods: Set<Selector> {
        [Selector("numberOfSectionsInTableView:"), Selector("tableView:titleForHeaderInSection:")]
    }
}

extension CollectionViewArrayChangeDataSource: SimulatedMethodList {
    public static var implementedOptionalMethods: Set<Selector> { [] }
}
#endif
#endif
