import Foundation
import GitHubKit
import GitHubStore
import GRDB
import Ripple
import RippleHTTP
import RippleHTTPTesting
import RippleRepository
import RippleTest
import XCTest

/// A clock the tests move by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}

/// A fresh directory per test, removed afterwards.
class TemporaryDirectoryTestCase: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        try super.tearDownWithError()
    }

    func page(_ names: [String], page: Int = 1, hasMore: Bool = false) -> RepositoryPage {
        RepositoryPage(
            items: names.enumerated().map { Repository(id: page * 100 + $0.offset, name: $0.element, ownerLogin: "ann") },
            page: page, perPage: 30, totalCount: names.count, hasMore: hasMore)
    }
}

/// Reads a `Maybe` that answers synchronously.
func read<Value>(_ maybe: Maybe<Value>) -> Result<Value?, Error> {
    var result: Result<Value?, Error> = .success(nil)
    _ = maybe.subscribe(onSuccess: { result = .success($0) }, onError: { result = .failure($0) }, onCompleted: { result = .success(nil) })
    return result
}

/// Runs a `Completable` that answers synchronously.
func completionError(_ completable: Completable) -> Error? {
    var failure: Error?
    _ = completable.subscribe(onError: { failure = $0 })
    return failure
}

final class SQLiteCacheTests: TemporaryDirectoryTestCase {
    func testMissThenHitAndPersistenceAcrossReopening() throws {
        let path = directory.appendingPathComponent("cache.sqlite").path
        let key = GitHubCacheKey.search(query: "ripple", page: 1, perPage: 30)
        do {
            let cache = try GitHubCacheDatabase(path: path).cache(RepositoryPage.self, timeToLive: 60)
            XCTAssertNil(try read(cache.value(forKey: key)).get(), "miss")
            XCTAssertNil(completionError(cache.setValue(page(["a", "b"]), forKey: key)))
            XCTAssertEqual(try read(cache.value(forKey: key)).get(), page(["a", "b"]), "hit")
            XCTAssertNil(try read(cache.value(forKey: .search(query: "ripple", page: 2, perPage: 30))).get(), "another page")
        }
        let reopened = try GitHubCacheDatabase(path: path)
        XCTAssertEqual(try read(reopened.cache(RepositoryPage.self, timeToLive: 60).value(forKey: key)).get(), page(["a", "b"]))
        XCTAssertEqual(try reopened.count(), 1)
    }

    func testEntriesStoreTheirDatesAndExpire() throws {
        let clock = ManualClock()
        let database = try GitHubCacheDatabase(path: directory.appendingPathComponent("c.sqlite").path, now: { clock.now })
        let cache = database.cache(RepositoryPage.self, timeToLive: 600)
        let key = GitHubCacheKey.userRepositories(user: "Ann", page: 1, perPage: 30)
        let stored = clock.now
        XCTAssertNil(completionError(cache.setValue(page(["a"]), forKey: key)))
        let entry = try XCTUnwrap(database.entry(forKey: key))
        XCTAssertEqual(entry.key, "users/ann/repos?page=1&per_page=30")
        XCTAssertEqual(entry.kind, "user-repos")
        XCTAssertEqual(entry.storedAt.timeIntervalSince1970, stored.timeIntervalSince1970, accuracy: 0.001)
        XCTAssertEqual(entry.expiresAt.timeIntervalSince1970, stored.timeIntervalSince1970 + 600, accuracy: 0.001)

        clock.advance(by: 599)
        XCTAssertNotNil(try read(cache.value(forKey: key)).get(), "still valid")
        XCTAssertNotNil(try read(cache.value(forKey: .userRepositories(user: "ANN", page: 1, perPage: 30))).get(), "logins are case-insensitive")
        clock.advance(by: 2)
        XCTAssertNil(try read(cache.value(forKey: key)).get(), "expired")
        XCTAssertNil(try database.entry(forKey: key), "an expired entry is deleted when read")
    }

    func testRemoveExpiredAndRemoveValue() throws {
        let clock = ManualClock()
        let database = try GitHubCacheDatabase.inMemory(now: { clock.now })
        let short = database.cache(RepositoryPage.self, timeToLive: 10)
        let long = database.cache(Repository.self, timeToLive: 1000)
        XCTAssertNil(completionError(short.setValue(page(["a"]), forKey: .search(query: "a", page: 1, perPage: 30))))
        XCTAssertNil(completionError(long.setValue(Repository(id: 1, name: "kit", ownerLogin: "ann"), forKey: .repository(fullName: "ann/kit"))))
        clock.advance(by: 11)
        XCTAssertEqual(try database.removeExpired(), 1)
        XCTAssertEqual(try database.count(), 1)
        XCTAssertEqual(try read(long.value(forKey: .repository(fullName: "Ann/Kit"))).get()?.name, "kit")
        XCTAssertNil(completionError(long.removeValue(forKey: .repository(fullName: "ann/kit"))))
        XCTAssertEqual(try database.count(), 0)
    }

    func testSearchKeysNormalizeSpaces() {
        XCTAssertEqual(GitHubCacheKey.search(query: "  swift   ui ", page: 2, perPage: 10).storageKey, "search?q=swift%20ui&page=2&per_page=10")
        XCTAssertEqual(GitHubCacheKey.search(query: "a:b", page: 1, perPage: 30).storageKey, "search?q=a%3Ab&page=1&per_page=30")
    }

    func testACorruptFileFailsWithAClearError() throws {
        let path = directory.appendingPathComponent("corrupt.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try GitHubCacheDatabase(path: path)) { error in
            guard case GitHubCacheError.cannotOpen(let failedPath, let reason) = error else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(failedPath, path)
            XCTAssertEqual(reason, "the file is not a SQLite database")
            XCTAssertEqual(
                "\(error)",
                "Cannot use the cache file \(path): the file is not a SQLite database. Delete it, or choose another file with --cache PATH.")
        }
    }

    func testAMissingFileAndDirectoryAreCreated() throws {
        let path = directory.appendingPathComponent("a/b/cache.sqlite").path
        let database = try GitHubCacheDatabase(path: path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(try database.count(), 0)
    }

    func testAnUnusableDirectoryFailsWithAClearError() throws {
        let file = directory.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        XCTAssertThrowsError(try GitHubCacheDatabase(path: file.appendingPathComponent("cache.sqlite").path)) { error in
            guard case GitHubCacheError.cannotOpen(_, let reason) = error else { return XCTFail("unexpected \(error)") }
            XCTAssertTrue(reason.hasPrefix("cannot create its directory"), reason)
        }
    }

    func testAnEntryThatNoLongerDecodesIsRemovedAndReported() throws {
        let database = try GitHubCacheDatabase.inMemory()
        let key = GitHubCacheKey.repository(fullName: "ann/kit")
        XCTAssertNil(completionError(database.cache([String].self, timeToLive: 60).setValue(["not", "a", "repository"], forKey: key)))
        let result = read(database.cache(Repository.self, timeToLive: 60).value(forKey: key))
        guard case .failure(GitHubCacheError.undecodableEntry(let storageKey, _)) = result else {
            return XCTFail("unexpected \(result)")
        }
        XCTAssertEqual(storageKey, "repos/ann/kit")
        XCTAssertEqual(try database.count(), 0)
    }
}

final class RepositoryStoreTests: TemporaryDirectoryTestCase {
    var scheduler: TestScheduler!
    var stub: StubHTTPClient!
    var clock: ManualClock!
    var database: GitHubCacheDatabase!
    var store: RepositoryStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        stub = StubHTTPClient(scheduler: scheduler, defaultDelay: .milliseconds(100))
        clock = ManualClock()
        let clock = self.clock!
        database = try GitHubCacheDatabase(path: directory.appendingPathComponent("store.sqlite").path, now: { clock.now })
        let api = GitHubClient(
            session: Session(client: stub, scheduler: scheduler), baseURL: URL(string: "http://mock.test")!, retryPolicy: .never)
        store = RepositoryStore(api: api, database: database, pageTimeToLive: 600)
    }

    func searchBody(_ names: [String]) -> String {
        String(decoding: try! GitHubJSON.encoder.encode(SearchResponse(totalCount: names.count, items: page(names).items)), as: UTF8.self)
    }

    func load(_ query: String, at time: TestTime) -> [Recorded<Event<Fetched<RepositoryPage>>>] {
        let res = scheduler.start(created: time, subscribed: time, disposed: time + 1000) { self.store.results(for: query, page: 1) }
        return res.events
    }

    func testMissFetchesAndStoresThenAHitShowsTheCachedPageFirst() throws {
        stub.stub(.get, "/search/repositories", sequence: [.json(searchBody(["old"])), .json(searchBody(["new"]))])
        let first = load("ripple", at: 0)
        XCTAssertEqual(first.count, 2)
        guard case .fresh(let fresh)? = first.first?.value.element else { return XCTFail("\(first)") }
        XCTAssertEqual(fresh.items.map(\.name), ["old"])
        XCTAssertEqual(first.first?.time, 100)
        XCTAssertNotNil(try database.entry(forKey: .search(query: "ripple", page: 1, perPage: 30)))

        let second = load("ripple", at: 2000)
        XCTAssertEqual(second.map(\.time), [2000, 2100, 2100])
        guard case .cached(let cached)? = second.first?.value.element, case .fresh(let refreshed)? = second[1].value.element else {
            return XCTFail("\(second)")
        }
        XCTAssertEqual(cached.items.map(\.name), ["old"])
        XCTAssertEqual(refreshed.items.map(\.name), ["new"])
        XCTAssertEqual(try database.entry(forKey: .search(query: "ripple", page: 1, perPage: 30)).map { entry in
            try GitHubJSON.decoder.decode(RepositoryPage.self, from: entry.value).items.map(\.name)
        }, ["new"])
    }

    func testOfflineKeepsTheCachedValueAndReportsTheError() throws {
        stub.stub(.get, "/search/repositories", sequence: [.json(searchBody(["a", "b"])), .failure(.cannotConnectToHost)])
        _ = load("ripple", at: 0)
        let offline = load("ripple", at: 2000)
        XCTAssertEqual(offline.count, 3)
        guard case .cached(let cached)? = offline.first?.value.element,
              case .failed(let error, let kept?)? = offline[1].value.element else {
            return XCTFail("\(offline)")
        }
        XCTAssertEqual(cached.items.map(\.name), ["a", "b"])
        XCTAssertEqual(kept, cached)
        XCTAssertEqual((error as? GitHubError)?.message(), "Cannot reach the server: connection refused")
        XCTAssertTrue(offline[2].value.isCompleted)
    }

    func testExpiredEntriesAreNotShown() throws {
        stub.stub(.get, "/search/repositories", sequence: [.json(searchBody(["a"])), .failure(.cannotConnectToHost)])
        _ = load("ripple", at: 0)
        clock.advance(by: 601)
        let expired = load("ripple", at: 2000)
        XCTAssertEqual(expired.count, 2)
        guard case .failed(_, nil)? = expired.first?.value.element else { return XCTFail("\(expired)") }
    }

    func testAtLoginListsTheAccountsRepositories() throws {
        let body = String(decoding: try GitHubJSON.encoder.encode(page(["x", "y"]).items), as: UTF8.self)
        stub.stub(.get, "/users/*/repos", .json(body))
        let events = load("@Ann", at: 0)
        XCTAssertEqual(events.first?.value.element?.value?.items.map(\.name), ["x", "y"])
        XCTAssertEqual(stub.requests.first?.url?.path, "/users/Ann/repos")
        XCTAssertEqual(store.key(for: " @ann ", page: 2), .userRepositories(user: "ann", page: 2, perPage: 30))
        XCTAssertEqual(store.key(for: "@ann kit", page: 1), .search(query: "@ann kit", page: 1, perPage: 30))
    }

    func testARepositoryIsCachedToo() throws {
        stub.stub(.get, "/repos/ann/kit", sequence: [
            .json(#"{"id": 1, "name": "kit", "owner": {"login": "ann"}, "stargazers_count": 5}"#),
            .status(500),
        ])
        _ = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { self.store.repository("ann/kit") }
        let res = scheduler.start(created: 2000, subscribed: 2000, disposed: 3000) { self.store.repository("ann/kit") }
        XCTAssertEqual(res.events.first?.value.element?.value?.stargazersCount, 5)
        guard case .failed(let error, let cached?)? = res.events[1].value.element else { return XCTFail("\(res.events)") }
        XCTAssertEqual(cached.fullName, "ann/kit")
        XCTAssertEqual((error as? GitHubError)?.message(), "GitHub answered 500 Internal Server Error")
    }

    func testACacheFileDamagedWhileRunningCountsAsAMiss() throws {
        stub.stub(.get, "/search/repositories", .json(searchBody(["a"])))
        _ = load("ripple", at: 0)
        try Data(repeating: 0x42, count: 8192).write(to: directory.appendingPathComponent("store.sqlite"))
        let events = load("ripple", at: 2000)
        guard case .fresh(let fresh)? = events.first?.value.element else { return XCTFail("\(events)") }
        XCTAssertEqual(fresh.items.map(\.name), ["a"])
    }
}

/// The app keeps working from the network when its cache file cannot be used.
final class CacheFallbackTests: TemporaryDirectoryTestCase {
    private func store(on database: GitHubCacheDatabase, scheduler: TestScheduler, stub: StubHTTPClient) -> RepositoryStore {
        let api = GitHubClient(
            session: Session(client: stub, scheduler: scheduler), baseURL: URL(string: "http://mock.test")!, retryPolicy: .never)
        return RepositoryStore(api: api, database: database, pageTimeToLive: 600)
    }

    private func servesFromTheNetwork(_ database: GitHubCacheDatabase, file: StaticString = #filePath, line: UInt = #line) {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let stub = StubHTTPClient(scheduler: scheduler, defaultDelay: .milliseconds(100))
        let body = try! GitHubJSON.encoder.encode(SearchResponse(totalCount: 1, items: page(["kit"]).items))
        stub.stub(.get, "/search/repositories", .json(String(decoding: body, as: UTF8.self)))
        let store = store(on: database, scheduler: scheduler, stub: stub)
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { store.results(for: "kit", page: 1) }
        guard case .fresh(let fresh)? = res.events.first?.value.element else { return XCTFail("\(res.events)", file: file, line: line) }
        XCTAssertEqual(fresh.items.map(\.name), ["kit"], file: file, line: line)
    }

    func testACorruptFileMeansAnInMemoryCacheAndANotice() throws {
        let path = directory.appendingPathComponent("corrupt.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let (database, notice) = try GitHubCacheDatabase.openOrFallBack(path: path)
        XCTAssertEqual(database.path, ":memory:")
        XCTAssertEqual(notice, "Not caching: the file is not a SQLite database; delete the cache file to start a new one (\(path))")
        servesFromTheNetwork(database)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(repeating: 0x41, count: 4096), "the file is left alone")
    }

    func testAFileLockedByAnotherConnectionIsInUseNotBroken() throws {
        let path = directory.appendingPathComponent("locked.sqlite").path
        _ = try GitHubCacheDatabase(path: path)
        // Another process holding the file: an exclusive transaction on another
        // connection (SQLite's locks apply between connections of one process too).
        let other = try DatabaseQueue(path: path)
        try other.inTransaction(.exclusive) { _ in
            XCTAssertThrowsError(try GitHubCacheDatabase(path: path)) { error in
                XCTAssertEqual("\(error)", "The cache file \(path) is in use by another process.")
            }
            let (database, notice) = try GitHubCacheDatabase.openOrFallBack(path: path)
            XCTAssertEqual(database.path, ":memory:")
            XCTAssertEqual(notice, "Not caching: the cache file is in use by another process (\(path))")
            XCTAssertFalse(notice?.contains("Delete") ?? true)
            servesFromTheNetwork(database)
            return .rollback
        }
        // Once the other process lets go, the file is used again.
        XCTAssertEqual(try GitHubCacheDatabase.openOrFallBack(path: path).database.path, path)
    }

    func testAUsableFileHasNoNotice() throws {
        let path = directory.appendingPathComponent("fine.sqlite").path
        let (database, notice) = try GitHubCacheDatabase.openOrFallBack(path: path)
        XCTAssertEqual(database.path, path)
        XCTAssertNil(notice)
    }
}
