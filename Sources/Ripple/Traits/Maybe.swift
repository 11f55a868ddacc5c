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
    public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> Disposable {
        var reported = false
        return primitiveSequence.asObservable().subscribe { event in
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
        }
    }

    /// Subscribes handlers for the outcome. An error without `onError` goes to
    /// ``Hooks/defaultErrorHandler``; `onDisposed` runs once at the end.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let callStack = onError == nil ? Hooks.captureCallStackIfNeeded() : []
        // `onDisposed` runs once: after the outcome, or when disposed before it.
        let disposed = Disposables.create(with: { onDisposed?() })
        let disposable = subscribe { event in
            defer { disposed.dispose() }
            switch event {
            case .success(let element):
                onSuccess?(element)
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
        onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in
                guard let object else { return }
                onSuccess?(object, element)
            },
            onError: onError.map { onError in
                { [weak object] error in
                    guard let object else { return }
                    onError(object, error)
                }
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }

    /// A `Maybe` that succeeds with `element`.
    public static func just(_ element: Element) -> Maybe<Element> {
        Maybe(raw: Observable.just(element))
    }

    /// A `Maybe` that succeeds with `element`, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Maybe<Element> {
        Maybe(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A `Maybe` that completes without an element.
    public static func empty() -> Maybe<Element> {
        Maybe(raw: Observable.empty())
    }

    /// A `Maybe` that fails with `error`.
    public static func error(_ error: Swift.Error) -> Maybe<Element> {
        Maybe(raw: Observable.error(error))
    }

    /// A `Maybe` that never reports an outcome.
    public static func never() -> Maybe<Element> {
        Maybe(raw: Observable.never())
    }

    /// The `Maybe` as a ``Completable``: its element is dropped.
    public func asCompletable() -> Completable {
        Completable(raw: primitiveSequence.asObservable().ignoreElements())
    }
}
