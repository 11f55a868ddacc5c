/// A value that can be observed: the ancestor of ``BehaviorRelay``.
///
/// Setting ``value`` broadcasts it; the observable completes when the variable is
/// deallocated.
@available(*, deprecated, message: "Variable is deprecated. Please use `BehaviorRelay` as a replacement.")
public final class Variable<Element>: @unchecked Sendable {
    private let subject: BehaviorSubject<Element>

    /// Creates a variable holding `value`.
    public init(_ value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value; setting it broadcasts the new value. Set from an
    /// observer of the variable (or from another thread during a delivery), the
    /// new value is read back at once and delivered after the delivery under
    /// way, as with a `BehaviorRelay`.
    public var value: Element {
        get {
            // The subject is only terminated in `deinit`, so this cannot throw.
            // swiftlint:disable:next force_try
            try! subject.value()
        }
        set {
            subject.onNext(newValue)
        }
    }

    /// The values, starting with the current one; completes when the variable is
    /// deallocated.
    public func asObservable() -> Observable<Element> {
        subject
    }

    deinit {
        subject.onCompleted()
    }
}
