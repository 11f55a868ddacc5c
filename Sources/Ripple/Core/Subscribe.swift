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
        let handlers = SubscribeHandlers(
            subscription: ClosureSubscription(
                onDisposed: onDisposed,
                callStack: onError == nil ? Hooks.recordedCallStack() : nil
            ),
            onNext: onNext, onError: onError, onCompleted: onCompleted
        )
        let source = asObservable()
        // A `map`/`filter` runs its step in the handlers' own closure (no sink);
        // a change stream calls `onNext` itself (see ``HandlersProducer``).
        // (Not while subscriptions are recorded: the graph shows each operator.)
        if source.kind.takesHandlers && !SubscriptionRecorder.isRecording {
            let producer = unsafeDowncast(source, to: HandlersProducer<Element>.self)
            handlers.subscription.setUpstream(producer.subscribeHandlers(producer, handlers))
            return handlers.subscription
        }
        let observer = AnyObserver<Element> { event in
            switch event {
            case .next(let element):
                handlers.next(element)
            case .error, .completed:
                handlers.finish(event)
            }
        }
        handlers.subscription.setUpstream(source.subscribe(sink: observer))
        return handlers.subscription
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

/// The handlers of `subscribe(onNext:onError:onCompleted:onDisposed:)` and the
/// subscription it returns. A value captured by the observer closure (immutable,
/// so that no event ever races with a write), or by a fused `map`/`filter` step
/// (see ``OperatorFusion/subscribeHandlers``).
@usableFromInline
struct SubscribeHandlers<Element> {
    @usableFromInline
    let subscription: ClosureSubscription
    @usableFromInline
    let onNext: ((Element) -> Void)?
    @usableFromInline
    let onError: ((Swift.Error) -> Void)?
    @usableFromInline
    let onCompleted: (() -> Void)?

    @inlinable
    init(
        subscription: ClosureSubscription,
        onNext: ((Element) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?
    ) {
        self.subscription = subscription
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
    }

    /// Hands `element` to `onNext` unless the subscription was disposed.
    @inlinable
    @inline(__always)
    func next(_ element: Element) {
        if !subscription.isDisposed {
            onNext?(element)
        }
    }

    /// Handles a terminal event (`.next` is ignored), then disposes.
    @inlinable
    @inline(never)
    func finish(_ event: Event<Element>) {
        if subscription.isDisposed { return }
        switch event {
        case .next:
            return
        case .error(let error):
            Hooks.report(error, to: onError, callStack: subscription.callStack ?? [])
        case .completed:
            onCompleted?()
        }
        subscription.dispose()
    }

    /// An observer of the upstream of a fused `filter(before).map(transform)
    /// .filter(after)` (see ``mapStep(_:_:_:_:)``) that calls the handlers itself:
    /// one closure call per element instead of two. An error thrown by a predicate
    /// or the transform ends the stream.
    @inlinable
    func observer<Source>(
        filter before: ((Source) throws -> Bool)?,
        _ transform: @escaping (Source) throws -> Element,
        then after: ((Element) throws -> Bool)?
    ) -> AnyObserver<Source> {
        AnyObserver { event in
            switch event {
            case .next(let element):
                if subscription.isDisposed { return }
                do {
                    if let result = try mapStep(element, before, transform, after) {
                        next(result)
                    }
                } catch {
                    finish(.error(error))
                }
            case .error(let error):
                finish(.error(error))
            case .completed:
                finish(.completed)
            }
        }
    }
}
