#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How long the subject behind ``ObservableType/share(replay:scope:)`` lives, which
/// decides what a subscriber sees after the shared subscription to the source ended.
public enum SubjectLifetimeScope: Sendable {
    /// Each connection to the source gets a fresh subject. When every subscriber
    /// has left, or the source has terminated, the subject is forgotten: the next
    /// subscriber subscribes to the source again and sees nothing of the previous
    /// connection (no replayed elements, no terminal event).
    ///
    /// This is what you want almost always: `share()` on a cold sequence behaves
    /// like that sequence, except that concurrent subscribers share one execution.
    case whileConnected

    /// One subject for the whole life of the shared sequence. When every
    /// subscriber has left, the next one reconnects to the source but first
    /// receives the elements the subject still buffers. After the source
    /// terminated, late subscribers receive the buffered elements and the terminal
    /// event, and the source is not subscribed again.
    case forever
}

extension ObservableType {
    /// Shares one subscription to this sequence between all subscribers, and
    /// replays the latest `replay` elements to each new subscriber.
    ///
    /// The source is subscribed when the first subscriber arrives and disposed when
    /// the last one leaves (reference counting). What happens after that, or after
    /// the source terminated, depends on `scope` (see ``SubjectLifetimeScope``):
    /// with `.whileConnected` (the default) the next subscriber starts a fresh
    /// subscription with an empty replay buffer; with `.forever` the buffer, and a
    /// terminal event, are kept.
    ///
    /// This is the cure for the classic hot/cold trap: three bindings of one
    /// `text.map(expensive)` run `expensive` three times per event; after
    /// `.share()`, once.
    ///
    /// ```
    /// source:         --1--2--3--4--|
    /// share(replay: 1)
    ///   subscriber A: --1--2--3--4--|     (subscribes first: connects)
    ///   subscriber B:       2-3--4--|     (subscribes after 2: gets 2 at once)
    /// ```
    ///
    /// Completes and fails when the source does. With `.whileConnected` and a
    /// `replay` of 0 or 1 (so in every `Driver` and `Signal`), the subscribers
    /// receive the terminal event before the subscription to the source is
    /// disposed, as in RxSwift; with a larger `replay`, or `.forever`, the
    /// subscription is disposed first (RxSwift builds those on
    /// `multicast(...).refCount()`). A negative `replay` fails every subscriber
    /// with `RxError.argumentOutOfRange`.
    ///
    /// Thread-safe: subscribers may arrive and leave on any thread while the source
    /// emits; the source is never subscribed, and events are never delivered, while
    /// a lock is held. Two subscriptions to the source never overlap: when a
    /// subscriber starts a new connection while the previous one is still being
    /// disposed on another thread, the new connection subscribes to the source as
    /// soon as that disposal has returned, on the thread that did it (nobody
    /// blocks). A disposal that subscribes again on its own thread connects at
    /// once, nested in it, as in RxSwift.
    ///
    /// - Parameters:
    ///   - replay: How many of the latest elements a new subscriber receives first.
    ///   - scope: How long the replay buffer (and a terminal event) is kept.
    @_alwaysEmitIntoClient
    @inline(never)
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        guard replay >= 0 else {
            return .error(RxError.argumentOutOfRange("share(replay:scope:)", "replay", replay, minimum: 0))
        }
        // The closures are built here, for the caller's element type, so that the
        // shared event path (source -> subject -> subscribers) is specialised.
        return ShareObservable(
            site: SiteLiteral("share"),
            source: asObservable(),
            scope: scope,
            // RxSwift's dedicated `share()` and `share(replay: 1)` pass the terminal
            // event on, then the source disposes itself; its other forms are
            // `multicast(...).refCount()`, which ends the connection first.
            deliversTerminalFirst: scope == .whileConnected && replay <= 1,
            makeSubject: { ShareSubject.make(replay: replay) },
            makeConnectionObserver: { connection in AnyObserver { connection.on($0) } }
        )
    }
}

/// The subject of one share connection: what subscribers subscribe to, and where
/// the connection sends the source's events.
@usableFromInline
struct ShareSubject<Element>: @unchecked Sendable {
    @usableFromInline let observable: SubjectBase<Element>
    @usableFromInline let observer: AnyObserver<Element>

    @_alwaysEmitIntoClient
    init(observable: SubjectBase<Element>, observer: AnyObserver<Element>) {
        self.observable = observable
        self.observer = observer
    }

    @_alwaysEmitIntoClient
    static func make(replay: Int) -> ShareSubject<Element> {
        if replay == 0 {
            let subject = PublishSubject<Element>()
            subject.isGraphHidden = true
            return ShareSubject(observable: subject, observer: AnyObserver { subject.on($0) })
        }
        let subject = ReplaySubject<Element>(bufferSize: replay)
        subject.isGraphHidden = true
        return ShareSubject(observable: subject, observer: AnyObserver { subject.on($0) })
    }
}

/// The observable behind `share(replay:scope:)`.
///
/// Every subscriber joins the current ``ShareConnection`` (creating it if there is
/// none) under the lock, then, outside the lock, subscribes to the connection's
/// subject; the subscriber that created the connection then subscribes the
/// connection to the source. Because a subscriber is bound to the connection it
/// joined, a subscriber arriving while the last one leaves either keeps the
/// connection alive or starts a new one: it can never end up listening to a subject
/// that nothing feeds.
///
/// ## Connections never overlap
/// A connection that is let go of (its last subscriber left, or the source
/// terminated) *retires*: it is detached under the lock, then its source
/// subscription is disposed outside it (user code). Until that returns, the thread
/// doing it is listed in `retiringThreads`. A connection created meanwhile on
/// another thread does not subscribe to the source: it waits in `pendingConnect`,
/// and the last retiring thread connects it once its disposal has returned. No
/// thread blocks, so a disposal that takes a lock held by a subscribing thread
/// cannot deadlock. A connection created by a retiring thread itself (a disposal
/// that subscribes again) connects at once, nested in the disposal, as in RxSwift.
@usableFromInline
final class ShareObservable<Element>: Observable<Element>, @unchecked Sendable {
    /// The connection; `isTerminated` (`.forever` only): the source terminated, the
    /// subject replays it, and the source is never subscribed again;
    /// `retiringThreads`: one entry per retiring connection, the thread disposing
    /// it; `pendingConnect`: the current connection, when it was created while
    /// another thread was retiring a connection, connected by the last retiring
    /// thread (a tuple: see "State is a tuple" in docs/Architecture.md).
    typealias State = (
        connection: ShareConnection<Element>?, isTerminated: Bool, retiringThreads: [pthread_t],
        pendingConnect: ShareConnection<Element>?
    )

    let source: Observable<Element>
    @usableFromInline
    let deliversTerminalFirst: Bool
    let makeSubject: () -> ShareSubject<Element>
    let makeConnectionObserver: (ShareConnection<Element>) -> AnyObserver<Element>
    /// The one subject of `.forever`; `nil` for `.whileConnected`.
    let foreverSubject: ShareSubject<Element>?
    let state: LockedState<State>

    @usableFromInline
    init(
        site: SiteLiteral,
        source: Observable<Element>,
        scope: SubjectLifetimeScope,
        deliversTerminalFirst: Bool,
        makeSubject: @escaping () -> ShareSubject<Element>,
        makeConnectionObserver: @escaping (ShareConnection<Element>) -> AnyObserver<Element>
    ) {
        state = LockedState((connection: nil, isTerminated: false, retiringThreads: [], pendingConnect: nil))
        self.source = source
        self.deliversTerminalFirst = deliversTerminalFirst
        self.makeSubject = makeSubject
        self.makeConnectionObserver = makeConnectionObserver
        self.foreverSubject = scope == .forever ? makeSubject() : nil
        super.init(kind: .subject, site: site)
    }

    override var graphRole: GraphRole { .shared }

    /// Subscribed without the trampoline (``ObservableKind/subject``), as
    /// RxSwift's dedicated `share()` and `share(replay: 1)` are; its other forms
    /// are `multicast(...).refCount()`, which subscribes on the trampoline like
    /// any operator (see ``ObservableKind/entersTrampoline``).
    override func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        enter { subject in subject.subscribe(sink: observer) }
    }

    /// The handlers of `subscribe(onNext:...)` go to the subject in their box
    /// (see ``ObservableKind/subject``), on the trampoline as ``run(_:)`` says.
    override func run(box: ObserverBox<Element>) -> SubscriptionBase? {
        enter { subject in subject.subscribe(box: box) }
    }

    /// ``join(_:)``, directly for the dedicated forms and on the trampoline for
    /// the `refCount` ones (see ``run(_:)``).
    private func enter(_ subscribe: (SubjectBase<Element>) -> SubscriptionBase?) -> SubscriptionBase? {
        Trampoline.running(if: !deliversTerminalFirst) { join(subscribe) }
    }

    /// Joins the current connection (or starts one) and subscribes to its
    /// subject with `subscribe`.
    private func join(_ subscribe: (SubjectBase<Element>) -> SubscriptionBase?) -> SubscriptionBase? {
        let current = pthread_self()
        let joined = state.withLock { state -> (connection: ShareConnection<Element>, connectsNow: Bool)? in
            if state.isTerminated { return nil }
            if let connection = state.connection {
                connection.count += 1
                return (connection, false)
            }
            let connection = ShareConnection(parent: self, subject: foreverSubject ?? makeSubject())
            connection.count = 1
            state.connection = connection
            if state.retiringThreads.allSatisfy({ pthread_equal($0, current) != 0 }) {
                return (connection, true)
            }
            // Another thread is still disposing a connection: it connects this one.
            state.pendingConnect = connection
            return (connection, false)
        }
        guard let (connection, connectsNow) = joined else {
            // `.forever` after termination: the subject replays the buffer and the
            // terminal event.
            return foreverSubject.map { subscribe($0.observable) } ?? nil
        }
        // Subscribers listen to the subject directly (no per-event hop); their
        // subscription also releases their place in the connection.
        let subscription = ShareSubscription(connection: connection)
        subscription.setUpstream(subscribe(connection.subject.observable))
        if connectsNow {
            connection.connect()
        }
        return subscription
    }

    /// Called under the lock when a connection is detached: its disposal is about
    /// to run on this thread.
    private func beginRetiring(_ state: inout State) {
        state.retiringThreads.append(pthread_self())
    }

    /// The disposal that ``beginRetiring(_:)`` announced has returned. The last
    /// retiring thread connects the pending connection, if it is still wanted,
    /// and stays listed as retiring while it does (so that it is itself ordered
    /// before any later connection).
    @usableFromInline
    func endRetiring() {
        let current = pthread_self()
        while true {
            let next = state.withLock { state -> ShareConnection<Element>? in
                if let index = state.retiringThreads.firstIndex(where: { pthread_equal($0, current) != 0 }) {
                    state.retiringThreads.remove(at: index)
                }
                guard state.retiringThreads.isEmpty, let pending = state.pendingConnect else { return nil }
                state.pendingConnect = nil
                // Every subscriber of the pending connection may have left already.
                guard pending === state.connection else { return nil }
                state.retiringThreads.append(current)
                return pending
            }
            guard let next else { return }
            next.connect()
        }
    }

    /// A subscriber of `connection` left; the last one disconnects it.
    func leave(_ connection: ShareConnection<Element>) {
        let isLast = state.withLock { state -> Bool in
            connection.count -= 1
            guard connection.count == 0, state.connection === connection else { return false }
            state.connection = nil
            beginRetiring(&state)
            return true
        }
        if isLast {
            connection.dispose()
            endRetiring()
        }
    }

    /// The source sent a terminal event through `connection`. Returns `false` if the
    /// connection was already let go (every subscriber left): the event is dropped.
    /// Otherwise the connection is retiring: the caller calls ``endRetiring()``
    /// once it has delivered the event and disposed the connection.
    @usableFromInline
    func detachTerminated(_ connection: ShareConnection<Element>) -> Bool {
        state.withLock { state -> Bool in
            guard state.connection === connection else { return false }
            state.connection = nil
            if foreverSubject != nil {
                state.isTerminated = true
            }
            beginRetiring(&state)
            return true
        }
    }
}

/// One subscription of a shared sequence to its source, with its subject.
@usableFromInline
final class ShareConnection<Element>: SubscriptionBase, @unchecked Sendable {
    @usableFromInline
    let parent: ShareObservable<Element>
    @usableFromInline
    let subject: ShareSubject<Element>
    /// Subscribers bound to this connection. Guarded by the parent's lock.
    var count: Int

    init(parent: ShareObservable<Element>, subject: ShareSubject<Element>) {
        count = 0
        self.parent = parent
        self.subject = subject
        super.init()
    }

    func connect() {
        // Drawn as an edge into the `share` node, whichever thread connects.
        SubscriptionRecorder.connecting(parent) {
            setUpstream(parent.source.subscribe(sink: parent.makeConnectionObserver(self)))
        }
    }

    @_alwaysEmitIntoClient
    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if !isDisposed {
                subject.observer.on(event)
            }
        case .error, .completed:
            terminate(event)
        }
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func terminate(_ event: Event<Element>) {
        // Detach first, as RxSwift does: a subscriber that resubscribes from its
        // terminal handler starts a new connection (`.whileConnected`).
        guard !isDisposed, parent.detachTerminated(self) else { return }
        if parent.deliversTerminalFirst {
            subject.observer.on(event)
            dispose()
        } else {
            dispose()
            subject.observer.on(event)
        }
        parent.endRetiring()
    }
}

/// One subscriber of a shared sequence: its subscription to the connection's
/// subject, and its place in the connection, released together.
final class ShareSubscription<Element>: SubscriptionBase, @unchecked Sendable {
    let connection: ShareConnection<Element>

    init(connection: ShareConnection<Element>) {
        self.connection = connection
        super.init()
    }

    override func disposeResources() {
        connection.parent.leave(connection)
    }
}
