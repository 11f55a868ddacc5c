extension ObservableType {
    /// Sends every event to each observer. Unlike relays, observers receive errors
    /// and completion too (a ``Binder`` reports an error instead of applying it).
    @_alwaysEmitIntoClient
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe { event in
            observers.forEach { $0.on(event) }
        }
    }

    /// Sends every event, elements wrapped in an optional, to each observer.
    @_alwaysEmitIntoClient
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        subscribe { event in
            let optional = event.map { Optional($0) }
            observers.forEach { $0.on(optional) }
        }
    }

    /// Passes the sequence to `binder` and returns its result: the hook for custom
    /// binding functions.
    @_alwaysEmitIntoClient
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Passes the sequence and `curriedArgument` to a curried binding function.
    @_alwaysEmitIntoClient
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Calls `onNext` with every element. An error is reported through
    /// ``Hooks/contractViolationHandler`` (RxSwift crashes in debug builds).
    ///
    /// - Isolation: called from main-actor code in Swift 6, `onNext` runs on the
    ///   main actor only; see "Main-actor code and background events" in the
    ///   Swift concurrency guide.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func bind(
        onNext: @escaping (Element) -> Void,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        bind(onNext: onNext, delivery: .forSubscriber(isolation, "bind(onNext:)"))
    }

    /// Calls `onNext` with every element (Swift 5 language mode: it runs where
    /// the elements arrive, as in RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        bind(onNext: onNext, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func bind(onNext: @escaping (Element) -> Void, delivery: MainActorGate?) -> Disposable {
        subscribe(
            onNext: onNext,
            onError: { error in Hooks.reportContractViolation("Binding error: \(error)") },
            onCompleted: nil, onDisposed: nil, delivery: delivery
        )
    }

    /// Calls `onNext` with `object` (held weakly) and every element.
    ///
    /// - Isolation: called from main-actor code in Swift 6, `onNext` runs on the
    ///   main actor only, as with ``bind(onNext:isolation:)``.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func bind<Object: AnyObject>(
        with object: Object, onNext: @escaping (Object, Element) -> Void,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        bind(with: object, onNext: onNext, delivery: .forSubscriber(isolation, "bind(with:onNext:)"))
    }

    /// Calls `onNext` with `object` (held weakly) and every element (Swift 5
    /// language mode: it runs where the elements arrive, as in RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        bind(with: object, onNext: onNext, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func bind<Object: AnyObject>(
        with object: Object, onNext: @escaping (Object, Element) -> Void, delivery: MainActorGate?
    ) -> Disposable {
        bind(onNext: { [weak object] element in
            if let object { onNext(object, element) }
        }, delivery: delivery)
    }
}
