extension ObservableType {
    /// Sends every event to each observer. Unlike relays, observers receive errors
    /// and completion too (a ``Binder`` reports an error instead of applying it).
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe { event in
            observers.forEach { $0.on(event) }
        }
    }

    /// Sends every event, elements wrapped in an optional, to each observer.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        subscribe { event in
            let optional = event.map { Optional($0) }
            observers.forEach { $0.on(optional) }
        }
    }

    /// Passes the sequence to `binder` and returns its result: the hook for custom
    /// binding functions.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Passes the sequence and `curriedArgument` to a curried binding function.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Calls `onNext` with every element. An error is reported through
    /// ``Hooks/contractViolationHandler`` (RxSwift crashes in debug builds).
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(
            onNext: onNext,
            onError: { error in Hooks.reportContractViolation("Binding error: \(error)") }
        )
    }

    /// Calls `onNext` with `object` (held weakly) and every element.
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        bind(onNext: { [weak object] element in
            guard let object else { return }
            onNext(object, element)
        })
    }
}
