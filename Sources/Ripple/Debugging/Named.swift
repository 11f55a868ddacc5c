extension ObservableType {
    /// Tags this stream with `name`, so that tools can tell you what it did.
    ///
    /// The events pass through unchanged: completes when the source completes, fails
    /// when it fails. Each subscription of a named stream:
    ///
    /// - counts in ``Resources/namedSubscriptions`` while it is alive (debug
    ///   builds), so a leak report says *which* stream leaked (RippleTest's
    ///   `assertNoLeaks` uses it);
    /// - is recorded as a span, and its events as instants, by every running
    ///   `TraceRecorder` (RippleDebugExport);
    /// - gives its name to a ``debug(_:trimOutput:file:line:function:)`` applied
    ///   right after it without an identifier.
    ///
    /// When no recorder is running, the cost on the event path is one relaxed atomic
    /// load and a branch.
    ///
    /// ```
    /// source:           --a--b--|
    /// named("search"):  --a--b--|     (span "search", instants next(a), next(b), completed)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func named(_ name: String) -> Observable<Element> {
        let source = asObservable()
        // Built here, like every `Producer`, so that the event path is compiled for
        // the caller's element type.
        return NamedObservable(name: name, site: SiteLiteral("named")) { observer in
            let sink = NamedSink(name: name, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

/// The observable `named(_:)` returns: a `Producer` that knows its name, so that
/// ``debug(_:trimOutput:file:line:function:)`` can reuse it.
@usableFromInline
final class NamedObservable<Element>: Observable<Element>, @unchecked Sendable {
    @usableFromInline
    let name: String

    @usableFromInline
    let subscribeHandler: (AnyObserver<Element>) -> SubscriptionBase?

    @_alwaysEmitIntoClient
    init(name: String, site: SiteLiteral, subscribeHandler: @escaping (AnyObserver<Element>) -> SubscriptionBase?) {
        self.name = name
        self.subscribeHandler = subscribeHandler
        super.init(site: site)
    }

    override var graphName: String? { name }

    @inlinable
    override func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        subscribeHandler(observer)
    }
}

/// One subscription of a named stream.
@usableFromInline
final class NamedSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline
    let name: String

    @usableFromInline
    let id: UInt64

    /// The leak-check scopes that were active when this subscription was made
    /// (debug builds); written once in `init`.
    @usableFromInline
    let scopes: [NamedSubscriptionScope]

    @_alwaysEmitIntoClient
    init(name: String, observer: AnyObserver<Element>) {
        self.name = name
        self.id = NamedStreams.nextSubscriptionID()
        self.scopes = NamedStreams.activeScopes()
        super.init(observer: observer)
        NamedStreams.didSubscribe(name: name, id: id, scopes: scopes)
    }

    deinit {
        // Released without being disposed (nobody held the subscription): it is
        // no longer alive either.
        if !isDisposed {
            NamedStreams.didEnd(name: name, id: id, scopes: scopes, traced: false)
        }
    }

    @_alwaysEmitIntoClient
    func on(_ event: Event<Element>) {
        if AtomicCell.load(&_tracingIsActive, ordering: .relaxed) {
            traceEvent(event)
        }
        forward(event)
    }

    @usableFromInline
    func traceEvent(_ event: Event<Element>) {
        guard !isDisposed else { return }
        Tracing.record(event, stream: name, subscription: id)
    }

    override func disposeResources() {
        NamedStreams.didEnd(name: name, id: id, scopes: scopes, traced: true)
    }
}

/// A live subscription of a named stream.
public struct NamedSubscription: Hashable, Sendable, CustomStringConvertible {
    /// The stream's name, as given to `named(_:)`.
    public let name: String
    /// An identifier unique to this subscription in this process (the one traces
    /// use, see `TraceEvent.subscription` in RippleDebugExport).
    public let id: UInt64

    /// Creates a value describing the subscription `id` of the stream `name`.
    public init(name: String, id: UInt64) {
        self.name = name
        self.id = id
    }

    /// `search #12`.
    public var description: String { "\(name) #\(id)" }
}

extension Resources {
    /// The live subscriptions of named streams, counted by name.
    ///
    /// A subscription of a stream tagged with `named(_:)` counts from the moment it
    /// is made until it is disposed, terminates, or is released. Like ``total``,
    /// this is tracked in debug builds only; in release builds it is always empty.
    ///
    /// ```swift
    /// let subscription = relay.named("query").subscribe(onNext: { _ in })
    /// Resources.namedSubscriptions   // ["query": 1]
    /// subscription.dispose()
    /// Resources.namedSubscriptions   // [:]
    /// ```
    public static var namedSubscriptions: [String: Int] {
        var counts: [String: Int] = [:]
        for subscription in liveNamedSubscriptions {
            counts[subscription.name, default: 0] += 1
        }
        return counts
    }

    /// Each live subscription of a named stream, oldest first (debug builds only;
    /// empty in release builds).
    public static var liveNamedSubscriptions: [NamedSubscription] {
        NamedStreams.registry.withLock { registry in
            registry.map { NamedSubscription(name: $0.value, id: $0.key) }.sorted(byKey: { $0.id })
        }
    }
}

/// Records the subscriptions of named streams made while it is active, so that a
/// test can ask which of them are still alive, even when other tests run in
/// parallel.
///
/// ```swift
/// let scope = NamedSubscriptionScope()
/// scope.run {
///     _ = relay.named("query").subscribe(onNext: { _ in })   // never disposed
/// }
/// scope.liveSubscriptions   // [query #7]
/// ```
///
/// A subscription belongs to every scope running on the current task or thread
/// when it is made (scopes nest). Subscriptions made on other threads, for example
/// by `subscribe(on:)`, are not attributed to the scope. Tracking happens in debug
/// builds only; in release builds a scope stays empty.
public final class NamedSubscriptionScope: @unchecked Sendable {
    private let state: LockedState<(live: [UInt64: String], count: Int)>

    /// A scope that records nothing until ``run(_:)`` is called.
    public init() {
        state = LockedState(([:], 0))
    }

    /// Runs `body` with this scope active on the current task (and thread).
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        let chain = ScopeLink(scope: self, next: NamedSubscriptionScope.link)
        AtomicCell.add(&_activeScopeCount, 1, ordering: .relaxed)
        defer { AtomicCell.subtract(&_activeScopeCount, 1, ordering: .relaxed) }
        return try NamedSubscriptionScope.$link.withValue(chain, operation: body)
    }

    /// Runs the asynchronous `body` with this scope active on the current task and
    /// the child tasks it creates.
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        let chain = ScopeLink(scope: self, next: NamedSubscriptionScope.link)
        AtomicCell.add(&_activeScopeCount, 1, ordering: .relaxed)
        defer { AtomicCell.subtract(&_activeScopeCount, 1, ordering: .relaxed) }
        return try await NamedSubscriptionScope.$link.withValue(chain, operation: body, isolation: isolation)
    }

    /// The subscriptions made in this scope that are still alive, oldest first.
    public var liveSubscriptions: [NamedSubscription] {
        state.withLock { state in
            state.live.map { NamedSubscription(name: $0.value, id: $0.key) }.sorted(byKey: { $0.id })
        }
    }

    /// How many subscriptions of named streams were made in this scope.
    public var subscriptionCount: Int {
        state.withLock { $0.count }
    }

    func added(name: String, id: UInt64) {
        state.withLock {
            $0.live[id] = name
            $0.count += 1
        }
    }

    func removed(id: UInt64) {
        _ = state.withLock { $0.live.removeValue(forKey: id) }
    }

    /// The innermost active scope and its parents.
    @TaskLocal
    static var link: ScopeLink?
}

/// The chain of active scopes (innermost first).
final class ScopeLink: Sendable {
    let scope: NamedSubscriptionScope
    let next: ScopeLink?

    init(scope: NamedSubscriptionScope, next: ScopeLink?) {
        self.scope = scope
        self.next = next
    }
}

/// How many scopes are running anywhere: lets a subscription skip the task-local
/// lookup when none is.
@exclusivity(unchecked) nonisolated(unsafe) var _activeScopeCount = AtomicCell<Int>(0)

/// The bookkeeping of named streams.
@usableFromInline
enum NamedStreams {
    @exclusivity(unchecked) private nonisolated(unsafe) static var ids = AtomicCell<UInt64>(0)

    /// Live named subscriptions: id → name (debug builds).
    static let registry = LockedState<[UInt64: String]>([:])

    @usableFromInline
    static func nextSubscriptionID() -> UInt64 {
        AtomicCell.add(&ids, 1, ordering: .relaxed).newValue
    }

    @usableFromInline
    static func activeScopes() -> [NamedSubscriptionScope] {
        #if DEBUG
        guard AtomicCell.load(&_activeScopeCount, ordering: .relaxed) > 0 else { return [] }
        var scopes: [NamedSubscriptionScope] = []
        var link = NamedSubscriptionScope.link
        while let current = link {
            scopes.append(current.scope)
            link = current.next
        }
        return scopes
        #else
        return []
        #endif
    }

    @usableFromInline
    static func didSubscribe(name: String, id: UInt64, scopes: [NamedSubscriptionScope]) {
        #if DEBUG
        registry.withLock { $0[id] = name }
        for scope in scopes {
            scope.added(name: name, id: id)
        }
        #endif
        if AtomicCell.load(&_tracingIsActive, ordering: .relaxed) {
            Tracing.recordSubscribed(stream: name, subscription: id)
        }
    }

    static func didEnd(name: String, id: UInt64, scopes: [NamedSubscriptionScope], traced: Bool) {
        #if DEBUG
        _ = registry.withLock { $0.removeValue(forKey: id) }
        for scope in scopes {
            scope.removed(id: id)
        }
        #endif
        if traced && AtomicCell.load(&_tracingIsActive, ordering: .relaxed) {
            Tracing.recordDisposed(stream: name, subscription: id)
        }
    }
}
