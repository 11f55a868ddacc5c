#if os(Linux)
import Foundation
import RippleObjCInterface

/// https://developer.apple.com/documentation/uikit/uitableviewcell
@MainActor
open class UITableViewCell: UIView {
    /// https://developer.apple.com/documentation/uikit/uitableviewcell/cellstyle
    public enum CellStyle: Int, Sendable {
        case `default`, value1, value2, subtitle
    }

    /// https://developer.apple.com/documentation/uikit/uitableviewcell/editingstyle-swift.enum
    public enum EditingStyle: Int, Sendable {
        case none, delete, insert
    }

    /// https://developer.apple.com/documentation/uikit/uitableviewcell/reuseidentifier
    open private(set) var reuseIdentifier: String?

    /// https://developer.apple.com/documentation/uikit/uitableviewcell/textlabel
    open var textLabel: UILabel? { label }
    private let label = UILabel()

    /// https://developer.apple.com/documentation/uikit/uitableviewcell/init(style:reuseidentifier:)
    ///
    /// `required` here, not on Apple platforms: UIKit creates registered cell
    /// classes through the Objective-C runtime, Swift only through a required
    /// initializer.
    public required init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: .zero)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// https://developer.apple.com/documentation/uikit/uitableviewcell/prepareforreuse()
    open func prepareForReuse() {}
}

/// https://developer.apple.com/documentation/uikit/uitableviewdatasource
@MainActor
public protocol UITableViewDataSource: NSObjectProtocol {
    /// https://developer.apple.com/documentation/uikit/uitableviewdatasource/tableview(_:numberofrowsinsection:)
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int
    /// https://developer.apple.com/documentation/uikit/uitableviewdatasource/tableview(_:cellforrowat:)
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell
    /// https://developer.apple.com/documentation/uikit/uitableviewdatasource/numberofsections(in:)
    func numberOfSections(in tableView: UITableView) -> Int
    /// https://developer.apple.com/documentation/uikit/uitableviewdatasource/tableview(_:titleforheaderinsection:)
    func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String?
    /// https://developer.apple.com/documentation/uikit/uitableviewdatasource/tableview(_:commit:forrowat:)
    func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath)
    /// https://developer.apple.com/documentation/uikit/uitableviewdatasource/tableview(_:moverowat:to:)
    func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath)
}

extension UITableViewDataSource {
    public func numberOfSections(in tableView: UITableView) -> Int { ObjCMessage.unimplemented(); return 1 }
    public func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { ObjCMessage.unimplemented(); return nil }
    public func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        ObjCMessage.unimplemented()
    }
    public func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        ObjCMessage.unimplemented()
    }
}

/// https://developer.apple.com/documentation/uikit/uitableviewdelegate
@MainActor
public protocol UITableViewDelegate: UIScrollViewDelegate {
    /// https://developer.apple.com/documentation/uikit/uitableviewdelegate/tableview(_:didselectrowat:)
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath)
    /// https://developer.apple.com/documentation/uikit/uitableviewdelegate/tableview(_:diddeselectrowat:)
    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath)
    /// https://developer.apple.com/documentation/uikit/uitableviewdelegate/tableview(_:accessorybuttontappedforrowwith:)
    func tableView(_ tableView: UITableView, accessoryButtonTappedForRowWith indexPath: IndexPath)
    /// https://developer.apple.com/documentation/uikit/uitableviewdelegate/tableview(_:willdisplay:forrowat:)
    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath)
    /// https://developer.apple.com/documentation/uikit/uitableviewdelegate/tableview(_:didenddisplaying:forrowat:)
    func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath)
    /// https://developer.apple.com/documentation/uikit/uitableviewdelegate/tableview(_:heightforrowat:)
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat
    /// https://developer.apple.com/documentation/uikit/uitableviewdelegate/tableview(_:willselectrowat:)
    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
}

extension UITableViewDelegate {
    public func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) { ObjCMessage.unimplemented() }
    public func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) { ObjCMessage.unimplemented() }
    public func tableView(_ tableView: UITableView, accessoryButtonTappedForRowWith indexPath: IndexPath) { ObjCMessage.unimplemented() }
    public func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) { ObjCMessage.unimplemented() }
    public func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) { ObjCMessage.unimplemented() }
    public func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { ObjCMessage.unimplemented(); return 0 }
    public func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { ObjCMessage.unimplemented(); return indexPath }
}

/// https://developer.apple.com/documentation/uikit/uitableview
///
/// Simulation: every row is visible. `reloadData()` asks the data source for
/// every cell; `performBatchUpdates(_:completion:)` (and an insert, delete,
/// reload or move call outside it) applies UIKit's reading of the update to the
/// cells shown, asks the data source for the new ones, sends `willDisplay` and
/// `didEndDisplaying`, records the update in `simulatedUpdates` and what UIKit
/// would reject in `simulatedInconsistencies`. The user's actions (a tap, a
/// swipe to delete, a drag to move) are in Simulation.swift.
@MainActor
open class UITableView: UIScrollView {
    /// https://developer.apple.com/documentation/uikit/uitableview/style-swift.enum
    public enum Style: Int, Sendable {
        case plain, grouped, insetGrouped
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/rowanimation
    public enum RowAnimation: Int, Sendable {
        case fade, right, left, top, bottom, none, middle
        case automatic = 100
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/scrollposition
    public enum ScrollPosition: Int, Sendable {
        case none, top, middle, bottom
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/style-swift.property
    public let style: UITableView.Style

    /// https://developer.apple.com/documentation/uikit/uitableview/datasource
    open weak var dataSource: UITableViewDataSource?

    /// https://developer.apple.com/documentation/uikit/uitableview/rowheight
    open var rowHeight: CGFloat = 44

    private var registered: [String: UITableViewCell.Type] = [:]
    private var engine = SimulatedListEngine<UITableViewCell>()
    private var pending: [SimulatedListOperation]?
    private var selected: IndexPath?

    /// What the table view was asked to do, in order (simulation only).
    public private(set) var simulatedUpdates: [SimulatedListUpdate] = []
    /// What UIKit would have rejected with `NSInternalInconsistencyException` (simulation only).
    public private(set) var simulatedInconsistencies: [String] = []

    /// https://developer.apple.com/documentation/uikit/uitableview/init(frame:style:)
    public init(frame: CGRect, style: UITableView.Style) {
        self.style = style
        super.init(frame: frame)
    }

    public required init?(coder: NSCoder) {
        style = .plain
        super.init(coder: coder)
    }

    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:) (a plain table view)
    public convenience override init(frame: CGRect) {
        self.init(frame: frame, style: .plain)
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/register(_:forcellreuseidentifier:)
    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {
        registered[identifier] = cellClass as? UITableViewCell.Type
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/dequeuereusablecell(withidentifier:for:)
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        guard let cellClass = registered[identifier] else {
            preconditionFailure("unable to dequeue a cell with identifier \(identifier) - must register a nib or a class for the identifier")
        }
        return cellClass.init(style: .default, reuseIdentifier: identifier)
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/dequeuereusablecell(withidentifier:)
    open func dequeueReusableCell(withIdentifier identifier: String) -> UITableViewCell? {
        registered[identifier].map { $0.init(style: .default, reuseIdentifier: identifier) }
    }

    private var delegateObject: AnyObject? { delegate }

    private func sectionCount() -> Int {
        guard let dataSource else { return 0 }
        return ObjCMessage.send(Selector("numberOfSectionsInTableView:"), to: dataSource) {
            ($0 as? UITableViewDataSource)?.numberOfSections(in: self)
        }.flatMap { $0 } ?? 1
    }

    private func rowCount(_ section: Int) -> Int {
        dataSource?.tableView(self, numberOfRowsInSection: section) ?? 0
    }

    private func makeCell(_ path: IndexPath) -> UITableViewCell {
        dataSource!.tableView(self, cellForRowAt: IndexPath(row: path.item, section: path.section))
    }

    private func loadIfNeeded() {
        if !engine.loaded {
            let result = engine.reload(sections: sectionCount(), count: rowCount, make: makeCell)
            display(removed: [], added: result.added)
        }
    }

    private func display(removed: [(UITableViewCell, IndexPath)], added: [(UITableViewCell, IndexPath)]) {
        for (cell, path) in removed {
            _ = ObjCMessage.send(Selector("tableView:didEndDisplayingCell:forRowAtIndexPath:"), to: delegateObject) {
                ($0 as? UITableViewDelegate)?.tableView(self, didEndDisplaying: cell, forRowAt: IndexPath(row: path.item, section: path.section))
            }
        }
        for (cell, path) in added {
            _ = ObjCMessage.send(Selector("tableView:willDisplayCell:forRowAtIndexPath:"), to: delegateObject) {
                ($0 as? UITableViewDelegate)?.tableView(self, willDisplay: cell, forRowAt: IndexPath(row: path.item, section: path.section))
            }
        }
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/reloaddata()
    open func reloadData() {
        simulatedUpdates.append(.reloadData)
        let result = engine.reload(sections: sectionCount(), count: rowCount, make: makeCell)
        display(removed: result.removed, added: result.added)
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/performbatchupdates(_:completion:)
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
        let result = engine.apply(operations, sections: sectionCount(), count: rowCount, make: makeCell)
        simulatedInconsistencies += result.violations
        display(removed: result.removed, added: result.added)
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/insertrows(at:with:)
    open func insertRows(at indexPaths: [IndexPath], with animation: UITableView.RowAnimation) { record(.insertItems(indexPaths)) }
    /// https://developer.apple.com/documentation/uikit/uitableview/deleterows(at:with:)
    open func deleteRows(at indexPaths: [IndexPath], with animation: UITableView.RowAnimation) { record(.deleteItems(indexPaths)) }
    /// https://developer.apple.com/documentation/uikit/uitableview/reloadrows(at:with:)
    open func reloadRows(at indexPaths: [IndexPath], with animation: UITableView.RowAnimation) { record(.reloadItems(indexPaths)) }
    /// https://developer.apple.com/documentation/uikit/uitableview/moverow(at:to:)
    open func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) { record(.moveItem(from: indexPath, to: newIndexPath)) }
    /// https://developer.apple.com/documentation/uikit/uitableview/insertsections(_:with:)
    open func insertSections(_ sections: IndexSet, with animation: UITableView.RowAnimation) { record(.insertSections(sections)) }
    /// https://developer.apple.com/documentation/uikit/uitableview/deletesections(_:with:)
    open func deleteSections(_ sections: IndexSet, with animation: UITableView.RowAnimation) { record(.deleteSections(sections)) }
    /// https://developer.apple.com/documentation/uikit/uitableview/reloadsections(_:with:)
    open func reloadSections(_ sections: IndexSet, with animation: UITableView.RowAnimation) { record(.reloadSections(sections)) }
    /// https://developer.apple.com/documentation/uikit/uitableview/movesection(_:tosection:)
    open func moveSection(_ section: Int, toSection newSection: Int) { record(.moveSection(from: section, to: newSection)) }

    /// https://developer.apple.com/documentation/uikit/uitableview/numberofsections
    open var numberOfSections: Int {
        loadIfNeeded()
        return engine.cells.count
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/numberofrows(insection:)
    open func numberOfRows(inSection section: Int) -> Int {
        loadIfNeeded()
        return engine.cells[section].count
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/cellforrow(at:)
    open func cellForRow(at indexPath: IndexPath) -> UITableViewCell? {
        loadIfNeeded()
        guard indexPath.section < engine.cells.count, indexPath.row < engine.cells[indexPath.section].count else { return nil }
        return engine.cells[indexPath.section][indexPath.row]
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/rectforrow(at:)
    /// (Simulation: only the height is meaningful: the delegate's, or `rowHeight`.)
    open func rectForRow(at indexPath: IndexPath) -> CGRect {
        let height = ObjCMessage.send(Selector("tableView:heightForRowAtIndexPath:"), to: delegateObject) {
            ($0 as? UITableViewDelegate)?.tableView(self, heightForRowAt: indexPath)
        }.flatMap { $0 } ?? rowHeight
        return CGRect(x: 0, y: 0, width: frame.width, height: height)
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/indexpathforselectedrow
    open var indexPathForSelectedRow: IndexPath? { selected }

    /// https://developer.apple.com/documentation/uikit/uitableview/selectrow(at:animated:scrollposition:)
    /// (Like UIKit, it sends no delegate message.)
    open func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: UITableView.ScrollPosition) {
        selected = indexPath
    }

    /// https://developer.apple.com/documentation/uikit/uitableview/deselectrow(at:animated:)
    open func deselectRow(at indexPath: IndexPath, animated: Bool) {
        if selected == indexPath { selected = nil }
    }

    // MARK: The user's actions (simulation only)

    /// The user taps the row at `indexPath`: UIKit asks `willSelectRowAt`,
    /// deselects the previous row (`didDeselectRowAt`), selects and sends `didSelectRowAt`.
    public func simulateTap(at indexPath: IndexPath) {
        loadIfNeeded()
        let target = ObjCMessage.send(Selector("tableView:willSelectRowAtIndexPath:"), to: delegateObject) {
            ($0 as? UITableViewDelegate)?.tableView(self, willSelectRowAt: indexPath)
        } ?? indexPath
        guard let target else { return }
        if let previous = selected, previous != target {
            selected = nil
            _ = ObjCMessage.send(Selector("tableView:didDeselectRowAtIndexPath:"), to: delegateObject) {
                ($0 as? UITableViewDelegate)?.tableView(self, didDeselectRowAt: previous)
            }
        }
        selected = target
        _ = ObjCMessage.send(Selector("tableView:didSelectRowAtIndexPath:"), to: delegateObject) {
            ($0 as? UITableViewDelegate)?.tableView(self, didSelectRowAt: target)
        }
    }

    /// The user taps the accessory button of the row at `indexPath`.
    public func simulateAccessoryButtonTap(at indexPath: IndexPath) {
        _ = ObjCMessage.send(Selector("tableView:accessoryButtonTappedForRowWithIndexPath:"), to: delegateObject) {
            ($0 as? UITableViewDelegate)?.tableView(self, accessoryButtonTappedForRowWith: indexPath)
        }
    }

    /// The user swipes the row at `indexPath` and taps Delete (or taps the
    /// insert control): UIKit offers it only when the data source responds to
    /// `tableView(_:commit:forRowAt:)`. Returns whether it was offered.
    @discardableResult
    public func simulateCommit(_ editingStyle: UITableViewCell.EditingStyle, at indexPath: IndexPath) -> Bool {
        ObjCMessage.send(Selector("tableView:commitEditingStyle:forRowAtIndexPath:"), to: dataSource) {
            ($0 as? UITableViewDataSource)?.tableView(self, commit: editingStyle, forRowAt: indexPath)
        } != nil
    }

    /// The user drags the row at `source` to `destination`: UIKit moves the
    /// row on screen, then tells the data source, which must update its model
    /// (UIKit shows reorder controls only when it responds to
    /// `tableView(_:moveRowAt:to:)`). Returns whether the move was offered.
    @discardableResult
    public func simulateMove(from source: IndexPath, to destination: IndexPath) -> Bool {
        loadIfNeeded()
        guard ObjCMessage.responds(dataSource, to: Selector("tableView:moveRowAtIndexPath:toIndexPath:")) else { return false }
        let cell = engine.cells[source.section].remove(at: source.row)
        engine.cells[destination.section].insert(cell, at: destination.row)
        return ObjCMessage.send(Selector("tableView:moveRowAtIndexPath:toIndexPath:"), to: dataSource) {
            ($0 as? UITableViewDataSource)?.tableView(self, moveRowAt: source, to: destination)
        } != nil
    }

    /// The text of every row's `textLabel`, by section (simulation only).
    public var simulatedRowTexts: [[String?]] {
        loadIfNeeded()
        return engine.cells.map { $0.map { $0.textLabel?.text } }
    }
}
#endif
