#if os(Linux)
import Foundation
import RippleObjCInterface

/// https://developer.apple.com/documentation/uikit/uiresponder
/// (`@MainActor class UIResponder : NSObject`)
@MainActor
open class UIResponder: NSObject {
    public override init() {
        super.init()
    }

    deinit {
        // The Objective-C runtime releases associated objects with their object.
        objc_removeAssociatedObjects(self)
    }

    /// https://developer.apple.com/documentation/uikit/uiresponder/becomefirstresponder()
    @discardableResult
    open func becomeFirstResponder() -> Bool { true }

    /// https://developer.apple.com/documentation/uikit/uiresponder/resignfirstresponder()
    @discardableResult
    open func resignFirstResponder() -> Bool { true }
}

/// https://developer.apple.com/documentation/uikit/uiview
/// (`@MainActor class UIView : UIResponder`)
@MainActor
open class UIView: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiview/frame
    open var frame: CGRect

    /// https://developer.apple.com/documentation/uikit/uiview/ishidden
    open var isHidden: Bool = false

    /// https://developer.apple.com/documentation/uikit/uiview/alpha
    open var alpha: CGFloat = 1

    /// https://developer.apple.com/documentation/uikit/uiview/backgroundcolor
    open var backgroundColor: UIColor?

    /// https://developer.apple.com/documentation/uikit/uiview/isuserinteractionenabled
    open var isUserInteractionEnabled: Bool = true

    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public init(frame: CGRect) {
        self.frame = frame
        super.init()
    }

    /// https://developer.apple.com/documentation/uikit/uiview/init(coder:)
    public required init?(coder: NSCoder) {
        frame = .zero
        super.init()
    }

    /// `UIView()`: NSObject's `init()`, which UIView implements as `init(frame: .zero)`.
    public convenience override init() {
        self.init(frame: .zero)
    }

    /// https://developer.apple.com/documentation/uikit/uiview/window
    /// (The simulation has no windows.)
    open var window: UIView? { nil }

    /// https://developer.apple.com/documentation/uikit/uiview/layoutifneeded()
    open func layoutIfNeeded() {}
}

/// https://developer.apple.com/documentation/uikit/uilabel
@MainActor
open class UILabel: UIView {
    /// https://developer.apple.com/documentation/uikit/uilabel/text
    open var text: String?
    /// https://developer.apple.com/documentation/uikit/uilabel/attributedtext
    open var attributedText: NSAttributedString?
    /// https://developer.apple.com/documentation/uikit/uilabel/textcolor
    open var textColor: UIColor! = .black
}

/// https://developer.apple.com/documentation/uikit/uiimageview
@MainActor
open class UIImageView: UIView {
    /// https://developer.apple.com/documentation/uikit/uiimageview/image
    open var image: UIImage?

    /// https://developer.apple.com/documentation/uikit/uiimageview/init(image:)
    public convenience init(image: UIImage?) {
        self.init(frame: .zero)
        self.image = image
    }
}

/// https://developer.apple.com/documentation/uikit/uiactivityindicatorview
@MainActor
open class UIActivityIndicatorView: UIView {
    /// https://developer.apple.com/documentation/uikit/uiactivityindicatorview/isanimating
    open private(set) var isAnimating = false

    /// https://developer.apple.com/documentation/uikit/uiactivityindicatorview/startanimating()
    open func startAnimating() { isAnimating = true }

    /// https://developer.apple.com/documentation/uikit/uiactivityindicatorview/stopanimating()
    open func stopAnimating() { isAnimating = false }
}
#endif

#if os(Linux)
/// https://developer.apple.com/documentation/uikit/uiviewcontroller
///
/// Simulation: `loadViewIfNeeded()` makes a plain `UIView` and calls `viewDidLoad()`.
@MainActor
open class UIViewController: UIResponder {
    private var loadedView: UIView?

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/init(nibname:bundle:)
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init()
    }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/init(coder:)
    public required init?(coder: NSCoder) {
        super.init()
    }

    public convenience override init() {
        self.init(nibName: nil, bundle: nil)
    }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/view
    open var view: UIView! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set { loadedView = newValue }
    }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/isviewloaded
    open var isViewLoaded: Bool { loadedView != nil }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/loadview()
    open func loadView() {
        loadedView = UIView(frame: .zero)
    }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/viewdidload()
    open func viewDidLoad() {}

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/loadviewifneeded()
    open func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        viewDidLoad()
    }
}
#endif
