import Foundation
import Ripple

/// A store of values by key, for a ``CachedRepository``: in memory
/// (``InMemoryCache``), on disk, in a database.
///
/// Its operations are reactive so that a persistent cache may do its work on
/// its own queue: reading gives a `Maybe` (a value, nothing, or an error),
/// writing a `Completable`.
///
/// ```swift
/// final class SQLiteCache: ValueCache {
///     func value(forKey key: String) -> Maybe<[Repository]> { ... }
///     func setValue(_ value: [Repository], forKey key: String) -> Completable { ... }
///     func removeValue(forKey key: String) -> Completable { ... }
/// }
/// ```
public protocol ValueCache<Key, Value>: Sendable {
    /// The key type.
    associatedtype Key: Hashable
    /// The value type.
    associatedtype Value

    /// The value stored for `key`: `Maybe` succeeds with it, completes empty
    /// when there is none, fails when the store fails.
    func value(forKey key: Key) -> Maybe<Value>
    /// Stores `value` for `key`, replacing any previous value.
    func setValue(_ value: Value, forKey key: Key) -> Completable
    /// Removes the value stored for `key`, if any.
    func removeValue(forKey key: Key) -> Completable
}

/// A thread-safe ``ValueCache`` in memory, optionally bounded (the oldest
/// stored entries go first).
///
/// Reads and writes happen synchronously when subscribed.
///
/// ```swift
/// let cache = InMemoryCache<String, [Repository]>(countLimit: 100)
/// ```
public final class InMemoryCache<Key: Hashable, Value>: ValueCache, @unchecked Sendable {
    private let lock: PlatformLock
    private var storage: [Key: Value]
    private var order: [Key]
    /// The most entries kept, or `nil` for no limit.
    public let countLimit: Int?

    /// An empty cache keeping at most `countLimit` entries (a limit below 1
    /// is treated as 1).
    public init(countLimit: Int? = nil) {
        lock = PlatformLock()
        storage = [:]
        order = []
        self.countLimit = countLimit.map { max(1, $0) }
    }

    /// The value for `key` (empty when there is none).
    ///
    /// ```
    /// value(forKey: k):   (v|)   or   |
    /// ```
    @_alwaysEmitIntoClient
    public func value(forKey key: Key) -> Maybe<Value> {
        Maybe.create { [self] observer in
            if let value = self[key] {
                observer(.success(value))
            } else {
                observer(.completed)
            }
            return Disposables.create()
        }
    }

    /// Stores `value` for `key`.
    ///
    /// ```
    /// setValue(v, forKey: k):   |
    /// ```
    @_alwaysEmitIntoClient
    public func setValue(_ value: Value, forKey key: Key) -> Completable {
        Completable.create { [self] observer in
            self[key] = value
            observer(.completed)
            return Disposables.create()
        }
    }

    /// Removes the value for `key`.
    ///
    /// ```
    /// removeValue(forKey: k):   |
    /// ```
    @_alwaysEmitIntoClient
    public func removeValue(forKey key: Key) -> Completable {
        Completable.create { [self] observer in
            self[key] = nil
            observer(.completed)
            return Disposables.create()
        }
    }

    /// The value for `key`, read or written synchronously (`nil` removes it).
    public subscript(key: Key) -> Value? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return storage[key]
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            order.removeAll { $0 == key }
            if let newValue {
                storage[key] = newValue
                order.append(key)
                if let countLimit, order.count > countLimit {
                    let evicted = order.prefix(order.count - countLimit)
                    for old in evicted { storage[old] = nil }
                    order.removeFirst(evicted.count)
                }
            } else {
                storage[key] = nil
            }
        }
    }

    /// The number of entries.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return storage.count
    }

    /// Removes every entry.
    public func removeAll() {
        lock.lock()
        storage = [:]
        order = []
        lock.unlock()
    }
}

// A case whose payload depends on a type parameter is `indirect` where it is not built
// per event on a hot path (docs/Performance.md, "Boxed payloads").
/// What a ``CachedRepository`` reports while it loads a value: everything a
/// view model needs to render "cached, refreshing", "fresh" and "failed, but
/// here is what we had".
public indirect enum Fetched<Value> {
    /// The value from the cache; a fresh one is on its way.
    case cached(Value)
    /// The value from the network (now also in the cache). Final.
    case fresh(Value)
    /// The network failed; `cached` is what the cache had (if anything).
    /// Final.
    case failed(Error, cached: Value?)

    /// The best value to show: the fresh or cached one.
    public var value: Value? {
        switch self {
        case .cached(let value), .fresh(let value): return value
        case .failed(_, let cached): return cached
        }
    }

    /// The network error, if the fetch failed.
    public var error: Error? {
        if case .failed(let error, _) = self { return error }
        return nil
    }

    /// `true` for ``fresh(_:)`` and ``failed(_:cached:)``: nothing follows.
    public var isFinal: Bool {
        if case .cached = self { return false }
        return true
    }

    /// `true` when the value shown is not known to be current (``cached(_:)``
    /// or a failure).
    public var isStale: Bool {
        if case .fresh = self { return false }
        return true
    }
}

extension Fetched: Sendable where Value: Sendable {}

/// A repository helper: serves the cached value first, then the fresh one from
/// the network, stores it, shares concurrent fetches of the same key, and
/// reports a failed fetch without losing the cached value.
///
/// ```swift
/// final class RepositoriesRepository {
///     private let store: CachedRepository<String, [Repository]>
///     init(api: GitHubAPI, cache: some ValueCache<String, [Repository]>) {
///         store = CachedRepository(cache: cache) { user in api.repositories(of: user) }
///     }
///     func repositories(of user: String) -> Observable<Fetched<[Repository]>> {
///         store.value(for: user)
///     }
/// }
/// ```
///
/// ```
/// cache:             (c|)
/// network:           --------(n|)
/// value(for: key):   c-------(n|)         .cached(c), .fresh(n)
/// network fails:     c-------(f|)         .cached(c), .failed(error, cached: c)
/// nothing cached:    --------(n|)         .fresh(n)
/// ```
public final class CachedRepository<Key: Hashable, Value>: @unchecked Sendable {
    @usableFromInline
    let readCache: (Key) -> Maybe<Value>
    @usableFromInline
    let writeCache: (Value, Key) -> Completable
    @usableFromInline
    let fetch: (Key) -> Single<Value>
    @usableFromInline
    let lock: PlatformLock
    @usableFromInline
    var inFlight: [Key: (id: UInt64, fetch: Observable<Value>)]
    @usableFromInline
    var nextID: UInt64

    /// A repository reading and writing `cache` and fetching with `fetch`
    /// (called once per network fetch; concurrent fetches of one key share one
    /// call).
    public init<Cache: ValueCache>(cache: Cache, fetch: @escaping (Key) -> Single<Value>)
    where Cache.Key == Key, Cache.Value == Value {
        lock = PlatformLock()
        inFlight = [:]
        nextID = 0
        readCache = { cache.value(forKey: $0) }
        writeCache = { cache.setValue($0, forKey: $1) }
        self.fetch = fetch
    }

    /// The cached value (if any) then the fresh one, as ``Fetched`` values.
    ///
    /// The cache read and the network fetch start together when subscribed.
    /// The cached value is emitted as ``Fetched/cached(_:)`` unless the
    /// network answered first. Then comes exactly one final element:
    /// ``Fetched/fresh(_:)`` (after the value was written to the cache), or
    /// ``Fetched/failed(_:cached:)`` with the network error and the cached
    /// value; the sequence then completes. It never fails: a failing cache
    /// read counts as a miss, a failing cache write is ignored.
    ///
    /// While a fetch of `key` is running, other subscribers join it instead of
    /// starting another; it is cancelled when all of them are disposed.
    ///
    /// ```
    /// value(for: key):   c-------(n|)     or   c-------(f|)
    /// ```
    @_alwaysEmitIntoClient
    public func value(for key: Key) -> Observable<Fetched<Value>> {
        let readCache = self.readCache
        let cached = Observable.deferred { readCache(key).asObservable() }
            .map { RepositoryInput<Value>.cacheHit($0) }
            .ifEmpty(default: .cacheMiss)
            .catch { _ in .just(.cacheMiss) }
        let network = sharedFetch(key)
            .map { RepositoryInput<Value>.fresh($0) }
            .catch { .just(.failed($0)) }
        return Observable.merge(cached, network)
            .scan(into: RepositoryMachine<Value>()) { machine, input in machine.handle(input) }
            .concatMap { Observable.from($0.outputs) }
            .take(while: { !$0.isFinal }, behavior: .inclusive)
    }

    /// Fetches from the network only (joining a running fetch of `key`) and
    /// stores the result: succeeds with the fresh value, fails with the
    /// network error.
    ///
    /// ```
    /// refresh(key):   --------(n|)
    /// ```
    @_alwaysEmitIntoClient
    public func refresh(_ key: Key) -> Single<Value> {
        sharedFetch(key).asSingle()
    }

    /// The cached value alone.
    ///
    /// ```
    /// cachedValue(for: key):   (c|)   or   |
    /// ```
    @_alwaysEmitIntoClient
    public func cachedValue(for key: Key) -> Maybe<Value> {
        readCache(key)
    }

    /// The number of keys with a network fetch running (for tests and
    /// diagnostics).
    public var inFlightCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return inFlight.count
    }

    /// The running fetch of `key`, or a new one: fetch, store, then emit.
    @_alwaysEmitIntoClient
    func sharedFetch(_ key: Key) -> Observable<Value> {
        Observable.deferred { [self] in
            lock.lock()
            if let running = inFlight[key] {
                lock.unlock()
                return running.fetch
            }
            nextID &+= 1
            let id = nextID
            lock.unlock()
            // User code (fetch) runs outside the lock.
            let writeCache = self.writeCache
            let candidate = Observable.deferred { [fetch] in fetch(key).asObservable() }
                .concatMap { value in
                    // Store, then emit (a failed write is ignored).
                    Observable<Value>.create { observer in
                        writeCache(value, key).subscribe { _ in
                            observer.onNext(value)
                            observer.onCompleted()
                        }
                    }
                }
                .do(onDispose: { [weak self] in self?.finished(key, id: id) })
                .share(replay: 1, scope: .whileConnected)
            lock.lock()
            if let running = inFlight[key] {
                lock.unlock()
                return running.fetch
            }
            inFlight[key] = (id, candidate)
            lock.unlock()
            return candidate
        }
    }

    @usableFromInline
    func finished(_ key: Key, id: UInt64) {
        lock.lock()
        if inFlight[key]?.id == id {
            inFlight[key] = nil
        }
        lock.unlock()
    }
}

// A case whose payload depends on a type parameter is `indirect` where it is not built
// per event on a hot path (docs/Performance.md, "Boxed payloads").
@usableFromInline
enum RepositoryInput<Value> {
    indirect case cacheHit(Value)
    case cacheMiss
    indirect case fresh(Value)
    case failed(Error)
}

/// Orders the cache and network outcomes into ``Fetched`` values.
@usableFromInline
struct RepositoryMachine<Value> {
    @usableFromInline
    var outputs: [Fetched<Value>]

    @usableFromInline
    init() {
        outputs = []
        cacheDone = false
        finished = false
    }
    private var cacheDone: Bool
    private var cached: Value?
    private var pendingFailure: Error?
    private var finished: Bool

    @usableFromInline
    mutating func handle(_ input: RepositoryInput<Value>) {
        outputs = []
        guard !finished else { return }
        switch input {
        case .cacheHit(let value):
            cacheDone = true
            cached = value
            outputs.append(.cached(value))
            flushFailure()
        case .cacheMiss:
            cacheDone = true
            flushFailure()
        case .fresh(let value):
            finished = true
            outputs.append(.fresh(value))
        case .failed(let error):
            pendingFailure = error
            flushFailure()
        }
    }

    /// A network failure waits for the cache read, so that it carries the
    /// cached value.
    private mutating func flushFailure() {
        if cacheDone, let error = pendingFailure {
            finished = true
            outputs.append(.failed(error, cached: cached))
        }
    }
}
