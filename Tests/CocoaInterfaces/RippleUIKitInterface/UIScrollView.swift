#if os(Linux)
import Foundation
import RippleObjCInterface

// Delegate protocols: Apple declares their optional methods `@objc optional`.
// Here each optional method is a requirement whose default implementation (in
// the extension) calls `ObjCMessage.unimplemented()`: a method a delegate does
// not write is a method it does not implement, and the simulated views send
// optional methods through `ObjCMessage.send`, which then asks the delegate's
// forwarding target or falls back, as UIKit does. Call sites therefore read
// `delegate?.scrollViewDidScroll(scrollView)` here where Apple platforms write
// `delegate?.scrollViewDidScroll?(scrollView)`.
//
// A property Apple redeclares in a subclass with a narrower delegate type
// (`UITableView.delegate: UITableViewDelegate?`) cannot be redeclared in Swift:
// the subclass inherits `delegate: UIScrollViewDelegate?` and the simulation
// casts. Assigning a table view delegate compiles the same way on both.

/// https://developer.apple.com/documentation/uikit/uiscrollviewdelegate
@MainActor
public protocol UIScrollViewDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/uikit/uiscrollviewdelegate/scrollviewdidscroll(_:)
    func scrollViewDidScroll(_ scrollView: UIScrollView)
    /// https://developer.apple.com/documentation/uikit/uiscrollviewdelegate/scrollviewdidzoom(_:)
    func scrollViewDidZoom(_ scrollView: UIScrollView)
    /// https://developer.apple.com/documentation/uikit/uiscrollviewdelegate/scrollviewwillbegindragging(_:)
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView)
    /// https://developer.apple.com/documentation/uikit/uiscrollviewdelegate/scrollviewdidenddragging(_:willdecelerate:)
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
    /// https://developer.apple.com/documentation/uikit/uiscrollviewdelegate/scrollviewdidenddecelerating(_:)
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView)
    /// https://developer.apple.com/documentation/uikit/uiscrollviewdelegate/scrollviewshouldscrolltotop(_:)
    func scrollViewShouldScrollToTop(_ scrollView: UIScrollView) -> Bool
}

extension UIScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: UIScrollView) { ObjCMessage.unimplemented() }
    public func scrollViewDidZoom(_ scrollView: UIScrollView) { ObjCMessage.unimplemented() }
    public func scrollViewWillBeginDragging(_ scrollView: UIScrollView) { ObjCMessage.unimplemented() }
    public func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) { ObjCMessage.unimplemented() }
    public func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) { ObjCMessage.unimplemented() }
    public func scrollViewShouldScrollToTop(_ scrollView: UIScrollView) -> Bool { ObjCMessage.unimplemented(); return true }
}

/// https://developer.apple.com/documentation/uikit/uiscrollview
///
/// Simulation: setting `contentOffset` sends `scrollViewDidScroll(_:)` to the
/// delegate, as UIKit does for changes from code and from the user alike.
@MainActor
open class UIScrollView: UIView {
    /// https://developer.apple.com/documentation/uikit/uiscrollview/delegate
    open weak var delegate: UIScrollViewDelegate?

    /// https://developer.apple.com/documentation/uikit/uiscrollview/contentoffset
    open var contentOffset: CGPoint = .zero {
        didSet {
            _ = ObjCMessage.send(Selector("scrollViewDidScroll:"), to: delegate) {
                ($0 as? UIScrollViewDelegate)?.scrollViewDidScroll(self)
            }
        }
    }

    /// https://developer.apple.com/documentation/uikit/uiscrollview/contentsize
    open var contentSize: CGSize = .zero

    /// https://developer.apple.com/documentation/uikit/uiscrollview/setcontentoffset(_:animated:)
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {
        self.contentOffset = contentOffset
    }
}

/// https://developer.apple.com/documentation/uikit/nstextstorage
///
/// Simulation: every edit is processed at once and posts
/// `didProcessEditingNotification`.
open class NSTextStorage: NSMutableAttributedString {
    /// https://developer.apple.com/documentation/uikit/nstextstorage/didprocesseditingnotification
    public static let didProcessEditingNotification = Notification.Name("NSTextStorageDidProcessEditingNotification")

    open override func replaceCharacters(in range: NSRange, with str: String) {
        super.replaceCharacters(in: range, with: str)
        NotificationCenter.default.post(name: NSTextStorage.didProcessEditingNotification, object: self)
    }

    open override func setAttributedString(_ attrString: NSAttributedString) {
        super.replaceCharacters(in: NSRange(location: 0, length: length), with: attrString.string)
        NotificationCenter.default.post(name: NSTextStorage.didProcessEditingNotification, object: self)
    }
}

/// https://developer.apple.com/documentation/uikit/uitextviewdelegate
@MainActor
public protocol UITextViewDelegate: UIScrollViewDelegate {
    /// https://developer.apple.com/documentation/uikit/uitextviewdelegate/textviewdidbeginediting(_:)
    func textViewDidBeginEditing(_ textView: UITextView)
    /// https://developer.apple.com/documentation/uikit/uitextviewdelegate/textviewdidendediting(_:)
    func textViewDidEndEditing(_ textView: UITextView)
    /// https://developer.apple.com/documentation/uikit/uitextviewdelegate/textviewdidchange(_:)
    func textViewDidChange(_ textView: UITextView)
    /// https://developer.apple.com/documentation/uikit/uitextviewdelegate/textviewdidchangeselection(_:)
    func textViewDidChangeSelection(_ textView: UITextView)
    /// https://developer.apple.com/documentation/uikit/uitextviewdelegate/textview(_:shouldchangetextin:replacementtext:)
    func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool
}

extension UITextViewDelegate {
    public func textViewDidBeginEditing(_ textView: UITextView) { ObjCMessage.unimplemented() }
    public func textViewDidEndEditing(_ textView: UITextView) { ObjCMessage.unimplemented() }
    public func textViewDidChange(_ textView: UITextView) { ObjCMessage.unimplemented() }
    public func textViewDidChangeSelection(_ textView: UITextView) { ObjCMessage.unimplemented() }
    public func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool {
        ObjCMessage.unimplemented()
        return true
    }
}

/// https://developer.apple.com/documentation/uikit/uitextview
///
/// Simulation: typing asks the delegate's `textView(_:shouldChangeTextIn:replacementText:)`,
/// edits the text storage (which posts its notification) and sends
/// `textViewDidChange(_:)`; setting `text` from code edits the storage only.
/// `becomeFirstResponder()`/`resignFirstResponder()` send the begin/end editing
/// delegate methods.
@MainActor
open class UITextView: UIScrollView, UIKeyInput {
    /// https://developer.apple.com/documentation/uikit/uitextview/textstorage
    public let textStorage = NSTextStorage(string: "")

    /// https://developer.apple.com/documentation/uikit/uitextview/text
    open var text: String! {
        get { textStorage.string }
        set { textStorage.replaceCharacters(in: NSRange(location: 0, length: textStorage.length), with: newValue ?? "") }
    }

    /// https://developer.apple.com/documentation/uikit/uitextview/attributedtext
    open var attributedText: NSAttributedString! {
        get { NSAttributedString(attributedString: textStorage) }
        set { textStorage.setAttributedString(newValue ?? NSAttributedString(string: "")) }
    }

    /// https://developer.apple.com/documentation/uikit/uitextview/iseditable
    open var isEditable: Bool = true

    private var textViewDelegate: AnyObject? { delegate }

    public var hasText: Bool { textStorage.length > 0 }

    public func insertText(_ text: String) {
        let range = NSRange(location: textStorage.length, length: 0)
        let allowed = ObjCMessage.send(Selector("textView:shouldChangeTextInRange:replacementText:"), to: textViewDelegate) {
            ($0 as? UITextViewDelegate)?.textView(self, shouldChangeTextIn: range, replacementText: text)
        } ?? true
        guard allowed != false else { return }
        textStorage.replaceCharacters(in: range, with: text)
        _ = ObjCMessage.send(Selector("textViewDidChange:"), to: textViewDelegate) {
            ($0 as? UITextViewDelegate)?.textViewDidChange(self)
        }
    }

    public func deleteBackward() {
        guard hasText else { return }
        textStorage.replaceCharacters(in: NSRange(location: textStorage.length - 1, length: 1), with: "")
        _ = ObjCMessage.send(Selector("textViewDidChange:"), to: textViewDelegate) {
            ($0 as? UITextViewDelegate)?.textViewDidChange(self)
        }
    }

    open override func becomeFirstResponder() -> Bool {
        _ = ObjCMessage.send(Selector("textViewDidBeginEditing:"), to: textViewDelegate) {
            ($0 as? UITextViewDelegate)?.textViewDidBeginEditing(self)
        }
        return true
    }

    open override func resignFirstResponder() -> Bool {
        _ = ObjCMessage.send(Selector("textViewDidEndEditing:"), to: textViewDelegate) {
            ($0 as? UITextViewDelegate)?.textViewDidEndEditing(self)
        }
        return true
    }
}

/// https://developer.apple.com/documentation/uikit/uibarpositioningdelegate
/// (`@MainActor protocol UIBarPositioningDelegate : NSObjectProtocol`; its one
/// optional method, `position(for:)`, is not used by the bindings.)
@MainActor
public protocol UIBarPositioningDelegate: NSObjectProtocol {}

/// https://developer.apple.com/documentation/uikit/uisearchbardelegate
/// (`@MainActor protocol UISearchBarDelegate : UIBarPositioningDelegate`)
@MainActor
public protocol UISearchBarDelegate: UIBarPositioningDelegate {
    /// https://developer.apple.com/documentation/uikit/uisearchbardelegate/searchbar(_:textdidchange:)
    func searchBar(_ searchBar: UISearchBar, textDidChange searchText: String)
    /// https://developer.apple.com/documentation/uikit/uisearchbardelegate/searchbarsearchbuttonclicked(_:)
    func searchBarSearchButtonClicked(_ searchBar: UISearchBar)
    /// https://developer.apple.com/documentation/uikit/uisearchbardelegate/searchbarcancelbuttonclicked(_:)
    func searchBarCancelButtonClicked(_ searchBar: UISearchBar)
    /// https://developer.apple.com/documentation/uikit/uisearchbardelegate/searchbartextdidbeginediting(_:)
    func searchBarTextDidBeginEditing(_ searchBar: UISearchBar)
    /// https://developer.apple.com/documentation/uikit/uisearchbardelegate/searchbartextdidendediting(_:)
    func searchBarTextDidEndEditing(_ searchBar: UISearchBar)
    /// https://developer.apple.com/documentation/uikit/uisearchbardelegate/searchbarshouldbeginediting(_:)
    func searchBarShouldBeginEditing(_ searchBar: UISearchBar) -> Bool
}

extension UISearchBarDelegate {
    public func searchBar(_ searchBar: UISearchBar, textDidChange searchText: String) { ObjCMessage.unimplemented() }
    public func searchBarSearchButtonClicked(_ searchBar: UISearchBar) { ObjCMessage.unimplemented() }
    public func searchBarCancelButtonClicked(_ searchBar: UISearchBar) { ObjCMessage.unimplemented() }
    public func searchBarTextDidBeginEditing(_ searchBar: UISearchBar) { ObjCMessage.unimplemented() }
    public func searchBarTextDidEndEditing(_ searchBar: UISearchBar) { ObjCMessage.unimplemented() }
    public func searchBarShouldBeginEditing(_ searchBar: UISearchBar) -> Bool { ObjCMessage.unimplemented(); return true }
}

/// https://developer.apple.com/documentation/uikit/uisearchbar
///
/// Simulation: the user's actions are in Simulation.swift (typing sends
/// `searchBar(_:textDidChange:)`; setting `text` from code sends nothing).
@MainActor
open class UISearchBar: UIView {
    /// https://developer.apple.com/documentation/uikit/uisearchbar/text
    open var text: String?
    /// https://developer.apple.com/documentation/uikit/uisearchbar/delegate
    open weak var delegate: UISearchBarDelegate?
    /// https://developer.apple.com/documentation/uikit/uisearchbar/selectedscopebuttonindex
    open var selectedScopeButtonIndex: Int = 0
}
#endif
