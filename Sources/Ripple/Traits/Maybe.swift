extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The observer of a ``Maybe``: call it once with `.success`, `.completed` or
    /// `.error`.
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// Creates a `Maybe` from a subscription function that reports exactly one
    /// outcome; later calls are ignored.
    ///
    /// ```
    /// .success(1):  (1|)      .completed:  |      .error(e):  #
    /// ```
    @_alwaysEmitIntoClient
    public static func create(subscribe: @escaping (@escaping MaybeObserver) -> Disposable) -> Maybe<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .error(let error):
                    observer.on(.error(error))
                case .completed:
                    observer.on(.completed)
                }
            }
        }
        return Maybe(raw: source)
    }

    /// Subscribes a closure that receives the outcome.
    ///
    /// - Isolation: called from main-actor code in Swift 6, `observer` runs on
    ///   the main actor only; see "Main-actor code and background events" in the
    ///   Swift concurrency guide.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func subscribe(
        _ observer: @escaping (MaybeEvent<Element>) -> Void,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(observer, delivery: .forSubscriber(isolation, "subscribe(_:)"))
    }

    /// Subscribes a closure that receives the outcome (Swift 5 language mode: it
    /// runs where the outcome arrives, as in RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> Disposable {
        subscribe(observer, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void, delivery: MainActorGate?) -> Disposable {
        var reported = false
        return primitiveSequence.asObservable().subscribe({ event in
            // The first outcome wins; anything after it is ignored.
            if reported { return }
            switch event {
            case .next(let element):
                reported = true
                observer(.success(element))
            case .error(let error):
                reported = true
                observer(.error(error))
            case .completed:
                if !reported {
                    observer(.completed)
                }
            }
        }, delivery: delivery)
    }

    /// Subscribes handlers for the outcome. An error without `onError` goes to
    /// ``Hooks/defaultErrorHandler``; `onDisposed` runs once at the end.
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only; see "Main-actor code and background events" in the
    ///   Swift concurrency guide.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(
            onSuccess: onSuccess, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(onSuccess:onError:onCompleted:onDisposed:)")
        )
    }

    /// Subscribes handlers for the outcome (Swift 5 language mode: they run where
    /// the outcome arrives, as in RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribe(onSuccess: onSuccess, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func subscribe(
        onSuccess: ((Element) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        let callStack = onError == nil ? Hooks.captureCallStackIfNeeded() : []
        // `onDisposed` runs once: after the outcome, or when disposed before it.
        let onDisposed = MainActorGate.onDisposed(onDisposed, through: delivery)
        let disposed = Disposables.create(with: { onDisposed?() })
        // The outcome is taken from the events directly rather than through
        // `subscribe(_:delivery:)`: building a `MaybeEvent.success` allocates
        // (its payload is boxed, docs/Performance.md, "Boxed payloads").
        var reported = false
        let disposable = primitiveSequence.asObservable().subscribe({ event in
            // The first outcome wins; anything after it is ignored.
            if reported { return }
            reported = true
            defer { disposed.dispose() }
            switch event {
            case .next(let element):
                onSuccess?(element)
            case .error(let error):
                Hooks.report(error, to: onError, callStack: callStack)
            case .completed:
                onCompleted?()
            }
        }, delivery: delivery)
        return Disposables.create(disposable, disposed)
    }

    /// Subscribes handlers that receive `object` (held weakly) as their first
    /// argument.
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only, as with ``subscribe(onSuccess:onError:onCompleted:onDisposed:isolation:)``.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(
            with: object, onSuccess: onSuccess, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(with:onSuccess:onError:onCompleted:onDisposed:)")
        )
    }

    /// Subscribes handlers that receive `object` (held weakly) as their first
    /// argument (Swift 5 language mode: they run where the outcome arrives, as in
    /// RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            with: object, onSuccess: onSuccess, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: nil
        )
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)?,
        onError: ((Object, Swift.Error) -> Void)?,
        onCompleted: ((Object) -> Void)?,
        onDisposed: ((Object) -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        subscribe(
            onSuccess: holdingWeakly(object, onSuccess), onError: holdingWeakly(object, onError),
            onCompleted: holdingWeakly(object, onCompleted), onDisposed: holdingWeakly(object, onDisposed),
            delivery: delivery
        )
    }

    /// A `Maybe` that succeeds with `element`.
    @_alwaysEmitIntoClient
    public static func just(_ element: Element) -> Maybe<Element> {
        Maybe(raw: Observable.just(element))
    }

    /// A `Maybe` that succeeds with `element`, delivered on `scheduler`.
    @_alwaysEmitIntoClient
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Maybe<Element> {
        Maybe(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A `Maybe` that completes without an element.
    @_alwaysEmitIntoClient
    public static func empty() -> Maybe<Element> {
        Maybe(raw: Observable.empty())
    }

    /// A `Maybe` that fails with `error`.
    @_alwaysEmitIntoClient
    public static func error(_ error: Swift.Error) -> Maybe<Element> {
        Maybe(raw: Observable.error(error))
    }

    /// A `Maybe` that never reports an outcome.
    @_alwaysEmitIntoClient
    public static func never() -> Maybe<Element> {
        Maybe(raw: Observable.never())
    }

    /// The `Maybe` as a ``Completable``: its element is dropped.
    @_alwaysEmitIntoClient
    public func asCompletable() -> Completable {
        Completable(raw: primitiveSequence.asObservable().ignoreElements())
    }
}
