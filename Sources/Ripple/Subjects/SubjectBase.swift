#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch

/// An identifier of the calling thread, used to recognise re-entrant calls.
@_alwaysEmitIntoClient
@inline(__always)
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}

/// Holds a subject observer so that the subject can drop it (see
/// ``SubjectSubscription/detach()``) without reference counting on the event path.
///
/// The observer is an operator's (or a user's) ``AnyObserver``, or the handlers
/// of `subscribe(onNext:onError:onCompleted:onDisposed:)`, which the subject then
/// calls directly: no observer closure of their own in between (one closure
/// context fewer per subscription, two thunks fewer per event).
@usableFromInline
final class ObserverBox<Element> {
    @usableFromInline
    let observer: AnyObserver<Element>?
    @usableFromInline
    let handlers: SubscribeHandlers<Element>?

    @_alwaysEmitIntoClient
    init(_ observer: AnyObserver<Element>) {
        self.observer = observer
        self.handlers = nil
    }

    @_alwaysEmitIntoClient
    init(_ handlers: SubscribeHandlers<Element>) {
        self.observer = nil
        self.handlers = handlers
    }

    /// Hands `event` to the handlers or the observer.
    @_alwaysEmitIntoClient
    @inline(__always)
    func on(_ event: Event<Element>) {
        // Optional chaining, not `if let`: a binding copies the handlers (four
        // retains and releases per event).
        if handlers?.on(event) == nil {
            observer.unsafelyUnwrapped.on(event)
        }
    }
}

/// A subscription to a subject: what `subscribe` returns.
@usableFromInline
final class SubjectSubscription<Element>: SubscriptionBase, @unchecked Sendable {
    /// The observer, until the subject lets go of this subscription. Owner-only;
    /// an unmanaged reference, so that reading it costs no retain/release.
    @usableFromInline
    @exclusivity(unchecked)
    final var observerBox: Unmanaged<ObserverBox<Element>>?

    /// The subject this subscription belongs to. Weak, as in RxSwift: a subject
    /// nobody holds any more is deallocated together with its observers.
    @usableFromInline
    weak var subject: SubjectBase<Element>?

    /// The key in the subject's observer bag. Owner-only (see ``SubjectBase``).
    @usableFromInline
    @exclusivity(unchecked)
    final var key: BagKey?

    /// Set when the subscribing thread sends this subscription what a new
    /// subscriber receives first, and the events that reach it until it has
    /// (see `CatchingUpObserver`): how many values the subject will have
    /// delivered (buffered) when it adds the subscription, unless its owner
    /// delivers one more meanwhile (``BehaviorSubject``, ``ReplaySubject``). Set
    /// as the subscription is queued, read by the owner.
    @usableFromInline
    @exclusivity(unchecked)
    final var catchingUpAt: Int?

    @_alwaysEmitIntoClient
    init(observer: AnyObserver<Element>, subject: SubjectBase<Element>) {
        self.observerBox = Unmanaged.passRetained(ObserverBox(observer))
        self.subject = subject
        super.init()
    }

    @_alwaysEmitIntoClient
    init(box: ObserverBox<Element>, subject: SubjectBase<Element>) {
        self.observerBox = Unmanaged.passRetained(box)
        self.subject = subject
        super.init()
    }

    deinit {
        observerBox?.release()
    }

    /// Sends `event` to the observer unless this subscription was disposed or
    /// detached. Owner-only.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func send(_ event: Event<Element>) {
        if !isDisposed, let box = observerBox {
            box._withUnsafeGuaranteedRef { $0.on(event) }
        }
    }

    /// Drops the observer. The subject calls this when it lets go of the
    /// subscription (removal, termination, `dispose()`, deinit), which breaks the
    /// cycle observer -> downstream -> this subscription even if nobody ever
    /// disposes it. Owner-only, never while a delivery to it is running.
    @usableFromInline
    final func detach() {
        let box = observerBox
        observerBox = nil
        box?.release()
    }

    /// Delivery stopped when `dispose()` set the disposed flag; now remove the
    /// observer from the subject.
    @usableFromInline
    override func disposeResources() {
        subject?.submitRemove(self)
    }
}

/// The observer of a subscription made on another thread while the subject was
/// delivering, until that thread has sent it what a new subscriber receives first
/// (a ``BehaviorSubject``'s value, a ``ReplaySubject``'s replay): the subscribing
/// thread sends that itself, before `subscribe` returns, rather than wait for the
/// delivering thread, which may be waiting for it (an observer blocked until
/// another thread has read a relay's value). Meanwhile the subject adds the
/// subscription in its turn, and the events that reach it are *parked* here; the
/// subscribing thread sends them after the first values, until none is left. So
/// the observer receives its events in order and never two at once, and neither
/// thread waits for the other. The same scheme as ``ChangeStore``'s subscribers
/// that catch up.
@usableFromInline
final class CatchingUpObserver<Element>: @unchecked Sendable {
    /// The subscription's own observer.
    let target: ObserverBox<Element>
    /// Whether the subscribing thread still sends, and the events parked for it.
    let state = LockedState<(catchingUp: Bool, parked: RingBuffer<Event<Element>>)>((true, RingBuffer()))

    @usableFromInline
    init(target: ObserverBox<Element>) {
        self.target = target
    }

    /// Puts a catching-up observer in front of `subscription`'s own observer (a
    /// subscription not queued yet, so not shared: its observer can be
    /// replaced). `nil` when it has no observer.
    @usableFromInline
    static func install(on subscription: SubjectSubscription<Element>) -> CatchingUpObserver? {
        guard let box = subscription.observerBox else { return nil }
        let observer = CatchingUpObserver(target: box.takeUnretainedValue())
        subscription.observerBox = Unmanaged.passRetained(ObserverBox(AnyObserver { observer.on($0) }))
        box.release()
        return observer
    }

    /// The subject's delivery (owner-only): parked while the subscribing thread
    /// catches up, then straight to the observer.
    func on(_ event: Event<Element>) {
        let isParked = state.withLock { state -> Bool in
            guard state.catchingUp else { return false }
            state.parked.append(event)
            return true
        }
        if !isParked {
            target.on(event)
        }
    }

    /// On the subscribing thread: sends the values `first`, then the parked
    /// events until none is left; nothing once `subscription` is disposed.
    @usableFromInline
    func catchUp(_ subscription: SubscriptionBase, first: [Element]) {
        for element in first where !subscription.isDisposed {
            target.on(.next(element))
        }
        while let event = state.withLock({ state -> Event<Element>? in
            guard let event = state.parked.popFirst() else {
                state.catchingUp = false
                return nil
            }
            return event
        }) {
            if !subscription.isDisposed {
                target.on(event)
            }
        }
    }
}

/// Work for a subject, serialized by ``SubjectBase``: an `event`; else a
/// `subscription` to add (`adds`) or to remove; else, with neither, the subject's
/// disposal. A tuple rather than a generic enum with payloads, which would have
/// value-witness functions of its own in every app (about 4 KB,
/// docs/Architecture.md, "State is a tuple").
@usableFromInline
typealias SubjectOperation<Element> = (event: Event<Element>?, subscription: SubjectSubscription<Element>?, adds: Bool)

/// The engine shared by all subjects.
///
/// ## Serialization
/// Everything that touches a subject's observers (an event, a subscription, an
/// unsubscription, `dispose()`) is an *operation*, and operations run one at a
/// time. A thread that finds the subject idle runs its operation inline (one
/// compare-and-swap to enter, one to leave: the common, uncontended path). A
/// thread that finds it busy never waits: it queues the operation and returns,
/// and the thread that owns the subject runs it before leaving. So:
///
/// * events reach each observer one at a time, in order, even when several threads
///   feed the subject;
/// * an observer that sends an event to the subject it listens to (re-entrancy)
///   does not recurse: the new event is delivered to every observer after the
///   current one has reached them all;
/// * no thread ever blocks on a subject, so two subjects feeding each other from
///   two threads cannot deadlock.
///
/// An observer that subscribes to, or disposes its subscription of, the subject it
/// is being called by is served inline, as in RxSwift: a new subscriber to a
/// `BehaviorSubject` receives the current value before `subscribe` returns. So
/// does a `BehaviorSubject` or `ReplaySubject` subscriber on another thread
/// during a delivery: it catches up on its own thread (`CatchingUpObserver`).
///
/// ## Owner-only state
/// Properties marked *owner-only* are read and written only by the thread that
/// currently owns the subject; the atomic `wip` counter orders successive owners.
///
/// You do not use this class directly: it is the common superclass of
/// ``PublishSubject``, ``BehaviorSubject``, ``ReplaySubject`` and ``AsyncSubject``.
public class SubjectBase<Element>: Observable<Element>, Cancelable, @unchecked Sendable {
    /// Work-in-progress count: 0 when idle; otherwise 1 + the operations queued
    /// but not yet taken into account by the owner.
    @usableFromInline
    @exclusivity(unchecked) final var wip: AtomicCell<Int>

    /// The owning thread while an operation runs, 0 otherwise.
    @usableFromInline
    @exclusivity(unchecked) final var owner: AtomicCell<UInt>

    /// The owner whose turn is ending (0: none): its ``DeliveryTurn`` is over
    /// and it finishes what is queued, while producers on other threads
    /// wait before queuing more events (``waitForTurnEnd()``). Cleared by that
    /// owner after it left, so that it never clears a later owner's mark.
    @exclusivity(unchecked) final var turnEnding = AtomicCell<UInt>(0)

    /// How many queued operations owners have run (stored by the owner, read by
    /// producers waiting for it, ``ThrottleWaits``): a slow owner moves it, a
    /// stalled one does not.
    @exclusivity(unchecked) final var progress = AtomicCell<Int>(0)

    /// The path of an error a caller that found the subject busy queued (see
    /// ``ErrorTraces``): written and read under `pending`'s lock. A subject
    /// terminates once, so one is enough; kept beside the queue rather than in
    /// the queued operation, whose every copy would carry the extra word.
    @exclusivity(unchecked)
    final var queuedErrorTrail: ErrorTraces.Trail?

    /// Operations queued by callers that found the subject busy.
    let pending = LockedState(RingBuffer<SubjectOperation<Element>>())

    /// Owner-only: the observers (each a `SubjectSubscription<Element>`), in
    /// subscription order.
    ///
    /// Stored as the non-generic ``SubscriptionBase`` so that the bag's code is
    /// compiled once, for a concrete type: subscribing and unsubscribing run in the
    /// subject's unspecialised generic code (they are reached through `run` and
    /// `dispose()`, dynamically dispatched), where a bag of a generic element type
    /// looked up its type metadata at run time on every call. Read them back with
    /// ``subscription(_:)``.
    @usableFromInline
    @exclusivity(unchecked)
    final var observers: Bag<Unmanaged<SubscriptionBase>>

    /// Owner-only: subscriptions removed while a delivery loop was running; released
    /// when the loop ends.
    @usableFromInline
    @exclusivity(unchecked)
    final var retired: [Unmanaged<SubscriptionBase>]

    /// Owner-only: how many delivery loops are running (re-entrant subscriptions run
    /// inside a loop).
    @usableFromInline
    @exclusivity(unchecked)
    final var deliveryDepth: Int

    /// Owner-only: `true` after a terminal event or `dispose()`; events are ignored.
    @usableFromInline
    @exclusivity(unchecked)
    final var isStopped: Bool

    /// Owner-only: the terminal event, replayed to late subscribers.
    @exclusivity(unchecked)
    final var stopEvent: Event<Element>?

    /// Owner-only: `true` after `dispose()`.
    @exclusivity(unchecked)
    final var isSubjectDisposed = false

    /// Readable from any thread.
    @exclusivity(unchecked) final var observerCount = AtomicCell<Int>(0)

    @exclusivity(unchecked) final var disposedFlag = AtomicCell<Bool>(false)

    /// Set when a terminal event is queued behind a delivery: the subject will
    /// stop, so ``hasObservers`` is `false` from then on, as when the event is
    /// delivered at once. Readable from any thread.
    @exclusivity(unchecked) final var endQueued = AtomicCell<Bool>(false)

    /// `true` for a subject another observable uses internally (the one inside
    /// `share`): the subscription graph shows that observable instead. Set
    /// before the subject is shared.
    @usableFromInline
    @exclusivity(unchecked)
    final var isGraphHidden: Bool

    /// What the subscription graph calls this subject when it is part of
    /// another type (a relay). Set before the subject is shared.
    @exclusivity(unchecked)
    final var graphLabel: SiteLiteral = .none

    @_alwaysEmitIntoClient
    override init() {
        wip = AtomicCell(0)
        owner = AtomicCell(0)
        observers = Bag()
        retired = []
        deliveryDepth = 0
        isStopped = false
        isGraphHidden = false
        super.init(kind: .subject, site: .none)
    }

    override var graphRole: GraphRole { isGraphHidden ? .hidden : .shared }

    override var graphOperators: [SiteLiteral] { [graphLabel] }

    deinit {
        for subscription in observers.removeAll() + retired {
            Self.withSubscription(subscription) { $0.detach() }
            subscription.release()
        }
    }

    /// Calls `body` with an entry of ``observers`` or ``retired`` as the
    /// subscription it is, without retaining it. Only `SubjectSubscription<Element>`s
    /// are ever stored there, so the cast is unchecked (it compiles to nothing).
    @_alwaysEmitIntoClient
    @inline(__always)
    static func withSubscription<Result>(
        _ entry: Unmanaged<SubscriptionBase>, _ body: (SubjectSubscription<Element>) -> Result
    ) -> Result {
        entry._withUnsafeGuaranteedRef { body(unsafeDowncast($0, to: SubjectSubscription<Element>.self)) }
    }

    // MARK: Public surface shared by the subjects

    /// `true` if at least one observer is subscribed. `false` as soon as a
    /// terminal event was sent or ``dispose()`` called, even while another
    /// thread's delivery holds them back, as in RxSwift.
    public final var hasObservers: Bool {
        AtomicCell.load(&observerCount, ordering: .acquiring) > 0
            && !AtomicCell.load(&endQueued, ordering: .acquiring)
            && !AtomicCell.load(&disposedFlag, ordering: .acquiring)
    }

    /// `true` once `dispose()` has been called.
    public final var isDisposed: Bool {
        AtomicCell.load(&disposedFlag, ordering: .acquiring)
    }

    /// Releases every observer without notifying them; afterwards events are ignored
    /// and new subscribers receive `RxError.disposed`.
    public final func dispose() {
        if AtomicCell.exchange(&disposedFlag, true, ordering: .acquiringAndReleasing) { return }
        submitDispose()
    }

    // MARK: Serialization

    /// Tries to become the owner without waiting.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func tryAcquire() -> Bool {
        if AtomicCell.compareExchange(&wip, expected: 0, desired: 1, ordering: .acquiring).exchanged {
            AtomicCell.store(&owner, currentThreadID(), ordering: .relaxed)
            return true
        }
        return false
    }

    /// Tries to become the owner without waiting, without recording the owning
    /// thread. For subjects whose subscriptions need no synchronous replay
    /// (`PublishSubject`, `AsyncSubject`): a re-entrant subscribe or dispose is then
    /// simply queued behind the current delivery, which gives the same result (a new
    /// subscriber does not receive the event being delivered; a disposed one is
    /// skipped at once because delivery checks its flag).
    @_alwaysEmitIntoClient
    @inline(__always)
    final func tryAcquireUntracked() -> Bool {
        AtomicCell.compareExchange(&wip, expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Gives up ownership after an inline operation, first running whatever other
    /// callers queued meanwhile.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func release() {
        AtomicCell.store(&owner, 0, ordering: .relaxed)
        if !AtomicCell.compareExchange(&wip, expected: 1, desired: 0, ordering: .releasing).exchanged {
            drain(missed: 1)
        }
    }

    /// Handles an event sent to the subject: inline if the subject is idle, queued
    /// otherwise. `tracked` records the owning thread (needed by subjects that
    /// replay to new subscribers synchronously, see ``tryAcquireUntracked()``).
    @_alwaysEmitIntoClient
    final func emit(_ event: Event<Element>, tracked: Bool) {
        guard tracked ? tryAcquire() : tryAcquireUntracked() else {
            if case .error(let error) = event {
                // The path the error had on this thread goes with it to the
                // thread that delivers it (see ``ErrorTraces``).
                enqueue((event, nil, false), errorTrail: ErrorTraces.trail(of: error))
            } else {
                enqueue((event, nil, false))
            }
            return
        }
        process(event)
        release()
    }

    /// Disposes of the subject now if it is idle or the caller already owns it
    /// (`dispose()` from one of its observers), otherwise queues the disposal for
    /// the owner.
    @usableFromInline
    final func submitDispose() {
        if tryAcquire() {
            performDispose()
            release()
        } else if AtomicCell.load(&owner, ordering: .relaxed) == currentThreadID() {
            performDispose()
        } else {
            enqueue((nil, nil, false))
        }
    }

    /// Adds `subscription` now if the subject is idle or the caller already owns
    /// it (a re-entrant subscribe), otherwise queues it for the owner, without
    /// building the operation on the inline paths (a ``SubjectOperation`` holds an
    /// optional generic `Event`: building one in unspecialised code costs a
    /// run-time metadata lookup).
    @usableFromInline
    final func submitAdd(_ subscription: SubjectSubscription<Element>) {
        if tryAcquire() {
            performAdd(subscription)
            release()
        } else if AtomicCell.load(&owner, ordering: .relaxed) == currentThreadID() {
            performAdd(subscription)
        } else {
            enqueueAdd(subscription)
        }
    }

    /// Out of line, so that the operation's type metadata is only looked up on
    /// this (contended) path. A subject that sends new subscribers values first
    /// overrides it, so that the subscribing thread receives them before
    /// `subscribe` returns (``BehaviorSubject``, ``ReplaySubject``).
    @inline(never)
    @usableFromInline
    func enqueueAdd(_ subscription: SubjectSubscription<Element>) {
        enqueue((nil, subscription, true))
    }

    /// Out of line, like ``enqueueAdd(_:)``.
    @inline(never)
    @usableFromInline
    final func enqueueRemove(_ subscription: SubjectSubscription<Element>) {
        enqueue((nil, subscription, false))
    }

    /// Removes `subscription` now or queues its removal, like ``submitAdd(_:)``.
    @usableFromInline
    final func submitRemove(_ subscription: SubjectSubscription<Element>) {
        if tryAcquire() {
            removeObserver(subscription)
            release()
        } else if AtomicCell.load(&owner, ordering: .relaxed) == currentThreadID() {
            removeObserver(subscription)
        } else {
            enqueueRemove(subscription)
        }
    }

    /// Queues `operation`; becomes the owner and drains if the subject went idle.
    /// `whileQueuing` runs under the queue's lock as the operation is queued.
    @usableFromInline
    final func enqueue(
        _ operation: SubjectOperation<Element>, errorTrail: ErrorTraces.Trail? = nil, whileQueuing: (() -> Void)? = nil
    ) {
        if operation.event != nil, AtomicCell.load(&turnEnding, ordering: .relaxed) != 0 {
            waitForTurnEnd()
        }
        // `wip` counts the operation under the lock, before `whileQueuing` reads
        // anything: from then on no other thread can take the subject inline, so
        // what `whileQueuing` reads can only change in the owner's turn, by the
        // operation in progress and those queued before this one.
        let (queued, isOwner) = pending.withLock { queue -> (Int, Bool) in
            let isOwner = AtomicCell.add(&wip, 1, ordering: .acquiringAndReleasing).oldValue == 0
            if let errorTrail {
                queuedErrorTrail = errorTrail
            }
            if operation.event?.isStopEvent == true {
                AtomicCell.store(&endQueued, true, ordering: .releasing)
            }
            queue.append(operation)
            queuing(operation)
            whileQueuing?()
            return (queue.count, isOwner)
        }
        if isOwner {
            AtomicCell.store(&owner, currentThreadID(), ordering: .relaxed)
            drain(missed: 1)
        } else if queued > SubjectBase.highWaterMark {
            throttle()
        }
    }

    /// Operations queued beyond which producers on other threads are slowed down.
    @usableFromInline
    static var highWaterMark: Int { 1024 }

    /// Soft back-pressure: a producer that finds the owner far behind yields the CPU
    /// until the queue has drained to half the high-water mark, for at most about
    /// 10 ms per call, so that a few threads emitting in a tight loop do not grow
    /// the queue without limit.
    ///
    /// Waiting must never close a cycle: when two subjects feed each other from
    /// two threads, each thread owns one subject and sends to the other, and each
    /// would wait for the other until the time limit, for every event (about a
    /// hundred events a second). So a producer records whom it waits for in
    /// ``ThrottleWaits`` and does not wait for a thread that waits for it,
    /// directly or through others. When the owner is not known (a subject
    /// delivering an event inline does not record its owner, see
    /// ``tryAcquireUntracked()``), the producer waits only while the queue keeps
    /// shrinking. No thread ever waits for a thread that is waiting for it, so
    /// none can wait long; the 10 ms bound remains for an owner blocked elsewhere.
    @usableFromInline
    final func throttle() {
        if AtomicCell.load(&owner, ordering: .relaxed) == currentThreadID() { return }
        ThrottleWaits.yield {
            let count = pending.withLock { $0.count }
            if count <= SubjectBase.highWaterMark / 2 || AtomicCell.load(&wip, ordering: .acquiring) == 0 { return nil }
            return (AtomicCell.load(&progress, ordering: .relaxed), AtomicCell.load(&owner, ordering: .relaxed))
        }
    }

    /// A producer on another thread found the owner's turn ending: it waits until
    /// the owner has finished what is queued and left (so that its event is
    /// delivered by the next owner, possibly itself), for at most about 10 ms,
    /// and never for a thread that waits for it (``ThrottleWaits``). After the
    /// wait it queues its event as usual, so nothing is lost or stranded. If the
    /// owner made no progress meanwhile, the turn's mark is cleared: later
    /// producers do not wait for an owner that is stalled.
    @inline(never)
    @usableFromInline
    final func waitForTurnEnd() {
        if AtomicCell.load(&owner, ordering: .relaxed) == currentThreadID() { return }
        ThrottleWaits.waitForTurnEnd(marked: &turnEnding) {
            guard AtomicCell.load(&turnEnding, ordering: .acquiring) != 0, AtomicCell.load(&wip, ordering: .acquiring) != 0 else { return nil }
            return (AtomicCell.load(&progress, ordering: .relaxed), AtomicCell.load(&owner, ordering: .relaxed))
        }
    }

    /// Runs what other threads queued, until nothing is left.
    ///
    /// The owner's turn is bounded: a thread that became the owner (its own
    /// `onNext`, `subscribe` or `dispose` found work queued behind it) must not be
    /// held for as long as other threads keep producing. After 1 024 operations
    /// or about 2 ms (``DeliveryTurn``) the turn *ends*: producers on other
    /// threads stop queuing events and wait (``waitForTurnEnd()``), the owner
    /// finishes what is already queued and leaves, and the next event is
    /// delivered by the next owner. So one call runs at most a turn plus what
    /// was queued when it ended (about ``highWaterMark`` more, the back-pressure
    /// bound), plus the events of producers whose 10 ms wait ran out.
    @usableFromInline
    final func drain(missed initial: Int) {
        var missed = initial
        let me = currentThreadID()
        var turn = DeliveryTurn(deliverer: me, progress: &progress)
        while true {
            AtomicCell.store(&owner, me, ordering: .relaxed)
            while let operation = pending.withLock({ $0.popFirst() }) {
                perform(operation)
                turn.delivered(progress: &progress, mark: &turnEnding)
            }
            AtomicCell.store(&owner, 0, ordering: .relaxed)
            let remaining = AtomicCell.subtract(&wip, missed, ordering: .acquiringAndReleasing).newValue
            if remaining == 0 {
                // Waiting producers stopped waiting when `wip` reached 0.
                turn.finish(mark: &turnEnding)
                return
            }
            missed = remaining
        }
    }

    /// Owner-only: runs one operation.
    @usableFromInline
    final func perform(_ operation: SubjectOperation<Element>) {
        if let event = operation.event {
            if case .error = event, let trail = pending.withLock({ _ in queuedErrorTrail }) {
                ErrorTraces.resuming(trail) { process(event) }
            } else {
                process(event)
            }
        } else if let subscription = operation.subscription {
            if operation.adds {
                performAdd(subscription)
            } else {
                removeObserver(subscription)
            }
        } else {
            performDispose()
        }
    }

    // MARK: Owner-only helpers

    /// Owner-only: attaches a new subscription, unless it was disposed meanwhile.
    @usableFromInline
    final func performAdd(_ subscription: SubjectSubscription<Element>) {
        if subscription.isDisposed { return }
        if isSubjectDisposed {
            rejectDisposed(subscription)
            return
        }
        subscribeOwned(subscription)
    }

    /// Owner-only: a subscription to a disposed subject gets `RxError.disposed`.
    /// Out of line (like every path here that builds or reads a generic `Event`),
    /// so that the event's type metadata is only looked up when it is needed, not
    /// on every subscription.
    @inline(never)
    @usableFromInline
    final func rejectDisposed(_ subscription: SubjectSubscription<Element>) {
        subscription.send(.error(RxError.disposed(object: self)))
        subscription.detach()
    }

    /// Called as `operation` is queued, under the queue's lock (so in the order
    /// the operations will run), on the queuing thread: a subclass records what
    /// its readers must see before the operation runs. Nothing by default.
    @usableFromInline
    func queuing(_ operation: SubjectOperation<Element>) {}

    /// Owner-only: handles an event. Subclasses override.
    @usableFromInline
    func process(_ event: Event<Element>) {
        fatalError("SubjectBase.process(_:) is abstract")
    }

    /// Owner-only: attaches a new subscription (replaying what the subject replays).
    /// The default attaches it, or sends it the terminal event if the subject is
    /// stopped.
    @usableFromInline
    func subscribeOwned(_ subscription: SubjectSubscription<Element>) {
        // `isStopped` first, the event out of line: reading the optional generic
        // event costs a run-time metadata lookup in this unspecialised code, and
        // the subject is rarely stopped when somebody subscribes.
        if isStopped && sendStopEvent(to: subscription) { return }
        addObserver(subscription)
    }

    /// Owner-only: sends the terminal event to a late subscriber and lets it go.
    /// Returns `false` if there is none.
    @inline(never)
    @usableFromInline
    final func sendStopEvent(to subscription: SubjectSubscription<Element>) -> Bool {
        guard let stopEvent else { return false }
        subscription.send(stopEvent)
        subscription.detach()
        return true
    }

    /// Owner-only: forgets the subject's own state on `dispose()`. Subclasses
    /// override to drop their value or buffer.
    @usableFromInline
    func clearOnDispose() {}

    @usableFromInline
    final func addObserver(_ subscription: SubjectSubscription<Element>) {
        subscription.key = observers.insert(Unmanaged.passRetained(subscription as SubscriptionBase))
        AtomicCell.store(&observerCount, observers.count, ordering: .releasing)
    }

    @usableFromInline
    final func removeObserver(_ subscription: SubjectSubscription<Element>) {
        guard let key = subscription.key else { return }
        subscription.key = nil
        guard let removed = observers.remove(forKey: key, compact: deliveryDepth == 0) else { return }
        AtomicCell.store(&observerCount, observers.count, ordering: .releasing)
        if deliveryDepth > 0 {
            retired.append(removed)
        } else {
            Self.withSubscription(removed) { $0.detach() }
            removed.release()
        }
    }

    /// Owner-only: sends `.next` to every observer present when the loop starts.
    /// Observers added meanwhile (re-entrant subscriptions) are not visited;
    /// observers removed meanwhile are skipped.
    @_alwaysEmitIntoClient
    final func deliver(_ event: Event<Element>) {
        deliveryDepth += 1
        let end = observers.values.count
        var index = 0
        // `index < observers.values.count`: a re-entrant `dispose()` empties the bag.
        while index < end && index < observers.values.count {
            if let subscription = observers.values[index] {
                Self.withSubscription(subscription) { $0.send(event) }
            }
            index += 1
        }
        deliveryDepth -= 1
        if deliveryDepth == 0 && (!retired.isEmpty || observers.tombstones > 16) {
            finishDelivery()
        }
    }

    @usableFromInline
    final func finishDelivery() {
        let toRelease = retired
        retired = []
        if observers.tombstones * 2 > observers.keys.count {
            observers.compact()
        }
        for subscription in toRelease {
            Self.withSubscription(subscription) { $0.detach() }
            subscription.release()
        }
    }

    /// Owner-only: stops the subject with a terminal event and sends it to every
    /// observer, then releases them.
    @usableFromInline
    final func terminate(with event: Event<Element>) {
        isStopped = true
        stopEvent = event
        let subscriptions = observers.removeAll()
        AtomicCell.store(&observerCount, 0, ordering: .releasing)
        deliveryDepth += 1
        for entry in subscriptions {
            Self.withSubscription(entry) { subscription in
                subscription.key = nil
                subscription.send(event)
            }
        }
        deliveryDepth -= 1
        retired.append(contentsOf: subscriptions)
        if deliveryDepth == 0 {
            finishDelivery()
        }
    }

    @usableFromInline
    final func performDispose() {
        isStopped = true
        isSubjectDisposed = true
        stopEvent = nil
        let subscriptions = observers.removeAll()
        AtomicCell.store(&observerCount, 0, ordering: .releasing)
        for subscription in subscriptions {
            Self.withSubscription(subscription) { $0.key = nil }
        }
        clearOnDispose()
        if deliveryDepth == 0 {
            for subscription in subscriptions {
                Self.withSubscription(subscription) { $0.detach() }
                subscription.release()
            }
        } else {
            retired.append(contentsOf: subscriptions)
        }
    }

    /// Subscribing is an operation like any other (see the type's documentation).
    @inlinable
    override final func run(_ observer: AnyObserver<Element>) -> SubscriptionBase? {
        let subscription = SubjectSubscription(observer: observer, subject: self)
        submitAdd(subscription)
        return subscription
    }

    /// ``run(_:)`` for an observer or handlers already in their box.
    @inlinable
    override final func run(box: ObserverBox<Element>) -> SubscriptionBase? {
        let subscription = SubjectSubscription(box: box, subject: self)
        submitAdd(subscription)
        return subscription
    }
}

/// The length of a deliverer's turn: how much a thread that delivers for other
/// threads (a subject's owner, an ``ObservableArray``'s deliverer, a
/// `SerializingSink`'s) delivers before its turn ends, by count and by time
/// (see docs/Architecture.md, "The deliverer's turn"). One per drain loop.
@usableFromInline
struct DeliveryTurn {
    /// Operations delivered for others after which the turn ends (a power of
    /// two: ``SerializingSink`` marks a turn every `length` events with a mask).
    @usableFromInline
    static var length: Int { 1024 }

    @usableFromInline
    let deliverer: UInt

    /// The queue's progress count, as this deliverer last stored it.
    @usableFromInline
    var performed: Int

    /// Operations delivered in this turn.
    @usableFromInline
    var count: Int

    /// When the 16th operation was delivered (the clock is read every 16), in
    /// ``monotonicNanoseconds()``.
    @usableFromInline
    var started: UInt64?

    /// The turn is over and marked; the deliverer finishes what is queued.
    @usableFromInline
    var isEnding: Bool

    @_alwaysEmitIntoClient
    init(deliverer: UInt, progress: UnsafeMutablePointer<AtomicCell<Int>>) {
        count = 0
        isEnding = false
        self.deliverer = deliverer
        performed = AtomicCell.load(progress, ordering: .relaxed)
    }

    /// Counts one delivered operation: publishes the queue's `progress` (what
    /// waiting threads watch, ``ThrottleWaits``) and marks the turn's end in
    /// `mark` after ``length`` operations or about 2 ms of delivering,
    /// whichever comes first. If a waiting thread cleared the mark (it saw no
    /// progress for its whole wait), this thread runs again: a new turn starts,
    /// and ends, so a mark cleared by mistake costs one turn.
    @_alwaysEmitIntoClient
    @inline(__always)
    mutating func delivered(progress: UnsafeMutablePointer<AtomicCell<Int>>, mark: UnsafeMutablePointer<AtomicCell<UInt>>) {
        performed &+= 1
        AtomicCell.store(progress, performed, ordering: .relaxed)
        if isEnding {
            if AtomicCell.load(mark, ordering: .relaxed) == 0 {
                isEnding = false
                count = 0
                started = nil
            }
        } else if isOver() {
            isEnding = true
            AtomicCell.store(mark, deliverer, ordering: .releasing)
        }
    }

    /// After the deliverer stopped: clears its mark, never a later deliverer's.
    @_alwaysEmitIntoClient
    func finish(mark: UnsafeMutablePointer<AtomicCell<UInt>>) {
        if isEnding {
            _ = AtomicCell.compareExchange(mark, expected: deliverer, desired: 0, ordering: .releasing)
        }
    }

    @_alwaysEmitIntoClient
    @inline(__always)
    mutating func isOver() -> Bool {
        count &+= 1
        if count >= Self.length { return true }
        return count & 15 == 0 && timeIsUp()
    }

    @usableFromInline
    @inline(never)
    mutating func timeIsUp() -> Bool {
        let now = monotonicNanoseconds()
        guard let started else {
            self.started = now
            return false
        }
        return now &- started > 2_000_000
    }
}

/// A monotonic clock in nanoseconds, for the turns' and waits' time limits:
/// `DispatchTime`, because `ContinuousClock` needs macOS 13 / iOS 16.
@usableFromInline
func monotonicNanoseconds() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// Soft back-pressure for the queues that let no thread block (the subjects',
/// ``ChangeStore``'s), and its wait-for graph: which producer thread waits for
/// which owner thread. Only touched on the back-pressure path (a queue past its
/// high-water mark), so one global lock is enough. A pthread mutex
/// (``LockedState``), not `Synchronization.Mutex`: ThreadSanitizer does not see
/// the futex the latter waits on, and reports the accesses it orders as races.
enum ThrottleWaits {
    private static let edges = LockedState<[UInt: UInt]>([:])

    /// How many waits ran into the time limit with the owner's progress count
    /// unchanged since they began (the owner made no progress), since the
    /// process started.
    /// A figure for tests that check throughput without a clock: it is the
    /// signature of the stall the cycle rule prevents (two queues feeding each
    /// other from two threads, each thread waiting for the other: every wait ran
    /// out that way), whereas an owner that is merely slow makes progress. It is
    /// counted only on that slow path.
    @exclusivity(unchecked) nonisolated(unsafe) static var stalledWaits = AtomicCell<Int>(0)

    /// Yields the CPU while `poll` returns the owner's progress (a count of the
    /// operations it has run, which changes as it works) and which thread it is
    /// (0 when not known), and stops when it returns `nil`, or after about
    /// 10 ms.
    ///
    /// Waiting must never close a cycle: when two queues feed each other from two
    /// threads, each thread drains one and sends to the other, and each would
    /// wait for the other until the time limit, for every event (about a hundred
    /// events a second). So the caller does not wait for a thread that waits for
    /// it, directly or through others (``startWaiting(_:for:)``). When the owner
    /// is not known, it waits only while the owner makes progress. No thread
    /// waits long for a thread waiting for it; the 10 ms bound remains for an
    /// owner blocked elsewhere.
    /// Returns `true` if it stopped at the time limit with the owner having made
    /// no progress since the wait began: the owner is stalled (blocked, maybe on
    /// something the caller holds). Progress is counted, not read off the
    /// queue's length: producers whose waits ran out keep adding to the queue,
    /// and a queue that was empty when the wait began cannot shrink, so its
    /// length took a slow but working owner for a stalled one.
    @discardableResult
    static func yield(whileBehind poll: () -> (progress: Int, owner: UInt)?) -> Bool {
        let me = currentThreadID()
        let start = monotonicNanoseconds()
        var lastProgressTime = start
        var firstProgress: Int?
        var lastProgress = 0
        var waitingFor: UInt = 0
        defer {
            if waitingFor != 0 { stopWaiting(me) }
        }
        while let (progress, current) = poll() {
            if firstProgress == nil {
                firstProgress = progress
                lastProgress = progress
            }
            let now = monotonicNanoseconds()
            if now &- start > 10_000_000 {
                let stalled = progress == firstProgress
                if stalled { AtomicCell.add(&stalledWaits, 1, ordering: .relaxed) }
                return stalled
            }
            if progress != lastProgress {
                lastProgress = progress
                lastProgressTime = now
            }
            if current != waitingFor {
                if waitingFor != 0 {
                    stopWaiting(me)
                    waitingFor = 0
                }
                if current != 0 && current != me {
                    // The owner waits for this thread, directly or through others.
                    guard startWaiting(me, for: current) else { return false }
                    waitingFor = current
                }
            }
            if current == 0 && now &- lastProgressTime > 100_000 { return progress == firstProgress }
            sched_yield()
        }
        return false
    }

    /// Waits (``yield(whileBehind:)``) for the turn marked in `mark` to end, and
    /// clears the mark if the owner made no progress meanwhile: it may be blocked
    /// on a lock this thread holds, and later producers must not each pay the
    /// full wait for a turn that cannot end. The compare-and-swap never clears a
    /// later turn's mark.
    static func waitForTurnEnd(
        marked mark: UnsafeMutablePointer<AtomicCell<UInt>>, whileBehind poll: () -> (progress: Int, owner: UInt)?
    ) {
        let ending = AtomicCell.load(mark, ordering: .acquiring)
        if yield(whileBehind: poll) && ending != 0 {
            _ = AtomicCell.compareExchange(mark, expected: ending, desired: 0, ordering: .releasing)
        }
    }

    /// Records that `waiter` waits for `owner`, unless `owner` waits for `waiter`
    /// (directly or through other threads): then records nothing and returns
    /// `false`. Checking and recording under one lock means that of two threads
    /// about to wait for each other, the second always sees the first.
    static func startWaiting(_ waiter: UInt, for owner: UInt) -> Bool {
        edges.withLock { edges in
            var thread = owner
            // Each thread waits for at most one other, so a walk longer than the
            // number of waiters is itself a cycle (not involving `waiter`).
            for _ in 0...edges.count {
                if thread == waiter { return false }
                guard let next = edges[thread] else {
                    edges[waiter] = owner
                    return true
                }
                thread = next
            }
            return false
        }
    }

    static func stopWaiting(_ waiter: UInt) {
        _ = edges.withLock { $0.removeValue(forKey: waiter) }
    }
}
