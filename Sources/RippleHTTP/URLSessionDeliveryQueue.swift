import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Whether the thread that reads the network may hand the delegate queue one
/// more call, or must wait for the calls already handed over: the decision
/// behind ``URLSessionDeliveryQueue``. A value with no lock and no clock (the
/// time is passed in, in seconds).
///
/// The reading waits while `bound` calls are pending, or `relaxedBound`
/// while one of Ripple's own calls into the session (a cancel, a new task)
/// waits for FoundationNetworking's work queue: the reading may then run
/// ahead, so that it can catch up with the server and the call get its turn
/// sooner, and memory stays bounded all the same. It does not wait once the
/// delegate queue has finished nothing for `stallTimeout` seconds (something
/// may be waiting, through code Ripple does not see, for the reading thread:
/// it stops waiting until the delegate queue moves again, rather than risk a
/// deadlock).
struct DeliveryBacklog: Sendable {
    /// The most calls pending before the reading waits; 0: it never waits.
    let bound: Int
    /// The bound while one of Ripple's calls into the session waits.
    let relaxedBound: Int
    /// How long the delegate queue may finish nothing before the reading
    /// stops waiting for it.
    let stallTimeout: TimeInterval
    /// Calls handed over and not finished.
    private(set) var pending = 0
    /// Ripple's calls into the session in progress (starting or cancelling a
    /// task), which need the reading thread.
    private(set) var sessionCalls = 0
    /// When the delegate queue last finished a call (or started to have
    /// calls pending).
    private(set) var lastProgress: TimeInterval = 0

    init(bound: Int, relaxedBound: Int? = nil, stallTimeout: TimeInterval) {
        self.bound = max(0, bound)
        self.relaxedBound = max(self.bound, relaxedBound ?? self.bound)
        self.stallTimeout = stallTimeout
    }

    /// The bound that applies now.
    var currentBound: Int { sessionCalls > 0 ? relaxedBound : bound }

    /// Whether a call arriving at `now` waits (then wait until
    /// ``waitDeadline`` at most, and ask again).
    func mustWait(now: TimeInterval) -> Bool {
        bound > 0 && pending >= currentBound && now < waitDeadline
    }

    /// When a wait gives up if nothing finishes.
    var waitDeadline: TimeInterval { lastProgress + stallTimeout }

    /// A call was handed over.
    mutating func enqueued(now: TimeInterval) {
        if pending == 0 { lastProgress = now }
        pending += 1
    }

    /// A call finished on the delegate queue: `true` if a waiting reader may
    /// go on.
    mutating func finished(now: TimeInterval) -> Bool {
        pending -= 1
        lastProgress = now
        return pending < currentBound
    }

    /// One of Ripple's calls into the session begins: the bound is relaxed.
    mutating func beginSessionCall() {
        sessionCalls += 1
    }

    mutating func endSessionCall() {
        sessionCalls -= 1
    }
}

/// The delegate queue of the sessions ``URLSessionHTTPClient`` creates: a
/// serial `OperationQueue` that gives FoundationNetworking back-pressure.
///
/// FoundationNetworking (Linux) reads the network on its own work queue and
/// hands each piece of a body (at most 16 KiB, libcurl's write size) to the
/// delegate queue with `addOperation`, without waiting: a consumer slower
/// than the network, or a gzip body that inflates faster than it is
/// delivered, piles the pieces up in the queue, without bound (a 1 GiB gzip
/// bomb: 1.15 GB resident). This queue makes `addOperation` wait, on
/// FoundationNetworking's thread, while ``DeliveryBacklog/bound`` pieces
/// (64: 1 MiB) are pending, so that libcurl stops reading and TCP slows the
/// server down: a slow consumer slows the reading (measured: a consumer
/// taking 2 ms per 16 KiB piece, 5 s of a fast stream: 43 MB resident
/// throughout, against 614 MB and growing with a plain queue).
///
/// Everything Ripple asks of the session (create, resume or cancel a task)
/// needs FoundationNetworking's work queue, which a waiting `addOperation`
/// holds: those calls go through ``callSession(_:)`` on a queue of their own
/// (never the delegate queue, which must keep draining), and while one waits
/// the bound is relaxed to ``relaxedBound`` pieces.
///
/// On Apple platforms the queue never waits (``DeliveryBacklog/bound`` is
/// 0): URLSession's own flow control applies there.
final class URLSessionDeliveryQueue: OperationQueue, @unchecked Sendable {
    /// 64 pieces of at most 16 KiB: 1 MiB.
    static let defaultBound = 64
    /// While a call into the session waits: 1 024 pieces, 16 MiB.
    static let relaxedBound = 1_024
    /// A consumer may spend up to this long on one piece before the reading
    /// stops waiting for it.
    static let stallTimeout: TimeInterval = 1

    private let condition = NSCondition()
    private var backlog: DeliveryBacklog
    /// Where Ripple's calls into the session run (create, resume, cancel).
    let control: DispatchQueue

    init(name: String, bound: Int) {
        backlog = DeliveryBacklog(
            bound: bound, relaxedBound: bound > 0 ? URLSessionDeliveryQueue.relaxedBound : 0, stallTimeout: URLSessionDeliveryQueue.stallTimeout)
        control = DispatchQueue(label: name + ".control")
        super.init()
        self.name = name
        maxConcurrentOperationCount = 1
    }

    private static func now() -> TimeInterval {
        TimeInterval(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// Hands `block` to the queue; waits first, on FoundationNetworking's
    /// thread, while the delegate queue is behind (see the type's
    /// documentation). Never waits on the delegate queue itself.
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        condition.lock()
        if OperationQueue.current !== self {
            var now = URLSessionDeliveryQueue.now()
            while backlog.mustWait(now: now) {
                _ = condition.wait(until: Date(timeIntervalSinceNow: backlog.waitDeadline - now))
                now = URLSessionDeliveryQueue.now()
            }
        }
        backlog.enqueued(now: URLSessionDeliveryQueue.now())
        condition.unlock()
        super.addOperation { [self] in
            block()
            condition.lock()
            if backlog.finished(now: URLSessionDeliveryQueue.now()) {
                condition.signal()
            }
            condition.unlock()
        }
    }

    /// Runs `body` (a call into the session) on ``control``, later, with the
    /// bound relaxed meanwhile.
    func callSession(_ body: @escaping @Sendable () -> Void) {
        control.async { [self] in
            condition.lock()
            backlog.beginSessionCall()
            condition.broadcast()
            condition.unlock()
            body()
            condition.lock()
            backlog.endSessionCall()
            condition.unlock()
        }
    }

    /// The number of calls handed over and not finished (for tests).
    var pendingCalls: Int {
        condition.lock()
        defer { condition.unlock() }
        return backlog.pending
    }
}
