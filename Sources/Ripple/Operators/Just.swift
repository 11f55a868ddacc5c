extension ObservableType {
    /// A sequence of one element.
    ///
    /// Emits `element` and completes during `subscribe`. As the inner sequence of
    /// `flatMap`, `flatMapLatest`, `flatMapFirst` or `concatMap` it is not even
    /// subscribed to: the operator forwards `element` directly, with the same
    /// events as a subscription would give.
    ///
    /// ```
    /// just(1):  (1|)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public static func just(_ element: Element) -> Observable<Element> {
        // The closure captures nothing: `just` costs one allocation, not two.
        JustProducer(element, kind: .just) { element, observer in
            observer.on(.next(element))
            observer.on(.completed)
            return nil
        }
    }

    /// A sequence of one element, sent on `scheduler`, followed by completion in a
    /// second scheduled step.
    @_alwaysEmitIntoClient
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        from(optional: element, scheduler: scheduler)
    }

    /// A sequence that completes without elements.
    ///
    /// ```
    /// empty():  |
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public static func empty() -> Observable<Element> {
        Producer(kind: .direct, site: SiteLiteral("empty")) { observer in
            observer.on(.completed)
            return nil
        }
    }

    /// A sequence that never sends anything and never terminates.
    ///
    /// ```
    /// never():  ----------
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public static func never() -> Observable<Element> {
        Producer(kind: .direct, site: SiteLiteral("never")) { _ in
            nil
        }
    }

    /// A sequence that fails immediately with `error`.
    ///
    /// ```
    /// error(e):  #
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public static func error(_ error: Swift.Error) -> Observable<Element> {
        ValueProducer(error, kind: .direct, site: SiteLiteral("error")) { error, observer in
            observer.on(.error(error))
            return nil
        }
    }

    /// One element if `optional` is not `nil`, then completion; just completion
    /// otherwise.
    @_alwaysEmitIntoClient
    @inline(never)
    public static func from(optional: Element?) -> Observable<Element> {
        Producer(kind: .direct, site: SiteLiteral("from")) { observer in
            if let optional {
                observer.on(.next(optional))
            }
            observer.on(.completed)
            return nil
        }
    }

    /// Like ``from(optional:)``, with the element and the completion each sent in a
    /// step scheduled on `scheduler`.
    @_alwaysEmitIntoClient
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Producer(site: SiteLiteral("from")) { observer in
            let sink = ForwardingSink(observer: observer)
            sink.setUpstream(disposable: scheduler.schedule(optional) { optional -> Disposable in
                guard let optional else {
                    sink.forwardCompleted()
                    return Disposables.create()
                }
                sink.forwardNext(optional)
                return scheduler.schedule(()) { _ in
                    sink.forwardCompleted()
                    return Disposables.create()
                }
            })
            return sink
        }
    }
}

/// A ``Producer`` whose subscription function receives a stored value instead of
/// capturing it: with a closure that captures nothing, the observable is a single
/// allocation (a capturing closure needs a context object of its own). Used by
/// `error`, `catch`, and by `of`/`from` on the current-thread scheduler, which
/// inner sequences of `flatMap` often are; `just` uses its subclass
/// ``JustProducer``. (Synchronous operators are pipeline stages instead, see
/// ``PipelineStep``.)
@usableFromInline
class ValueProducer<Element, Value>: Observable<Element>, @unchecked Sendable {
    @usableFromInline
    let value: Value
    @usableFromInline
    let subscribeHandler: (Value, AnyObserver<Element>) -> SubscriptionBase?

    @_alwaysEmitIntoClient
    init(
        _ value: Value, kind: ObservableKind = .none, site: SiteLiteral = .none,
        _ subscribeHandler: @escaping (Value, AnyObserver<Element>) -> SubscriptionBase?
    ) {
        self.value = value
        self.subscribeHandler = subscribeHandler
        super.init(kind: kind, site: site)
    }

    @inlinable
    override func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        subscribeHandler(value, observer)
    }
}

/// What `just` returns: a ``ValueProducer`` holding the element.
///
/// A class of its own so that `flatMap`, `flatMapLatest`, `concatMap` and the
/// other flattening operators recognise an inner `just` and forward its element
/// directly, without subscribing to it (no inner subscription object, no
/// completion to process). The result is the same as subscribing: the element,
/// then an inner sequence that has completed.
@usableFromInline
final class JustProducer<Element>: ValueProducer<Element, Element>, @unchecked Sendable {
    /// The element `just` emits.
    @_alwaysEmitIntoClient
    var element: Element { value }
}
