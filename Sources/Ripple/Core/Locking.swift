#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A non-recursive lock on the platform's own primitive (`os_unfair_lock` on Apple
/// platforms, a `pthread_mutex_t` elsewhere).
///
/// Ripple uses it rather than `Synchronization.Mutex` for two reasons: `Mutex`
/// exists on Apple platforms only from macOS 15 / iOS 18 on, where Ripple
/// supports macOS 10.15 / iOS 13; and on Linux, ThreadSanitizer understands
/// `pthread_mutex_lock` but not the futex-based `Mutex`, and Ripple's stress
/// tests must run clean under `--sanitize=thread`. The lock lives in its own
/// allocation, never moved (an `os_unfair_lock` must not be copied once used).
/// Lock-free paths use ``AtomicCell`` (C11 atomics, which TSan understands).
/// It is `package` so that every module of the package (RippleHTTP, RippleCocoa,
/// RippleTest, ...) locks with it too, never with Foundation's `NSLock`.
@usableFromInline
package final class PlatformLock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline
    let pointer: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline
    let pointer: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    @_alwaysEmitIntoClient
    package init() {
        #if canImport(Darwin)
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: os_unfair_lock())
        #else
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        pthread_mutex_init(pointer, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(pointer)
        #endif
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    @_alwaysEmitIntoClient
    package func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(pointer)
        #else
        pthread_mutex_lock(pointer)
        #endif
    }

    @_alwaysEmitIntoClient
    package func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(pointer)
        #else
        pthread_mutex_unlock(pointer)
        #endif
    }

    @_alwaysEmitIntoClient
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Mutable state guarded by a lock, for the slow paths (subscription bookkeeping,
/// buffers) where a lock is simpler than a lock-free protocol.
///
/// The rule everywhere in Ripple: no user code (observers, closures passed to
/// operators, `dispose()` of foreign disposables) runs while a `LockedState` is
/// held, so a lock can never be re-entered or taken in the wrong order through user
/// code.
@usableFromInline
package final class LockedState<State>: @unchecked Sendable {
    @usableFromInline
    let lock: PlatformLock

    /// Accessed only inside ``withLock(_:)``: the lock already makes every access
    /// exclusive (a nested `withLock` on the same lock would deadlock before it
    /// could overlap), so the run-time exclusivity check, about 100 instructions
    /// per access, is left out.
    @usableFromInline
    @exclusivity(unchecked)
    var state: State

    @_alwaysEmitIntoClient
    package init(_ state: State) {
        lock = PlatformLock()
        self.state = state
    }

    @_alwaysEmitIntoClient
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// A keyed collection kept in insertion order: ``insert(_:)`` returns a key,
/// ``remove(forKey:)`` finds it by binary search. Removal leaves a tombstone so
/// that positions stay valid while somebody iterates; tombstones are compacted
/// away when they outnumber live entries.
@usableFromInline
struct Bag<Element> {
    @usableFromInline var keys: ContiguousArray<UInt64>
    @usableFromInline var values: ContiguousArray<Element?>
    @usableFromInline var nextKey: UInt64
    @usableFromInline var tombstones: Int

    @_alwaysEmitIntoClient
    init() {
        keys = []
        values = []
        nextKey = 0
        tombstones = 0
    }

    /// The number of live entries.
    @_alwaysEmitIntoClient
    var count: Int { keys.count - tombstones }

    @_alwaysEmitIntoClient
    var isEmpty: Bool { count == 0 }

    /// Adds `element` after every entry already present.
    @_alwaysEmitIntoClient
    mutating func insert(_ element: Element) -> BagKey {
        let key = nextKey
        nextKey &+= 1
        keys.append(key)
        values.append(element)
        return BagKey(rawValue: key)
    }

    /// Removes the entry for `key` and returns it, or `nil` if it is not present.
    /// When `compact` is `false` the storage positions are left untouched.
    @_alwaysEmitIntoClient
    mutating func remove(forKey key: BagKey, compact: Bool = true) -> Element? {
        guard let index = index(of: key.rawValue), let element = values[index] else { return nil }
        values[index] = nil
        tombstones += 1
        if compact && tombstones > 16 && tombstones * 2 > keys.count {
            self.compact()
        }
        return element
    }

    @usableFromInline
    func index(of key: UInt64) -> Int? {
        var low = 0
        var high = keys.count - 1
        while low <= high {
            let middle = (low + high) >> 1
            let candidate = keys[middle]
            if candidate == key { return middle }
            if candidate < key { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// Drops the tombstones.
    @usableFromInline
    mutating func compact() {
        guard tombstones > 0 else { return }
        var newKeys = ContiguousArray<UInt64>()
        var newValues = ContiguousArray<Element?>()
        newKeys.reserveCapacity(count)
        newValues.reserveCapacity(count)
        for index in keys.indices {
            if let value = values[index] {
                newKeys.append(keys[index])
                newValues.append(value)
            }
        }
        keys = newKeys
        values = newValues
        tombstones = 0
    }

    /// Removes and returns every live entry, in insertion order.
    @_alwaysEmitIntoClient
    mutating func removeAll() -> [Element] {
        let live = values.compactMap { $0 }
        keys = []
        values = []
        tombstones = 0
        return live
    }

    /// The live entries, in insertion order.
    @_alwaysEmitIntoClient
    var elements: [Element] {
        values.compactMap { $0 }
    }
}

/// Identifies an entry of a keyed collection such as ``CompositeDisposable``.
public struct BagKey: Hashable, Sendable {
    @usableFromInline
    let rawValue: UInt64

    @_alwaysEmitIntoClient
    init(rawValue: UInt64) {
        self.rawValue = rawValue
    }
}
