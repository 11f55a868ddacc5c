#if os(Linux)
import Foundation
import RippleObjCInterface

/// https://developer.apple.com/documentation/uikit/uimenuelement
@MainActor
open class UIMenuElement: NSObject {
    /// https://developer.apple.com/documentation/uikit/uimenuelement/attributes
    public struct Attributes: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let disabled = Attributes(rawValue: 1 << 0)
        public static let destructive = Attributes(rawValue: 1 << 1)
        public static let hidden = Attributes(rawValue: 1 << 2)
    }

    /// https://developer.apple.com/documentation/uikit/uimenuelement/state
    public enum State: Int, Sendable {
        case off, on, mixed
    }

    /// https://developer.apple.com/documentation/uikit/uimenuelement/title
    open var title: String

    init(title: String) {
        self.title = title
        super.init()
    }
}

/// https://developer.apple.com/documentation/uikit/uiactionhandler
public typealias UIActionHandler = (UIAction) -> Void

/// https://developer.apple.com/documentation/uikit/uiaction
/// (iOS 13.0+; `@MainActor class UIAction : UIMenuElement`)
@available(iOS 13.0, tvOS 13.0, *)
@MainActor
open class UIAction: UIMenuElement {
    /// https://developer.apple.com/documentation/uikit/uiaction/identifier-swift.struct
    public struct Identifier: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// https://developer.apple.com/documentation/uikit/uiaction/identifier-swift.property
    public let identifier: UIAction.Identifier

    /// https://developer.apple.com/documentation/uikit/uiaction/sender
    /// (The simulation sets it while the handler runs.)
    open internal(set) var sender: Any?

    let handler: UIActionHandler

    /// https://developer.apple.com/documentation/uikit/uiaction/init(title:image:identifier:discoverabilitytitle:attributes:state:handler:)
    /// (iOS 13, tvOS 14. Apple declares it `@MainActor @preconcurrency
    /// convenience init`; here it is the class's designated initializer, which
    /// callers cannot tell apart.)
    ///
    /// Without an identifier, UIKit makes a unique one.
    @available(iOS 13.0, tvOS 14.0, *)
    public init(
        title: String = "", image: UIImage? = nil, identifier: UIAction.Identifier? = nil,
        discoverabilityTitle: String? = nil, attributes: UIMenuElement.Attributes = [],
        state: UIMenuElement.State = .off, handler: @escaping UIActionHandler
    ) {
        self.identifier = identifier ?? Identifier(UUID().uuidString)
        self.handler = handler
        super.init(title: title)
    }
}

/// https://developer.apple.com/documentation/uikit/uicontrol
/// (`@MainActor class UIControl : UIView`)
///
/// Simulation: the control keeps its target-action pairs and its actions in the
/// order they were added and sends them in that order from `sendActions(for:)`.
/// As UIKit does, it retains its actions and holds its targets weakly, and
/// changing a property from code sends no action.
@MainActor
open class UIControl: UIView {
    /// https://developer.apple.com/documentation/uikit/uicontrol/event
    public struct Event: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        public static let touchDragInside = Event(rawValue: 1 << 2)
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        public static let touchDragExit = Event(rawValue: 1 << 5)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        public static let touchCancel = Event(rawValue: 1 << 8)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        @available(iOS 14.0, *)
        public static let menuActionTriggered = Event(rawValue: 1 << 14)
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        public static let editingChanged = Event(rawValue: 1 << 17)
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        public static let allTouchEvents = Event(rawValue: 0x0000_0FFF)
        public static let allEditingEvents = Event(rawValue: 0x000F_0000)
        public static let applicationReserved = Event(rawValue: 0x0F00_0000)
        public static let systemReserved = Event(rawValue: 0xF000_0000)
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/state-swift.struct
    public struct State: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
        public static let focused = State(rawValue: 1 << 3)
        public static let application = State(rawValue: 0x00FF_0000)
        public static let reserved = State(rawValue: 0xFF00_0000)
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/isenabled
    open var isEnabled: Bool = true
    /// https://developer.apple.com/documentation/uikit/uicontrol/isselected
    open var isSelected: Bool = false
    /// https://developer.apple.com/documentation/uikit/uicontrol/ishighlighted
    open var isHighlighted: Bool = false

    private enum Registration {
        case target(WeakTarget, Selector, Event)
        case action(UIAction, Event)
    }

    private struct WeakTarget {
        weak var object: AnyObject?
    }

    private var registrations: [Registration] = []

    /// https://developer.apple.com/documentation/uikit/uicontrol/addtarget(_:action:for:)
    open func addTarget(_ target: Any?, action: Selector, for controlEvents: UIControl.Event) {
        registrations.append(.target(WeakTarget(object: target as AnyObject?), action, controlEvents))
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/removetarget(_:action:for:)
    open func removeTarget(_ target: Any?, action: Selector?, for controlEvents: UIControl.Event) {
        registrations.removeAll { registration in
            guard case .target(let weak, let selector, let events) = registration else { return false }
            return (target == nil || weak.object === target as AnyObject?)
                && (action == nil || selector == action)
                && !events.isDisjoint(with: controlEvents)
        }
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/addaction(_:for:)
    ///
    /// Actions are unique by identifier: adding one replaces the one with the same identifier.
    @available(iOS 14.0, tvOS 14.0, *)
    open func addAction(_ action: UIAction, for controlEvents: UIControl.Event) {
        if let index = registrations.firstIndex(where: {
            if case .action(let existing, let events) = $0 { return existing.identifier == action.identifier && events == controlEvents }
            return false
        }) {
            registrations[index] = .action(action, controlEvents)
        } else {
            registrations.append(.action(action, controlEvents))
        }
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/removeaction(_:for:)
    @available(iOS 14.0, tvOS 14.0, *)
    open func removeAction(_ action: UIAction, for controlEvents: UIControl.Event) {
        removeAction(identifiedBy: action.identifier, for: controlEvents)
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/removeaction(identifiedby:for:)
    @available(iOS 14.0, tvOS 14.0, *)
    open func removeAction(identifiedBy actionIdentifier: UIAction.Identifier, for controlEvents: UIControl.Event) {
        registrations.removeAll { registration in
            guard case .action(let action, let events) = registration else { return false }
            return action.identifier == actionIdentifier && !events.isDisjoint(with: controlEvents)
        }
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/enumerateeventhandlers(_:)
    /// (iOS 14.0+: what the control would send, in order.)
    @available(iOS 14.0, tvOS 14.0, *)
    open func enumerateEventHandlers(_ iterator: (UIAction?, (Any?, Selector)?, UIControl.Event, inout Bool) -> Void) {
        var stop = false
        for registration in registrations {
            switch registration {
            case .action(let action, let events):
                iterator(action, nil, events, &stop)
            case .target(let weak, let selector, let events):
                iterator(nil, (weak.object, selector), events, &stop)
            }
            if stop { return }
        }
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/sendactions(for:)
    ///
    /// Sends every registered action and target-action pair whose events
    /// intersect `controlEvents`.
    open func sendActions(for controlEvents: UIControl.Event) {
        for registration in registrations {
            switch registration {
            case .action(let action, let events) where !events.isDisjoint(with: controlEvents):
                sendAction(action)
            case .target(let weak, let selector, let events) where !events.isDisjoint(with: controlEvents):
                sendAction(selector, to: weak.object, for: nil)
            default:
                break
            }
        }
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/sendaction(_:)
    @available(iOS 14.0, tvOS 14.0, *)
    open func sendAction(_ action: UIAction) {
        action.sender = self
        action.handler(action)
        action.sender = nil
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/sendaction(_:to:for:)
    open func sendAction(_ action: Selector, to target: Any?, for event: UIEvent?) {
        UIApplication.shared.sendAction(action, to: target, from: self, for: event)
    }

    /// The number of actions and target-action pairs registered (simulation only,
    /// for tests: what `enumerateEventHandlers(_:)` would visit).
    public var simulatedHandlerCount: Int { registrations.count }
}

/// https://developer.apple.com/documentation/uikit/uibutton
@MainActor
open class UIButton: UIControl {
    private var titles: [UInt: String] = [:]
    private var attributedTitles: [UInt: NSAttributedString] = [:]
    private var images: [UInt: UIImage] = [:]
    private var backgroundImages: [UInt: UIImage] = [:]

    /// https://developer.apple.com/documentation/uikit/uibutton/settitle(_:for:)
    open func setTitle(_ title: String?, for state: UIControl.State) { titles[state.rawValue] = title }
    /// https://developer.apple.com/documentation/uikit/uibutton/title(for:)
    open func title(for state: UIControl.State) -> String? { titles[state.rawValue] ?? titles[0] }
    /// https://developer.apple.com/documentation/uikit/uibutton/setattributedtitle(_:for:)
    open func setAttributedTitle(_ title: NSAttributedString?, for state: UIControl.State) { attributedTitles[state.rawValue] = title }
    /// https://developer.apple.com/documentation/uikit/uibutton/attributedtitle(for:)
    open func attributedTitle(for state: UIControl.State) -> NSAttributedString? { attributedTitles[state.rawValue] ?? attributedTitles[0] }
    /// https://developer.apple.com/documentation/uikit/uibutton/setimage(_:for:)
    open func setImage(_ image: UIImage?, for state: UIControl.State) { images[state.rawValue] = image }
    /// https://developer.apple.com/documentation/uikit/uibutton/image(for:)
    open func image(for state: UIControl.State) -> UIImage? { images[state.rawValue] ?? images[0] }
    /// https://developer.apple.com/documentation/uikit/uibutton/setbackgroundimage(_:for:)
    open func setBackgroundImage(_ image: UIImage?, for state: UIControl.State) { backgroundImages[state.rawValue] = image }
    /// https://developer.apple.com/documentation/uikit/uibutton/backgroundimage(for:)
    open func backgroundImage(for state: UIControl.State) -> UIImage? { backgroundImages[state.rawValue] ?? backgroundImages[0] }
}

/// https://developer.apple.com/documentation/uikit/uiswitch
/// (iOS, iPadOS, Mac Catalyst and visionOS: unavailable on tvOS.)
@available(tvOS, unavailable)
@MainActor
open class UISwitch: UIControl {
    /// https://developer.apple.com/documentation/uikit/uiswitch/ison
    open var isOn: Bool = false
    /// https://developer.apple.com/documentation/uikit/uiswitch/seton(_:animated:)
    open func setOn(_ on: Bool, animated: Bool) { isOn = on }
}

/// https://developer.apple.com/documentation/uikit/uislider
/// (iOS, iPadOS, Mac Catalyst and visionOS: unavailable on tvOS.)
@available(tvOS, unavailable)
@MainActor
open class UISlider: UIControl {
    /// https://developer.apple.com/documentation/uikit/uislider/value
    open var value: Float = 0
    /// https://developer.apple.com/documentation/uikit/uislider/minimumvalue
    open var minimumValue: Float = 0
    /// https://developer.apple.com/documentation/uikit/uislider/maximumvalue
    open var maximumValue: Float = 1
}

/// https://developer.apple.com/documentation/uikit/uistepper
/// (iOS, iPadOS, Mac Catalyst and visionOS: unavailable on tvOS.)
@available(tvOS, unavailable)
@MainActor
open class UIStepper: UIControl {
    /// https://developer.apple.com/documentation/uikit/uistepper/value
    open var value: Double = 0
    /// https://developer.apple.com/documentation/uikit/uistepper/stepvalue
    open var stepValue: Double = 1
}

/// https://developer.apple.com/documentation/uikit/uisegmentedcontrol
@MainActor
open class UISegmentedControl: UIControl {
    /// https://developer.apple.com/documentation/uikit/uisegmentedcontrol/nosegment
    public static let noSegment = -1
    /// https://developer.apple.com/documentation/uikit/uisegmentedcontrol/selectedsegmentindex
    open var selectedSegmentIndex: Int = UISegmentedControl.noSegment
    private var titles: [Int: String] = [:]
    private var enabled: [Int: Bool] = [:]

    /// https://developer.apple.com/documentation/uikit/uisegmentedcontrol/settitle(_:forsegmentat:)
    open func setTitle(_ title: String?, forSegmentAt segment: Int) { titles[segment] = title }
    /// https://developer.apple.com/documentation/uikit/uisegmentedcontrol/titleforsegment(at:)
    open func titleForSegment(at segment: Int) -> String? { titles[segment] }
    /// https://developer.apple.com/documentation/uikit/uisegmentedcontrol/setenabled(_:forsegmentat:)
    open func setEnabled(_ enabled: Bool, forSegmentAt segment: Int) { self.enabled[segment] = enabled }
    /// https://developer.apple.com/documentation/uikit/uisegmentedcontrol/isenabledforsegment(at:)
    open func isEnabledForSegment(at segment: Int) -> Bool { enabled[segment] ?? true }
}

/// https://developer.apple.com/documentation/uikit/uidatepicker
/// (iOS, iPadOS, Mac Catalyst and visionOS: unavailable on tvOS.)
@available(tvOS, unavailable)
@MainActor
open class UIDatePicker: UIControl {
    /// https://developer.apple.com/documentation/uikit/uidatepicker/date
    open var date: Date = Date()
    /// https://developer.apple.com/documentation/uikit/uidatepicker/countdownduration
    open var countDownDuration: TimeInterval = 0
}

/// https://developer.apple.com/documentation/uikit/uirefreshcontrol
/// (iOS, iPadOS, Mac Catalyst and visionOS: unavailable on tvOS.)
@available(tvOS, unavailable)
@MainActor
open class UIRefreshControl: UIControl {
    /// https://developer.apple.com/documentation/uikit/uirefreshcontrol/isrefreshing
    open private(set) var isRefreshing = false
    /// https://developer.apple.com/documentation/uikit/uirefreshcontrol/beginrefreshing()
    open func beginRefreshing() { isRefreshing = true }
    /// https://developer.apple.com/documentation/uikit/uirefreshcontrol/endrefreshing()
    open func endRefreshing() { isRefreshing = false }
}

/// https://developer.apple.com/documentation/uikit/uikeyinput
/// (The part of text input a keyboard uses: what the simulation types with.)
@MainActor
public protocol UIKeyInput: AnyObject {
    /// https://developer.apple.com/documentation/uikit/uikeyinput/hastext
    var hasText: Bool { get }
    /// https://developer.apple.com/documentation/uikit/uikeyinput/inserttext(_:)
    func insertText(_ text: String)
    /// https://developer.apple.com/documentation/uikit/uikeyinput/deletebackward()
    func deleteBackward()
}

/// https://developer.apple.com/documentation/uikit/uitextfield
///
/// Simulation: typing (`insertText(_:)`, `deleteBackward()`) changes `text` and
/// sends `.editingChanged`, as the keyboard does; setting `text` from code sends
/// nothing, as in UIKit. `becomeFirstResponder()` and `resignFirstResponder()`
/// send `.editingDidBegin` and `.editingDidEnd`.
@MainActor
open class UITextField: UIControl, UIKeyInput {
    private var storage = NSAttributedString(string: "")

    /// https://developer.apple.com/documentation/uikit/uitextfield/text
    /// (Never `nil` when read: UIKit returns `""` for a field without text.)
    open var text: String? {
        get { storage.string }
        set { storage = NSAttributedString(string: newValue ?? "") }
    }

    /// https://developer.apple.com/documentation/uikit/uitextfield/attributedtext
    open var attributedText: NSAttributedString? {
        get { storage }
        set { storage = newValue ?? NSAttributedString(string: "") }
    }

    /// https://developer.apple.com/documentation/uikit/uitextfield/placeholder
    open var placeholder: String?
    /// https://developer.apple.com/documentation/uikit/uitextinputtraits/issecuretextentry
    open var isSecureTextEntry: Bool = false

    public var hasText: Bool { !storage.string.isEmpty }

    public func insertText(_ text: String) {
        storage = NSAttributedString(string: storage.string + text)
        sendActions(for: .editingChanged)
    }

    public func deleteBackward() {
        guard hasText else { return }
        storage = NSAttributedString(string: String(storage.string.dropLast()))
        sendActions(for: .editingChanged)
    }

    open override func becomeFirstResponder() -> Bool {
        sendActions(for: .editingDidBegin)
        return true
    }

    open override func resignFirstResponder() -> Bool {
        sendActions(for: .editingDidEnd)
        return true
    }
}
#endif
