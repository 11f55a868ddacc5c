#if os(iOS) || os(tvOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleUIKitInterface
#else
import UIKit
#endif
import Foundation
import Ripple

/// The delegate proxy of a table view.
@MainActor
final class TableViewDelegateProxy: ScrollViewDelegateProxy, UITableViewDelegate {
    let itemSelected = PublishSubject<IndexPath>()
    let itemDeselected = PublishSubject<IndexPath>()
    let itemAccessoryButtonTapped = PublishSubject<IndexPath>()
    let willDisplayCell = PublishSubject<WillDisplayCellEvent>()

    static func proxy(for tableView: UITableView) -> TableViewDelegateProxy {
        // A table view's scroll view proxy is a TableViewDelegateProxy (see `ScrollViewDelegateProxy.proxy(for:)`).
        ScrollViewDelegateProxy.proxy(for: tableView) as! TableViewDelegateProxy
    }

    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("tableView:didSelectRowAtIndexPath:"), to: forwardDelegate) {
            ($0 as? UITableViewDelegate)?.tableView(tableView, didSelectRowAt: indexPath)
        }
        #else
        (forwardDelegate as? UITableViewDelegate)?.tableView?(tableView, didSelectRowAt: indexPath)
        #endif
        itemSelected.on(.next(indexPath))
    }

    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("tableView:didDeselectRowAtIndexPath:"), to: forwardDelegate) {
            ($0 as? UITableViewDelegate)?.tableView(tableView, didDeselectRowAt: indexPath)
        }
        #else
        (forwardDelegate as? UITableViewDelegate)?.tableView?(tableView, didDeselectRowAt: indexPath)
        #endif
        itemDeselected.on(.next(indexPath))
    }

    func tableView(_ tableView: UITableView, accessoryButtonTappedForRowWith indexPath: IndexPath) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("tableView:accessoryButtonTappedForRowWithIndexPath:"), to: forwardDelegate) {
            ($0 as? UITableViewDelegate)?.tableView(tableView, accessoryButtonTappedForRowWith: indexPath)
        }
        #else
        (forwardDelegate as? UITableViewDelegate)?.tableView?(tableView, accessoryButtonTappedForRowWith: indexPath)
        #endif
        itemAccessoryButtonTapped.on(.next(indexPath))
    }

    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("tableView:willDisplayCell:forRowAtIndexPath:"), to: forwardDelegate) {
            ($0 as? UITableViewDelegate)?.tableView(tableView, willDisplay: cell, forRowAt: indexPath)
        }
        #else
        (forwardDelegate as? UITableViewDelegate)?.tableView?(tableView, willDisplay: cell, forRowAt: indexPath)
        #endif
        willDisplayCell.on(.next((cell, indexPath)))
    }

    deinit {
        itemSelected.on(.completed)
        itemDeselected.on(.completed)
        itemAccessoryButtonTapped.on(.completed)
        willDisplayCell.on(.completed)
    }
}

/// The data-source proxy of a table view: the required methods go to the
/// data source bound with `rx.items` (or set with `rx.setDataSource(_:)`);
/// editing and moving rows are observed.
@MainActor
final class TableViewDataSourceProxy: DelegateProxy, UITableViewDataSource {
    private static let key = AssociationKey()

    #if RIPPLE_COCOA_INTERFACE
    nonisolated static var commitSelector: Selector { Selector("tableView:commitEditingStyle:forRowAtIndexPath:") }
    nonisolated static var moveSelector: Selector { Selector("tableView:moveRowAtIndexPath:toIndexPath:") }
    #else
    nonisolated static var commitSelector: Selector { #selector(UITableViewDataSource.tableView(_:commit:forRowAt:)) }
    nonisolated static var moveSelector: Selector { #selector(UITableViewDataSource.tableView(_:moveRowAt:to:)) }
    #endif

    let committed = PublishSubject<(UITableViewCell.EditingStyle, IndexPath)>()
    let itemMoved = PublishSubject<ItemMovedEvent>()

    nonisolated override var conditionalSelectors: Set<Selector> {
        [Self.commitSelector, Self.moveSelector]
    }

    static func proxy(for tableView: UITableView) -> TableViewDataSourceProxy {
        installed(key, on: tableView, make: { TableViewDataSourceProxy() },
                  current: { [weak tableView] in tableView?.dataSource },
                  assign: { [weak tableView] proxy in tableView?.dataSource = proxy })
    }

    private var required: UITableViewDataSource? { forwardDelegate as? UITableViewDataSource }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        required?.tableView(tableView, numberOfRowsInSection: section) ?? 0
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        guard let required else {
            preconditionFailure("RippleCocoa: the table view asked for a cell, but no data source is bound (rx.items) or set (rx.setDataSource)")
        }
        return required.tableView(tableView, cellForRowAt: indexPath)
    }

    func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Self.commitSelector, to: forwardDelegate) {
            ($0 as? UITableViewDataSource)?.tableView(tableView, commit: editingStyle, forRowAt: indexPath)
        }
        #else
        (forwardDelegate as? UITableViewDataSource)?.tableView?(tableView, commit: editingStyle, forRowAt: indexPath)
        #endif
        committed.on(.next((editingStyle, indexPath)))
    }

    func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        (forwardDelegate as? UserMoveFollowing)?.userMoved(from: sourceIndexPath, to: destinationIndexPath)
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Self.moveSelector, to: forwardDelegate) {
            ($0 as? UITableViewDataSource)?.tableView(tableView, moveRowAt: sourceIndexPath, to: destinationIndexPath)
        }
        #else
        (forwardDelegate as? UITableViewDataSource)?.tableView?(tableView, moveRowAt: sourceIndexPath, to: destinationIndexPath)
        #endif
        itemMoved.on(.next((sourceIndexPath, destinationIndexPath)))
    }

    deinit {
        committed.on(.completed)
        itemMoved.on(.completed)
    }
}

@MainActor
extension Reactive where Base: UITableView {
    /// Binds each array (any sequence) of `source` to the table's rows, one
    /// section, reloading the table for each; `cellFactory(tableView, row,
    /// element)` makes each row's cell. The binding lasts until the returned
    /// disposable is disposed (a completed source leaves its last elements shown).
    ///
    /// ```swift
    /// items.bind(to: tableView.rx.items) { tableView, row, element in
    ///     let cell = tableView.dequeueReusableCell(withIdentifier: "Cell")!
    ///     cell.textLabel?.text = "\(element) @ row \(row)"
    ///     return cell
    /// }
    /// ```
    public func items<Sequence: Swift.Sequence, Source: ObservableType>(_ source: Source)
        -> (_ cellFactory: @escaping (UITableView, Int, Sequence.Element) -> UITableViewCell)
        -> Disposable where Source.Element == Sequence {
        { cellFactory in
            items(dataSource: TableViewSequenceDataSource<Sequence>(cellFactory: cellFactory))(source)
        }
    }

    /// Binds each array of `source` to the table's rows, one section,
    /// reloading the table for each: each row's cell is dequeued with
    /// `cellIdentifier`, cast to `cellType` and handed to
    /// `configureCell(row, element, cell)`.
    ///
    /// ```swift
    /// items.bind(to: tableView.rx.items(cellIdentifier: "Cell", cellType: UITableViewCell.self)) { row, element, cell in
    ///     cell.textLabel?.text = "\(element) @ row \(row)"
    /// }
    /// ```
    public func items<Sequence: Swift.Sequence, Cell: UITableViewCell, Source: ObservableType>(
        cellIdentifier: String, cellType: Cell.Type = Cell.self
    ) -> (_ source: Source) -> (_ configureCell: @escaping (Int, Sequence.Element, Cell) -> Void) -> Disposable
    where Source.Element == Sequence {
        { source in
            { configureCell in
                let dataSource = TableViewSequenceDataSource<Sequence> { tableView, row, element in
                    let cell = tableView.dequeueReusableCell(withIdentifier: cellIdentifier, for: IndexPath(row: row, section: 0)) as! Cell
                    configureCell(row, element, cell)
                    return cell
                }
                return items(dataSource: dataSource)(source)
            }
        }
    }

    /// Binds `source` to the table through `dataSource`, which is retained
    /// (behind the table's data-source proxy) until the returned disposable is
    /// disposed, and receives every event on the main scheduler.
    public func items<DataSource: RxTableViewDataSourceType & UITableViewDataSource, Source: ObservableType>(
        dataSource: DataSource
    ) -> (_ source: Source) -> Disposable where DataSource.Element == Source.Element {
        { source in
            _ = TableViewDelegateProxy.proxy(for: base)
            let proxy = TableViewDataSourceProxy.proxy(for: base)
            return source.bindProxyDataSource(to: base, proxy: proxy, dataSource: dataSource) { [weak tableView = base] event in
                guard let tableView else { return }
                dataSource.tableView(tableView, observedEvent: event)
            }
        }
    }

    /// Puts `dataSource` behind the table's data-source proxy until the
    /// returned disposable is disposed. It is not retained.
    public func setDataSource(_ dataSource: UITableViewDataSource) -> Disposable {
        DelegateProxy.installForwardDelegate(dataSource, retain: false, on: TableViewDataSourceProxy.proxy(for: base))
    }

    /// Puts `delegate` behind the table's delegate proxy: it keeps receiving
    /// every delegate message (those Ripple observes too) until the returned
    /// disposable is disposed. It is not retained.
    public func setDelegate(_ delegate: UITableViewDelegate) -> Disposable {
        DelegateProxy.installForwardDelegate(delegate, retain: false, on: TableViewDelegateProxy.proxy(for: base))
    }

    /// The index path of each row the user selects (`tableView(_:didSelectRowAt:)`),
    /// after the app's delegate was told. Completes when the table view is deallocated.
    public var itemSelected: ControlEvent<IndexPath> {
        ControlEvent(events: TableViewDelegateProxy.proxy(for: base).itemSelected)
    }

    /// The index path of each row deselected by the user (`tableView(_:didDeselectRowAt:)`).
    public var itemDeselected: ControlEvent<IndexPath> {
        ControlEvent(events: TableViewDelegateProxy.proxy(for: base).itemDeselected)
    }

    /// The index path of each row whose accessory button the user taps.
    public var itemAccessoryButtonTapped: ControlEvent<IndexPath> {
        ControlEvent(events: TableViewDelegateProxy.proxy(for: base).itemAccessoryButtonTapped)
    }

    /// Each cell about to be shown, with its index path (`tableView(_:willDisplay:forRowAt:)`).
    public var willDisplayCell: ControlEvent<WillDisplayCellEvent> {
        ControlEvent(events: TableViewDelegateProxy.proxy(for: base).willDisplayCell)
    }

    private func committed(_ style: UITableViewCell.EditingStyle) -> Observable<IndexPath> {
        let proxy = TableViewDataSourceProxy.proxy(for: base)
        return proxy.whileObserved(TableViewDataSourceProxy.commitSelector, proxy.committed.filter { $0.0 == style }.map { $0.1 })
    }

    /// The index path of each row the user deletes (swipe to delete, or the
    /// delete control while editing): `tableView(_:commit:forRowAt:)` with
    /// `.delete`. While it has subscribers the table offers deletion, as in
    /// RxCocoa; the binding does not remove the row: update the model.
    public var itemDeleted: ControlEvent<IndexPath> {
        ControlEvent(events: committed(.delete))
    }

    /// The index path of each row the user inserts with the insert control
    /// (`tableView(_:commit:forRowAt:)` with `.insert`).
    public var itemInserted: ControlEvent<IndexPath> {
        ControlEvent(events: committed(.insert))
    }

    /// Each row the user moves (`tableView(_:moveRowAt:to:)`). While it has
    /// subscribers the table offers reordering. A data source bound from an
    /// `ObservableArray`'s changes follows the move at once (UIKit has moved
    /// the row already); update the array the same way.
    public var itemMoved: ControlEvent<ItemMovedEvent> {
        let proxy = TableViewDataSourceProxy.proxy(for: base)
        return ControlEvent(events: proxy.whileObserved(TableViewDataSourceProxy.moveSelector, proxy.itemMoved.asObservable()))
    }

    /// The model of each row the user selects, read from the data source bound
    /// with one of the `rx.items` methods (any `SectionedViewDataSourceType`).
    /// As in RxCocoa, a model that is not a `T` stops the program (see
    /// `model(at:)`). A row selected before any items were bound sends
    /// nothing: RxCocoa's sequence would fail with `itemsNotYetBound`, and a
    /// control event never fails.
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        ControlEvent(events: models(itemSelected.asObservable(), T.self))
    }

    /// The model of each row the user deselects.
    public func modelDeselected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        ControlEvent(events: models(itemDeselected.asObservable(), T.self))
    }

    /// The model of each row the user deletes.
    public func modelDeleted<T>(_ modelType: T.Type) -> ControlEvent<T> {
        ControlEvent(events: models(itemDeleted.asObservable(), T.self))
    }

    private func models<T>(_ paths: Observable<IndexPath>, _: T.Type) -> Observable<T> {
        paths.flatMap { [weak tableView = base] indexPath -> Observable<T> in
            MainActor.assumeIsolated {
                guard let tableView, let model: T = try? tableView.rx.model(at: indexPath) else { return .empty() }
                return .just(model)
            }
        }
    }

    /// The model at `indexPath` in the data source bound with one of the
    /// `rx.items` methods. Throws ``RxCocoaError/itemsNotYetBound(object:)``
    /// before the first elements arrived; stops the program when no such data
    /// source is bound, or the model is not a `T` (as RxCocoa).
    public func model<T>(at indexPath: IndexPath) throws -> T {
        guard let dataSource = TableViewDataSourceProxy.proxy(for: base).forwardDelegate as? SectionedViewDataSourceType else {
            preconditionFailure("RippleCocoa: model(at:) only works with a data source bound with one of the rx.items methods")
        }
        let element = try dataSource.model(at: indexPath)
        guard let model = element as? T else {
            preconditionFailure("RippleCocoa: the model at \(indexPath) is a \(type(of: element)), not a \(T.self)")
        }
        return model
    }
}

/// `rx.items`' data source for sequences: one section, reloaded for each sequence.
@MainActor
final class TableViewSequenceDataSource<Sequence: Swift.Sequence>: NSObject, UITableViewDataSource,
    RxTableViewDataSourceType, SectionedViewDataSourceType {
    typealias Element = Sequence
    let cellFactory: (UITableView, Int, Sequence.Element) -> UITableViewCell
    var itemModels: [Sequence.Element]?

    init(cellFactory: @escaping (UITableView, Int, Sequence.Element) -> UITableViewCell) {
        self.cellFactory = cellFactory
        super.init()
    }

    func tableView(_ tableView: UITableView, observedEvent: Event<Sequence>) {
        guard case .next(let elements) = observedEvent else { return }
        itemModels = Array(elements)
        tableView.reloadData()
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        itemModels?.count ?? 0
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        cellFactory(tableView, indexPath.row, itemModels![indexPath.row])
    }

    func model(at indexPath: IndexPath) throws -> Any {
        guard let models = itemModels else { throw RxCocoaError.itemsNotYetBound(object: self) }
        return models[indexPath.row]
    }
}

#if RIPPLE_COCOA_INTERFACE
// The method list the simulated runtime cannot read (see ChangesDataSources.swift):
// no optional data-source method.
extension TableViewSequenceDataSource: SimulatedMethodList {
    static var implementedOptionalMethods: Set<Selector> { [] }
}
#endif
#endif
