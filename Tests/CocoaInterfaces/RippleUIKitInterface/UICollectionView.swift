#if os(Linux)
import Foundation
import RippleObjCInterface

/// https://developer.apple.com/documentation/uikit/uicollectionviewlayout
@MainActor
open class UICollectionViewLayout: NSObject {}

/// https://developer.apple.com/documentation/uikit/uicollectionviewflowlayout
@MainActor
open class UICollectionViewFlowLayout: UICollectionViewLayout {}

/// https://developer.apple.com/documentation/uikit/uicollectionreusableview
@MainActor
open class UICollectionReusableView: UIView {
    /// https://developer.apple.com/documentation/uikit/uicollectionreusableview/reuseidentifier
    open internal(set) var reuseIdentifier: String?

    /// `required` here, not on Apple platforms: UIKit creates registered cell
    /// classes through the Objective-C runtime, Swift only through a required
    /// initializer.
    public required override init(frame: CGRect) {
        super.init(frame: frame)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

/// https://developer.apple.com/documentation/uikit/uicollectionviewcell
@MainActor
open class UICollectionViewCell: UICollectionReusableView {
    /// https://developer.apple.com/documentation/uikit/uicollectionviewcell/contentview
    public let contentView = UIView(frame: .zero)
}

/// https://developer.apple.com/documentation/uikit/uicollectionviewdatasource
@MainActor
public protocol UICollectionViewDataSource: NSObjectProtocol {
    /// https://developer.apple.com/documentation/uikit/uicollectionviewdatasource/collectionview(_:numberofitemsinsection:)
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int
    /// https://developer.apple.com/documentation/uikit/uicollectionviewdatasource/collectionview(_:cellforitemat:)
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell
    /// https://developer.apple.com/documentation/uikit/uicollectionviewdatasource/numberofsections(in:)
    func numberOfSections(in collectionView: UICollectionView) -> Int
    /// https://developer.apple.com/documentation/uikit/uicollectionviewdatasource/collectionview(_:moveitemat:to:)
    func collectionView(_ collectionView: UICollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath)
}

extension UICollectionViewDataSource {
    public func numberOfSections(in collectionView: UICollectionView) -> Int { ObjCMessage.unimplemented(); return 1 }
    public func collectionView(_ collectionView: UICollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        ObjCMessage.unimplemented()
    }
}

/// https://developer.apple.com/documentation/uikit/uicollectionviewdelegate
@MainActor
public protocol UICollectionViewDelegate: UIScrollViewDelegate {
    /// https://developer.apple.com/documentation/uikit/uicollectionviewdelegate/collectionview(_:didselectitemat:)
    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath)
    /// https://developer.apple.com/documentation/uikit/uicollectionviewdelegate/collectionview(_:diddeselectitemat:)
    func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath)
    /// https://developer.apple.com/documentation/uikit/uicollectionviewdelegate/collectionview(_:willdisplay:foritemat:)
    func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath)
    /// https://developer.apple.com/documentation/uikit/uicollectionviewdelegate/collectionview(_:didenddisplaying:foritemat:)
    func collectionView(_ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell, forItemAt indexPath: IndexPath)
    /// https://developer.apple.com/documentation/uikit/uicollectionviewdelegate/collectionview(_:shouldselectitemat:)
    func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool
}

extension UICollectionViewDelegate {
    public func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) { ObjCMessage.unimplemented() }
    public func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) { ObjCMessage.unimplemented() }
    public func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {
        ObjCMessage.unimplemented()
    }
    public func collectionView(_ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {
        ObjCMessage.unimplemented()
    }
    public func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
        ObjCMessage.unimplemented()
        return true
    }
}

/// https://developer.apple.com/documentation/uikit/uicollectionview
///
/// Simulation: as `UITableView`'s (every item visible, batch updates applied
/// as UIKit reads them and recorded in `simulatedUpdates`, violations in
/// `simulatedInconsistencies`, the user's actions as `simulate…` methods).
@MainActor
open class UICollectionView: UIScrollView {
    /// https://developer.apple.com/documentation/uikit/uicollectionview/scrollposition
    public struct ScrollPosition: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let top = ScrollPosition(rawValue: 1 << 0)
    }

    /// https://developer.apple.com/documentation/uikit/uicollectionview/collectionviewlayout
    open var collectionViewLayout: UICollectionViewLayout
    /// https://developer.apple.com/documentation/uikit/uicollectionview/datasource
    open weak var dataSource: UICollectionViewDataSource?

    private var registered: [String: UICollectionViewCell.Type] = [:]
    private var engine = SimulatedListEngine<UICollectionViewCell>()
    private var pending: [SimulatedListOperation]?
    private var selected: [IndexPath] = []

    /// What the collection view was asked to do, in order (simulation only).
    public private(set) var simulatedUpdates: [SimulatedListUpdate] = []
    /// What UIKit would have rejected with `NSInternalInconsistencyException` (simulation only).
    public private(set) var simulatedInconsistencies: [String] = []

    /// https://developer.apple.com/documentation/uikit/uicollectionview/init(frame:collectionviewlayout:)
    public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) {
        collectionViewLayout = layout
        super.init(frame: frame)
    }

    public required init?(coder: NSCoder) {
        collectionViewLayout = UICollectionViewFlowLayout()
        super.init(coder: coder)
    }

    /// https://developer.apple.com/documentation/uikit/uicollectionview/register(_:forcellwithreuseidentifier:)
    open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {
        registered[identifier] = cellClass as? UICollectionViewCell.Type
    }

    /// https://developer.apple.com/documentation/uikit/uicollectionview/dequeuereusablecell(withreuseidentifier:for:)
    open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> UICollectionViewCell {
        guard let cellClass = registered[identifier] else {
            preconditionFailure("could not dequeue a view of kind: UICollectionElementKindCell with identifier \(identifier)")
        }
        let cell = cellClass.init(frame: .zero)
        cell.reuseIdentifier = identifier
        return cell
    }

    private var delegateObject: AnyObject? { delegate }

    private func sectionCount() -> Int {
        guard let dataSource else { return 0 }
        return ObjCMessage.send(Selector("numberOfSectionsInCollectionView:"), to: dataSource) {
            ($0 as? UICollectionViewDataSource)?.numberOfSections(in: self)
        }.flatMap { $0 } ?? 1
    }

    private func itemCount(_ section: Int) -> Int {
        dataSource?.collectionView(self, numberOfItemsInSection: section) ?? 0
    }

    private func makeCell(_ path: IndexPath) -> UICollectionViewCell {
        dataSource!.collectionView(self, cellForItemAt: path)
    }

    private func loadIfNeeded() {
        if !engine.loaded {
            let result = engine.reload(sections: sectionCount(), count: itemCount, make: makeCell)
            display(removed: [], added: result.added)
        }
    }

    private func display(removed: [(UICollectionViewCell, IndexPath)], added: [(UICollectionViewCell, IndexPath)]) {
        for (cell, path) in removed {
            _ = ObjCMessage.send(Selector("collectionView:didEndDisplayingCell:forItemAtIndexPath:"), to: delegateObject) {
                ($0 as? UICollectionViewDelegate)?.collectionView(self, didEndDisplaying: cell, forItemAt: path)
            }
        }
        for (cell, path) in added {
            _ = ObjCMessage.send(Selector("collectionView:willDisplayCell:forItemAtIndexPath:"), to: delegateObject) {
                ($0 as? UICollectionViewDelegate)?.collectionView(self, willDisplay: cell, forItemAt: path)
            }
        }
    }

    /// https://developer.apple.com/documentation/uikit/uicollectionview/reloaddata()
    open func reloadData() {
        simulatedUpdates.append(.reloadData)
        let result = engine.reload(sections: sectionCount(), count: itemCount, make: makeCell)
        display(removed: result.removed, added: result.added)
    }

    /// https://developer.apple.com/documentation/uikit/uicollectionview/performbatchupdates(_:completion:)
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        loadIfNeeded()
        let outer = pending == nil
        if outer { pending = [] }
        updates?()
        if outer {
            let operations = pending ?? []
            pending = nil
            commit(operations)
        }
        completion?(true)
    }

    private func record(_ operation: SimulatedListOperation) {
        if pending != nil {
            pending?.append(operation)
        } else {
            loadIfNeeded()
            commit([operation])
        }
    }

    private func commit(_ operations: [SimulatedListOperation]) {
        simulatedUpdates.append(.batch(operations))
        let result = engine.apply(operations, sections: sectionCount(), count: itemCount, make: makeCell)
        simulatedInconsistencies += result.violations
        display(removed: result.removed, added: result.added)
    }

    /// https://developer.apple.com/documentation/uikit/uicollectionview/insertitems(at:)
    open func insertItems(at indexPaths: [IndexPath]) { record(.insertItems(indexPaths)) }
    /// https://developer.apple.com/documentation/uikit/uicollectionview/deleteitems(at:)
    open func deleteItems(at indexPaths: [IndexPath]) { record(.deleteItems(indexPaths)) }
    /// https://developer.apple.com/documentation/uikit/uicollectionview/reloaditems(at:)
    open func reloadItems(at indexPaths: [IndexPath]) { record(.reloadItems(indexPaths)) }
    /// https://developer.apple.com/documentation/uikit/uicollectionview/moveitem(at:to:)
    open func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) { record(.moveItem(from: indexPath, to: newIndexPath)) }
    /// https://developer.apple.com/documentation/uikit/uicollectionview/insertsections(_:)
    open func insertSections(_ sections: IndexSet) { record(.insertSections(sections)) }
    /// https://developer.apple.com/documentation/uikit/uicollectionview/deletesections(_:)
    open func deleteSections(_ sections: IndexSet) { record(.deleteSections(sections)) }
    /// https://developer.apple.com/documentation/uikit/uicollectionview/reloadsections(_:)
    open func reloadSections(_ sections: IndexSet) { record(.reloadSections(sections)) }
    /// https://developer.apple.com/documentation/uikit/uicollectionview/movesection(_:tosection:)
    open func moveSection(_ section: Int, toSection newSection: Int) { record(.moveSection(from: section, to: newSection)) }

    /// https://developer.apple.com/documentation/uikit/uicollectionview/numberofsections
    open var numberOfSections: Int {
        loadIfNeeded()
        return engine.cells.count
    }

    /// https://developer.apple.com/documentation/uikit/uicollectionview/numberofitems(insection:)
    open func numberOfItems(inSection section: Int) -> Int {
        loadIfNeeded()
        return engine.cells[section].count
    }

    /// https://developer.apple.com/documentation/uikit/uicollectionview/cellforitem(at:)
    open func cellForItem(at indexPath: IndexPath) -> UICollectionViewCell? {
        loadIfNeeded()
        guard indexPath.section < engine.cells.count, indexPath.item < engine.cells[indexPath.section].count else { return nil }
        return engine.cells[indexPath.section][indexPath.item]
    }

    /// https://developer.apple.com/documentation/uikit/uicollectionview/indexpathsforselecteditems
    open var indexPathsForSelectedItems: [IndexPath]? { selected }

    // MARK: The user's actions (simulation only)

    /// The user taps the item at `indexPath` (single selection).
    public func simulateTap(at indexPath: IndexPath) {
        loadIfNeeded()
        let allowed = ObjCMessage.send(Selector("collectionView:shouldSelectItemAtIndexPath:"), to: delegateObject) {
            ($0 as? UICollectionViewDelegate)?.collectionView(self, shouldSelectItemAt: indexPath)
        }.flatMap { $0 } ?? true
        guard allowed else { return }
        for previous in selected where previous != indexPath {
            _ = ObjCMessage.send(Selector("collectionView:didDeselectItemAtIndexPath:"), to: delegateObject) {
                ($0 as? UICollectionViewDelegate)?.collectionView(self, didDeselectItemAt: previous)
            }
        }
        selected = [indexPath]
        _ = ObjCMessage.send(Selector("collectionView:didSelectItemAtIndexPath:"), to: delegateObject) {
            ($0 as? UICollectionViewDelegate)?.collectionView(self, didSelectItemAt: indexPath)
        }
    }

    /// The user drags the item at `source` to `destination` (interactive
    /// movement): the item moves on screen, then the data source is told.
    @discardableResult
    public func simulateMove(from source: IndexPath, to destination: IndexPath) -> Bool {
        loadIfNeeded()
        guard ObjCMessage.responds(dataSource, to: Selector("collectionView:moveItemAtIndexPath:toIndexPath:")) else { return false }
        let cell = engine.cells[source.section].remove(at: source.item)
        engine.cells[destination.section].insert(cell, at: destination.item)
        return ObjCMessage.send(Selector("collectionView:moveItemAtIndexPath:toIndexPath:"), to: dataSource) {
            ($0 as? UICollectionViewDataSource)?.collectionView(self, moveItemAt: source, to: destination)
        } != nil
    }

    /// The cells shown, by section (simulation only).
    public var simulatedCells: [[UICollectionViewCell]] {
        loadIfNeeded()
        return engine.cells
    }
}
#endif
