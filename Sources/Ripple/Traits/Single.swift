extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The observer of a ``Single``: call it once with `.success` or `.failure`.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// Creates a `Single` from a subscription function that reports exactly one
    /// outcome; later calls are ignored.
    ///
    /// ```swift
    /// let answer = Single<Int>.create { observer in
    ///     observer(.success(42))
    ///     return Disposables.create()
    /// }
    /// // --(42|)
    /// ```
    @_alwaysEmitIntoClient
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .failure(let error):
                    observer.on(.error(error))
                }
            }
        }
        return Single(raw: source)
    }

    /// Subscribes a closure that receives the outcome.
    ///
    /// - Isolation: called from main-actor code in Swift 6, `observer` runs on
    ///   the main actor only; see "Main-actor code and background events" in the
    ///   Swift concurrency guide.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func subscribe(
        _ observer: @escaping (SingleEvent<Element>) -> Void,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(observer, delivery: .forSubscriber(isolation, "subscribe(_:)"))
    }

    /// Subscribes a closure that receives the outcome (Swift 5 language mode: it
    /// runs where the outcome arrives, as in RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
        subscribe(observer, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void, delivery: MainActorGate?) -> Disposable {
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
                observer(.failure(error))
            case .completed:
                if !reported {
                    observer(.failure(RxError.noElements))
                }
            }
        }, delivery: delivery)
    }

    /// Subscribes handlers for the outcome. A failure without `onFailure` goes to
    /// ``Hooks/defaultErrorHandler``; `onDisposed` runs once at the end.
    ///
    /// ```swift
    /// api.user(id: 1)
    ///     .subscribe(onSuccess: { print($0.name) }, onFailure: { print($0) })
    ///     .disposed(by: bag)
    /// ```
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only, also for a `Single` that succeeds on another
    ///   thread (a network response); see "Main-actor code and background
    ///   events" in the Swift concurrency guide.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(
            onSuccess: onSuccess, onFailure: onFailure, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(onSuccess:onFailure:onDisposed:)")
        )
    }

    /// Subscribes handlers for the outcome (Swift 5 language mode: they run where
    /// the outcome arrives, as in RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onFailure, onDisposed: onDisposed, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func subscribe(
        onSuccess: ((Element) -> Void)?,
        onFailure: ((Swift.Error) -> Void)?,
        onDisposed: (() -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        let callStack = onFailure == nil ? Hooks.captureCallStackIfNeeded() : []
        // `onDisposed` runs once: after the outcome, or when disposed before it.
        let onDisposed = MainActorGate.onDisposed(onDisposed, through: delivery)
        let disposed = Disposables.create(with: { onDisposed?() })
        let disposable = subscribe({ event in
            defer { disposed.dispose() }
            switch event {
            case .success(let element):
                onSuccess?(element)
            case .failure(let error):
                Hooks.report(error, to: onFailure, callStack: callStack)
            }
        }, delivery: delivery)
        return Disposables.create(disposable, disposed)
    }

    /// Deprecated spelling of `subscribe(onSuccess:onFailure:onDisposed:)` (its
    /// `onError` is required, as in RxSwift, so that calls without it are not
    /// ambiguous).
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: @escaping (Swift.Error) -> Void,
        onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(
            onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(onSuccess:onError:onDisposed:)")
        )
    }

    /// Deprecated spelling of `subscribe(onSuccess:onFailure:onDisposed:)` in
    /// Swift 5 language mode.
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: @escaping (Swift.Error) -> Void,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed, delivery: nil)
    }

    /// Subscribes handlers that receive `object` (held weakly) as their first
    /// argument; once `object` is gone, the outcome is ignored.
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only, as with ``subscribe(onSuccess:onFailure:onDisposed:isolation:)``.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(
            with: object, onSuccess: onSuccess, onFailure: onFailure, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(with:onSuccess:onFailure:onDisposed:)")
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
        onFailure: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(with: object, onSuccess: onSuccess, onFailure: onFailure, onDisposed: onDisposed, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)?,
        onFailure: ((Object, Swift.Error) -> Void)?,
        onDisposed: ((Object) -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        subscribe(
            onSuccess: holdingWeakly(object, onSuccess), onFailure: holdingWeakly(object, onFailure),
            onDisposed: holdingWeakly(object, onDisposed), delivery: delivery
        )
    }

    /// A `Single` that succeeds with `element`.
    ///
    /// ```
    /// just(1):  (1|)
    /// ```
    @_alwaysEmitIntoClient
    public static func just(_ element: Element) -> Single<Element> {
        Single(raw: Observable.just(element))
    }

    /// A `Single` that succeeds with `element`, delivered on `scheduler`.
    @_alwaysEmitIntoClient
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        Single(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A `Single` that fails with `error`.
    @_alwaysEmitIntoClient
    public static func error(_ error: Swift.Error) -> Single<Element> {
        Single(raw: Observable.error(error))
    }

    /// A `Single` that never reports an outcome.
    @_alwaysEmitIntoClient
    public static func never() -> Single<Element> {
        Single(raw: Observable.never())
    }

    /// The `Single` as a ``Maybe``.
    @_alwaysEmitIntoClient
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: primitiveSequence.asObservable())
    }

    /// The `Single` as a ``Completable``: its element is dropped.
    @_alwaysEmitIntoClient
    public func asCompletable() -> Completable {
        Completable(raw: primitiveSequence.asObservable().ignoreElements())
    }
}
