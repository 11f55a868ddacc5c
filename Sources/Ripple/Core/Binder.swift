/// An observer that applies each element to a target, on a chosen scheduler.
///
/// A binder never accepts errors: an error that reaches it is reported through
/// ``Hooks/contractViolationHandler`` (RxSwift crashes in debug builds) and ignored.
/// The target is held weakly; once it is gone, elements are dropped.
///
/// ```swift
/// let isLoading = Binder(spinner) { spinner, loading in spinner.isVisible = loading }
/// viewModel.loading.bind(to: isLoading).disposed(by: bag)
/// ```
public struct Binder<Value>: ObserverType, @unchecked Sendable {
    /// The element type.
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// Creates a binder that calls `binding(target, value)` on `scheduler` (the main
    /// scheduler by default) for each element.
    ///
    /// - Isolation: created in main-actor code in Swift 6, `binding` runs on the
    ///   main actor only, also when `scheduler` runs elsewhere; see "Main-actor
    ///   code and background events" in the Swift concurrency guide.
    @available(swift, introduced: 6)
    public init<Target: AnyObject>(
        _ target: Target,
        scheduler: ImmediateSchedulerType = MainScheduler.instance,
        binding: @escaping (Target, Value) -> Void,
        isolation: (any Actor)? = #isolation
    ) {
        self.init(target, scheduler: scheduler, binding: binding,
                  delivery: .forSubscriber(isolation, "Binder.init(_:scheduler:binding:)"))
    }

    /// Creates a binder that calls `binding(target, value)` on `scheduler` (the
    /// main scheduler by default) for each element (Swift 5 language mode:
    /// `binding` runs where `scheduler` runs, as in RxSwift).
    @available(swift, obsoleted: 6)
    public init<Target: AnyObject>(
        _ target: Target,
        scheduler: ImmediateSchedulerType = MainScheduler.instance,
        binding: @escaping (Target, Value) -> Void
    ) {
        self.init(target, scheduler: scheduler, binding: binding, delivery: nil)
    }

    init<Target: AnyObject>(
        _ target: Target,
        scheduler: ImmediateSchedulerType,
        binding: @escaping (Target, Value) -> Void,
        delivery: MainActorGate?
    ) {
        weak let weakTarget = target
        let apply: (Value) -> Void = { element in
            if let target = weakTarget {
                binding(target, element)
            }
        }
        self.binding = { event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { element in
                    if let delivery {
                        delivery.deliver(element, apply)
                    } else {
                        apply(element)
                    }
                    return Disposables.create()
                }
            case .error(let error):
                Hooks.reportContractViolation("Binding error: \(error)")
            case .completed:
                break
            }
        }
    }

    /// Applies a `.next` event to the target.
    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// The binder as an ``AnyObserver``.
    @_alwaysEmitIntoClient
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}
