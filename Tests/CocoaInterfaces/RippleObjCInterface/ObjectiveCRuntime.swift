#if os(Linux)
// The parts of Apple's Objective-C runtime that RippleCocoa and the UIKit/AppKit
// interfaces use, for Linux, where swift-corelibs-foundation has `NSObject` but
// no runtime behind it. Each declaration has the signature Apple documents (the
// page is cited beside it); the behaviour is a small simulation:
//
// - `Selector` is a method's name;
// - associated objects live in a table keyed by the host object, emptied by the
//   host's `deinit` (the interfaces' root classes call
//   `objc_removeAssociatedObjects(_:)` there, as the runtime does when it frees
//   an object);
// - message dispatch (an action sent to a target, an optional delegate method
//   sent to a delegate) is modelled by `ObjCMessage`, below.
//
// Nothing here exists in Apple's SDKs under these names except what cites a page.
import Foundation

/// The name of a method (Apple: a type of the Objective-C runtime).
///
/// https://developer.apple.com/documentation/objectivec/selector
public struct Selector: Hashable, Sendable, CustomStringConvertible {
    /// The method name, such as `"tableView:didSelectRowAtIndexPath:"`.
    public let name: String

    /// Apple: `init(_ str: String)`.
    /// https://developer.apple.com/documentation/objectivec/selector
    public init(_ str: String) {
        name = str
    }

    public var description: String { name }
}

/// Apple: `enum objc_AssociationPolicy : UInt`.
/// https://developer.apple.com/documentation/objectivec/objc_associationpolicy
public enum objc_AssociationPolicy: UInt, Sendable {
    case OBJC_ASSOCIATION_ASSIGN = 0
    case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
    case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
    case OBJC_ASSOCIATION_RETAIN = 769
    case OBJC_ASSOCIATION_COPY = 771
}

/// The simulated runtime's table of associated objects.
private final class AssociatedObjectTable: @unchecked Sendable {
    let lock = NSLock()
    var values: [ObjectIdentifier: [UnsafeRawPointer: Any]] = [:]
    static let shared = AssociatedObjectTable()
}

/// Apple: `func objc_setAssociatedObject(_ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy)`.
/// https://developer.apple.com/documentation/objectivec/objc_setassociatedobject(_:_:_:_:)
///
/// Simulation: every policy retains (the interfaces use only the retaining ones);
/// `object` must be an instance of an interface class, whose `deinit` releases
/// what is associated with it.
public func objc_setAssociatedObject(_ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy) {
    let id = ObjectIdentifier(object as AnyObject)
    let table = AssociatedObjectTable.shared
    var replaced: Any?
    table.lock.lock()
    replaced = table.values[id]?[key]
    table.values[id, default: [:]][key] = value
    table.lock.unlock()
    // The replaced value is released here, outside the lock: its deinit may run code.
    _ = replaced
}

/// Apple: `func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any?`.
/// https://developer.apple.com/documentation/objectivec/objc_getassociatedobject(_:_:)
public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? {
    let id = ObjectIdentifier(object as AnyObject)
    let table = AssociatedObjectTable.shared
    table.lock.lock()
    defer { table.lock.unlock() }
    return table.values[id]?[key]
}

/// Apple: `func objc_removeAssociatedObjects(_ object: Any)`.
/// https://developer.apple.com/documentation/objectivec/objc_removeassociatedobjects(_:)
///
/// The interfaces' root classes call it from `deinit`: the runtime releases an
/// object's associated objects when it frees the object.
public func objc_removeAssociatedObjects(_ object: Any) {
    let id = ObjectIdentifier(object as AnyObject)
    let table = AssociatedObjectTable.shared
    table.lock.lock()
    let removed = table.values.removeValue(forKey: id)
    table.lock.unlock()
    _ = removed
}

/// `NSObjectProtocol.responds(to:)` and `NSObject.forwardingTarget(for:)`, which
/// swift-corelibs-foundation's `NSObject` does not have. An object that overrides
/// them on Apple platforms (a delegate proxy) conforms to this protocol on Linux,
/// and `ObjCMessage.send` consults it as the runtime consults the overrides.
///
/// - https://developer.apple.com/documentation/objectivec/nsobjectprotocol/responds(to:)
/// - https://developer.apple.com/documentation/objectivec/nsobject/forwardingtarget(for:)
@MainActor
public protocol SimulatedMessageReceiver: AnyObject {
    /// Whether the object handles `aSelector` (itself, or through its forwarding target).
    func responds(to aSelector: Selector!) -> Bool
    /// The object an unimplemented message goes to instead, or `nil`.
    func forwardingTarget(for aSelector: Selector!) -> Any?
}

/// What the Objective-C runtime reads to answer `responds(to:)` for an object that
/// does not override it: its class's method list. Swift on Linux keeps no such
/// list, and the simulation learns whether an optional method is implemented only
/// by sending it (see ``ObjCMessage``). A class that UIKit, or a delegate proxy on
/// UIKit's behalf, asks *without* sending the message lists the optional protocol
/// methods it implements here: whether a table view's data source implements
/// `tableView(_:commit:forRowAt:)` decides whether its rows can be swiped away,
/// and asking must not delete one. ``ObjCMessage/send(_:to:_:)`` checks the list
/// against what sending finds, so a wrong list stops the test run.
///
/// - https://developer.apple.com/documentation/objectivec/nsobjectprotocol/responds(to:)
@MainActor
public protocol SimulatedMethodList: AnyObject {
    /// The selectors of the optional protocol methods instances of the class implement.
    static var implementedOptionalMethods: Set<Selector> { get }
}

/// What an action method of a target is on Apple platforms: an `@objc` method
/// that the runtime finds by its selector. Linux has no such lookup, so a target
/// (`addTarget(_:action:...)`) conforms to this protocol and performs the
/// method `action` names itself.
@MainActor
public protocol SimulatedActionReceiver: AnyObject {
    /// Runs the action method named `action` with `sender`; `false` when the
    /// object has none (on Apple: "unrecognized selector").
    func performAction(_ action: Selector, sender: Any?) -> Bool
}

/// The simulated `objc_msgSend` for the two kinds of messages UIKit and AppKit
/// send that may not be implemented: action messages and optional protocol methods.
///
/// Optional protocol methods are modelled as protocol requirements whose default
/// implementation (in the interface's protocol extension) calls
/// ``ObjCMessage/unimplemented()``: a method a conformer does not write is, as in
/// Objective-C, a method it does not implement. UIKit asks `respondsToSelector:`
/// before sending such a message and falls back to its default behaviour; the
/// simulation sends it, notices that the default ran, then (as the runtime does)
/// asks the receiver's forwarding target, and falls back when nobody implements it.
@MainActor
public enum ObjCMessage {
    private static var defaultRan = false

    /// Called by the default implementations of optional protocol methods.
    public static func unimplemented() {
        defaultRan = true
    }

    /// Sends the optional method `selector` to `receiver` through `call`, and to
    /// its forwarding targets if it does not implement it. Returns what the
    /// implementing object returned, or `nil` when none implements it (the caller
    /// then behaves as UIKit does without the method).
    ///
    /// A receiver that is a ``SimulatedMessageReceiver`` and answers `false` to
    /// `responds(to:)` is not sent the message at all, as UIKit does not send it.
    public static func send<Result>(_ selector: Selector, to receiver: AnyObject?, _ call: (AnyObject) -> Result) -> Result? {
        var current = receiver
        var hops = 0
        while let object = current, hops < 16 {
            if let simulated = object as? SimulatedMessageReceiver, hops == 0, !simulated.responds(to: selector) {
                return nil
            }
            let saved = defaultRan
            defaultRan = false
            let result = call(object)
            let implemented = !defaultRan
            defaultRan = saved
            if let listed = object as? SimulatedMethodList {
                let declared = type(of: listed).implementedOptionalMethods.contains(selector)
                precondition(declared == implemented, "\(type(of: listed)).implementedOptionalMethods says \(declared ? "it implements" : "it does not implement") \(selector), sending it found otherwise")
            }
            if implemented {
                return result
            }
            current = (object as? SimulatedMessageReceiver)?.forwardingTarget(for: selector) as AnyObject?
            hops += 1
        }
        return nil
    }

    /// Whether `receiver` handles `selector`, as far as the simulation can tell
    /// without sending it: a ``SimulatedMessageReceiver`` answers itself, a
    /// ``SimulatedMethodList`` from its list; for any other object the answer is
    /// `true` (the simulation finds out when it sends).
    public static func responds(_ receiver: AnyObject?, to selector: Selector) -> Bool {
        guard let receiver else { return false }
        if let simulated = receiver as? SimulatedMessageReceiver {
            return simulated.responds(to: selector)
        }
        if let listed = receiver as? SimulatedMethodList {
            return type(of: listed).implementedOptionalMethods.contains(selector)
        }
        return true
    }

    /// Sends the action message `action` to `target` with `sender`, as
    /// `UIApplication.sendAction(_:to:from:for:)` and `NSApplication.sendAction(_:to:from:)`
    /// do. `false` when the target cannot perform it (or there is no target: the
    /// simulation has no responder chain).
    @discardableResult
    public static func sendAction(_ action: Selector, to target: AnyObject?, from sender: Any?) -> Bool {
        guard let receiver = target as? SimulatedActionReceiver else { return false }
        return receiver.performAction(action, sender: sender)
    }
}
#endif
