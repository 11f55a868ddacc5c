#if os(Linux)
import Foundation
import RippleObjCInterface

/// https://developer.apple.com/documentation/uikit/uiapplication
@MainActor
open class UIApplication: UIResponder {
    private static let sharedApplication = UIApplication()

    /// https://developer.apple.com/documentation/uikit/uiapplication/shared
    open class var shared: UIApplication { sharedApplication }

    /// https://developer.apple.com/documentation/uikit/uiapplication/sendaction(_:to:from:for:)
    ///
    /// Simulation: the target performs the action if it is a
    /// `SimulatedActionReceiver`; there is no responder chain for a `nil` target.
    @discardableResult
    open func sendAction(_ action: Selector, to target: Any?, from sender: Any?, for event: UIEvent?) -> Bool {
        ObjCMessage.sendAction(action, to: target as AnyObject?, from: sender)
    }

    /// https://developer.apple.com/documentation/uikit/uiapplication/didenterbackgroundnotification
    nonisolated public static let didEnterBackgroundNotification = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/willenterforegroundnotification
    nonisolated public static let willEnterForegroundNotification = Notification.Name("UIApplicationWillEnterForegroundNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/didfinishlaunchingnotification
    nonisolated public static let didFinishLaunchingNotification = Notification.Name("UIApplicationDidFinishLaunchingNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
    nonisolated public static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/willresignactivenotification
    nonisolated public static let willResignActiveNotification = Notification.Name("UIApplicationWillResignActiveNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/didreceivememorywarningnotification
    nonisolated public static let didReceiveMemoryWarningNotification = Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/willterminatenotification
    nonisolated public static let willTerminateNotification = Notification.Name("UIApplicationWillTerminateNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/significanttimechangenotification
    nonisolated public static let significantTimeChangeNotification = Notification.Name("UIApplicationSignificantTimeChangeNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/backgroundrefreshstatusdidchangenotification
    nonisolated public static let backgroundRefreshStatusDidChangeNotification = Notification.Name("UIApplicationBackgroundRefreshStatusDidChangeNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/protecteddatawillbecomeunavailablenotification
    nonisolated public static let protectedDataWillBecomeUnavailableNotification = Notification.Name("UIApplicationProtectedDataWillBecomeUnavailable")
    /// https://developer.apple.com/documentation/uikit/uiapplication/protecteddatadidbecomeavailablenotification
    nonisolated public static let protectedDataDidBecomeAvailableNotification = Notification.Name("UIApplicationProtectedDataDidBecomeAvailable")
    /// https://developer.apple.com/documentation/uikit/uiapplication/userdidtakescreenshotnotification
    nonisolated public static let userDidTakeScreenshotNotification = Notification.Name("UIApplicationUserDidTakeScreenshotNotification")
}

/// https://developer.apple.com/documentation/uikit/uibaritem
@MainActor
open class UIBarItem: NSObject {
    public override init() {
        super.init()
    }

    deinit {
        objc_removeAssociatedObjects(self)
    }

    /// https://developer.apple.com/documentation/uikit/uibaritem/title
    open var title: String?
    /// https://developer.apple.com/documentation/uikit/uibaritem/isenabled
    open var isEnabled: Bool = true
    /// https://developer.apple.com/documentation/uikit/uibaritem/image
    open var image: UIImage?
}

/// https://developer.apple.com/documentation/uikit/uibarbuttonitem
///
/// Simulation: `simulateTap()` (in Simulation.swift) sends `action` to `target`
/// through `UIApplication.shared.sendAction(_:to:from:for:)`, as UIKit does.
@MainActor
open class UIBarButtonItem: UIBarItem {
    /// https://developer.apple.com/documentation/uikit/uibarbuttonitem/style-swift.enum
    public enum Style: Int, Sendable {
        case plain, bordered, done
    }

    /// https://developer.apple.com/documentation/uikit/uibarbuttonitem/target
    open weak var target: AnyObject?
    /// https://developer.apple.com/documentation/uikit/uibarbuttonitem/action
    open var action: Selector?
    /// https://developer.apple.com/documentation/uikit/uibarbuttonitem/style-swift.property
    open var style: UIBarButtonItem.Style = .plain

    public override init() {
        super.init()
    }

    /// https://developer.apple.com/documentation/uikit/uibarbuttonitem/init(title:style:target:action:)
    public convenience init(title: String?, style: UIBarButtonItem.Style, target: Any?, action: Selector?) {
        self.init()
        self.title = title
        self.style = style
        self.target = target as AnyObject?
        self.action = action
    }
}

/// https://developer.apple.com/documentation/uikit/uigesturerecognizer
///
/// Simulation: `simulateRecognition(state:)` (in Simulation.swift) sets `state`
/// and sends every target its action, as a recognizer does when it recognizes.
@MainActor
open class UIGestureRecognizer: NSObject {
    /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/state-swift.enum
    public enum State: Int, Sendable {
        case possible, began, changed, ended, cancelled, failed
        public static let recognized = State.ended
    }

    private struct Pair {
        weak var target: AnyObject?
        let action: Selector
    }

    private var pairs: [Pair] = []

    /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/state-swift.property
    open internal(set) var state: UIGestureRecognizer.State = .possible
    /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/isenabled
    open var isEnabled: Bool = true
    /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/view
    open internal(set) weak var view: UIView?

    /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/init(target:action:)
    public init(target: Any?, action: Selector?) {
        super.init()
        if let target, let action {
            addTarget(target, action: action)
        }
    }

    public convenience override init() {
        self.init(target: nil, action: nil)
    }

    deinit {
        objc_removeAssociatedObjects(self)
    }

    /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/addtarget(_:action:)
    open func addTarget(_ target: Any, action: Selector) {
        pairs.append(Pair(target: target as AnyObject, action: action))
    }

    /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/removetarget(_:action:)
    open func removeTarget(_ target: Any?, action: Selector?) {
        pairs.removeAll { pair in
            (target == nil || pair.target === target as AnyObject?) && (action == nil || pair.action == action)
        }
    }

    func sendActions() {
        for pair in pairs {
            ObjCMessage.sendAction(pair.action, to: pair.target, from: self)
        }
    }

    /// The number of target-action pairs (simulation only, for tests).
    public var simulatedTargetCount: Int { pairs.count }
}

/// https://developer.apple.com/documentation/uikit/uitapgesturerecognizer
@MainActor
open class UITapGestureRecognizer: UIGestureRecognizer {}

extension UIView {
    /// https://developer.apple.com/documentation/uikit/uiview/addgesturerecognizer(_:)
    public func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        gestureRecognizer.view = self
    }
}
#endif
