/// A sequence of events that observers subscribe to: the type every Ripple
/// operator returns.
///
/// An `Observable` describes work; nothing happens until somebody subscribes. A
/// *cold* observable (most operators, `just`, `from`, `create`, ...) does its work
/// once per subscriber; a *hot* one (a subject, `share()`, `publish()`) shares one
/// execution between its subscribers.
///
/// `Observable` is `Sendable`: it may be stored in `Sendable` types and handed to
/// other actors or threads. The elements it carries are not checked: as in RxSwift,
/// schedulers (`observe(on:)`, `subscribe(on:)`) decide on which thread they are
/// delivered. The README's “Threads, re-entrancy and Swift 6” gives the reasoning.
public class Observable<Element>: ObservableType, @unchecked Sendable {
    /// Whether this is a pipeline stage, a `just`, or a source that takes
    /// `subscribe(onNext:...)`'s handlers (see ``ObservableKind``), so that the
    /// pipeline, `subscribe(onNext:...)` and the flatMap family recognise one with
    /// a load instead of a dynamic cast to a generic class (about ten times the
    /// cost, on every operator applied).
    @usableFromInline
    final let kind: ObservableKind

    /// Where the operator that built this observable was applied (see
    /// ``SiteLiteral``), in two stored fields rather than one ``SiteLiteral`` so
    /// that the capture number packs next to ``kind``. Empty for sources and
    /// subjects.
    @usableFromInline
    final let siteCapture: UInt32
    @usableFromInline
    final let siteName: UnsafeRawPointer?

    @_alwaysEmitIntoClient
    init() {
        kind = .none
        siteCapture = 0
        siteName = nil
        Resources.incrementTotal()
    }

    @_alwaysEmitIntoClient
    init(kind: ObservableKind = .none, site: SiteLiteral) {
        self.kind = kind
        siteCapture = site.capture
        siteName = site.name
        Resources.incrementTotal()
    }

    /// The operator's site as stored.
    @usableFromInline
    final var siteLiteral: SiteLiteral {
        SiteLiteral(name: siteName, capture: siteCapture)
    }

    /// The operators this observable runs, upstream first, for the debugging
    /// tools: its own, or several when operators were fused into one (a `map`
    /// with its `filter`s).
    var graphOperators: [SiteLiteral] { [siteLiteral] }

    /// How the subscription graph shows this observable.
    var graphRole: GraphRole { .perSubscription }

    /// The name the graph and error traces show next to the operator
    /// (`named(_:)`'s name, `checkpoint(_:)`'s description).
    var graphName: String? { nil }

    deinit {
        Resources.decrementTotal()
    }

    /// Subscribes `observer` to this sequence.
    ///
    /// The returned subscription releases everything (including `observer`) when it
    /// is disposed or when the sequence terminates.
    @_alwaysEmitIntoClient
    public final func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let subscription = ClosureSubscription(onDisposed: nil)
        let sink = AnyObserver<Element> { event in
            if subscription.isDisposed { return }
            observer.on(event)
            if event.isStopEvent {
                subscription.dispose()
            }
        }
        subscription.setUpstream(subscribe(sink: sink))
        return subscription
    }

    /// Returns `self`.
    @_alwaysEmitIntoClient
    public final func asObservable() -> Observable<Element> {
        self
    }

    /// Subscribes an already erased observer: the entry point operators use.
    ///
    /// Like RxSwift, a subscription runs with the current thread's trampoline active,
    /// so that sources emitting on ``CurrentThreadScheduler`` queue their work behind
    /// the subscription instead of recursing into it.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func subscribe(sink observer: AnyObserver<Element>) -> SubscriptionBase? {
        subscribe(sink: observer, recorded: SubscriptionRecorder.isRecording)
    }

    /// ``subscribe(sink:)`` with the recording switch already read (by
    /// ``subscribe(sink:)``). Reading it once in `subscribe(onNext:...)` and
    /// passing it down here cost 3 to 8 instructions more per subscription than
    /// reading it again (the value kept across the calls), so nothing else
    /// passes it.
    ///
    /// Always inlined, with one call of ``start(_:recorded:)`` for both trampoline
    /// states: out of line (as the optimizer left it once `start` could call the
    /// recorder), it cost about 23 instructions per subscription in
    /// `subscribe-dispose` (`ripple-compare --instructions`).
    @_alwaysEmitIntoClient
    @inline(__always)
    final func subscribe(sink observer: AnyObserver<Element>, recorded: Bool) -> SubscriptionBase? {
        Trampoline.running(if: kind.entersTrampoline) { start(observer, recorded: recorded) }
    }

    /// Calls ``run(_:)``, through ``SubscriptionRecorder`` while subscriptions are
    /// recorded (``Hooks/recordsOperatorSites``; `recorded` is the switch, read
    /// by the caller). The one place where the debugging tools meet the
    /// subscription machinery: every subscription of an observable, by an
    /// operator or by a subscriber, comes through here. Off, it costs a relaxed
    /// load and a branch per subscription, nothing per event.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func start(_ observer: AnyObserver<Element>, recorded: Bool) -> SubscriptionBase? {
        if recorded {
            return SubscriptionRecorder.run(self, observer)
        }
        return run(observer)
    }

    /// Subscribes the handlers of `subscribe(onNext:...)` to anything but a
    /// subject (which its caller subscribes them to): through their gate for
    /// main-actor handlers; to a source that calls them itself (a pipeline's sink,
    /// a change stream: ``HandlersProducer``); else as an observer. Not while
    /// subscriptions are recorded (the graph then shows each operator). Out of
    /// line: one copy per element type, for every `subscribe(onNext:...)` of it.
    /// A source that calls the handlers itself is subscribed on the trampoline,
    /// as ``subscribe(sink:)`` subscribes any other: here, once per element
    /// type, rather than in each producer's function (a pipeline has one per
    /// stage type).
    @_alwaysEmitIntoClient
    @inline(never)
    final func subscribe(handlers: SubscribeHandlers<Element>, delivery: MainActorGate?) -> SubscriptionBase? {
        if kind.takesHandlers && delivery == nil && !SubscriptionRecorder.isRecording {
            let producer = unsafeDowncast(self, to: HandlersProducer<Element>.self)
            return Trampoline.running { producer.subscribeDownstream(producer, .handlers(handlers)) }
        }
        let observer = delivery?.observer(handlers.on) ?? AnyObserver { event in handlers.on(event) }
        return subscribe(sink: observer)
    }

    /// ``subscribe(sink:)`` for the handlers of `subscribe(onNext:...)` in a box,
    /// to an observable of kind ``ObservableKind/subject``. Never while
    /// subscriptions are recorded (the graph then shows the subscriber).
    @_alwaysEmitIntoClient
    @inline(__always)
    final func subscribe(box: ObserverBox<Element>) -> SubscriptionBase? {
        // A subject, or `share`'s observable: subscribed without the trampoline,
        // as in RxSwift (see ``ObservableKind/entersTrampoline``).
        run(box: box)
    }

    /// Starts the sequence for the observer or handlers in `box`: overridden by
    /// the observables of kind ``ObservableKind/subject``, which keep the box.
    /// Any other observable runs the box's observer function.
    @usableFromInline
    func run(box: ObserverBox<Element>) -> SubscriptionBase? {
        run(AnyObserver(eventHandler: box.on))
    }

    /// Starts the sequence for `observer`. Overridden by every concrete observable.
    ///
    /// - Returns: The subscription to dispose, or `nil` if there is nothing to
    ///   release (the sequence already terminated, or never holds resources).
    @usableFromInline
    func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        fatalError("Observable.run(_:) is abstract; \(type(of: self)) must override it")
    }
}

/// What an inner sequence of the flatMap family is, as far as subscribing to it
/// goes: a `just`, whose element is forwarded directly (see ``JustProducer``); a
/// pipeline whose source is a `just` (`just(x).map(f).filter(g)`), which runs
/// within the operator's own update (``Pipeline/runOnJust()``); or anything
/// else, subscribed to.
///
/// The shortcuts give the same events as a subscription: the elements (or none,
/// or an error), then an inner sequence that has ended. They save the inner
/// subscription and the sink, and the inner completion's lock round trips.
///
/// Not generic, with no payload (``Observable/innerSource`` says which, then
/// ``Observable/justElement`` or ``Observable/asPipeline`` reads it): a generic
/// enum with payloads would have value-witness functions of its own in every
/// app (2.7 KB), although the optimiser never stores one.
@usableFromInline
enum InnerSource {
    case just
    case pipeline
    case subscribe
}

extension Observable {
    /// How the flatMap family runs this observable as an inner sequence.
    @_alwaysEmitIntoClient
    @inline(__always)
    var innerSource: InnerSource {
        switch kind {
        case .none, .direct, .subject, .handlers:
            return .subscribe
        case .just:
            return .just
        case .stage:
            return asPipeline.sourceIsJust ? .pipeline : .subscribe
        }
    }

    /// The element of a `just`: only where ``innerSource`` is `.just` (``kind``
    /// is `.just`).
    @_alwaysEmitIntoClient
    @inline(__always)
    var justElement: Element {
        unsafeDowncast(self, to: JustProducer<Element>.self).element
    }

    /// This pipeline stage: only where ``kind`` is `.stage`.
    @_alwaysEmitIntoClient
    @inline(__always)
    var asPipeline: Pipeline<Element> {
        unsafeDowncast(self, to: Pipeline<Element>.self)
    }
}

/// What ``Observable/kind`` says an observable is.
@usableFromInline
enum ObservableKind: UInt8 {
    // The kinds that RxSwift subscribes without the trampoline come first, so
    // that ``entersTrampoline`` is one comparison.

    /// A source that RxSwift subscribes without entering the current thread's
    /// trampoline, as it does subjects and `just` (see ``entersTrampoline``):
    /// `empty`, `never`, `error`, `from(optional:)`, the connectable observables
    /// of `multicast`, `publish` and `replay`, the groups of `groupBy`.
    case direct
    /// A ``JustProducer``.
    case just
    /// A subject, or `share`'s observable (whose subscribers listen to its
    /// subject): the subject keeps the handlers of
    /// `subscribe(onNext:onError:onCompleted:onDisposed:)` in its subscription's
    /// ``ObserverBox`` and calls them itself (``Observable/run(box:)``).
    case subject
    /// None of the others: an operator's observable.
    case none
    /// A ``HandlersProducer`` that is not a pipeline stage
    /// (``ObservableArray/changes``).
    case handlers
    /// A ``Pipeline`` stage: a synchronous operator appended to it joins its
    /// pipeline.
    case stage

    /// A ``HandlersProducer``: `handlers` or `stage`.
    @_alwaysEmitIntoClient
    var takesHandlers: Bool { rawValue >= ObservableKind.handlers.rawValue }

    /// Whether subscribing starts the current thread's trampoline when it is not
    /// running yet. As in RxSwift: every operator does (its `Producer`), but not
    /// a subject, `just`, `share` (while connected), `empty`, `never`, `error`,
    /// `from(optional:)` or a connectable observable, which RxSwift subscribes
    /// directly. It decides one thing: whether work that an observer schedules
    /// on `CurrentThreadScheduler` while it is being subscribed runs at once or
    /// after the observer returns.
    @_alwaysEmitIntoClient
    var entersTrampoline: Bool { rawValue >= ObservableKind.none.rawValue }
}

/// A source that takes the handlers of
/// `subscribe(onNext:onError:onCompleted:onDisposed:)` itself, with no observer
/// closure of their own in between: a pipeline's sink calls them
/// (``PipelineStage/connect(_:)``), and ``ObservableArray/changes`` calls
/// `onNext` with each change directly (no `Event` built and unwrapped per
/// mutation). Subscribed any other way, it is given the observer. One function
/// for both (a ``Downstream``): a pipeline makes one per stage type. It receives
/// the producer, so that it need capture nothing.
@usableFromInline
class HandlersProducer<Element>: Observable<Element>, @unchecked Sendable {
    @usableFromInline
    let subscribeDownstream: (HandlersProducer<Element>, Downstream<Element>) -> SubscriptionBase?

    @_alwaysEmitIntoClient
    init(
        kind: ObservableKind = .handlers,
        site: SiteLiteral = .none,
        _ subscribeDownstream: @escaping (HandlersProducer<Element>, Downstream<Element>) -> SubscriptionBase?
    ) {
        self.subscribeDownstream = subscribeDownstream
        super.init(kind: kind, site: site)
    }

    @inlinable
    override final func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        subscribeDownstream(self, .observer(observer))
    }
}

/// Who receives a ``HandlersProducer``'s events: an operator's (or any other
/// subscriber's) observer, or the handlers of `subscribe(onNext:...)`, which
/// the producer calls itself. A pipeline's sink holds it and tests it once per
/// element, rather than being a sink type per kind of subscriber: each stage's
/// entry points are then compiled once per stage type, not once per stage type
/// and kind of subscriber (an app compiles them for every stage it builds; see
/// "Code per stage" in docs/Architecture.md).
@usableFromInline
enum Downstream<Element> {
    case observer(AnyObserver<Element>)
    case handlers(SubscribeHandlers<Element>)

    @_alwaysEmitIntoClient
    @inline(__always)
    func next(_ element: Element) {
        switch self {
        #if CompactPipelines
        case .observer(let observer): Downstream.next(element, to: observer)
        #else
        case .observer(let observer): observer.on(.next(element))
        #endif
        case .handlers(let handlers): handlers.next(element)
        }
    }

    #if CompactPipelines
    /// `observer.on(.next(element))`, out of line: compiled once (the trait
    /// `CompactPipelines`), a function looks up per call every generic type it
    /// uses, and the callers of ``next(_:)`` then use no `Event<Element>`
    /// when the downstream is `subscribe(onNext:...)`'s handlers.
    @_alwaysEmitIntoClient
    @inline(never)
    static func next(_ element: Element, to observer: AnyObserver<Element>) {
        observer.on(.next(element))
    }
    #endif

    @_alwaysEmitIntoClient
    @inline(__always)
    func finish(_ event: Event<Element>) {
        switch self {
        case .observer(let observer): observer.on(event)
        case .handlers(let handlers): handlers.finish(event)
        }
    }

    /// Hands any event on: an element as ``next(_:)`` does, an end as ``finish(_:)``.
    @_alwaysEmitIntoClient
    @inline(__always)
    func on(_ event: Event<Element>) {
        switch self {
        case .observer(let observer): observer.on(event)
        case .handlers(let handlers): handlers.on(event)
        }
    }
}

/// An observable defined by its subscription function.
///
/// Operators build their function where they are applied, so it is compiled for
/// the caller's concrete element types.
@usableFromInline
final class Producer<Element>: Observable<Element>, @unchecked Sendable {
    @usableFromInline
    let subscribeHandler: (AnyObserver<Element>) -> SubscriptionBase?

    @_alwaysEmitIntoClient
    init(
        kind: ObservableKind = .none, site: SiteLiteral = .none,
        _ subscribeHandler: @escaping (AnyObserver<Element>) -> SubscriptionBase?
    ) {
        self.subscribeHandler = subscribeHandler
        super.init(kind: kind, site: site)
    }

    @inlinable
    override func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        subscribeHandler(observer)
    }
}

/// The subscription returned by the public `subscribe` methods. It holds the
/// upstream chain only until it is disposed or the stream terminates, so a
/// subscription kept in a ``DisposeBag`` after its stream ended retains nothing.
@usableFromInline
final class ClosureSubscription: SubscriptionBase, @unchecked Sendable {
    /// Set in `init`, read once by `disposeResources()`.
    @usableFromInline
    @exclusivity(unchecked)
    final var onDisposed: (() -> Void)?

    /// Where `subscribe(onNext:...)` without an `onError` was called, for
    /// ``Hooks/defaultErrorHandler``: `nil` unless call stacks are recorded (an
    /// empty array would still cost a retain and a release per subscription).
    @usableFromInline
    let callStack: [String]?

    @_alwaysEmitIntoClient
    init(onDisposed: (() -> Void)?, callStack: [String]? = nil) {
        self.onDisposed = onDisposed
        self.callStack = callStack
        super.init()
    }

    @usableFromInline
    override func disposeResources() {
        let action = onDisposed
        onDisposed = nil
        action?()
    }
}
