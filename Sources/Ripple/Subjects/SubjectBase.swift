import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An identifier of the calling thread, used to recognise re-entrant calls.
@inlinable
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
@usableFromInline
final class ObserverBox<Element> {
    @usableFromInline
    let observer: AnyObserver<Element>

    @inlinable
    init(_ observer: AnyObserver<Element>) {
        self.observer = observer
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

    @inlinable
    init(observer: AnyObserver<Element>, subject: SubjectBase<Element>) {
        self.observerBox = Unmanaged.passRetained(ObserverBox(observer))
        self.subject = subject
        super.init()
    }

    deinit {
        observerBox?.release()
    }

    /// Sends `event` to the observer unless this subscription was disposed or
    /// detached. Owner-only.
    @inlinable
    @inline(__always)
    final func send(_ event: Event<Element>) {
        if !isDisposed, let box = observerBox {
            box._withUnsafeGuaranteedRef { $0.observer.on(event) }
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

/// Work for a subject, serialized by ``SubjectBase``.
@usableFromInline
enum SubjectOperation<Element> {
    case event(Event<Element>)
    case add(SubjectSubscription<Element>)
    case remove(SubjectSubscription<Element>)
    case dispose
}

/// The engine shared by all subjects.
///
/// ## Serialization
/// Everything that touches a subject's observers (an event, a subscription, an
/// unsubscription, `dispose()`) is an *operation*, and operations run one at a
/// time. A thread that finds the subject idle runs its operation inline (one
/// compare-and-swap to enter, one to leave: the common, uncontended path). A
/// thread that finds it busy queues the operation; the thread that owns the
/// subject runs it, within the bounds of its turn (`DeliveryTurn`): past the
/// turn's allowance of other threads' calls, a caller waits until its operation
/// has run, or until nobody delivers and it runs the queue itself. So:
///
/// * events reach each observer one at a time, in order, even when several threads
///   feed the subject;
/// * an observer that sends an event to the subject it listens to (re-entrancy)
///   does not recurse: the new event is delivered to every observer after the
///   current one has reached them all;
/// * one call is never held for long by other threads' events: it delivers at
///   most what was queued before it, plus one turn's allowance;
/// * two subjects feeding each other from two threads cannot deadlock: a thread
///   that is delivering never waits, and no wait closes a cycle
///   (`DeliveryWaits`).
///
/// An observer that subscribes to, or disposes its subscription of, the subject it
/// is being called by is served inline, as in RxSwift: a new subscriber to a
/// `BehaviorSubject` receives the current value before `subscribe` returns.
///
/// ## Owner-only state
/// Properties marked *owner-only* are read and written only by the thread that
/// currently owns the subject; the atomic `wip` counter orders successive owners.
///
/// You do not use this class directly: it is the common superclass of
/// ``PublishSubject``, ``BehaviorSubject``, ``ReplaySubject`` and ``AsyncSubject``.
public class SubjectBase<Element>: Observable<Element>, Cancelable, @unchecked Sendable {
    /// Work-in-progress count: 0 when idle; otherwise the operations queued,
    /// plus 1 while a thread owns the subject. Changed only under ``pending``'s
    /// lock, except by an owner's inline operation (0 → 1 → 0), so the owner
    /// leaves with one compare-and-swap when nothing was queued meanwhile.
    @usableFromInline
    final let wip = Atomic<Int>(0)

    /// The owning thread while an operation runs, 0 otherwise.
    @usableFromInline
    let owner = Atomic<UInt>(0)

    /// Operations queued by callers that found the subject busy, and the turn
    /// that delivers them.
    @usableFromInline
    let pending = LockedState(Pending())

    /// What ``pending`` guards.
    @usableFromInline
    struct Pending {
        @usableFromInline var queue = RingBuffer<SubjectOperation<Element>>()
        @usableFromInline var turn = DeliveryTurn()

        @inlinable
        init() {}
    }

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
    final var observers = Bag<Unmanaged<SubscriptionBase>>()

    /// Owner-only: subscriptions removed while a delivery loop was running; released
    /// when the loop ends.
    @usableFromInline
    @exclusivity(unchecked)
    final var retired: [Unmanaged<SubscriptionBase>] = []

    /// Owner-only: how many delivery loops are running (re-entrant subscriptions run
    /// inside a loop).
    @usableFromInline
    @exclusivity(unchecked)
    final var deliveryDepth = 0

    /// Owner-only: `true` after a terminal event or `dispose()`; events are ignored.
    @usableFromInline
    @exclusivity(unchecked)
    final var isStopped = false

    /// Owner-only: the terminal event, replayed to late subscribers.
    @usableFromInline
    @exclusivity(unchecked)
    final var stopEvent: Event<Element>?

    /// Owner-only: `true` after `dispose()`.
    @usableFromInline
    @exclusivity(unchecked)
    final var isSubjectDisposed = false

    /// Readable from any thread.
    @usableFromInline
    let observerCount = Atomic<Int>(0)

    @usableFromInline
    let disposedFlag = Atomic<Bool>(false)

    /// `true` for a subject another observable uses internally (the one inside
    /// `share`): the subscription graph shows that observable instead. Set
    /// before the subject is shared.
    @usableFromInline
    @exclusivity(unchecked)
    final var isGraphHidden = false

    /// What the subscription graph calls this subject when it is part of
    /// another type (a relay). Set before the subject is shared.
    @usableFromInline
    @exclusivity(unchecked)
    final var graphLabel: SiteLiteral = .none

    @inlinable
    override init() {
        super.init()
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
    @inlinable
    @inline(__always)
    static func withSubscription<Result>(
        _ entry: Unmanaged<SubscriptionBase>, _ body: (SubjectSubscription<Element>) -> Result
    ) -> Result {
        entry._withUnsafeGuaranteedRef { body(unsafeDowncast($0, to: SubjectSubscription<Element>.self)) }
    }

    // MARK: Public surface shared by the subjects

    /// `true` if at least one observer is subscribed.
    public final var hasObservers: Bool {
        observerCount.load(ordering: .acquiring) > 0
    }

    /// `true` once `dispose()` has been called.
    public final var isDisposed: Bool {
        disposedFlag.load(ordering: .acquiring)
    }

    /// Releases every observer without notifying them; afterwards events are ignored
    /// and new subscribers receive `RxError.disposed`.
    public final func dispose() {
        if disposedFlag.exchange(true, ordering: .acquiringAndReleasing) { return }
        submit(.dispose)
    }

    // MARK: Serialization

    /// Tries to become the owner without waiting.
    @inlinable
    @inline(__always)
    final func tryAcquire() -> Bool {
        if wip.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            owner.store(currentThreadID(), ordering: .relaxed)
            return true
        }
        return false
    }

    /// Gives up ownership after an inline operation, first running whatever other
    /// callers queued meanwhile.
    @inlinable
    @inline(__always)
    final func release() {
        owner.store(0, ordering: .relaxed)
        if !wip.compareExchange(expected: 1, desired: 0, ordering: .releasing).exchanged {
            drain()
        }
    }

    /// Handles an event sent to the subject: inline if the subject is idle, queued
    /// otherwise.
    @inlinable
    final func emit(_ event: Event<Element>) {
        guard tryAcquire() else {
            enqueue(.event(event))
            return
        }
        process(event)
        release()
    }

    /// Runs `operation` now if the subject is idle or the caller already owns it
    /// (re-entrant subscribe/unsubscribe), otherwise queues it for the owner.
    @usableFromInline
    final func submit(_ operation: SubjectOperation<Element>) {
        if tryAcquire() {
            perform(operation)
            release()
            return
        }
        switch operation {
        case .event, .dispose:
            // Re-entrant events are queued too: they must not overtake the event
            // being delivered. So is a re-entrant dispose(): as in RxSwift, the
            // event being delivered still reaches the remaining observers.
            break
        case .add, .remove:
            if owner.load(ordering: .relaxed) == currentThreadID() {
                perform(operation)
                return
            }
        }
        enqueue(operation)
    }

    /// `submit(.add(subscription))` without building the operation on the inline
    /// paths (`SubjectOperation<Element>` is a generic enum: building one in
    /// unspecialised code costs a run-time metadata lookup).
    @usableFromInline
    final func submitAdd(_ subscription: SubjectSubscription<Element>) {
        if tryAcquire() {
            performAdd(subscription)
            release()
        } else if owner.load(ordering: .relaxed) == currentThreadID() {
            performAdd(subscription)
        } else {
            enqueueAdd(subscription)
        }
    }

    /// Out of line, so that the operation's type metadata is only looked up on
    /// this (contended) path.
    @inline(never)
    @usableFromInline
    final func enqueueAdd(_ subscription: SubjectSubscription<Element>) {
        enqueue(.add(subscription))
    }

    /// Out of line, like ``enqueueAdd(_:)``.
    @inline(never)
    @usableFromInline
    final func enqueueRemove(_ subscription: SubjectSubscription<Element>) {
        enqueue(.remove(subscription))
    }

    /// `submit(.remove(subscription))`, likewise.
    @usableFromInline
    final func submitRemove(_ subscription: SubjectSubscription<Element>) {
        if tryAcquire() {
            removeObserver(subscription)
            release()
        } else if owner.load(ordering: .relaxed) == currentThreadID() {
            removeObserver(subscription)
        } else {
            enqueueRemove(subscription)
        }
    }

    /// Queues `operation` for the thread that owns the subject, or runs the queue
    /// (this thread's turn, see ``DeliveryTurn``): at once if nobody owns the
    /// subject, after waiting if the owner's turn has taken on its allowance.
    /// Removals and `dispose()` never wait: they call no observer.
    @usableFromInline
    final func enqueue(_ operation: SubjectOperation<Element>) {
        let me = currentThreadID()
        let mayWait: Bool
        switch operation {
        case .event, .add: mayWait = true
        case .remove, .dispose: mayWait = false
        }
        let arrival = pending.withLock { pending -> DeliveryTurn.Arrival in
            pending.queue.append(operation)
            let others = wip.add(1, ordering: .acquiringAndReleasing).oldValue
            // `others` counts the owner (1) and the operations queued before this
            // one: equal to their number, the subject is owned by a thread
            // running an operation inline, without a turn yet.
            if !pending.turn.isDelivering && others == pending.queue.count {
                pending.turn.adopt(owner: owner.load(ordering: .relaxed), pending: pending.queue.count)
            }
            let arrival = mayWait
                ? pending.turn.arrive(me, pending: pending.queue.count, waiting: { DeliveryWaits.waiting(me, for: $0, mayDefer: $1) })
                : pending.turn.arriveOwed(me, pending: pending.queue.count)
            if arrival == .deliver {
                // This thread owns the subject now (it was idle, or its last
                // deliverer ended its turn leaving waiting threads' operations).
                wip.add(1, ordering: .relaxed)
            }
            return arrival
        }
        follow(arrival)
    }

    @usableFromInline
    final func checkTurn(ticket: UInt64, thread: UInt, intent: DeliveryTurn.Intent, paysDebt: Bool) -> DeliveryTurn.Check {
        pending.withLock { pending in
            let check = pending.turn.check(ticket: ticket, thread: thread, intent: intent, paysDebt: paysDebt)
            if check == .deliver { wip.add(1, ordering: .relaxed) }
            return check
        }
    }

    @usableFromInline
    final func rewaitTurn(ticket: UInt64) -> Bool {
        pending.withLock { $0.turn.rewait(ticket: ticket) }
    }

    @usableFromInline
    final func deliverTurn() {
        drain()
    }

    /// Runs queued operations until the turn has run every one it owes (see
    /// ``DeliveryTurn``), then gives up ownership, waking the threads that wait
    /// for their operations. Called by the owner: after an inline operation when
    /// others queued some meanwhile, or when its turn begins.
    @usableFromInline
    final func drain() {
        let me = currentThreadID()
        owner.store(me, ordering: .relaxed)
        DeliveryWaits.enterTurn()
        // The pace of this turn sets the next turns' allowance.
        let start = ContinuousClock.now
        while true {
            var wakes = false
            let operation = pending.withLock { pending -> SubjectOperation<Element>? in
                // A turn adopted on behalf of an inline operation learns its thread here.
                pending.turn.deliverer = me
                let taken = pending.turn.take(pending: pending.queue.count)
                wakes = pending.turn.takeWake()
                if taken == 1 {
                    wip.subtract(1, ordering: .relaxed)
                    return pending.queue.popFirst()
                }
                pending.turn.recordPace(duration: ContinuousClock.now - start)
                owner.store(0, ordering: .relaxed)
                // The owner's unit; what is left (if anything) belongs to waiting
                // threads, one of which takes over.
                wip.subtract(1, ordering: .releasing)
                return nil
            }
            if wakes { DeliveryWaits.wake() }
            guard let operation else {
                DeliveryWaits.leaveTurn()
                return
            }
            perform(operation)
        }
    }

    /// Owner-only: runs one operation.
    @usableFromInline
    final func perform(_ operation: SubjectOperation<Element>) {
        switch operation {
        case .event(let event):
            process(event)
        case .add(let subscription):
            performAdd(subscription)
        case .remove(let subscription):
            removeObserver(subscription)
        case .dispose:
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
        observerCount.store(observers.count, ordering: .releasing)
    }

    @usableFromInline
    final func removeObserver(_ subscription: SubjectSubscription<Element>) {
        guard let key = subscription.key else { return }
        subscription.key = nil
        guard let removed = observers.remove(forKey: key, compact: deliveryDepth == 0) else { return }
        observerCount.store(observers.count, ordering: .releasing)
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
    @inlinable
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
        observerCount.store(0, ordering: .releasing)
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
        observerCount.store(0, ordering: .releasing)
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
}

extension SubjectBase: TurnDelivering {}
