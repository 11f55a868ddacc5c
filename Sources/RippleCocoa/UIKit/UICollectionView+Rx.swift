#if os(iOS) || os(tvOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleUIKitInterface
#else
import UIKit
#endif
import Foundation
import Ripple

/// The delegate proxy of a collection view.
@MainActor
final class CollectionViewDelegateProxy: ScrollViewDelegateProxy, UICollectionViewDelegate {
    let itemSelected = PublishSubject<IndexPath>()
    let itemDeselected = PublishSubject<IndexPath>()

    static func proxy(for collectionView: UICollectionView) -> CollectionViewDelegateProxy {
        // A collection view's scroll view proxy is a CollectionViewDelegateProxy.
        ScrollViewDelegateProxy.proxy(for: collectionView) as! CollectionViewDelegateProxy
    }

    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("collectionView:didSelectItemAtIndexPath:"), to: forwardDelegate) {
            ($0 as? UICollectionViewDelegate)?.collectionView(collectionView, didSelectItemAt: indexPath)
        }
        #else
        (forwardDelegate as? UICollectionViewDelegate)?.collectionView?(collectionView, didSelectItemAt: indexPath)
        #endif
        itemSelected.on(.next(indexPath))
    }

    func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("collectionView:didDeselectItemAtIndexPath:"), to: forwardDelegate) {
            ($0 as? UICollectionViewDelegate)?.collectionView(collectionView, didDeselectItemAt: indexPath)
        }
        #else
        (forwardDelegate as? UICollectionViewDelegate)?.collectionView?(collectionView, didDeselectItemAt: indexPath)
        #endif
        itemDeselected.on(.next(indexPath))
    }

    deinit {
        itemSelected.on(.completed)
        itemDeselected.on(.completed)
    }
}

/// The data-source proxy of a collection view.
@MainActor
final class CollectionViewDataSourceProxy: DelegateProxy, UICollectionViewDataSource {
    private static let key = AssociationKey()

    #if RIPPLE_COCOA_INTERFACE
    nonisolated static var moveSelector: Selector { Selector("collectionView:moveItemAtIndexPath:toIndexPath:") }
    #else
    nonisolated static var moveSelector: Selector { #selector(UICollectionViewDataSource.collectionView(_:moveItemAt:to:)) }
    #endif

    let itemMoved = PublishSubject<ItemMovedEvent>()

    nonisolated override var conditionalSelectors: Set<Selector> { [Self.moveSelector] }

    static func proxy(for collectionView: UICollectionView) -> CollectionViewDataSourceProxy {
        installed(key, on: collectionView, make: { CollectionViewDataSourceProxy() },
                  current: { [weak collectionView] in collectionView?.dataSource },
                  assign: { [weak collectionView] proxy in collectionView?.dataSource = proxy })
    }

    private var required: UICollectionViewDataSource? { forwardDelegate as? UICollectionViewDataSource }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        required?.collectionView(collectionView, numberOfItemsInSection: section) ?? 0
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        guard let required else {
            preconditionFailure("RippleCocoa: the collection view asked for a cell, but no data source is bound (rx.items) or set (rx.setDataSource)")
        }
        return required.collectionView(collectionView, cellForItemAt: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        (forwardDelegate as? UserMoveFollowing)?.userMoved(from: sourceIndexPath, to: destinationIndexPath)
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Self.moveSelector, to: forwardDelegate) {
            ($0 as? UICollectionViewDataSource)?.collectionView(collectionView, moveItemAt: sourceIndexPath, to: destinationIndexPath)
        }
        #else
        (forwardDelegate as? UICollectionViewDataSource)?.collectionView?(collectionView, moveItemAt: sourceIndexPath, to: destinationIndexPath)
        #endif
        itemMoved.on(.next((sourceIndexPath, destinationIndexPath)))
    }

    deinit {
        itemMoved.on(.completed)
    }
}

@MainActor
extension Reactive where Base: UICollectionView {
    /// Binds each array (any sequence) of `source` to the collection's items,
    /// one section, reloading for each; `cellFactory(collectionView, item,
    /// element)` makes each item's cell.
    public func items<Sequence: Swift.Sequence, Source: ObservableType>(_ source: Source)
        -> (_ cellFactory: @escaping (UICollectionView, Int, Sequence.Element) -> UICollectionViewCell)
        -> Disposable where Source.Element == Sequence {
        { cellFactory in
            items(dataSource: CollectionViewSequenceDataSource<Sequence>(cellFactory: cellFactory))(source)
        }
    }

    /// Binds each array of `source` to the collection's items, one section,
    /// reloading for each: each cell is dequeued with `cellIdentifier`, cast to
    /// `cellType` and handed to `configureCell(item, element, cell)`.
    public func items<Sequence: Swift.Sequence, Cell: UICollectionViewCell, Source: ObservableType>(
        cellIdentifier: String, cellType: Cell.Type = Cell.self
    ) -> (_ source: Source) -> (_ configureCell: @escaping (Int, Sequence.Element, Cell) -> Void) -> Disposable
    where Source.Element == Sequence {
        { source in
            { configureCell in
                let dataSource = CollectionViewSequenceDataSource<Sequence> { collectionView, item, element in
                    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: cellIdentifier, for: IndexPath(item: item, section: 0)) as! Cell
                    configureCell(item, element, cell)
                    return cell
                }
                return items(dataSource: dataSource)(source)
            }
        }
    }

    /// Binds `source` to the collection through `dataSource`, retained until
    /// the returned disposable is disposed; every event reaches it on the main scheduler.
    public func items<DataSource: RxCollectionViewDataSourceType & UICollectionViewDataSource, Source: ObservableType>(
        dataSource: DataSource
    ) -> (_ source: Source) -> Disposable where DataSource.Element == Source.Element {
        { source in
            _ = CollectionViewDelegateProxy.proxy(for: base)
            let proxy = CollectionViewDataSourceProxy.proxy(for: base)
            return source.bindProxyDataSource(to: base, proxy: proxy, dataSource: dataSource) { [weak collectionView = base] event in
                guard let collectionView else { return }
                dataSource.collectionView(collectionView, observedEvent: event)
            }
        }
    }

    /// Puts `dataSource` behind the collection's data-source proxy until the
    /// returned disposable is disposed. It is not retained.
    public func setDataSource(_ dataSource: UICollectionViewDataSource) -> Disposable {
        DelegateProxy.installForwardDelegate(dataSource, retain: false, on: CollectionViewDataSourceProxy.proxy(for: base))
    }

    /// Puts `delegate` behind the collection's delegate proxy until the
    /// returned disposable is disposed. It is not retained.
    public func setDelegate(_ delegate: UICollectionViewDelegate) -> Disposable {
        DelegateProxy.installForwardDelegate(delegate, retain: false, on: CollectionViewDelegateProxy.proxy(for: base))
    }

    /// The index path of each item the user selects.
    public var itemSelected: ControlEvent<IndexPath> {
        ControlEvent(events: CollectionViewDelegateProxy.proxy(for: base).itemSelected)
    }

    /// The index path of each item the user deselects.
    public var itemDeselected: ControlEvent<IndexPath> {
        ControlEvent(events: CollectionViewDelegateProxy.proxy(for: base).itemDeselected)
    }

    /// Each item the user moves (`collectionView(_:moveItemAt:to:)`); while it
    /// has subscribers the collection offers reordering.
    public var itemMoved: ControlEvent<ItemMovedEvent> {
        let proxy = CollectionViewDataSourceProxy.proxy(for: base)
        return ControlEvent(events: proxy.whileObserved(CollectionViewDataSourceProxy.moveSelector, proxy.itemMoved.asObservable()))
    }

    /// The model of each item the user selects, read from the data source bound
    /// with one of the `rx.items` methods. As in RxCocoa, a model that is not a
    /// `T` stops the program (see `model(at:)`); an item selected before any
    /// items were bound sends nothing (a control event never fails).
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        ControlEvent(events: itemSelected.asObservable().flatMap { [weak collectionView = base] indexPath -> Observable<T> in
            MainActor.assumeIsolated {
                guard let collectionView, let model: T = try? collectionView.rx.model(at: indexPath) else { return .empty() }
                return .just(model)
            }
        })
    }

    /// The model at `indexPath` in the data source bound with one of the `rx.items` methods.
    public func model<T>(at indexPath: IndexPath) throws -> T {
        guard let dataSource = CollectionViewDataSourceProxy.proxy(for: base).forwardDelegate as? SectionedViewDataSourceType else {
            preconditionFailure("RippleCocoa: model(at:) only works with a data source bound with one of the rx.items methods")
        }
        let element = try dataSource.model(at: indexPath)
        guard let model = element as? T else {
            preconditionFailure("RippleCocoa: the model at \(indexPath) is a \(type(of: element)), not a \(T.self)")
        }
        return model
    }
}

/// `rx.items`' data source for sequences in a collection view.
@MainActor
final class CollectionViewSequenceDataSource<Sequence: Swift.Sequence>: NSObject, UICollectionViewDataSource,
    RxCollectionViewDataSourceType, SectionedViewDataSourceType {
    typealias Element = Sequence
    let cellFactory: (UICollectionView, Int, Sequence.Element) -> UICollectionViewCell
    var itemModels: [Sequence.Element]?

    init(cellFactory: @escaping (UICollectionView, Int, Sequence.Element) -> UICollectionViewCell) {
        self.cellFactory = cellFactory
        super.init()
    }

    func collectionView(_ collectionView: UICollectionView, observedEvent: Event<Sequence>) {
        guard case .next(let elements) = observedEvent else { return }
        itemModels = Array(elements)
        collectionView.reloadData()
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        itemModels?.count ?? 0
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        cellFactory(collectionView, indexPath.item, itemModels![indexPath.item])
    }

    func model(at indexPath: IndexPath) throws -> Any {
        guard let models = itemModels else { throw RxCocoaError.itemsNotYetBound(object: self) }
        return models[indexPath.item]
    }
}

#if RIPPLE_COCOA_INTERFACE
// The method list the simulated runtime cannot read (see ChangesDataSources.swift):
// no optional data-source method.
extension CollectionViewSequenceDataSource: SimulatedMethodList {
    static var implementedOptionalMethods: Set<Selector> { [] }
}
#endif
#endif
