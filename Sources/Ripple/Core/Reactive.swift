import Foundation

/// The `.rx` namespace: extensions on `Reactive` where `Base` is your type add
/// reactive members without cluttering the type itself.
///
/// For any class, `object.rx.someProperty` is a ``Binder`` that sets the property
/// (through key-path dynamic member lookup).
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The extended value.
    public let base: Base

    /// Wraps `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// A binder that sets the property at `keyPath` on the main scheduler.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property>
    where Base: AnyObject {
        Binder(base) { base, value in
            base[keyPath: keyPath] = value
        }
    }
}

/// A namespace over a `Sendable` value is `Sendable`: a reactive extension on
/// a thread-safe type (a database, a service) may capture `self` in work it
/// hands to another queue. Over any other base it is not, since `base` would
/// cross with it.
extension Reactive: Sendable where Base: Sendable {}

/// A type that has the `.rx` namespace.
public protocol ReactiveCompatible {
    /// The type the namespace extends.
    associatedtype ReactiveBase

    /// The static reactive namespace.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The reactive namespace of this value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The static reactive namespace.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // swiftlint:disable:next unused_setter_value
        set {}
    }

    /// The reactive namespace of this value.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // swiftlint:disable:next unused_setter_value
        set {}
    }
}

extension NSObject: ReactiveCompatible {}
