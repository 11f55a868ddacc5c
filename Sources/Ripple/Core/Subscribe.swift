extension ObservableType {
    /// Subscribes a closure that receives every event.
    ///
    /// - Returns: The subscription. It is released when disposed or when the
    ///   sequence terminates.
    @inlinable
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        let subscription = ClosureSubscription(onDisposed: nil)
        let observer = AnyObserver<Element> { event in
            if subscription.isDisposed { return }
            on(event)
            if event.isStopEvent {
                subscription.dispose()
            }
        }
        subscription.setUpstream(asObservable().subscribe(sink: observer))
        return subscription
    }

    /// Subscribes handlers for each kind of event.
    ///
    /// An error that arrives while `onError` is `nil` goes to
    /// ``Hooks/defaultErrorHandler``. `onDisposed` runs once, after `onError` or
    /// `onCompleted`, or when the subscription is disposed.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3)
    ///     .subscribe(onNext: { print($0) }, onCompleted: { print("done") })
    ///     .disposed(by: bag)
    /// ```
    @inlinable
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let subscription = ClosureSubscription(onDisposed: onDisposed)
        let callStack = onError == nil ? Hooks.captureCallStackIfNeeded() : []
        let observer = AnyObserver<Element> { event in
            switch event {
            case .next(let element):
                if !subscription.isDisposed {
                    onNext?(element)
                }
            case .error(let error):
                if subscription.isDisposed { return }
                if let onError {
                    onError(error)
                } else {
                    Hooks.reportUnhandledError(error, callStack: callStack)
                }
                subscription.dispose()
            case .completed:
                if subscription.isDisposed { return }
                onCompleted?()
                subscription.dispose()
            }
        }
        subscription.setUpstream(asObservable().subscribe(sink: observer))
        return subscription
    }

    /// Subscribes handlers that receive `object` as their first argument.
    ///
    /// `object` is held weakly: once it is gone, events are ignored. This replaces
    /// the `[weak self]` dance.
    ///
    /// ```swift
    /// viewModel.title
    ///     .subscribe(with: self, onNext: { owner, title in owner.label = title })
    ///     .disposed(by: bag)
    /// ```
    @inlinable
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] element in
                guard let object else { return }
                onNext?(object, element)
            },
            // Without an `onError` the error goes to `Hooks.defaultErrorHandler`
            // (RxSwift swallows it here).
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
}
