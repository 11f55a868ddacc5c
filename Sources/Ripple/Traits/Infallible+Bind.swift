// `bind(to:)` for `Infallible`: the sequence never fails, so binding it to an
// observer, a binder or a relay can never hit a binding error.

extension InfallibleType {
    /// Sends every event (elements and completion) to each observer.
    ///
    /// ```swift
    /// viewModel.isLoading.bind(to: spinner.rx.isAnimating).disposed(by: bag)
    /// ```
    ///
    /// ```
    /// source:    --1--2--|
    /// observer:  --1--2--|
    /// ```
    @_alwaysEmitIntoClient
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        asObservable().subscribe { event in
            observers.forEach { $0.on(event) }
        }
    }

    /// Sends every event, elements wrapped in an optional, to each observer.
    @_alwaysEmitIntoClient
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().subscribe { event in
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

    /// Calls `onNext` with every element.
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
        asObservable().bind(onNext: onNext, delivery: .forSubscriber(isolation, "bind(onNext:)"))
    }

    /// Calls `onNext` with every element (Swift 5 language mode: it runs where
    /// the elements arrive, as in RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        asObservable().bind(onNext: onNext, delivery: nil)
    }

    /// Calls `onNext` with `object` (held weakly) and every element; once `object`
    /// is gone, elements are ignored.
    ///
    /// - Isolation: called from main-actor code in Swift 6, `onNext` runs on the
    ///   main actor only, as with ``bind(onNext:isolation:)``.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func bind<Object: AnyObject>(
        with object: Object, onNext: @escaping (Object, Element) -> Void,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        asObservable().bind(with: object, onNext: onNext, delivery: .forSubscriber(isolation, "bind(with:onNext:)"))
    }

    /// Calls `onNext` with `object` (held weakly) and every element (Swift 5
    /// language mode: it runs where the elements arrive, as in RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        asObservable().bind(with: object, onNext: onNext, delivery: nil)
    }

    /// Feeds every element into the relays; completion ends the binding, the
    /// relays stay open.
    ///
    /// ```
    /// source:  --1--2--|
    /// relay:   --1--2-----   (still open)
    /// ```
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bindRelays(relays.map { relay in relay.accept })
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bindRelays(relays.map { relay in { relay.accept($0) } })
    }

    /// Feeds every element into the relays, as their current value.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bindRelays(relays.map { relay in relay.accept })
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bindRelays(relays.map { relay in { relay.accept($0) } })
    }

    /// Feeds every element into the relays.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bindRelays(relays.map { relay in relay.accept })
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bindRelays(relays.map { relay in { relay.accept($0) } })
    }

    private func bindRelays(_ accepts: [(Element) -> Void]) -> Disposable {
        subscribe(onNext: { element in accepts.forEach { $0(element) } })
    }
}
