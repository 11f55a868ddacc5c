extension ObservableType {
    /// Shares one subscription to this sequence through `subject`: subscribers
    /// subscribe to `subject`, and ``ConnectableObservableType/connect()`` subscribes
    /// `subject` to this sequence.
    ///
    /// The same subject serves every connection: after the source terminated, the
    /// subject has terminated too, so later subscribers receive what the subject
    /// replays for a terminated subject (a `PublishSubject` replays the terminal
    /// event). Connecting again subscribes to the source again. Subscribers
    /// complete or fail when the source does (through the subject); disposing the
    /// connection does not end them.
    ///
    /// ```
    /// source:      --1--2--3--4--|
    /// connect():         ^
    /// subscriber:  --------3--4--|     (subscribed before connect())
    /// ```
    ///
    /// - Parameters:
    ///   - subject: The subject that broadcasts the source's events.
    /// - Returns: A connectable sequence; nothing reaches `subject` before `connect()`.
    @_alwaysEmitIntoClient
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element>
        where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(site: SiteLiteral("multicast"), source: asObservable(), makeSubject: { subject })
    }

    /// Shares one subscription to this sequence through a subject made by
    /// `makeSubject`, with a new subject for each connection.
    ///
    /// The subject is created when the first subscriber subscribes or when
    /// ``ConnectableObservableType/connect()`` is called, whichever comes first. When a
    /// connection ends (disposed, or the source terminated) the subject is
    /// forgotten: the next subscribers and the next connection use a fresh one.
    /// Subscribers complete or fail when the source does during their connection.
    ///
    /// ```
    /// source:           --1--2--|   (cold, restarts on each connection)
    /// connection 1:     --1--2--|
    /// connection 2:               --1--2--|   (fresh subject, fresh subscribers)
    /// ```
    ///
    /// - Parameters:
    ///   - makeSubject: Creates the subject for a connection.
    @_alwaysEmitIntoClient
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Subject.Element>
        where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(site: SiteLiteral("multicast"), source: asObservable(), makeSubject: makeSubject)
    }

    /// For each subscriber, makes a subject with `subjectSelector`, lets `selector`
    /// build a sequence from the shared (multicast) source, subscribes to that
    /// sequence and then connects.
    ///
    /// Inside `selector` the source may be used several times while it is subscribed
    /// to only once per subscriber. Completes or fails when the sequence returned by
    /// `selector` does; fails if `subjectSelector` or `selector` throws.
    ///
    /// ```
    /// source:    --1-----2-----|
    /// selector:  { s in Observable.merge(s, s.map { $0 * 10 }) }
    /// result:    --1,10--2,20--|      (one subscription to the source)
    /// ```
    @_alwaysEmitIntoClient
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        let source = asObservable()
        return Producer(site: SiteLiteral("multicast")) { observer in
            let sink = MulticastSelectorSink(observer: observer)
            do {
                let subject = try subjectSelector()
                let connectable = ConnectableObservableAdapter(site: .none, source: source, makeSubject: { subject })
                let observable = try selector(connectable)
                sink.setUpstream(observable.subscribe(sink: AnyObserver { sink.forward($0) }))
                sink.connection.setDisposable(connectable.connect())
            } catch {
                sink.forwardError(error)
            }
            return sink
        }
    }

    /// A connectable sequence that shares this sequence through a
    /// ``PublishSubject``: subscribers receive the events emitted after they
    /// subscribed, once ``ConnectableObservableType/connect()`` has been called.
    ///
    /// As in RxSwift, it is `multicast(makeSubject: { PublishSubject() })`: each
    /// connection has a fresh subject. When a connection ends (the source
    /// terminated, or the connection was disposed), its subject is forgotten;
    /// later subscribers wait, on a new subject, for the next `connect()`.
    /// Usually followed by ``ConnectableObservableType/refCount()``;
    /// ``share(replay:scope:)`` does both.
    ///
    /// ```
    /// source:      --1--2--3--4--|
    /// connect():         ^
    /// subscriber:  --------3--4--|     (subscribed before connect())
    /// late one:              4--|     (subscribed after 3)
    /// ```
    @_alwaysEmitIntoClient
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject() })
    }

    /// A connectable sequence that shares this sequence through a
    /// ``ReplaySubject`` of `bufferSize`: each new subscriber first receives the last
    /// `bufferSize` elements of the current connection.
    ///
    /// As in RxSwift, it is `multicast(makeSubject:)` with a new `ReplaySubject`
    /// for each connection: the buffer belongs to one connection, and subscribers
    /// of the next connection do not see it. After the source terminated, later
    /// subscribers get a fresh subject and wait for the next `connect()`. A
    /// negative `bufferSize` makes every subscriber fail with
    /// `RxError.argumentOutOfRange` (and `connect()` does nothing).
    ///
    /// ```
    /// source:      --1--2--3-----4--|
    /// connect():   ^
    /// late one:             (23)-4--|     (subscribed after 3: gets 2 and 3 at once)
    /// ```
    @_alwaysEmitIntoClient
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        guard bufferSize >= 0 else {
            return FailingConnectableObservable(error: RxError.argumentOutOfRange("replay(_:)", "bufferSize", bufferSize, minimum: 0))
        }
        return multicast(makeSubject: { ReplaySubject.create(bufferSize: bufferSize) })
    }

    /// A connectable sequence that shares this sequence through an unbounded
    /// ``ReplaySubject``: each new subscriber first receives every element the
    /// current connection has emitted so far.
    ///
    /// As in RxSwift, each connection has a fresh subject (see ``replay(_:)``).
    ///
    /// ```
    /// source:      --1--2--3-----4--|
    /// connect():   ^
    /// late one:             (123)4--|     (subscribed after 3)
    /// ```
    @_alwaysEmitIntoClient
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.createUnbounded() })
    }
}

/// The connectable sequence behind the `multicast` family.
///
/// Subscribers subscribe to the current subject; `connect()` installs a
/// ``MulticastConnection`` that feeds it from the source. When a connection ends
/// the subject is forgotten, so `makeSubject` is asked for the next one (the
/// single-subject forms always return the same subject).
///
/// Locking: the state is only read and written under `state`'s lock; the subject
/// factory, subscriptions, the source subscription and disposals all run outside it.
@usableFromInline
final class ConnectableObservableAdapter<Subject: SubjectType>: ConnectionDetaching<Subject.Element>,
    @unchecked Sendable {
    @usableFromInline
    typealias SourceElement = Subject.Observer.Element

    /// The subject, its number and the connection. `subjectID` is incremented
    /// each time a new subject is installed, so that `connect()` notices a
    /// subject replaced while it was not holding the lock, and `refCount()`
    /// knows which connection a subscriber joined. A tuple: see "State is a
    /// tuple" in docs/Architecture.md.
    typealias State = (subject: Subject?, subjectID: Int, connection: MulticastConnection<Subject>?)

    enum ConnectOutcome {
        case existing(MulticastConnection<Subject>)
        case installed
        case retry
    }

    let source: Observable<SourceElement>
    let makeSubject: () -> Subject
    let state: LockedState<State>

    @usableFromInline
    init(site: SiteLiteral, source: Observable<SourceElement>, makeSubject: @escaping () -> Subject) {
        state = LockedState((subject: nil, subjectID: 0, connection: nil))
        self.source = source
        self.makeSubject = makeSubject
        super.init(site: site)
    }

    /// The current subject, created (outside the lock) if there is none.
    func currentSubject() -> (subject: Subject, id: Int) {
        if let current = state.withLock({ state in state.subject.map { ($0, state.subjectID) } }) {
            return current
        }
        let fresh = makeSubject()
        // If another thread installed a subject meanwhile, `fresh` is dropped after
        // the lock is released.
        return state.withLock { state in
            if let subject = state.subject {
                return (subject, state.subjectID)
            }
            state.subject = fresh
            state.subjectID &+= 1
            return (fresh, state.subjectID)
        }
    }

    override var graphRole: GraphRole { .shared }

    override func run(_ observer: AnyObserver<Subject.Element>) -> SubscriptionBase? {
        subscribeToCurrentSubject(observer).subscription
    }

    /// ``ConnectionDetaching``: subscribes `observer` to the current subject and
    /// says which one it was (its `subjectID`).
    override func subscribeToCurrentSubject(_ observer: AnyObserver<Subject.Element>) -> (subscription: SubscriptionBase?, subjectID: Int) {
        let (subject, id) = currentSubject()
        return (subject.asObservable().subscribe(sink: observer), id)
    }

    @usableFromInline
    override func connect() -> Disposable {
        while true {
            if let connection = state.withLock({ $0.connection }) {
                return connection
            }
            let (subject, id) = currentSubject()
            let connection = MulticastConnection(parent: self, observer: subject.asObserver())
            let outcome = state.withLock { state -> ConnectOutcome in
                if let existing = state.connection {
                    return .existing(existing)
                }
                // The subject was replaced (a connection ended meanwhile): start over
                // so that the connection feeds the subject subscribers now get.
                guard state.subject != nil, state.subjectID == id else { return .retry }
                state.connection = connection
                return .installed
            }
            switch outcome {
            case .existing(let existing):
                return existing
            case .retry:
                continue
            case .installed:
                // Outside the lock: the source may emit synchronously, or subscribe
                // to or connect this sequence again.
                SubscriptionRecorder.connecting(self) { connection.subscribe(to: source) }
                return connection
            }
        }
    }

    /// Forgets `connection` (and its subject) if it is the current one. Returns the
    /// subject so that the caller releases it outside the lock.
    func detach(_ connection: MulticastConnection<Subject>) -> Subject? {
        detachLocked(connection)
    }

    /// ``ConnectionDetaching``: `refCount()` detaches a connection it is about to
    /// dispose while it decides to, so that a subscriber arriving meanwhile
    /// subscribes to the next connection's subject.
    override func detachConnection(_ connection: Disposable) -> Any? {
        guard let connection = connection as? MulticastConnection<Subject> else { return nil }
        return detachLocked(connection)
    }

    private func detachLocked(_ connection: MulticastConnection<Subject>) -> Subject? {
        state.withLock { state -> Subject? in
            guard state.connection === connection else { return nil }
            state.connection = nil
            let subject = state.subject
            state.subject = nil
            return subject
        }
    }
}

/// One connection of a ``ConnectableObservableAdapter``: the subscription of the
/// subject to the source.
final class MulticastConnection<Subject: SubjectType>: Cancelable, @unchecked Sendable {
    let parent: ConnectableObservableAdapter<Subject>
    let observer: Subject.Observer
    /// Holds the source subscription (attach/dispose races handled by
    /// ``SubscriptionBase``).
    let subscription = SubscriptionBase()

    init(parent: ConnectableObservableAdapter<Subject>, observer: Subject.Observer) {
        self.parent = parent
        self.observer = observer
    }

    var isDisposed: Bool {
        subscription.isDisposed
    }

    func subscribe(to source: Observable<Subject.Observer.Element>) {
        subscription.setUpstream(source.subscribe(sink: AnyObserver { self.on($0) }))
    }

    func on(_ event: Event<Subject.Observer.Element>) {
        if subscription.isDisposed { return }
        if event.isStopEvent {
            // Detach first, as RxSwift does: a subscriber reacting to the terminal
            // event already sees the sequence disconnected.
            dispose()
        }
        observer.on(event)
    }

    /// Detaches from the parent (so that the next `connect()` makes a new
    /// connection), then unsubscribes from the source.
    func dispose() {
        if subscription.isDisposed { return }
        let subject = parent.detach(self)
        subscription.dispose()
        withExtendedLifetime(subject) {}
    }
}

/// The sink of the selector form of `multicast`: forwards the selector's sequence
/// and owns the connection.
@usableFromInline
final class MulticastSelectorSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline
    let connection = SingleAssignmentDisposable()

    override func disposeResources() {
        connection.dispose()
    }
}

/// What `replay(_:)` returns for a negative buffer size: every subscriber fails.
@usableFromInline
final class FailingConnectableObservable<Element>: ConnectableObservable<Element>, @unchecked Sendable {
    let error: Swift.Error

    @usableFromInline
    init(error: Swift.Error) {
        self.error = error
        super.init()
    }

    override func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        observer.on(.error(error))
        return nil
    }

    override func connect() -> Disposable {
        Disposables.create()
    }
}
