#if os(iOS) || os(tvOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleUIKitInterface
#else
import UIKit
#endif
import Foundation
import Ripple

/// A row or item moved by the user: where it was and where it is.
public typealias ItemMovedEvent = (sourceIndex: IndexPath, destinationIndex: IndexPath)
/// A table view cell about to be shown, and its row.
public typealias WillDisplayCellEvent = (cell: UITableViewCell, indexPath: IndexPath)
/// A table view cell no longer shown, and its row.
public typealias DidEndDisplayingCellEvent = (cell: UITableViewCell, indexPath: IndexPath)

/// A data source that receives the elements `rx.items(dataSource:)` binds to a
/// table view and updates the table view with them. RxCocoa's protocol.
public protocol RxTableViewDataSourceType {
    /// The type of the elements bound.
    associatedtype Element
    /// Applies one event of the bound sequence to `tableView`.
    @MainActor
    func tableView(_ tableView: UITableView, observedEvent: Event<Element>)
}

/// A data source that receives the elements `rx.items(dataSource:)` binds to a
/// collection view and updates it with them. RxCocoa's protocol.
public protocol RxCollectionViewDataSourceType {
    /// The type of the elements bound.
    associatedtype Element
    /// Applies one event of the bound sequence to `collectionView`.
    @MainActor
    func collectionView(_ collectionView: UICollectionView, observedEvent: Event<Element>)
}

/// A data source that keeps its model in step with a row the user moved
/// (UIKit has already moved it on screen and expects the model to follow).
@MainActor
protocol UserMoveFollowing: AnyObject {
    func userMoved(from source: IndexPath, to destination: IndexPath)
}

extension ObservableType {
    /// Binds the sequence to a list view through `dataSource`, RxCocoa's
    /// `subscribeProxyDataSource`: the data source goes behind the view's
    /// data-source proxy (retained) for as long as the binding lasts, each
    /// element is applied on the main scheduler, an error is reported to
    /// `Hooks.contractViolationHandler` and ends the binding, and completion
    /// leaves the last elements shown until the binding is disposed.
    @MainActor
    func bindProxyDataSource(
        to view: AnyObject, proxy: DelegateProxy, dataSource: AnyObject,
        apply: @escaping @MainActor (Event<Element>) -> Void
    ) -> Disposable {
        let unregister = DelegateProxy.installForwardDelegate(dataSource, retain: true, on: proxy)
        let subscription = asObservable()
            .observe(on: MainScheduler.instance)
            .catch { error in
                Hooks.contractViolationHandler("Binding error to a list view: \(error)")
                return .empty()
            }
            // The source may complete: the data source must stay until disposal.
            .concat(Observable.never())
            .take(until: Lifetime.ended(of: view))
            .subscribe { event in
                MainActor.assumeIsolated { apply(event) }
            }
        return Disposables.create(subscription, unregister)
    }
}
#endif
