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
    /// `replay(_:)`, `replayAll()` and `multicast`, a subscriber that arrives
    /// while the last one leaves on another thread either keeps the connection
    /// alive or subscribes to the next connection's subject. (In RxSwift such a
    /// subscriber may be left on the subject of the ending connection, which
    /// nothing feeds any more.) Nobody blocks: the connection is made by whichever
    /// thread finishes the disconnection.
    ///
    /// ``ObservableType/share(replay:scope:file:line:)`` does the same in one operator.
    public func refCount(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        RefCountObservable(site: SiteLiteral("refCount", file, line), source: self)
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
/// `replay(_:)`), so a subscriber must subscribe to the subject of the connection
/// it is counted in. While it subscribes it is *arriving*: counted in `arriving`,
/// which holds off a disconnection. A disconnection decided before it arrived
/// has already detached the connection's subject from Ripple's connectable
/// sequences (``ConnectionDetaching``, done under the lock with the decision), so
/// the subscriber finds the next connection's subject.
final class RefCountObservable<Source: ConnectableObservableType>: Observable<Source.Element>, @unchecked Sendable {
    typealias Element = Source.Element

    struct State {
        /// Subscribers counted in the current generation.
        var count = 0
        /// Incremented when the connectable sequence terminates: subscribers of an
        /// earlier generation no longer count.
        var generation = 0
        /// The connection, when connected.
        var connection: Disposable?
        /// Connections to dispose (their generation ended).
        var toDispose: [Disposable] = []
        /// `true` while a thread reconciles.
        var isReconciling = false
        /// Subscribers subscribing to the connectable sequence, not yet counted:
        /// while there are any, the connection is kept.
        var arriving = 0
    }

    enum Action {
        case connect(generation: Int)
        case dispose(Disposable)
    }

    let source: Source
    let observable: Observable<Element>
    let state = LockedState(State())

    init(site: SiteLiteral, source: Source) {
        self.source = source
        self.observable = source.asObservable()
        super.init(site: site)
    }

    override var graphRole: GraphRole { .shared }

    override func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        let sink = RefCountSink(parent: self, observer: observer)
        state.withLock { $0.arriving += 1 }
        // Subscribe first, connect second (a synchronous source must not emit before
        // this subscriber listens).
        sink.setUpstream(observable.subscribe(sink: AnyObserver { sink.on($0) }))
        let mustReconcile = state.withLock { state -> Bool in
            state.arriving -= 1
            // Already disposed: the connectable sequence replayed a terminal event
            // (it has terminated for good), or the subscriber left. Not counted; a
            // connection it held off may now have to go.
            if sink.isDisposed {
                return state.count == 0 && state.arriving == 0 && state.connection != nil
            }
            sink.generation = state.generation
            sink.isCounted = true
            state.count += 1
            return state.count == 1
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
            guard sink.generation == state.generation else { return false }
            state.count -= 1
            return state.count == 0
        }
        if isLast {
            reconcile()
        }
    }

    /// The connectable sequence sent a terminal event to `sink`.
    func terminated(_ sink: RefCountSink<Source>) {
        let endsGeneration = state.withLock { state -> Bool in
            guard sink.isCounted, sink.generation == state.generation else { return false }
            state.generation &+= 1
            state.count = 0
            if let connection = state.connection {
                state.connection = nil
                state.toDispose.append(connection)
            }
            return true
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
                if state.count == 0 && state.arriving == 0, let connection = state.connection {
                    state.connection = nil
                    detached = (source as? ConnectionDetaching)?.detachConnection(connection)
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
                    // The sequence terminated, or every subscriber left (and none
                    // is arriving), while connecting.
                    guard state.generation == generation, state.count > 0 || state.arriving > 0 else {
                        detached = (source as? ConnectionDetaching)?.detachConnection(connection)
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

/// A connectable sequence that can forget a connection at once, without calling
/// user code, so that subscribers arriving afterwards get the next connection's
/// subject. `refCount()` calls it under its lock when it decides to disconnect;
/// the disposal (user code) follows outside the lock.
protocol ConnectionDetaching: AnyObject {
    /// Forgets `connection` if it is the current one; returns what the caller
    /// releases outside its lock.
    func detachConnection(_ connection: Disposable) -> Any?
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
