#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Who delivers a serializer's queued work, and how long one call may be held
/// by work that other threads queue: the pure transitions shared by the subjects
/// (``SubjectBase``) and ``ChangeStore``. Each keeps one
/// under its own lock next to its queue; nothing here locks, waits or calls
/// user code (``DeliveryWaits`` does the waiting).
///
/// ## Turns
/// A thread that finds nobody delivering becomes the *deliverer* and starts a
/// *turn*. Work that other threads queue meanwhile either is left to the
/// deliverer or makes its thread wait:
///
/// - the deliverer's own thread (re-entrancy: an observer that sends to the
///   serializer it is called by) always leaves its item: it is delivered later
///   in the same turn;
/// - another thread leaves its item while the turn's *allowance* lasts: about
///   ``targetTurn`` of deliveries, counted in calls from the pace of earlier
///   turns (``recordPace(duration:)``: an item whose observers send more to the
///   same serializer counts with everything it causes);
/// - past the allowance, the thread waits: until a deliverer has taken its
///   item, or until nobody delivers, and then it becomes the deliverer itself.
///
/// The deliverer *owes* the items left to it and keeps delivering until it has
/// taken all of them; items of waiting threads are not owed. When only those
/// are left it ends the turn and the waiting threads take over. So one call
/// delivers at most what was queued before it started (at most one item per
/// waiting thread, when it takes over from them), its own item, the turn's
/// allowance, and what its own deliveries queue re-entrantly; the rest of the
/// work stays with the threads that produce it (back-pressure). Nothing is
/// stranded: every queued item is owed by the deliverer, belongs to a thread
/// that waits for it, or is a debt (below) of a thread that waits for it before
/// its call returns; a turn ends only when nothing owed is left.
///
/// A thread that is itself delivering (an observer of one serializer sending to
/// another) does not wait there: it would hold up its own turn, and two
/// serializers whose observers feed each other would wait for each other. Its
/// item becomes a *debt* (``Arrival/owe(ticket:)``): queued but not owed by the
/// deliverer, and waited for (or delivered) by its thread once that thread
/// delivers nothing any more (``DeliveryWaits``). So it cannot run ahead while
/// other threads deliver its work, and no deliverer is held by it.
///
/// Not bounded yet: serializers whose observers feed each other in a cycle,
/// under sustained load from several threads. The sends caused by another
/// thread's item become debts of the thread that delivers it, and paying them
/// it delivers further items of others (see the Architecture guide).
///
/// Items are numbered in queue order (*tickets*): `taken` counts the items
/// deliverers took out; the item at position `i` of the queue has ticket
/// `taken + i`.
@usableFromInline
struct DeliveryTurn: Sendable {
    /// How long the deliveries of one turn's allowance should take: the bound on
    /// how long one call is held by other threads' work.
    static var targetTurn: Duration { .milliseconds(2) }

    /// The allowance while the pace is not known, and its bounds.
    @usableFromInline
    static var batch: Int { 128 }
    static var allowanceRange: ClosedRange<Int> { 16...4096 }

    /// `true` while a thread delivers.
    @usableFromInline var isDelivering = false
    /// The delivering thread (``currentThreadID()``); 0 while not known (a
    /// subject's inline delivery, see ``adopt(owner:pending:)``).
    @usableFromInline var deliverer: UInt = 0
    /// Items taken out of the queue by deliverers, ever.
    @usableFromInline var taken: UInt64 = 0
    /// The deliverer owes every item with a ticket below this.
    @usableFromInline var owedEnd: UInt64 = 0
    /// Calls of other threads the deliverer still takes on in this turn. Set for
    /// the next turn when one ends (``recordPace(duration:)``), not when one
    /// begins: an uncontended delivery leaves it as it is.
    @usableFromInline var allowance = DeliveryTurn.batch
    /// The allowance this turn began with.
    @usableFromInline var granted = DeliveryTurn.batch
    /// The calls this turn owed when it began: its own, and those queued before
    /// it when it took the queue over (1 for an uncontended start, which leaves
    /// it as the last turn's end set it).
    @usableFromInline var ownCalls = 1
    /// Threads waiting for their item (``check(ticket:thread:intent:)``).
    @usableFromInline var waiters = 0
    /// The smallest ticket a thread waits for (`.max`: none). Once a deliverer
    /// has taken it, the waiting threads are woken (``takeWake()``).
    @usableFromInline var firstWaited = UInt64.max
    /// Waiting threads must be woken: an item they wait for was taken, or the
    /// turn ended.
    @usableFromInline var mustWake = false
    /// The allowance of the next turn: ``targetTurn`` at the measured pace.
    @usableFromInline var nextAllowance = DeliveryTurn.batch
    /// The measured time per call a turn takes on (its deliveries and all they
    /// cause), in nanoseconds (0: not measured).
    @usableFromInline var nanosecondsPerCall = 0

    @inlinable
    init() {}

    /// What a thread that queued an item does next.
    @usableFromInline
    enum Arrival: Equatable {
        /// Deliver: nobody was delivering, this thread's turn has begun.
        case deliver
        /// Return: the deliverer delivers the item.
        case leave
        /// Wait for the item with this ticket
        /// (``DeliveryWaits/awaitTurn(recorded:_:)``), for the deliverer
        /// `recorded` in the wait-for graph (0: not known yet, nothing recorded).
        case wait(ticket: UInt64, recorded: UInt)
        /// Return, but the item is a debt (``DeliveryWaits/owe(_:)``): this thread
        /// delivers a turn of its own, so it waits for the item when that ends;
        /// the deliverer does not owe it.
        case owe(ticket: UInt64)

        /// `true` for ``leave``: the caller has nothing more to do.
        @inlinable
        var isLeave: Bool {
            if case .leave = self { return true }
            return false
        }
    }

    /// `thread` begins a turn, owing the items before `owedEnd`.
    @inlinable
    mutating func begin(_ thread: UInt, owing owedEnd: UInt64) {
        isDelivering = true
        deliverer = thread
        self.owedEnd = owedEnd
    }

    /// `thread` begins a turn with nothing queued (the uncontended path): it owes
    /// nothing yet (between turns, nothing owed is left).
    @inlinable
    mutating func begin(_ thread: UInt) {
        isDelivering = true
        deliverer = thread
    }

    /// A thread is delivering without a turn (a subject's inline operation) and
    /// another thread queued the first of `pending` items: the turn begins on the
    /// delivering thread's behalf (`owner`, 0 if not known).
    @inlinable
    mutating func adopt(owner: UInt, pending: Int) {
        begin(owner, owing: taken &+ UInt64(pending &- 1))
    }

    /// Whether a thread past the allowance may wait for the deliverer
    /// (``DeliveryWaits/waiting(_:for:)``).
    @usableFromInline
    enum Waiting: Equatable {
        /// It waits (the wait is recorded).
        case allowed
        /// It delivers a turn of its own (and the queue has room for debts, or the
        /// deliverer waits for it): the item becomes a debt.
        case deferred
        /// The deliverer waits for it, and it delivers no turn of its own (at most
        /// an inline delivery): the deliverer owes the item.
        case refused
    }

    /// `thread` queued an item, now the last of `pending` queued items. Past the
    /// allowance, `waiting(deliverer, mayDefer)` decides (``Waiting``; not asked
    /// while the deliverer is not known: the thread waits). `mayDefer` is `false`
    /// once the queue holds as many items nobody owes (debts and waiting
    /// threads' items) as an allowance: a thread that takes the queue over then
    /// delivers at most that many before its own item.
    @inlinable
    mutating func arrive(_ thread: UInt, pending: Int, waiting: (_ deliverer: UInt, _ mayDefer: Bool) -> Waiting) -> Arrival {
        let end = taken &+ UInt64(pending)
        if !isDelivering {
            begin(thread, owing: end)
            ownCalls = pending
            return .deliver
        }
        if thread == deliverer {
            owedEnd = end
            return .leave
        }
        if allowance > 0 {
            allowance -= 1
            owedEnd = end
            return .leave
        }
        let unowed = Int(truncatingIfNeeded: end &- Swift.max(owedEnd, taken)) - 1
        switch deliverer == 0 ? .allowed : waiting(deliverer, unowed < nextAllowance) {
        case .allowed:
            break
        case .deferred:
            return .owe(ticket: end &- 1)
        case .refused:
            owedEnd = end
            return .leave
        }
        waiters += 1
        firstWaited = Swift.min(firstWaited, end &- 1)
        return .wait(ticket: end &- 1, recorded: deliverer)
    }

    /// `thread` queued an item that never waits (a removal, which calls no
    /// observer): owed by the deliverer, or delivered by `thread` if nobody
    /// delivers.
    @inlinable
    mutating func arriveOwed(_ thread: UInt, pending: Int) -> Arrival {
        let end = taken &+ UInt64(pending)
        if !isDelivering {
            begin(thread, owing: end)
            ownCalls = pending
            return .deliver
        }
        owedEnd = Swift.max(owedEnd, end)
        return .leave
    }

    /// The deliverer asks how many of the `pending` queued items to take next
    /// (`limit` at most): only owed ones. 0 ends the turn: nothing is queued, or
    /// only items of waiting threads (which take over) and debts (which their
    /// threads deliver).
    @inlinable
    mutating func take(pending: Int, limit: Int = 1) -> Int {
        let owed = owedEnd > taken ? Int(truncatingIfNeeded: owedEnd &- taken) : 0
        let count = Swift.min(pending, limit, owed)
        if count > 0 {
            taken &+= UInt64(count)
            if taken > firstWaited {
                firstWaited = .max
                mustWake = true
            }
            return count
        }
        // `allowance` is left as it was for ``recordPace(duration:)``, which sets
        // it for the next turn.
        isDelivering = false
        deliverer = 0
        if waiters > 0 {
            firstWaited = .max
            mustWake = true
        }
        return 0
    }

    /// Whether waiting threads must be woken (``DeliveryWaits/wake()``, outside
    /// the lock) since the last call.
    @inlinable
    mutating func takeWake() -> Bool {
        defer { mustWake = false }
        return mustWake
    }

    /// A turn that ended took `duration` (from its contended part on): its pace
    /// per call taken on (the allowance used, and the turn's own) sets the next
    /// turns' allowance to about ``targetTurn`` of deliveries. A moving average,
    /// so that one slow turn does not swing it. Every contended turn ends with it
    /// (or ``resetAllowance()``).
    @usableFromInline
    mutating func recordPace(duration: Duration) {
        let calls = Swift.max(1, granted - allowance + ownCalls)
        let nanoseconds = Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
        let pace = Swift.max(1, nanoseconds / calls)
        nanosecondsPerCall = nanosecondsPerCall == 0 ? pace : (3 * nanosecondsPerCall + pace) / 4
        let target = Int(Self.targetTurn.components.attoseconds / 1_000_000_000) + Int(Self.targetTurn.components.seconds) * 1_000_000_000
        let range = Self.allowanceRange
        nextAllowance = Swift.min(range.upperBound, Swift.max(range.lowerBound, target / nanosecondsPerCall))
        resetAllowance()
    }

    /// A contended turn ended without a pace to record: the next one gets its
    /// whole allowance.
    @usableFromInline
    mutating func resetAllowance() {
        allowance = nextAllowance
        granted = nextAllowance
        ownCalls = 1
    }

    /// What a waiting thread does when it looks again.
    @usableFromInline
    enum Intent: Equatable {
        /// Waits on.
        case wait
        /// Stops waiting and leaves its item to the deliverer (which is stalled,
        /// or waits for this thread).
        case giveUp
    }

    /// What a waiting thread finds when it looks again.
    @usableFromInline
    enum Check: Equatable {
        /// Its item was taken, or it stopped waiting (``Intent``).
        case done
        /// Nobody was delivering: this thread's turn has begun.
        case deliver
        /// Still waiting for `deliverer` (0: not known yet), which has taken
        /// `taken` items so far.
        case wait(deliverer: UInt, taken: UInt64)
    }

    /// The thread `thread`, waiting for the item `ticket`, looks again. A thread
    /// paying a debt (`paysDebt`) that begins a turn takes on no other thread's
    /// calls in it: its call already had its turn, and one allowance.
    @inlinable
    mutating func check(ticket: UInt64, thread: UInt, intent: Intent, paysDebt: Bool = false) -> Check {
        if taken > ticket {
            waiters -= 1
            return .done
        }
        if !isDelivering {
            waiters -= 1
            begin(thread, owing: ticket &+ 1)
            ownCalls = Int(truncatingIfNeeded: ticket &+ 1 &- taken)
            if paysDebt {
                allowance = 0
                granted = 0
            }
            return .deliver
        }
        switch intent {
        case .wait:
            firstWaited = Swift.min(firstWaited, ticket)
            return .wait(deliverer: deliverer, taken: taken)
        case .giveUp:
            waiters -= 1
            owedEnd = Swift.max(owedEnd, ticket &+ 1)
            return .done
        }
    }

    /// A thread pays a debt: it waits again for its item `ticket`, unless it was
    /// taken already (`false`).
    @inlinable
    mutating func rewait(ticket: UInt64) -> Bool {
        if taken > ticket { return false }
        waiters += 1
        firstWaited = Swift.min(firstWaited, ticket)
        return true
    }
}

/// Where threads wait for their turn (``DeliveryTurn``), the wait-for graph that
/// keeps waiting from closing a cycle, and the debts of threads that could not
/// wait.
///
/// A waiting thread sleeps until a deliverer takes an item it waits for or ends
/// a turn (``wake()``), then looks at its serializer again. One room for every
/// serializer: waits only happen past a turn's allowance, so a global lock is
/// enough, and a serializer needs no condition variable of its own (creating a
/// subject allocates nothing more). A pthread mutex and condition, not
/// `Synchronization.Mutex`: ThreadSanitizer understands them.
///
/// ## Deliverers do not wait
/// A thread that delivers a turn which other threads had to queue behind (see
/// ``enterTurn()``) does not wait in another serializer: its item there becomes a
/// debt (``owe(_:)``), which it waits for (or delivers) once it delivers no such
/// turn any more (``leaveTurn()``). So two serializers feeding each other from
/// two threads keep both threads delivering, and a debt is paid by a thread that
/// holds up nobody.
///
/// ## Never a cycle
/// Other waits record whom they wait for, and a thread does not wait for a
/// thread that waits for it, directly or through others (a thread delivering
/// inline, before anyone queued behind it, is not known as a deliverer): it
/// leaves its item to that deliverer instead. A deliverer blocked outside
/// Ripple (an observer waiting for a thread that waits here) is not in the
/// graph: a thread whose deliverer takes no item for ``stallLimit`` stops
/// waiting and leaves its item to it. So no wait deadlocks.
@usableFromInline
enum DeliveryWaits {
    final class Room: @unchecked Sendable {
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        let condition: UnsafeMutablePointer<pthread_cond_t>
        /// Incremented by every ``wake()``: a thread sleeps only while it has not
        /// changed since it last looked at its serializer.
        let epoch = Atomic<UInt64>(0)
        /// Guarded by `mutex`: the thread each waiting thread waits for.
        var edges: [UInt: UInt] = [:]

        init() {
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            condition = .allocate(capacity: 1)
            condition.initialize(to: pthread_cond_t())
            pthread_cond_init(condition, nil)
        }

        func withLock<Result>(_ body: () -> Result) -> Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }
    }

    static let room = Room()

    /// What one thread delivers and owes: reached through a thread-specific key,
    /// only on contended paths (never on an inline delivery).
    final class ThreadDeliveries {
        /// Turns this thread delivers that other threads queued behind
        /// (``enterTurn()``).
        var turns = 0
        /// This thread's debts: each waits for (or delivers) one item.
        var debts: [() -> Void] = []
    }

    static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        pthread_key_create(&key) { Unmanaged<ThreadDeliveries>.fromOpaque($0).release() }
        #else
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<ThreadDeliveries>.fromOpaque(pointer).release() }
        }
        #endif
        return key
    }()

    /// The calling thread's ``ThreadDeliveries``.
    static var current: ThreadDeliveries {
        if let pointer = pthread_getspecific(threadKey) {
            return Unmanaged<ThreadDeliveries>.fromOpaque(pointer).takeUnretainedValue()
        }
        let deliveries = ThreadDeliveries()
        pthread_setspecific(threadKey, Unmanaged.passRetained(deliveries).toOpaque())
        return deliveries
    }

    /// How long a waiting thread lets its deliverer take no item before it stops
    /// waiting and leaves its item to it: the deliverer may be blocked outside
    /// Ripple, for example by an observer that waits for this thread.
    static var stallLimit: Duration { .milliseconds(50) }

    /// Lets every waiting thread look at its serializer again. Deliverers call it
    /// (outside their lock) when ``DeliveryTurn/takeWake()`` says so.
    @usableFromInline
    static func wake() {
        room.epoch.add(1, ordering: .releasing)
        room.withLock { _ = pthread_cond_broadcast(room.condition) }
    }

    /// This thread begins delivering a turn other threads queued behind (a
    /// serializer's contended delivery loop): until ``leaveTurn()`` it does not
    /// wait in other serializers.
    @usableFromInline
    static func enterTurn() {
        current.turns += 1
    }

    /// The turn of ``enterTurn()`` ended; once this thread delivers no such turn,
    /// it pays its debts.
    @usableFromInline
    static func leaveTurn() {
        let deliveries = current
        deliveries.turns -= 1
        if deliveries.turns == 0 && !deliveries.debts.isEmpty {
            pay(deliveries)
        }
    }

    /// Whether `waiter` may wait for `deliverer` (if so, the wait is recorded, and
    /// the caller stops waiting with ``stopWaiting(_:)``): not while `waiter`
    /// delivers a turn (see the type's documentation) and the serializer has room
    /// for a debt (`mayDefer`), nor if `deliverer` waits for `waiter`: then its
    /// item is a debt if it delivers a turn, else the deliverer's.
    @usableFromInline
    static func waiting(_ waiter: UInt, for deliverer: UInt, mayDefer: Bool) -> DeliveryTurn.Waiting {
        let delivering = current.turns > 0
        if mayDefer && delivering { return .deferred }
        if startWaiting(waiter, for: deliverer) { return .allowed }
        // A cycle. A delivering thread still pays its debts itself (past the room
        // for debts); another one can only be delivering inline, one item.
        return delivering ? .deferred : .refused
    }


    /// Waits for the turn of an item whose arrival recorded that this thread waits
    /// for `deliverer` (0: nothing recorded). `poll(intent)` looks at the
    /// serializer under its lock (``DeliveryTurn/check(ticket:thread:intent:)``).
    /// Returns `true` if nobody was delivering and this thread must deliver now;
    /// `false` once the item was taken (or left to a deliverer that is stalled
    /// or waits for this thread).
    @usableFromInline
    static func awaitTurn(recorded deliverer: UInt, _ poll: (DeliveryTurn.Intent) -> DeliveryTurn.Check) -> Bool {
        let me = currentThreadID()
        var waitingFor = deliverer
        var intent = DeliveryTurn.Intent.wait
        var lastTaken = UInt64.max
        var lastProgress = ContinuousClock.now
        defer {
            if waitingFor != 0 { stopWaiting(me) }
        }
        while true {
            let seen = room.epoch.load(ordering: .acquiring)
            switch poll(intent) {
            case .done:
                return false
            case .deliver:
                return true
            case .wait(let deliverer, let taken):
                let now = ContinuousClock.now
                if taken != lastTaken {
                    lastTaken = taken
                    lastProgress = now
                } else if now - lastProgress > stallLimit {
                    intent = .giveUp
                    continue
                }
                if deliverer != waitingFor {
                    if waitingFor != 0 {
                        stopWaiting(me)
                        waitingFor = 0
                    }
                    if deliverer != 0 {
                        // The deliverer waits for this thread, directly or through others.
                        guard startWaiting(me, for: deliverer) else {
                            intent = .giveUp
                            continue
                        }
                        waitingFor = deliverer
                    }
                }
                if deliverer == 0 {
                    // Between an inline delivery and its turn: not user code, brief.
                    sched_yield()
                } else {
                    sleep(whileEpochIs: seen, atMost: .milliseconds(5))
                }
            }
        }
    }

    /// Records a debt of this thread (``DeliveryTurn/Arrival/owe(ticket:)``):
    /// `pay` waits for the item, or delivers it. Paid as soon as this thread
    /// delivers no turn (``leaveTurn()``).
    @usableFromInline
    static func owe(_ pay: @escaping () -> Void) {
        current.debts.append(pay)
    }

    private static func pay(_ deliveries: ThreadDeliveries) {
        // Taken out first: paying may deliver a turn, which pays what it owes in turn.
        while !deliveries.debts.isEmpty {
            let debts = deliveries.debts
            deliveries.debts = []
            for pay in debts { pay() }
        }
    }

    /// Waits until `isDone` returns `true` (checked again after every ``wake()``),
    /// recording that this thread waits for `thread`; used where waiting cannot
    /// be given up (a deliverer at the gate of a subscriber's initial change, see
    /// ``ChangeStore``). If `thread` waits for this one, it is not recorded: that
    /// thread stops waiting at once (see ``awaitTurn(recorded:_:)``).
    static func wait(for thread: UInt, until isDone: () -> Bool) {
        let me = currentThreadID()
        let recorded = startWaiting(me, for: thread)
        defer {
            if recorded { stopWaiting(me) }
        }
        while true {
            let seen = room.epoch.load(ordering: .acquiring)
            if isDone() { return }
            sleep(whileEpochIs: seen, atMost: .milliseconds(5))
        }
    }

    /// Sleeps until ``wake()`` changes the epoch from `seen`, or `timeout` passes.
    static func sleep(whileEpochIs seen: UInt64, atMost timeout: Duration) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = Int(now.tv_nsec) + Int(timeout.components.seconds) * 1_000_000_000
            + Int(timeout.components.attoseconds / 1_000_000_000)
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + total / 1_000_000_000
        deadline.tv_nsec = total % 1_000_000_000
        pthread_mutex_lock(room.mutex)
        if room.epoch.load(ordering: .acquiring) == seen {
            _ = pthread_cond_timedwait(room.condition, room.mutex, &deadline)
        }
        pthread_mutex_unlock(room.mutex)
    }

    /// Records that `waiter` waits for `owner`, unless `owner` waits for `waiter`
    /// (directly or through other threads): then records nothing and returns
    /// `false`. Checking and recording under one lock means that of two threads
    /// about to wait for each other, the second always sees the first.
    static func startWaiting(_ waiter: UInt, for owner: UInt) -> Bool {
        room.withLock {
            var thread = owner
            // Each thread waits for at most one other, so a walk longer than the
            // number of waiters is itself a cycle (not involving `waiter`).
            for _ in 0...room.edges.count {
                if thread == waiter { return false }
                guard let next = room.edges[thread] else {
                    room.edges[waiter] = owner
                    return true
                }
                thread = next
            }
            return false
        }
    }

    static func stopWaiting(_ waiter: UInt) {
        _ = room.withLock { room.edges.removeValue(forKey: waiter) }
    }
}

/// A serializer whose queue is delivered in turns (``SubjectBase``,
/// ``ChangeStore``): what a thread does after queueing an item, waiting for an
/// item and paying a debt, the same for each.
@usableFromInline
protocol TurnDelivering: AnyObject {
    /// Under the serializer's lock: ``DeliveryTurn/check(ticket:thread:intent:paysDebt:)``,
    /// counting this thread as the deliverer when its turn begins.
    func checkTurn(ticket: UInt64, thread: UInt, intent: DeliveryTurn.Intent, paysDebt: Bool) -> DeliveryTurn.Check
    /// Under the serializer's lock: ``DeliveryTurn/rewait(ticket:)``.
    func rewaitTurn(ticket: UInt64) -> Bool
    /// Delivers the queue: this thread's turn has begun.
    func deliverTurn()
}

extension TurnDelivering {
    /// After an item was queued: delivers the queue if this thread's turn has
    /// begun, or waits for the item (or for its turn), or records it as a debt.
    @usableFromInline
    func follow(_ arrival: DeliveryTurn.Arrival) {
        switch arrival {
        case .leave:
            return
        case .owe(let ticket):
            owe(ticket)
        case .deliver:
            deliverTurn()
        case .wait(let ticket, let recorded):
            waitForTurn(ticket, recorded: recorded)
        }
    }

    /// Waits until the item `ticket` has been taken, or delivers the queue once
    /// nobody else does (``DeliveryWaits/awaitTurn(recorded:_:)``).
    func waitForTurn(_ ticket: UInt64, recorded: UInt, paysDebt: Bool = false) {
        let thread = currentThreadID()
        let mustDeliver = DeliveryWaits.awaitTurn(recorded: recorded) { intent in
            checkTurn(ticket: ticket, thread: thread, intent: intent, paysDebt: paysDebt)
        }
        if mustDeliver {
            deliverTurn()
        }
    }

    /// This thread, delivering a turn of its own, queued the item `ticket` past
    /// the allowance: a debt, waited for once that turn has ended
    /// (``DeliveryWaits``).
    func owe(_ ticket: UInt64) {
        DeliveryWaits.owe { [self] in
            if rewaitTurn(ticket: ticket) {
                waitForTurn(ticket, recorded: 0, paysDebt: true)
            }
        }
    }
}
