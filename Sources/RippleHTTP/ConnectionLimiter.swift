import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which requests may run, per host: at most `limit` at once, the others wait
/// in the order they asked. A value type with no lock and no threads; the
/// ``ConnectionLimiter`` owns the lock and runs what this decides.
struct ConnectionSlots: Equatable {
    /// Requests allowed to run at once per host (`Int.max`: no limit).
    let limit: Int
    /// Requests holding a slot, per host.
    private(set) var running: [String: Int] = [:]
    /// Requests waiting for a slot, per host, oldest first.
    private(set) var waiting: [String: [UInt64]] = [:]

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Request `id` asks for a slot on `host`: `true` if it got one (it runs
    /// now), `false` if it waits.
    mutating func acquire(_ id: UInt64, host: String) -> Bool {
        let count = running[host, default: 0]
        if count < limit, waiting[host, default: []].isEmpty {
            running[host] = count + 1
            return true
        }
        waiting[host, default: []].append(id)
        return false
    }

    /// Request `id` no longer wants a slot: `true` if it was waiting (it held
    /// none), `false` if it was not (it holds one, or never asked).
    mutating func withdraw(_ id: UInt64, host: String) -> Bool {
        guard var queue = waiting[host], let index = queue.firstIndex(of: id) else { return false }
        queue.remove(at: index)
        waiting[host] = queue.isEmpty ? nil : queue
        return true
    }

    /// How many times a slot on each host came free while the host had
    /// requests running or waiting (the entry goes when it has none): a
    /// waiting request tells a queue that moves from one that does not.
    private(set) var freed: [String: UInt64] = [:]

    /// A request on `host` gave its slot back: the waiting request that gets
    /// it, if any.
    mutating func release(host: String) -> UInt64? {
        if var queue = waiting[host], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[host] = queue.isEmpty ? nil : queue
            freed[host, default: 0] &+= 1
            return next        // the slot passes on; the running count stays
        }
        let count = running[host, default: 0]
        running[host] = count > 1 ? count - 1 : nil
        freed[host] = count > 1 ? freed[host, default: 0] &+ 1 : nil
        return nil
    }
}

/// Keeps at most ``ConnectionSlots/limit`` requests per host in the
/// transport's hands (`URLSession`'s, AsyncHTTPClient's), so that a request
/// waits in Ripple's queue (where its timeout has not started and disposing
/// it sends nothing), not in the transport's.
final class ConnectionLimiter: @unchecked Sendable {
    private let lock = PlatformLock()
    private var slots: ConnectionSlots
    private var grants: [UInt64: @Sendable () -> Void] = [:]
    private var nextID: UInt64 = 0

    init(limit: Int) {
        slots = ConnectionSlots(limit: limit)
    }

    /// The key of `url`'s host: scheme, host and port (what a connection is
    /// to).
    static func hostKey(_ url: URL?) -> String {
        guard let url else { return "" }
        return "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port.map(String.init) ?? "")"
    }

    /// A new request identifier.
    func makeID() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        nextID &+= 1
        return nextID
    }

    /// Runs `granted` when request `id` gets a slot on `host`: at once (on this
    /// thread) or later (on the thread of the ``release(host:)`` that frees
    /// one). Never under the lock.
    func acquire(_ id: UInt64, host: String, granted: @escaping @Sendable () -> Void) {
        lock.lock()
        let now = slots.acquire(id, host: host)
        if !now {
            grants[id] = granted
        }
        lock.unlock()
        if now {
            granted()
        }
    }

    /// Takes waiting request `id` out of the queue; `false` if it was not
    /// waiting (its grant has run or is about to: it holds a slot).
    func withdraw(_ id: UInt64, host: String) -> Bool {
        lock.lock()
        let withdrawn = slots.withdraw(id, host: host)
        if withdrawn {
            grants[id] = nil
        }
        lock.unlock()
        return withdrawn
    }

    /// Gives a slot back; the next waiting request on `host` (if any) gets it.
    func release(host: String) {
        lock.lock()
        let next = slots.release(host: host)
        let granted = next.flatMap { grants.removeValue(forKey: $0) }
        lock.unlock()
        granted?()
    }

    /// How many times a slot on `request`'s host came free since the host
    /// last had no request running or waiting.
    func freedCount(for request: URLRequest) -> UInt64 {
        let host = Self.hostKey(request.url)
        lock.lock()
        defer { lock.unlock() }
        return slots.freed[host, default: 0]
    }

    /// The current slots (for tests).
    var snapshot: ConnectionSlots {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
