// The subscribe family takes handlers written by the caller. In Swift 6 language
// mode each public form has three parameters the compiler fills in: the isolation
// of the calling code (`#isolation`) and the call's `#fileID` and `#line`. Called
// from main-actor code, the handlers belong to the main actor, and a
// `MainActorGate` keeps them there (see `MainActorDelivery.swift`). Swift 5 code
// sees RxSwift's signatures instead (`@available(swift, obsoleted: 6)`, which the
// compiler checks against the *caller's* language mode): it is not checked, and
// its handlers run where events arrive, as in RxSwift. Both forms call the same
// internal function, whose `delivery` is `nil` for nonisolated code, so neither
// pays anything per event.

extension ObservableType {
    /// Subscribes a closure that receives every event.
    ///
    /// - Isolation: called from main-actor code in Swift 6 (top-level code, a
    ///   `@MainActor` type), `on` runs on the main actor only; see "Main-actor
    ///   code and background events" in the Swift concurrency guide.
    /// - Returns: The subscription. It is released when disposed or when the
    ///   sequence terminates.
    @available(swift, introduced: 6)
    @_alwaysEmitIntoClient
    public func subscribe(
        _ on: @escaping (Event<Element>) -> Void,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(on, delivery: .forSubscriber(isolation, "subscribe(_:)"))
    }

    /// Subscribes a closure that receives every event (Swift 5 language mode:
    /// `on` runs where the events arrive, as in RxSwift).
    @available(swift, obsoleted: 6)
    @_alwaysEmitIntoClient
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        subscribe(on, delivery: nil)
    }

    @_alwaysEmitIntoClient
    func subscribe(_ on: @escaping (Event<Element>) -> Void, delivery: MainActorGate?) -> Disposable {
        let subscription = ClosureSubscription(onDisposed: nil)
        let forward: (Event<Element>) -> Void = { event in
            if subscription.isDisposed { return }
            on(event)
            if event.isStopEvent {
                subscription.dispose()
            }
        }
        // Two separate paths rather than `delivery?.observer(forward) ?? ...`: the
        // nonisolated one then costs what it did before the gate (measured: the
        // merged form added a retain and a release per subscription).
        if let delivery {
            subscription.setUpstream(asObservable().subscribe(sink: delivery.observer(forward)))
        } else {
            subscription.setUpstream(asObservable().subscribe(sink: AnyObserver(eventHandler: forward)))
        }
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
    ///
    /// - Isolation: called from main-actor code in Swift 6 (top-level code, a
    ///   `@MainActor` type), the handlers run on the main actor only; see
    ///   "Main-actor code and background events" in the Swift concurrency guide.
    @available(swift, introduced: 6)
    @_alwaysEmitIntoClient
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(
            onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(onNext:onError:onCompleted:onDisposed:)")
        )
    }

    /// Subscribes handlers for each kind of event (Swift 5 language mode: they
    /// run where the events arrive, as in RxSwift).
    @available(swift, obsoleted: 6)
    @_alwaysEmitIntoClient
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribe(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @inline(never)
    func subscribe(
        onNext: ((Element) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        #if CompactPipelines
        asObservable().subscribeOnce(
            onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed, delivery: delivery)
        #else
        subscribeHere(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed, delivery: delivery)
        #endif
    }

    /// The body of `subscribe(onNext:onError:onCompleted:onDisposed:)`: compiled
    /// where it is called, for the source's type (see `CompactPipelines` for the
    /// other way, `Observable.subscribeOnce(onNext:onError:onCompleted:onDisposed:delivery:)`).
    @_alwaysEmitIntoClient
    @inline(__always)
    func subscribeHere(
        onNext: ((Element) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        let source = asObservable()
        // A pipeline on a `just` runs now and needs no subscription object (not
        // for main-actor handlers, whose events go through their gate, nor while
        // subscriptions are recorded: the graph shows the subscriber).
        if source.kind == .stage && delivery == nil && !SubscriptionRecorder.isRecording {
            let pipeline = source.asPipeline
            if pipeline.sourceIsJust {
                return pipeline.runOnJust(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
            }
        }
        let handlers = SubscribeHandlers(
            subscription: ClosureSubscription(
                onDisposed: MainActorGate.onDisposed(onDisposed, through: delivery),
                callStack: onError == nil ? Hooks.recordedCallStack() : nil
            ),
            onNext: onNext, onError: onError, onCompleted: onCompleted
        )
        // A subject calls the handlers itself (see ``ObserverBox``). Here rather
        // than in `subscribe(handlers:delivery:)`, so that a subject whose type is
        // known at the call site is called directly, and specialised.
        if source.kind == .subject && delivery == nil && !SubscriptionRecorder.isRecording {
            handlers.subscription.setUpstream(source.subscribe(box: ObserverBox(handlers)))
        } else {
            handlers.subscription.setUpstream(source.subscribe(handlers: handlers, delivery: delivery))
        }
        return handlers.subscription
    }
}

#if CompactPipelines
extension Observable {
    /// `subscribe(onNext:onError:onCompleted:onDisposed:)`, compiled once in
    /// Ripple for every element type and called, not inlined, by the app (the
    /// package trait `CompactPipelines`: docs/Architecture.md, "Compact
    /// pipelines").
    @usableFromInline
    @inline(never)
    func subscribeOnce(
        onNext: ((Element) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        subscribeHere(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed, delivery: delivery)
    }
}
#endif

extension ObservableType {
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
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only, as with ``subscribe(onNext:onError:onCompleted:onDisposed:isolation:)``.
    @available(swift, introduced: 6)
    @_alwaysEmitIntoClient
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        subscribe(
            with: object, onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(with:onNext:onError:onCompleted:onDisposed:)")
        )
    }

    /// Subscribes handlers that receive `object`, held weakly, as their first
    /// argument (Swift 5 language mode: they run where the events arrive, as in
    /// RxSwift).
    @available(swift, obsoleted: 6)
    @_alwaysEmitIntoClient
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            with: object, onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: nil
        )
    }

    @_alwaysEmitIntoClient
    func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)?,
        onError: ((Object, Swift.Error) -> Void)?,
        onCompleted: ((Object) -> Void)?,
        onDisposed: ((Object) -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        // Without an `onError` the error goes to `Hooks.defaultErrorHandler`
        // (RxSwift swallows it here).
        subscribe(
            onNext: holdingWeakly(object, onNext), onError: holdingWeakly(object, onError),
            onCompleted: holdingWeakly(object, onCompleted), onDisposed: holdingWeakly(object, onDisposed),
            delivery: delivery
        )
    }
}

/// A handler of a `with:` form as a plain one: it receives `object`, held weakly,
/// first, and does nothing once `object` is gone. `nil` stays `nil` (an error
/// without `onError` still goes to ``Hooks/defaultErrorHandler``).
@_alwaysEmitIntoClient
func holdingWeakly<Object: AnyObject, Value>(
    _ object: Object, _ handler: ((Object, Value) -> Void)?
) -> ((Value) -> Void)? {
    guard let handler else { return nil }
    return { [weak object] value in
        if let object { handler(object, value) }
    }
}

/// ``holdingWeakly(_:_:)`` for a handler without a value.
@_alwaysEmitIntoClient
func holdingWeakly<Object: AnyObject>(_ object: Object, _ handler: ((Object) -> Void)?) -> (() -> Void)? {
    guard let handler else { return nil }
    return { [weak object] in
        if let object { handler(object) }
    }
}

/// The handlers of `subscribe(onNext:onError:onCompleted:onDisposed:)` and the
/// subscription it returns. A value captured by the observer closure, or held by
/// the sink of a pipeline (``PipelineSink``): immutable, so that no event ever
/// races with a write.
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

    @_alwaysEmitIntoClient
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

    /// Hands an event to its handler.
    @_alwaysEmitIntoClient
    @inline(never)
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            next(element)
        case .error, .completed:
            finish(event)
        }
    }

    /// Hands `element` to `onNext` unless the subscription was disposed.
    @_alwaysEmitIntoClient
    @inline(__always)
    func next(_ element: Element) {
        if !subscription.isDisposed {
            onNext?(element)
        }
    }

    /// Handles a terminal event (`.next` is ignored), then disposes.
    @_alwaysEmitIntoClient
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
}
