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
    public init<Target: AnyObject>(
        _ target: Target,
        scheduler: ImmediateSchedulerType = MainScheduler.instance,
        binding: @escaping (Target, Value) -> Void
    ) {
        weak let weakTarget = target
        self.binding = { event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { element in
                    if let target = weakTarget {
                        binding(target, element)
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
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}
