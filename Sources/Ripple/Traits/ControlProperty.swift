/// A property of a control (a text field's text, a switch's state) as one
/// value: an observable of the property's values and an observer that sets it.
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// The property as a ``ControlProperty``.
    func asControlProperty() -> ControlProperty<Element>
}

/// A two-way property of a control: subscribing receives its values, sending
/// elements to it sets it. RxCocoa's type, without any UI framework: build one
/// for a terminal UI, a custom view layer or a test from any observable of values
/// and any observer that applies them.
///
/// ```swift
/// // A text field of a terminal UI, backed by a relay:
/// let text = BehaviorRelay<String?>(value: "")
/// let field = ControlProperty<String?>(
///     values: text,
///     valueSink: AnyObserver { event in
///         if case .next(let value) = event { text.accept(value) }
///     }
/// )
/// field.orEmpty.map { "\(20 - $0.count) characters left" }
///     .bind(to: hintLabel)
///     .disposed(by: bag)
/// ```
///
/// ```
/// values:           a--b--c--
/// subscriber:       a--b--c--
/// changed:          ---b--c--   (skips the current value)
/// ```
///
/// The contract a property's creator must keep (RxCocoa's): `values` never fails,
/// sends the current value first on subscription, and delivers on the UI
/// thread. As in RxCocoa, `ControlProperty` makes sure `values` is subscribed
/// (and disposed) on the main queue (`subscribe(on: ConcurrentMainScheduler.instance)`):
/// on the main thread at once, so the current value arrives before `subscribe`
/// returns; from another thread through the main queue, which the app must run.
///
/// An error sent to the property is not applied: it is reported to
/// ``Hooks/contractViolationHandler`` (RxCocoa stops the program in debug builds).
public struct ControlProperty<PropertyType>: ControlPropertyType, @unchecked Sendable {
    /// The property's value type.
    public typealias Element = PropertyType

    @usableFromInline
    let values: Observable<PropertyType>
    @usableFromInline
    let valueSink: AnyObserver<PropertyType>

    /// Creates a property from the observable of its values and the observer
    /// that sets it.
    ///
    /// - Parameters:
    ///   - values: The property's values: the current one first on subscription,
    ///     then every change. It must never fail. It is subscribed on the main
    ///     queue.
    ///   - valueSink: Applies the values sent to the property.
    public init<Values: ObservableType, Sink: ObserverType>(
        values: Values, valueSink: Sink
    ) where Element == Values.Element, Element == Sink.Element {
        self.values = values.subscribe(on: ConcurrentMainScheduler.instance)
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the property's values.
    @_alwaysEmitIntoClient
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The property's changes only: its values without the current one sent on
    /// subscription.
    ///
    /// ```
    /// values:   a--b--c--
    /// changed:  ---b--c--
    /// ```
    @_alwaysEmitIntoClient
    public var changed: ControlEvent<PropertyType> {
        ControlEvent(events: values.skip(1))
    }

    /// The property's values.
    @_alwaysEmitIntoClient
    public func asObservable() -> Observable<Element> {
        values
    }

    /// `self`.
    @_alwaysEmitIntoClient
    public func asControlProperty() -> ControlProperty<Element> {
        self
    }

    /// Sets the property to each element. Completion is passed on to the value
    /// sink; an error is reported to ``Hooks/contractViolationHandler`` and
    /// dropped.
    @_alwaysEmitIntoClient
    public func on(_ event: Event<Element>) {
        switch event {
        case .error(let error):
            Hooks.reportContractViolation("Binding error to a ControlProperty: \(error)")
        case .next, .completed:
            valueSink.on(event)
        }
    }
}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as `""`: the usual view of a text field's
    /// optional text.
    ///
    /// ```
    /// values:   "a"--nil--"b"--
    /// orEmpty:  "a"--""---"b"--
    /// ```
    @_alwaysEmitIntoClient
    public var orEmpty: ControlProperty<String> {
        let original = asControlProperty()
        let values: Observable<String> = original.values.map { $0 ?? "" }
        let valueSink: AnyObserver<String> = original.valueSink.mapObserver { $0 }
        return ControlProperty<String>(values: values, valueSink: valueSink)
    }
}

extension ControlProperty {
    /// The property as a ``Driver``: its values delivered on the sharing
    /// scheduler, shared, the latest replayed to new subscribers.
    ///
    /// ```
    /// values:      a--b--c--
    /// asDriver():  a--b--c--
    /// ```
    ///
    /// A property never fails; if its values do anyway, the error is reported to
    /// ``Hooks/contractViolationHandler`` and the driver completes.
    @_alwaysEmitIntoClient
    public func asDriver() -> Driver<Element> {
        asDriver { error in
            Hooks.reportContractViolation("A ControlProperty failed, which it must not: \(error)")
            return .empty()
        }
    }
}
