#if os(iOS) || os(tvOS) || os(visionOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleUIKitInterface
#else
import UIKit
#endif
import Foundation
import Ripple

/// The delegate proxy of a scroll view (and, through its subclasses, of a
/// table, collection or text view, whose delegates are scroll view delegates).
@MainActor
class ScrollViewDelegateProxy: DelegateProxy, UIScrollViewDelegate {
    private static let key = AssociationKey()

    let didScroll = PublishSubject<Void>()
    private var contentOffsetSubject: BehaviorSubject<CGPoint>?

    weak var scrollView: UIScrollView?

    required init(scrollView: UIScrollView) {
        self.scrollView = scrollView
        super.init()
    }

    /// The proxy of `scrollView`, installed as its delegate; its kind follows
    /// the view's class, so that a table view's proxy is a table view delegate.
    static func proxy(for scrollView: UIScrollView) -> ScrollViewDelegateProxy {
        installed(key, on: scrollView, make: {
            if let tableView = scrollView as? UITableView { return TableViewDelegateProxy(scrollView: tableView) }
            if let collectionView = scrollView as? UICollectionView { return CollectionViewDelegateProxy(scrollView: collectionView) }
            if let textView = scrollView as? UITextView { return TextViewDelegateProxy(scrollView: textView) }
            return ScrollViewDelegateProxy(scrollView: scrollView)
        }, current: { [weak scrollView] in scrollView?.delegate }, assign: { [weak scrollView] proxy in
            scrollView?.delegate = proxy
        })
    }

    var contentOffset: BehaviorSubject<CGPoint> {
        if let subject = contentOffsetSubject { return subject }
        let subject = BehaviorSubject(value: scrollView?.contentOffset ?? .zero)
        contentOffsetSubject = subject
        return subject
    }

    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        contentOffsetSubject?.on(.next(scrollView.contentOffset))
        didScroll.on(.next(()))
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("scrollViewDidScroll:"), to: forwardDelegate) {
            ($0 as? UIScrollViewDelegate)?.scrollViewDidScroll(scrollView)
        }
        #else
        (forwardDelegate as? UIScrollViewDelegate)?.scrollViewDidScroll?(scrollView)
        #endif
    }

    deinit {
        didScroll.on(.completed)
        contentOffsetSubject?.on(.completed)
    }
}

@MainActor
extension Reactive where Base: UIScrollView {
    /// The scroll view's content offset: the current offset on subscription,
    /// then the offset after each scroll (`scrollViewDidScroll(_:)`, which UIKit
    /// also sends for offsets set from code). Elements set the offset.
    /// Completes when the scroll view is deallocated.
    public var contentOffset: ControlProperty<CGPoint> {
        let proxy = ScrollViewDelegateProxy.proxy(for: base)
        return ControlProperty(values: proxy.contentOffset, valueSink: Binder(base) { scrollView, offset in
            scrollView.contentOffset = offset
        })
    }

    /// `()` for each `scrollViewDidScroll(_:)`. Completes when the scroll view
    /// is deallocated.
    public var didScroll: ControlEvent<Void> {
        ControlEvent(events: ScrollViewDelegateProxy.proxy(for: base).didScroll)
    }

    /// Puts `delegate` behind the scroll view's proxy: it receives every
    /// delegate message, those Ripple observes included, until the returned
    /// disposable is disposed. The delegate is not retained.
    public func setDelegate(_ delegate: UIScrollViewDelegate) -> Disposable {
        DelegateProxy.installForwardDelegate(delegate, retain: false, on: ScrollViewDelegateProxy.proxy(for: base))
    }
}

/// The delegate proxy of a text view.
@MainActor
final class TextViewDelegateProxy: ScrollViewDelegateProxy, UITextViewDelegate {
    let didBeginEditing = PublishSubject<Void>()
    let didEndEditing = PublishSubject<Void>()
    let didChange = PublishSubject<Void>()

    func textViewDidBeginEditing(_ textView: UITextView) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("textViewDidBeginEditing:"), to: forwardDelegate) {
            ($0 as? UITextViewDelegate)?.textViewDidBeginEditing(textView)
        }
        #else
        (forwardDelegate as? UITextViewDelegate)?.textViewDidBeginEditing?(textView)
        #endif
        didBeginEditing.on(.next(()))
    }

    func textViewDidEndEditing(_ textView: UITextView) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("textViewDidEndEditing:"), to: forwardDelegate) {
            ($0 as? UITextViewDelegate)?.textViewDidEndEditing(textView)
        }
        #else
        (forwardDelegate as? UITextViewDelegate)?.textViewDidEndEditing?(textView)
        #endif
        didEndEditing.on(.next(()))
    }

    func textViewDidChange(_ textView: UITextView) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("textViewDidChange:"), to: forwardDelegate) {
            ($0 as? UITextViewDelegate)?.textViewDidChange(textView)
        }
        #else
        (forwardDelegate as? UITextViewDelegate)?.textViewDidChange?(textView)
        #endif
        didChange.on(.next(()))
    }

    deinit {
        didBeginEditing.on(.completed)
        didEndEditing.on(.completed)
        didChange.on(.completed)
    }
}

@MainActor
extension Reactive where Base: UITextView {
    private var textViewProxy: TextViewDelegateProxy {
        // A text view's proxy is always a TextViewDelegateProxy (see `proxy(for:)`).
        ScrollViewDelegateProxy.proxy(for: base) as! TextViewDelegateProxy
    }

    /// The text view's text: the current text on subscription, then the text
    /// after each edit its text storage processes (typing, autocorrection, and
    /// text set from code: RxCocoa observes the text storage, not the keyboard),
    /// delivered asynchronously on the main scheduler once the edit is done.
    /// Elements set the text unless it already has that text.
    public var text: ControlProperty<String?> {
        value
    }

    /// The same property as `text`.
    public var value: ControlProperty<String?> {
        let source = Observable<String?>.deferred { [weak textView = base] in
            let text = textView?.text
            guard let storage = textView?.textStorage else { return .just(text) }
            return NotificationCenter.default.rx
                .notification(NSTextStorage.didProcessEditingNotification, object: storage)
                // The storage posts while it is still processing the edit:
                // setting the text from here would raise an exception.
                .observe(on: MainScheduler.asyncInstance)
                .map { _ in MainActor.assumeIsolated { textView?.textStorage.string } }
                .startWith(text)
        }
        return ControlProperty(values: source, valueSink: Binder(base) { (textView: UITextView, text: String?) in
            if textView.text != text {
                textView.text = text
            }
        })
    }

    /// `()` each time editing begins (`textViewDidBeginEditing(_:)`).
    public var didBeginEditing: ControlEvent<Void> {
        ControlEvent(events: textViewProxy.didBeginEditing)
    }

    /// `()` each time editing ends (`textViewDidEndEditing(_:)`).
    public var didEndEditing: ControlEvent<Void> {
        ControlEvent(events: textViewProxy.didEndEditing)
    }

    /// `()` each time the user changes the text (`textViewDidChange(_:)`).
    public var didChange: ControlEvent<Void> {
        ControlEvent(events: textViewProxy.didChange)
    }
}

/// The delegate proxy of a search bar.
@MainActor
final class SearchBarDelegateProxy: DelegateProxy, UISearchBarDelegate {
    private static let key = AssociationKey()

    let textDidChange = PublishSubject<Void>()
    let textDidBeginEditing = PublishSubject<Void>()
    let textDidEndEditing = PublishSubject<Void>()
    let searchButtonClicked = PublishSubject<Void>()
    let cancelButtonClicked = PublishSubject<Void>()

    static func proxy(for searchBar: UISearchBar) -> SearchBarDelegateProxy {
        installed(key, on: searchBar, make: { SearchBarDelegateProxy() },
                  current: { [weak searchBar] in searchBar?.delegate },
                  assign: { [weak searchBar] proxy in searchBar?.delegate = proxy })
    }

    func searchBar(_ searchBar: UISearchBar, textDidChange searchText: String) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("searchBar:textDidChange:"), to: forwardDelegate) {
            ($0 as? UISearchBarDelegate)?.searchBar(searchBar, textDidChange: searchText)
        }
        #else
        (forwardDelegate as? UISearchBarDelegate)?.searchBar?(searchBar, textDidChange: searchText)
        #endif
        textDidChange.on(.next(()))
    }

    func searchBarTextDidBeginEditing(_ searchBar: UISearchBar) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("searchBarTextDidBeginEditing:"), to: forwardDelegate) {
            ($0 as? UISearchBarDelegate)?.searchBarTextDidBeginEditing(searchBar)
        }
        #else
        (forwardDelegate as? UISearchBarDelegate)?.searchBarTextDidBeginEditing?(searchBar)
        #endif
        textDidBeginEditing.on(.next(()))
    }

    func searchBarTextDidEndEditing(_ searchBar: UISearchBar) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("searchBarTextDidEndEditing:"), to: forwardDelegate) {
            ($0 as? UISearchBarDelegate)?.searchBarTextDidEndEditing(searchBar)
        }
        #else
        (forwardDelegate as? UISearchBarDelegate)?.searchBarTextDidEndEditing?(searchBar)
        #endif
        textDidEndEditing.on(.next(()))
    }

    func searchBarSearchButtonClicked(_ searchBar: UISearchBar) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("searchBarSearchButtonClicked:"), to: forwardDelegate) {
            ($0 as? UISearchBarDelegate)?.searchBarSearchButtonClicked(searchBar)
        }
        #else
        (forwardDelegate as? UISearchBarDelegate)?.searchBarSearchButtonClicked?(searchBar)
        #endif
        searchButtonClicked.on(.next(()))
    }

    func searchBarCancelButtonClicked(_ searchBar: UISearchBar) {
        #if RIPPLE_COCOA_INTERFACE
        _ = ObjCMessage.send(Selector("searchBarCancelButtonClicked:"), to: forwardDelegate) {
            ($0 as? UISearchBarDelegate)?.searchBarCancelButtonClicked(searchBar)
        }
        #else
        (forwardDelegate as? UISearchBarDelegate)?.searchBarCancelButtonClicked?(searchBar)
        #endif
        cancelButtonClicked.on(.next(()))
    }

    deinit {
        for subject in [textDidChange, textDidBeginEditing, textDidEndEditing, searchButtonClicked, cancelButtonClicked] {
            subject.on(.completed)
        }
    }
}

@MainActor
extension Reactive where Base: UISearchBar {
    /// The search bar's text: the current text on subscription, then the text
    /// after each change the user makes (`searchBar(_:textDidChange:)`) and at
    /// the end of editing (as RxCocoa, `""` for no text then). Setting `text`
    /// from code sends nothing. Elements set the text.
    public var text: ControlProperty<String?> {
        value
    }

    /// The same property as `text`.
    public var value: ControlProperty<String?> {
        let source = Observable<String?>.deferred { [weak searchBar = base] in
            guard let searchBar else { return .empty() }
            let proxy = SearchBarDelegateProxy.proxy(for: searchBar)
            return Observable.merge(proxy.textDidChange.asObservable(), proxy.textDidEndEditing.asObservable())
                .map { [weak searchBar] _ in MainActor.assumeIsolated { searchBar?.text ?? "" } }
                .startWith(searchBar.text)
        }
        return ControlProperty(values: source, valueSink: Binder(base) { (searchBar: UISearchBar, text: String?) in
            searchBar.text = text
        })
    }

    /// `()` each time the user taps the keyboard's Search button.
    public var searchButtonClicked: ControlEvent<Void> {
        ControlEvent(events: SearchBarDelegateProxy.proxy(for: base).searchButtonClicked)
    }

    /// `()` each time the user taps Cancel.
    public var cancelButtonClicked: ControlEvent<Void> {
        ControlEvent(events: SearchBarDelegateProxy.proxy(for: base).cancelButtonClicked)
    }

    /// `()` each time editing begins.
    public var textDidBeginEditing: ControlEvent<Void> {
        ControlEvent(events: SearchBarDelegateProxy.proxy(for: base).textDidBeginEditing)
    }

    /// `()` each time editing ends.
    public var textDidEndEditing: ControlEvent<Void> {
        ControlEvent(events: SearchBarDelegateProxy.proxy(for: base).textDidEndEditing)
    }

    /// Puts `delegate` behind the search bar's proxy until the returned
    /// disposable is disposed. The delegate is not retained.
    public func setDelegate(_ delegate: UISearchBarDelegate) -> Disposable {
        DelegateProxy.installForwardDelegate(delegate, retain: false, on: SearchBarDelegateProxy.proxy(for: base))
    }
}
#endif
