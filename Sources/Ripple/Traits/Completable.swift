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
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
        primitiveSequence.asObservable().subscribe { event in
            switch event {
            case .next:
                break
            case .error(let error):
                observer(.error(error))
            case .completed:
                observer(.completed)
            }
        }
    }

    /// Subscribes handlers for the outcome. An error without `onError` goes to
    /// ``Hooks/defaultErrorHandler``; `onDisposed` runs once at the end.
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let callStack = onError == nil ? Hooks.captureCallStackIfNeeded() : []
        // `onDisposed` runs once: after the outcome, or when disposed before it.
        let disposed = Disposables.create(with: { onDisposed?() })
        let disposable = subscribe { event in
            defer { disposed.dispose() }
            switch event {
            case .error(let error):
                Hooks.report(error, to: onError, callStack: callStack)
            case .completed:
                onCompleted?()
            }
        }
        return Disposables.create(disposable, disposed)
    }

    /// Subscribes handlers that receive `object` (held weakly) as their first
    /// argument.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onError: onError.map { onError in
                { [weak object] error in
                    guard let object else { return }
                    onError(object, error)
                }
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }

    /// A `Completable` that completes immediately.
    public static func empty() -> Completable {
        Completable(raw: Observable.empty())
    }

    /// A `Completable` that fails with `error`.
    public static func error(_ error: Swift.Error) -> Completable {
        Completable(raw: Observable.error(error))
    }

    /// A `Completable` that never completes.
    public static func never() -> Completable {
        Completable(raw: Observable.never())
    }
}

extension ObservableType where Element == Never {
    /// This element-less sequence as a ``Completable``.
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}
