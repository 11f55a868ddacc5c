#if os(Linux)
// The AppKit API RippleCocoa's AppKit bindings use, declared as Apple documents
// it (each declaration cites its page), with simple simulated behaviour.
@_exported import Foundation
@_exported import RippleObjCInterface

/// https://developer.apple.com/documentation/appkit/nsresponder
@MainActor
open class NSResponder: NSObject {
    public override init() {
        super.init()
    }

    deinit {
        objc_removeAssociatedObjects(self)
    }
}

/// https://developer.apple.com/documentation/appkit/nsview
@MainActor
open class NSView: NSResponder {
    /// https://developer.apple.com/documentation/appkit/nsview/frame
    open var frame: NSRect
    /// https://developer.apple.com/documentation/appkit/nsview/ishidden
    open var isHidden: Bool = false
    /// https://developer.apple.com/documentation/appkit/nsview/alphavalue
    open var alphaValue: CGFloat = 1

    /// https://developer.apple.com/documentation/appkit/nsview/init(frame:)
    public init(frame frameRect: NSRect) {
        frame = frameRect
        super.init()
    }

    /// https://developer.apple.com/documentation/appkit/nsview/init(coder:)
    public required init?(coder: NSCoder) {
        frame = .zero
        super.init()
    }

    public convenience override init() {
        self.init(frame: .zero)
    }
}

/// https://developer.apple.com/documentation/appkit/nscontrol
///
/// Simulation: `sendAction(_:to:)` sends the action to the target, which must
/// be a `SimulatedActionReceiver`. Setting a value from code sends nothing.
@MainActor
open class NSControl: NSView {
    /// https://developer.apple.com/documentation/appkit/nscontrol/statevalue
    public struct StateValue: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let mixed = StateValue(rawValue: -1)
        public static let off = StateValue(rawValue: 0)
        public static let on = StateValue(rawValue: 1)
    }

    /// https://developer.apple.com/documentation/appkit/nscontrol/textdidchangenotification
    nonisolated public static let textDidChangeNotification = Notification.Name("NSControlTextDidChangeNotification")

    /// https://developer.apple.com/documentation/appkit/nscontrol/target
    open weak var target: AnyObject?
    /// https://developer.apple.com/documentation/appkit/nscontrol/action
    open var action: Selector?
    /// https://developer.apple.com/documentation/appkit/nscontrol/isenabled
    open var isEnabled: Bool = true
    /// https://developer.apple.com/documentation/appkit/nscontrol/stringvalue
    open var stringValue: String = ""
    /// https://developer.apple.com/documentation/appkit/nscontrol/doublevalue
    open var doubleValue: Double = 0
    /// https://developer.apple.com/documentation/appkit/nscontrol/integervalue
    open var integerValue: Int {
        get { Int(doubleValue) }
        set { doubleValue = Double(newValue) }
    }

    /// https://developer.apple.com/documentation/appkit/nscontrol/sendaction(_:to:)
    @discardableResult
    open func sendAction(_ action: Selector?, to target: Any?) -> Bool {
        guard let action else { return false }
        return ObjCMessage.sendAction(action, to: target as AnyObject?, from: self)
    }
}

/// https://developer.apple.com/documentation/appkit/nsbutton
@MainActor
open class NSButton: NSControl {
    /// https://developer.apple.com/documentation/appkit/nsbutton/state
    open var state: NSControl.StateValue = .off
    /// https://developer.apple.com/documentation/appkit/nsbutton/title
    open var title: String = ""
    /// https://developer.apple.com/documentation/appkit/nsbutton/allowsmixedstate
    open var allowsMixedState = false

    /// https://developer.apple.com/documentation/appkit/nsbutton/performclick(_:)
    ///
    /// Simulation: a switch or check box button toggles its state first, as a click does.
    open func performClick(_ sender: Any?) {
        simulatedTogglesState ? (state = state == .on ? .off : .on) : ()
        sendAction(action, to: target)
    }

    /// Whether a click toggles `state` (a check box or switch button; simulation only).
    public var simulatedTogglesState = false
}

/// https://developer.apple.com/documentation/appkit/nstextfield
///
/// Simulation: typing (`simulateTyping(_:)`) changes `stringValue` and posts
/// `NSControl.textDidChangeNotification` per character, as the field editor
/// does; `simulateEndEditing()` sends the action.
@MainActor
open class NSTextField: NSControl {
    /// The user types `text`, one character at a time (simulation only).
    public func simulateTyping(_ text: String) {
        for character in text {
            stringValue += String(character)
            NotificationCenter.default.post(name: NSControl.textDidChangeNotification, object: self)
        }
    }

    /// The user presses Return: the field sends its action (simulation only).
    public func simulateEndEditing() {
        sendAction(action, to: target)
    }
}

/// https://developer.apple.com/documentation/appkit/nsslider
@MainActor
open class NSSlider: NSControl {
    /// The user drags the knob to `value`: the slider sends its action (simulation only).
    public func simulateSlide(to value: Double) {
        doubleValue = value
        sendAction(action, to: target)
    }
}

/// https://developer.apple.com/documentation/appkit/nstext
@MainActor
open class NSText: NSView {
    /// https://developer.apple.com/documentation/appkit/nstext/didchangenotification
    nonisolated public static let didChangeNotification = Notification.Name("NSTextDidChangeNotification")

    /// https://developer.apple.com/documentation/appkit/nstext/string
    open var string: String = ""
}

/// https://developer.apple.com/documentation/appkit/nstextview
///
/// Simulation: typing changes `string` and posts `NSText.didChangeNotification`
/// per character; setting `string` from code posts nothing, as in AppKit.
@MainActor
open class NSTextView: NSText {
    /// The user types `text`, one character at a time (simulation only).
    public func simulateTyping(_ text: String) {
        for character in text {
            string += String(character)
            NotificationCenter.default.post(name: NSText.didChangeNotification, object: self)
        }
    }
}
#endif
