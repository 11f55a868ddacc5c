import Foundation
import GitHubKit
import GRDB
import RippleHTTP
import RippleRepository

/// What the GitHub cache stores values under: a search page, a page of a user's
/// repositories, or one repository.
public enum GitHubCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// A page of search results. The query's runs of spaces count as one.
    case search(query: String, page: Int, perPage: Int)
    /// A page of an account's repositories (logins are case-insensitive).
    case userRepositories(user: String, page: Int, perPage: Int)
    /// One repository by `owner/name` (case-insensitive).
    case repository(fullName: String)

    /// The key as stored: `search?q=swift%20ui&page=1&per_page=30`,
    /// `users/ann/repos?page=2&per_page=30`, `repos/ann/kit`.
    public var storageKey: String {
        switch self {
        case .search(let query, let page, let perPage):
            let normalized = query.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let encoded = normalized.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? normalized
            return "search?q=\(encoded)&page=\(page)&per_page=\(perPage)"
        case .userRepositories(let user, let page, let perPage):
            return "users/\(user.lowercased())/repos?page=\(page)&per_page=\(perPage)"
        case .repository(let fullName):
            return "repos/\(fullName.lowercased())"
        }
    }

    /// `search`, `user-repos` or `repository`.
    public var kind: String {
        switch self {
        case .search: return "search"
        case .userRepositories: return "user-repos"
        case .repository: return "repository"
        }
    }

    public var description: String { storageKey }
}

/// Why the cache could not be used.
public enum GitHubCacheError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The file could not be opened or created as a cache database.
    case cannotOpen(path: String, reason: String)
    /// Another process holds a lock on the file (another `github-search` writing
    /// to it, a `sqlite3` shell in a transaction) for longer than the busy timeout.
    case inUse(path: String)
    /// A read or write failed.
    case databaseFailure(String)
    /// A stored value no longer decodes (it is then removed).
    case undecodableEntry(key: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "Cannot use the cache file \(path): \(reason). Delete it, or choose another file with --cache PATH."
        case .inUse(let path):
            return "The cache file \(path) is in use by another process."
        case .databaseFailure(let reason):
            return "Cache database failure: \(reason)"
        case .undecodableEntry(let key, let reason):
            return "The cached value for \(key) is unreadable (\(reason)); it was removed"
        }
    }

    public var errorDescription: String? { description }
}

/// The SQLite file behind the GitHub caches (through GRDB): one table of JSON
/// values by key, each with the date it was stored and the date it expires.
///
/// ```swift
/// let database = try GitHubCacheDatabase(path: "/tmp/github-search.sqlite")
/// let pages: SQLiteCache<RepositoryPage> = database.cache(timeToLive: 600)
/// ```
///
/// A missing file (and missing directories) is created; a file that is not a
/// SQLite database, or not one of ours, fails with
/// ``GitHubCacheError/cannotOpen(path:reason:)``, one locked by another process with
/// ``GitHubCacheError/inUse(path:)``; ``openOrFallBack(path:now:)`` turns both into
/// an in-memory cache and a notice.
public final class GitHubCacheDatabase: Sendable {
    /// The file (`:memory:` for ``inMemory()``).
    public let path: String
    let queue: DatabaseQueue
    /// The clock used for storing and expiring entries (injected by tests).
    public let now: @Sendable () -> Date

    /// Opens (or creates) the cache at `path`.
    ///
    /// - Throws: ``GitHubCacheError/cannotOpen(path:reason:)``.
    public init(path: String, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.path = path
        self.now = now
        do {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw GitHubCacheError.cannotOpen(path: path, reason: "cannot create its directory (\(error.localizedDescription))")
        }
        do {
            var configuration = Configuration()
            // Another process's short write (a second github-search) is waited for;
            // a lock held longer means the file is in use.
            configuration.busyMode = .timeout(GitHubCacheDatabase.busyTimeout)
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try GitHubCacheDatabase.migrator.migrate(queue)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw GitHubCacheError.inUse(path: path)
        } catch {
            throw GitHubCacheError.cannotOpen(path: path, reason: GitHubCacheDatabase.explain(error))
        }
    }

    /// How long an operation waits for another process's lock on the file.
    public static let busyTimeout: TimeInterval = 0.5

    /// The cache at `path` for an app that must keep working without it: when the
    /// file cannot be used (corrupt, not a database, in use by another process, an
    /// unwritable directory) the cache lives in memory for this run, and `notice`
    /// says why, in words for the app's status line.
    ///
    /// ```swift
    /// let (database, notice) = try GitHubCacheDatabase.openOrFallBack(path: path)
    /// // notice: "Not caching: the cache file is in use by another process (/path/to/file.sqlite)"
    /// ```
    ///
    /// - Throws: only when not even an in-memory database can be created.
    public static func openOrFallBack(
        path: String, now: @escaping @Sendable () -> Date = { Date() }
    ) throws -> (database: GitHubCacheDatabase, notice: String?) {
        let failure: GitHubCacheError
        do {
            return (try GitHubCacheDatabase(path: path, now: now), nil)
        } catch let error as GitHubCacheError {
            failure = error
        } catch {
            failure = .cannotOpen(path: path, reason: "\(error)")
        }
        // Short enough for a status line; the path comes last, where a narrow
        // terminal cuts.
        let notice: String
        switch failure {
        case .inUse(let path):
            notice = "Not caching: the cache file is in use by another process (\(path))"
        case .cannotOpen(let path, let reason):
            notice = "Not caching: \(reason); delete the cache file to start a new one (\(path))"
        case .databaseFailure(let reason), .undecodableEntry(_, let reason):
            notice = "Not caching: \(reason) (\(path))"
        }
        return (try GitHubCacheDatabase.inMemory(now: now), notice)
    }

    private init(inMemoryWith now: @escaping @Sendable () -> Date) throws {
        path = ":memory:"
        self.now = now
        queue = try DatabaseQueue()
        try GitHubCacheDatabase.migrator.migrate(queue)
    }

    /// A cache that lives in memory only (for tests and `--no-cache`).
    public static func inMemory(now: @escaping @Sendable () -> Date = { Date() }) throws -> GitHubCacheDatabase {
        try GitHubCacheDatabase(inMemoryWith: now)
    }

    /// A ``ValueCache`` of `Value`s in this database whose entries expire
    /// `timeToLive` seconds after they were stored.
    public func cache<Value: Codable & Sendable>(_ type: Value.Type = Value.self, timeToLive: TimeInterval) -> SQLiteCache<Value> {
        SQLiteCache(database: self, timeToLive: timeToLive)
    }

    /// The stored entry for `key` (expired or not), for inspection.
    public func entry(forKey key: GitHubCacheKey) throws -> CacheEntry? {
        try guarded { try queue.read { db in try CacheEntry.fetchOne(db, key: key.storageKey) } }
    }

    /// The number of entries (expired ones included).
    public func count() throws -> Int {
        try guarded { try queue.read { db in try CacheEntry.fetchCount(db) } }
    }

    /// Removes the expired entries; returns how many.
    @discardableResult
    public func removeExpired() throws -> Int {
        let now = self.now()
        return try guarded {
            try queue.write { db in try CacheEntry.filter(Column("expiresAt") <= now).deleteAll(db) }
        }
    }

    /// Removes every entry.
    public func removeAll() throws {
        try guarded { _ = try queue.write { db in try CacheEntry.deleteAll(db) } }
    }

    func guarded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as GitHubCacheError {
            throw error
        } catch {
            throw GitHubCacheError.databaseFailure(GitHubCacheDatabase.explain(error))
        }
    }

    static func explain(_ error: Error) -> String {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB: return "the file is not a SQLite database"
            case .SQLITE_CORRUPT: return "the database is corrupt"
            case .SQLITE_CANTOPEN: return "the file cannot be opened"
            case .SQLITE_READONLY: return "the file is read-only"
            case .SQLITE_BUSY, .SQLITE_LOCKED: return "the file is in use by another process"
            default: return error.message ?? "\(error)"
            }
        }
        return "\(error)"
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 cache entries") { db in
            try db.create(table: CacheEntry.databaseTableName) { table in
                table.primaryKey("key", .text)
                table.column("kind", .text).notNull()
                table.column("value", .blob).notNull()
                table.column("storedAt", .datetime).notNull()
                table.column("expiresAt", .datetime).notNull().indexed()
            }
        }
        return migrator
    }
}

/// One row of the cache: a JSON value under a key, with its dates.
public struct CacheEntry: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "cacheEntry"

    public var key: String
    public var kind: String
    /// The value as JSON (``GitHubJSON/encoder``).
    public var value: Data
    public var storedAt: Date
    public var expiresAt: Date
}

/// A persistent ``ValueCache`` of `Value`s (as JSON) in a ``GitHubCacheDatabase``.
///
/// Reads and writes run synchronously when subscribed. An expired entry reads as a
/// miss (and is deleted); a failing database fails the `Maybe` / `Completable` with
/// a ``GitHubCacheError`` (a ``CachedRepository`` treats a failing read as a miss).
///
/// ```
/// value(forKey: k):      (v|)   stored less than timeToLive ago
///                        |      missing or expired
/// setValue(v, forKey:)   |      stored now, expires at now + timeToLive
/// ```
public final class SQLiteCache<Value: Codable & Sendable>: ValueCache, Sendable {
    public typealias Key = GitHubCacheKey

    public let database: GitHubCacheDatabase
    /// Seconds an entry stays valid.
    public let timeToLive: TimeInterval

    init(database: GitHubCacheDatabase, timeToLive: TimeInterval) {
        self.database = database
        self.timeToLive = timeToLive
    }

    public func value(forKey key: GitHubCacheKey) -> Maybe<Value> {
        let database = self.database
        return Maybe.create { observer in
            do {
                let now = database.now()
                let entry = try database.guarded {
                    try database.queue.read { db in try CacheEntry.fetchOne(db, key: key.storageKey) }
                }
                guard let entry else {
                    observer(.completed)
                    return Disposables.create()
                }
                guard entry.expiresAt > now else {
                    _ = try? database.queue.write { db in try CacheEntry.deleteOne(db, key: key.storageKey) }
                    observer(.completed)
                    return Disposables.create()
                }
                do {
                    observer(.success(try GitHubJSON.decoder.decode(Value.self, from: entry.value)))
                } catch {
                    _ = try? database.queue.write { db in try CacheEntry.deleteOne(db, key: key.storageKey) }
                    observer(.error(GitHubCacheError.undecodableEntry(key: key.storageKey, reason: "\(error)")))
                }
            } catch {
                observer(.error(error))
            }
            return Disposables.create()
        }
    }

    public func setValue(_ value: Value, forKey key: GitHubCacheKey) -> Completable {
        let database = self.database
        let timeToLive = self.timeToLive
        return Completable.create { observer in
            do {
                let now = database.now()
                let entry = CacheEntry(
                    key: key.storageKey, kind: key.kind, value: try GitHubJSON.encoder.encode(value),
                    storedAt: now, expiresAt: now.addingTimeInterval(timeToLive))
                try database.guarded { try database.queue.write { db in try entry.save(db) } }
                observer(.completed)
            } catch {
                observer(.error(error))
            }
            return Disposables.create()
        }
    }

    public func removeValue(forKey key: GitHubCacheKey) -> Completable {
        let database = self.database
        return Completable.create { observer in
            do {
                _ = try database.guarded {
                    try database.queue.write { db in try CacheEntry.deleteOne(db, key: key.storageKey) }
                }
                observer(.completed)
            } catch {
                observer(.error(error))
            }
            return Disposables.create()
        }
    }
}
