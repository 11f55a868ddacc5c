/// An event of a control (a button tap, the end of editing) as an observable.
public protocol ControlEventType: ObservableType {
    /// The event as a ``ControlEvent``.
    func asControlEvent() -> ControlEvent<Element>
}

/// The events of a control: RxCocoa's type, without any UI framework. Build one
/// for a terminal UI, a custom view layer or a test from any observable.
///
/// ```swift
/// // A button of a terminal UI:
/// let presses = PublishRelay<Void>()
/// let tap = ControlEvent(events: presses)
/// tap.asSignal().emit(to: viewModel.countUp).disposed(by: bag)
/// // when the user presses the button:
/// presses.accept(())
/// ```
///
/// ```
/// events:      --t---t--
/// subscriber:  --t---t--
/// ```
///
/// The contract an event's creator must keep (RxCocoa's): the events never fail,
/// no initial value is sent on subscription, and they are delivered on the UI
/// thread. As in RxCocoa, `ControlEvent` makes sure `events` is subscribed (and
/// disposed) on the main queue (`subscribe(on: ConcurrentMainScheduler.instance)`):
/// a subscription made on the main thread happens at once, one made on another
/// thread is handed to the main queue, which the app must run (a UI app does; a
/// terminal app runs `dispatchMain()` or `RunLoop.main.run()`, an XCTest waits
/// for an expectation).
public struct ControlEvent<PropertyType>: ControlEventType, @unchecked Sendable {
    /// The event's element type.
    public typealias Element = PropertyType

    @usableFromInline
    let events: Observable<PropertyType>

    /// Creates a control event from the observable of its events, which must
    /// never fail. `events` is subscribed on the main queue.
    public init<Ev: ObservableType>(events: Ev) where Ev.Element == Element {
        self.events = events.subscribe(on: ConcurrentMainScheduler.instance)
    }

    /// Subscribes `observer` to the events.
    @_alwaysEmitIntoClient
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events.
    @_alwaysEmitIntoClient
    public func asObservable() -> Observable<Element> {
        events
    }

    /// `self`.
    @_alwaysEmitIntoClient
    public func asControlEvent() -> ControlEvent<Element> {
        self
    }
}

extension ControlEvent {
    /// The events as a ``Driver``: delivered on the sharing scheduler, shared,
    /// the latest replayed to new subscribers.
    ///
    /// ```
    /// events:      --t---t--
    /// asDriver():  --t---t--
    /// ```
    ///
    /// A control event never fails; if it does anyway, the error is reported to
    /// ``Hooks/contractViolationHandler`` and the driver completes.
    @_alwaysEmitIntoClient
    public func asDriver() -> Driver<Element> {
        asDriver { error in
            Hooks.reportContractViolation("A ControlEvent failed, which it must not: \(error)")
            return .empty()
        }
    }

    /// The events as a ``Signal``: delivered on the sharing scheduler, shared
    /// without replay.
    ///
    /// ```
    /// events:      --t---t--
    /// asSignal():  --t---t--
    /// ```
    ///
    /// A control event never fails; if it does anyway, the error is reported to
    /// ``Hooks/contractViolationHandler`` and the signal completes.
    @_alwaysEmitIntoClient
    public func asSignal() -> Signal<Element> {
        asSignal { error in
            Hooks.reportContractViolation("A ControlEvent failed, which it must not: \(error)")
            return .empty()
        }
    }
}
