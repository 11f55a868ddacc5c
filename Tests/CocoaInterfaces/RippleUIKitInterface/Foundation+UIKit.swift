#if os(Linux)
// UIKit's additions to Foundation, and the small value and object types the
// bindings pass around. Every declaration cites the Apple page it follows.
@_exported import Foundation
@_exported import RippleObjCInterface

extension IndexPath {
    /// https://developer.apple.com/documentation/foundation/indexpath/init(row:section:)
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// https://developer.apple.com/documentation/foundation/indexpath/init(item:section:)
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// https://developer.apple.com/documentation/foundation/indexpath/row
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// https://developer.apple.com/documentation/foundation/indexpath/item
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// https://developer.apple.com/documentation/foundation/indexpath/section
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }
}

/// https://developer.apple.com/documentation/uikit/uicolor
/// (`class UIColor : NSObject`; not main-actor isolated, and `Sendable`.)
open class UIColor: NSObject, @unchecked Sendable {
    /// The color's white component and alpha, enough to tell colors apart.
    public let white: CGFloat
    public let alpha: CGFloat

    /// https://developer.apple.com/documentation/uikit/uicolor/init(white:alpha:)
    public init(white: CGFloat, alpha: CGFloat) {
        self.white = white
        self.alpha = alpha
        super.init()
    }

    /// https://developer.apple.com/documentation/uikit/uicolor/black
    public class var black: UIColor { UIColor(white: 0, alpha: 1) }
    /// https://developer.apple.com/documentation/uikit/uicolor/white
    public class var white: UIColor { UIColor(white: 1, alpha: 1) }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UIColor else { return false }
        return white == other.white && alpha == other.alpha
    }
}

/// https://developer.apple.com/documentation/uikit/uiimage
/// (`class UIImage : NSObject`; not main-actor isolated, and `Sendable`.)
open class UIImage: NSObject, @unchecked Sendable {
    /// The simulation's stand-in for an image's pixels: a name.
    public let simulatedName: String

    /// https://developer.apple.com/documentation/uikit/uiimage/init(named:)
    public init?(named name: String) {
        simulatedName = name
        super.init()
    }
}

/// https://developer.apple.com/documentation/uikit/uievent
@MainActor
open class UIEvent: NSObject {}
#endif
