extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// The observer of a ``Completable``: call it once with `.completed` or
    /// `.error`.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// Creates a `Completable` from a subscription function that reports exactly one
    /// outcome; later calls are ignored.
    ///
    /// ```
    /// .completed:  |      .error(e):  #
    /// ```
    @_alwaysEmitIntoClient
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable) -> Completable {
        let source = Observable<Never>.create { observer in
            subscribe { event in
                switch event {
                case .error(let error):
                    observer.on(.error(error))
                case .completed:
                    observer.on(.completed)
                }
            }
        }
        return Completable(raw: source)
    }

    /// Subscribes a closure that receives the outcome.
    ///
    /// - Isolation: called from main-actor code in Swift 6, `observer` runs on
    ///   the main actor only; see "Main-actor code and background events" in the
    ///   Swift concurrency guide.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func subscribe(
        _ observer: @escaping (CompletableEvent) -> Void,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(observer, delivery: .forSubscriber(isolation, "subscribe(_:)"))
    }

    /// Subscribes a closure that receives the outcome (Swift 5 language mode: it
    /// runs where the outcome arrives, as in RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
        subscribe(observer, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func subscribe(_ observer: @escaping (CompletableEvent) -> Void, delivery: MainActorGate?) -> Disposable {
        primitiveSequence.asObservable().subscribe({ event in
            switch event {
            case .next:
                break
            case .error(let error):
                observer(.error(error))
            case .completed:
                observer(.completed)
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
        onCompleted: (() -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(
            onCompleted: onCompleted, onError: onError, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(onCompleted:onError:onDisposed:)")
        )
    }

    /// Subscribes handlers for the outcome (Swift 5 language mode: they run where
    /// the outcome arrives, as in RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribe(onCompleted: onCompleted, onError: onError, onDisposed: onDisposed, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func subscribe(
        onCompleted: (() -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onDisposed: (() -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        let callStack = onError == nil ? Hooks.captureCallStackIfNeeded() : []
        // `onDisposed` runs once: after the outcome, or when disposed before it.
        let onDisposed = MainActorGate.onDisposed(onDisposed, through: delivery)
        let disposed = Disposables.create(with: { onDisposed?() })
        let disposable = subscribe({ event in
            defer { disposed.dispose() }
            switch event {
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
    ///   the main actor only, as with ``subscribe(onCompleted:onError:onDisposed:isolation:)``.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(
            with: object, onCompleted: onCompleted, onError: onError, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(with:onCompleted:onError:onDisposed:)")
        )
    }

    /// Subscribes handlers that receive `object` (held weakly) as their first
    /// argument (Swift 5 language mode: they run where the outcome arrives, as in
    /// RxSwift).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(with: object, onCompleted: onCompleted, onError: onError, onDisposed: onDisposed, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)?,
        onError: ((Object, Swift.Error) -> Void)?,
        onDisposed: ((Object) -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        subscribe(
            onCompleted: holdingWeakly(object, onCompleted), onError: holdingWeakly(object, onError),
            onDisposed: holdingWeakly(object, onDisposed), delivery: delivery
        )
    }

    /// A `Completable` that completes immediately.
    @_alwaysEmitIntoClient
    public static func empty() -> Completable {
        Completable(raw: Observable.empty())
    }

    /// A `Completable` that fails with `error`.
    @_alwaysEmitIntoClient
    public static func error(_ error: Swift.Error) -> Completable {
        Completable(raw: Observable.error(error))
    }

    /// A `Completable` that never completes.
    @_alwaysEmitIntoClient
    public static func never() -> Completable {
        Completable(raw: Observable.never())
    }
}

extension ObservableType where Element == Never {
    /// This element-less sequence as a ``Completable``.
    @_alwaysEmitIntoClient
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}
