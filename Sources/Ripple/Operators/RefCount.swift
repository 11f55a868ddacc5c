extension ConnectableObservableType {
    /// An observable that connects to this connectable sequence when its first
    /// subscriber subscribes and disconnects when its last subscriber leaves.
    ///
    /// Each subscriber first subscribes to the connectable sequence; the first one
    /// then calls ``connect()``. When the connectable sequence terminates, the
    /// connection is disposed and the count starts again from zero: the next
    /// subscriber connects again (what it then receives depends on the subject of
    /// the connectable sequence: `publish()` and `replay(_:)` make a fresh
    /// subject for each connection, so the next subscriber starts a new run of
    /// the source; a connectable sequence built on one given subject, such as
    /// `multicast(PublishSubject())`, replays its terminal event and is not
    /// connected again).
    ///
    /// ```
    /// source:             --1--2--3--4--5--
    /// subscriber A:       ^-1--2--3-!             (! = disposed)
    /// subscriber B:             ^-3--4-!
    /// source subscribed:  ^------------!          (A's subscribe to B's dispose)
    /// ```
    ///
    /// Completes and fails when the connectable sequence does.
    ///
    /// Subscribers may come and go on several threads: with `publish()`,
    /// `replay(_:)`, `replayAll()` and `multicast`, a subscriber belongs to
    /// exactly one connection. One that arrives while the last one leaves on
    /// another thread either keeps the connection alive or subscribes to the next
    /// connection's subject; one that arrives while the connection ends on the
    /// source's terminal event either receives that terminal event or starts the
    /// next connection. (In RxSwift such a subscriber may be left on a subject
    /// that nothing feeds any more.) Nobody blocks: the connection is made by
    /// whichever thread finishes the disconnection.
    ///
    /// ``ObservableType/share(replay:scope:)`` does the same in one operator.
    @_alwaysEmitIntoClient
    public func refCount() -> Observable<Element> {
        RefCountObservable(site: SiteLiteral("refCount"), source: self)
    }
}

/// The observable behind `refCount()`.
///
/// ## Locking
/// The counters live under `state`'s lock. `connect()` and the disposal of a
/// connection are *user code* (a connectable sequence may be a custom type, and
/// connecting subscribes to the source), so they never run under the lock.
/// Instead, whoever changes the count then *reconciles*: one thread at a time
/// compares the wanted state (connected while the count is positive) with the
/// actual one and connects or disconnects, outside the lock, until they agree.
/// A thread that finds another one reconciling leaves the work to it, so nobody
/// blocks, re-entrant calls (a subscriber that subscribes from inside `connect()`)
/// cannot deadlock, and connect/disconnect calls never overlap.
///
/// ## Arriving subscribers
/// A connectable sequence may make a subject per connection (`publish()`,
/// `replay(_:)`), so a subscriber must be counted in the connection whose subject
/// it subscribed to. While it subscribes it is *arriving*: counted in `arriving`,
/// which holds off a disconnection. A disconnection decided before it arrived
/// has already detached the connection's subject from Ripple's connectable
/// sequences (``ConnectionDetaching``, done under the lock with the decision), so
/// the subscriber finds the next connection's subject.
///
/// A connection also ends by itself, on the source's terminal event: it detaches
/// its subject first, then disposes the source and delivers the event. A
/// subscriber arriving in between gets the next subject, and Ripple's connectable
/// sequences say which subject that was (its ID, the *generation*): a generation
/// newer than the counted one ends the counted one and starts its own, which
/// connects; a subscriber of an older or ended generation receives that
/// generation's terminal event and is not counted. So every subscriber belongs to
/// exactly one connection (``State/count(joined:)``).
@usableFromInline
final class RefCountObservable<Source: ConnectableObservableType>: Observable<Source.Element>, @unchecked Sendable {
    typealias Element = Source.Element

    /// The counters and the connection: pure transitions, called under the lock.
    struct State {
        /// Subscribers counted in the current generation.
        var count = 0
        /// The counted generation: the ID of the subject its subscribers joined,
        /// for a ``ConnectionDetaching`` sequence; for any other sequence a
        /// counter, incremented when a subscriber arrives after the terminal event.
        var generation = 0
        /// The counted generation's connection delivered its terminal event.
        var hasEnded = false
        /// The connection, when connected.
        var connection: Disposable?
        /// Connections to dispose (their generation ended).
        var toDispose: [Disposable] = []
        /// `true` while a thread reconciles.
        var isReconciling = false
        /// Subscribers subscribing to the connectable sequence, not yet counted:
        /// while there are any, the connection is kept.
        var arriving = 0

        /// What becomes of a subscriber that has subscribed.
        struct Arrival: Equatable {
            /// Counted in ``generation``; otherwise it belongs to an ended
            /// generation, whose terminal event it receives.
            var isCounted: Bool
            var generation: Int
            /// The connection must change (connect, or disconnect one that this
            /// subscriber held off).
            var mustReconcile: Bool
        }

        /// A subscriber that stopped arriving, and had joined the generation
        /// `joined` (`nil`: the sequence cannot tell, so the current one, or the
        /// next one if the current one ended).
        mutating func count(joined: Int?) -> Arrival {
            arriving -= 1
            let joined = joined ?? (hasEnded ? generation &+ 1 : generation)
            if joined < generation || (joined == generation && hasEnded) {
                return Arrival(isCounted: false, generation: joined, mustReconcile: mustDisconnect)
            }
            if joined > generation {
                endGeneration()
                generation = joined
                hasEnded = false
            }
            count += 1
            return Arrival(isCounted: true, generation: generation, mustReconcile: count == 1)
        }

        /// A subscriber that stopped arriving without being counted (it was
        /// disposed meanwhile). Returns whether the caller must reconcile.
        mutating func abandon() -> Bool {
            arriving -= 1
            return mustDisconnect
        }

        /// A subscriber counted in `generation` left. Returns whether the caller
        /// must reconcile.
        mutating func leave(generation left: Int) -> Bool {
            guard left == generation, !hasEnded else { return false }
            count -= 1
            return count == 0
        }

        /// A subscriber counted in `generation` received the terminal event.
        /// Returns whether that ended the generation (the caller reconciles).
        mutating func terminate(generation ended: Int) -> Bool {
            guard ended == generation, !hasEnded else { return false }
            hasEnded = true
            endGeneration()
            return true
        }

        /// Nobody counted, nobody arriving, still connected.
        var mustDisconnect: Bool {
            count == 0 && arriving == 0 && connection != nil
        }

        private mutating func endGeneration() {
            count = 0
            if let connection {
                self.connection = nil
                toDispose.append(connection)
            }
        }
    }

    enum Action {
        case connect(generation: Int)
        case dispose(Disposable)
    }

    let source: Source
    let observable: Observable<Element>
    /// `source`, when it is one of Ripple's connectable sequences.
    let detaching: ConnectionDetaching<Element>?
    let state: LockedState<State>

    @usableFromInline
    init(site: SiteLiteral, source: Source) {
        state = LockedState(State())
        self.source = source
        self.observable = source.asObservable()
        self.detaching = source as? ConnectionDetaching<Element>
        super.init(site: site)
    }

    override var graphRole: GraphRole { .shared }

    override func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        let sink = RefCountSink(parent: self, observer: observer)
        state.withLock { $0.arriving += 1 }
        // Subscribe first, connect second (a synchronous source must not emit before
        // this subscriber listens).
        let upstream = AnyObserver { sink.on($0) }
        var joined: Int?
        if let detaching {
            let (subscription, subjectID) = detaching.subscribeToCurrentSubject(upstream)
            sink.setUpstream(subscription)
            joined = subjectID
        } else {
            sink.setUpstream(observable.subscribe(sink: upstream))
        }
        let mustReconcile = state.withLock { state -> Bool in
            // Already disposed: the connectable sequence replayed a terminal event
            // (it has terminated for good), or the subscriber left. Not counted; a
            // connection it held off may now have to go.
            if sink.isDisposed {
                return state.abandon()
            }
            let arrival = state.count(joined: joined)
            sink.generation = arrival.generation
            sink.isCounted = arrival.isCounted
            return arrival.mustReconcile
        }
        if mustReconcile {
            reconcile()
        }
        return sink
    }

    /// A counted subscriber left.
    func leave(_ sink: RefCountSink<Source>) {
        let isLast = state.withLock { state -> Bool in
            guard sink.isCounted else { return false }
            sink.isCounted = false
            return state.leave(generation: sink.generation)
        }
        if isLast {
            reconcile()
        }
    }

    /// The connectable sequence sent a terminal event to `sink`.
    func terminated(_ sink: RefCountSink<Source>) {
        let endsGeneration = state.withLock { state -> Bool in
            guard sink.isCounted else { return false }
            return state.terminate(generation: sink.generation)
        }
        if endsGeneration {
            reconcile()
        }
    }

    /// Connects or disconnects until the connection matches the count (see the
    /// type's documentation).
    func reconcile() {
        let owns = state.withLock { state -> Bool in
            if state.isReconciling { return false }
            state.isReconciling = true
            return true
        }
        guard owns else { return }
        while true {
            // What a detached connection let go of, released after the lock.
            var detached: Any?
            let action = state.withLock { state -> Action? in
                if !state.toDispose.isEmpty {
                    return .dispose(state.toDispose.removeFirst())
                }
                if state.count > 0 && state.connection == nil {
                    return .connect(generation: state.generation)
                }
                if state.mustDisconnect, let connection = state.connection {
                    state.connection = nil
                    detached = detaching?.detachConnection(connection)
                    return .dispose(connection)
                }
                state.isReconciling = false
                return nil
            }
            switch action {
            case nil:
                return
            case .dispose(let connection):
                withExtendedLifetime(detached) {}
                connection.dispose()
            case .connect(let generation):
                let connection = source.connect()
                let isStale = state.withLock { state -> Bool in
                    // The generation ended, or every subscriber left (and none
                    // is arriving), while connecting.
                    guard state.generation == generation, !state.hasEnded, state.count > 0 || state.arriving > 0 else {
                        detached = detaching?.detachConnection(connection)
                        return true
                    }
                    state.connection = connection
                    return false
                }
                if isStale {
                    withExtendedLifetime(detached) {}
                    connection.dispose()
                }
            }
        }
    }
}

/// One of Ripple's connectable sequences (the `multicast` family), which
/// `refCount()` can ask two things without calling user code: which connection a
/// subscriber joined, and to forget a connection at once.
///
/// A class that the connectable sequences subclass, not a protocol with a primary
/// associated type: `refCount()` recognises one with a cast, and a cast to a
/// parameterized protocol type (`any ConnectionDetaching<Element>`) needs
/// macOS 13 / iOS 16 at run time. It declares no initialiser, so it inherits
/// `ConnectableObservable`'s.
@usableFromInline
class ConnectionDetaching<Element>: ConnectableObservable<Element>, @unchecked Sendable {
    /// Subscribes `observer` to the current connection's subject and returns the
    /// subscription and that subject's ID. IDs increase: a larger one is a later
    /// connection's subject.
    func subscribeToCurrentSubject(_ observer: AnyObserver<Element>) -> (subscription: SubscriptionBase?, subjectID: Int) {
        fatalError("ConnectionDetaching.subscribeToCurrentSubject(_:) is abstract; \(type(of: self)) must override it")
    }

    /// Forgets `connection` if it is the current one, so that subscribers arriving
    /// afterwards get the next connection's subject; returns what the caller
    /// releases outside its lock. `refCount()` calls it under its lock when it
    /// decides to disconnect; the disposal (user code) follows outside the lock.
    func detachConnection(_ connection: Disposable) -> Any? {
        fatalError("ConnectionDetaching.detachConnection(_:) is abstract; \(type(of: self)) must override it")
    }
}

/// One subscriber of `refCount()`.
final class RefCountSink<Source: ConnectableObservableType>: Sink<Source.Element>, @unchecked Sendable {
    let parent: RefCountObservable<Source>
    /// Guarded by the parent's lock.
    var generation = -1
    /// Guarded by the parent's lock: `true` while this subscriber is counted.
    var isCounted = false

    init(parent: RefCountObservable<Source>, observer: AnyObserver<Source.Element>) {
        self.parent = parent
        super.init(observer: observer)
    }

    func on(_ event: Event<Source.Element>) {
        switch event {
        case .next(let element):
            forwardNext(element)
        case .error, .completed:
            // Disconnect before forwarding, as RxSwift does: a subscriber that
            // resubscribes from its terminal handler starts a new connection.
            parent.terminated(self)
            forwardTerminal(event)
        }
    }

    override func disposeResources() {
        parent.leave(self)
    }
}
