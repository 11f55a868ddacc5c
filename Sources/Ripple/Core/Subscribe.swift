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
            onNext: onNext, onError: onError, onCompleted: onCompleted,
            callStack: onError == nil ? Hooks.captureCallStackIfNeeded() : []
        )
        let source = asObservable()
        // A `map`/`filter` runs its step in the subscription's own observer: no sink.
        if let fusible = source as? FusibleProducer<Element> {
            return fusible.fusion.subscribeHandlers(fusible, handlers, onDisposed)
        }
        let subscription = HandlerSubscription(handlers: handlers, onDisposed: onDisposed)
        // Captures one object, which Swift then uses as the closure's context.
        subscription.setUpstream(source.subscribe(sink: AnyObserver { subscription.on($0) }))
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

/// The handlers of `subscribe(onNext:onError:onCompleted:onDisposed:)`, stored
/// in the subscription it returns (``HandlerSubscription``). Immutable, so that
/// no event ever races with a write.
@usableFromInline
struct SubscribeHandlers<Element> {
    @usableFromInline
    let onNext: ((Element) -> Void)?
    @usableFromInline
    let onError: ((Swift.Error) -> Void)?
    @usableFromInline
    let onCompleted: (() -> Void)?
    @usableFromInline
    let callStack: [String]

    @inlinable
    init(
        onNext: ((Element) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?,
        callStack: [String]
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.callStack = callStack
    }
}

/// The subscription `subscribe(onNext:onError:onCompleted:onDisposed:)` returns.
/// It holds the handlers itself, so that the observer closure captures this one
/// object and needs no context of its own: one allocation per subscription. It
/// holds the upstream chain only until it is disposed or the stream terminates, so
/// a subscription kept in a ``DisposeBag`` after its stream ended retains nothing
/// but its handlers.
@usableFromInline
class HandlerSubscription<Element>: SubscriptionBase, @unchecked Sendable {
    @usableFromInline
    let handlers: SubscribeHandlers<Element>

    /// Set in `init`, read once by `disposeResources()`.
    @usableFromInline
    @exclusivity(unchecked)
    final var onDisposed: (() -> Void)?

    @inlinable
    init(handlers: SubscribeHandlers<Element>, onDisposed: (() -> Void)?) {
        self.handlers = handlers
        self.onDisposed = onDisposed
        super.init()
    }

    @inlinable
    final func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            next(element)
        case .error, .completed:
            finish(event)
        }
    }

    @inlinable
    @inline(__always)
    final func next(_ element: Element) {
        if !isDisposed {
            handlers.onNext?(element)
        }
    }

    @inlinable
    @inline(never)
    final func finish(_ event: Event<Element>) {
        if isDisposed { return }
        switch event {
        case .next:
            return
        case .error(let error):
            Hooks.report(error, to: handlers.onError, callStack: handlers.callStack)
        case .completed:
            handlers.onCompleted?()
        }
        dispose()
    }

    @usableFromInline
    override func disposeResources() {
        let action = onDisposed
        onDisposed = nil
        action?()
    }
}

/// The subscription of `subscribe(onNext:...)` on a `map`/`filter`: it runs the
/// operator's step (see ``mapStep(_:_:_:_:)``) on the source's elements itself.
@usableFromInline
final class StepHandlerSubscription<Source, Element>: HandlerSubscription<Element>, @unchecked Sendable {
    @usableFromInline
    let before: ((Source) throws -> Bool)?
    @usableFromInline
    let transform: (Source) throws -> Element
    @usableFromInline
    let after: ((Element) throws -> Bool)?

    @inlinable
    init(
        handlers: SubscribeHandlers<Element>,
        onDisposed: (() -> Void)?,
        before: ((Source) throws -> Bool)?,
        transform: @escaping (Source) throws -> Element,
        after: ((Element) throws -> Bool)?
    ) {
        self.before = before
        self.transform = transform
        self.after = after
        super.init(handlers: handlers, onDisposed: onDisposed)
    }

    @inlinable
    func onSource(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            if isDisposed { return }
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

    /// Subscribes to `source`, running the step on its elements.
    @inlinable
    func start(_ source: Observable<Source>) -> Disposable {
        setUpstream(source.subscribe(sink: AnyObserver { self.onSource($0) }))
        return self
    }
}
