import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleHTTPTesting
import RippleRepository
import RippleTest
import XCTest

/// A cache whose reads and writes take time on a scheduler, or fail.
final class SlowCache: ValueCache, @unchecked Sendable {
    let storage = InMemoryCache<String, String>()
    let scheduler: SchedulerType
    let readDelay: RxTimeInterval
    var failsReads = false
    var failsWrites = false
    let reads = Recorder<String>()

    init(scheduler: SchedulerType, readDelay: RxTimeInterval) {
        self.scheduler = scheduler
        self.readDelay = readDelay
    }

    func value(forKey key: String) -> Maybe<String> {
        reads.append(key)
        if failsReads { return Maybe.error(TestError(7)) }
        return storage.value(forKey: key).asObservable().delaySubscription(readDelay, scheduler: scheduler).asMaybe()
    }

    func setValue(_ value: String, forKey key: String) -> Completable {
        if failsWrites { return Completable.error(TestError(8)) }
        return storage.setValue(value, forKey: key)
    }

    func removeValue(forKey key: String) -> Completable {
        storage.removeValue(forKey: key)
    }
}

/// Fetched values as text, for comparisons.
func text(_ fetched: Fetched<String>) -> String {
    switch fetched {
    case .cached(let value): return "cached(\(value))"
    case .fresh(let value): return "fresh(\(value))"
    case .failed(let error, let cached): return "failed(\(error), cached: \(cached ?? "nil"))"
    }
}

final class RepositoryTests: HTTPTestCase {
    var scheduler: TestScheduler!
    var stub: StubHTTPClient!
    var cache: InMemoryCache<String, String>!
    var repository: CachedRepository<String, String>!

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0)
        stub = StubHTTPClient(scheduler: scheduler)
        cache = InMemoryCache()
        let session = Session(client: stub, scheduler: scheduler)
        repository = CachedRepository(cache: cache) { user in
            session.response(for: ConfigurableRequest<String>(path: "users/\(user)/name", convert: \.text))
        }
    }

    override func tearDown() {
        scheduler = nil
        stub = nil
        cache = nil
        repository = nil
        super.tearDown()
    }

    func testCachedValueFirstThenTheFreshOneWhichIsStored() {
        cache["ann"] = "Ann (cached)"
        stub.stub(.get, "/users/ann/name", .text("Ann").delayed(by: .seconds(10)))
        let res = scheduler.start { self.repository.value(for: "ann").map(text) }
        XCTAssertEqual(res.events, [.next(200, "cached(Ann (cached))"), .next(210, "fresh(Ann)"), .completed(210)])
        XCTAssertEqual(cache["ann"], "Ann")
        XCTAssertEqual(repository.inFlightCount, 0)
    }

    func testNothingCachedGivesOnlyTheFreshValue() {
        stub.stub(.get, "/users/ann/name", .text("Ann").delayed(by: .seconds(10)))
        let res = scheduler.start { self.repository.value(for: "ann").map(text) }
        XCTAssertEqual(res.events, [.next(210, "fresh(Ann)"), .completed(210)])
    }

    func testAFailureKeepsTheCachedValue() {
        cache["ann"] = "Ann (cached)"
        stub.stub(.get, "/users/ann/name", StubResponse.failure(.notConnectedToInternet).delayed(by: .seconds(10)))
        let res = scheduler.start { self.repository.value(for: "ann").map(text) }
        XCTAssertEqual(res.events, [
            .next(200, "cached(Ann (cached))"),
            .next(210, "failed(HTTP transport failure: not connected to the internet (URLError -1009), cached: Ann (cached))"),
            .completed(210),
        ])
        XCTAssertEqual(cache["ann"], "Ann (cached)", "the cache keeps its value")
    }

    func testAFailureWithoutCache() {
        stub.stub(.get, "/users/ann/name", .status(500).delayed(by: .seconds(10)))
        let res = scheduler.start { self.repository.value(for: "ann") }
        XCTAssertEqual(res.events.count, 2)
        let failure = res.events.first?.value.element
        XCTAssertEqual((failure?.error as? HTTPError)?.statusCode, 500)
        XCTAssertNil(failure?.value)
        XCTAssertEqual(failure?.isFinal, true)
        XCTAssertEqual(failure?.isStale, true)
        XCTAssertEqual(res.events.last?.value.isCompleted, true)
    }

    func testANetworkFasterThanTheCacheWins() {
        let slow = SlowCache(scheduler: scheduler, readDelay: .seconds(20))
        slow.storage["ann"] = "old"
        let session = Session(client: stub, scheduler: scheduler)
        let repository = CachedRepository(cache: slow) { user in
            session.response(for: ConfigurableRequest<String>(path: "users/\(user)/name", convert: \.text))
        }
        stub.stub(.get, "/users/ann/name", .text("Ann").delayed(by: .seconds(5)))
        let res = scheduler.start { repository.value(for: "ann").map(text) }
        XCTAssertEqual(res.events, [.next(205, "fresh(Ann)"), .completed(205)])
        XCTAssertEqual(slow.storage["ann"], "Ann")
    }

    func testAFailureWaitsForTheSlowCacheToCarryItsValue() {
        let slow = SlowCache(scheduler: scheduler, readDelay: .seconds(20))
        slow.storage["ann"] = "old"
        let session = Session(client: stub, scheduler: scheduler)
        let repository = CachedRepository(cache: slow) { user in
            session.response(for: ConfigurableRequest<String>(path: "users/\(user)/name", convert: \.text))
        }
        stub.stub(.get, "/users/ann/name", .status(503).delayed(by: .seconds(5)))
        let res = scheduler.start { repository.value(for: "ann").map(text) }
        XCTAssertEqual(res.events.map(\.time), [220, 220, 220])
        XCTAssertEqual(res.events.first?.value.element, "cached(old)")
        XCTAssertTrue(res.events[1].value.element?.hasSuffix("cached: old)") ?? false)
    }

    func testCacheFailuresAreMissesAndIgnoredWrites() {
        let broken = SlowCache(scheduler: scheduler, readDelay: .seconds(0))
        broken.failsReads = true
        broken.failsWrites = true
        let session = Session(client: stub, scheduler: scheduler)
        let repository = CachedRepository(cache: broken) { user in
            session.response(for: ConfigurableRequest<String>(path: "users/\(user)/name", convert: \.text))
        }
        stub.stub(.get, "/users/ann/name", .text("Ann").delayed(by: .seconds(5)))
        let res = scheduler.start { repository.value(for: "ann").map(text) }
        XCTAssertEqual(res.events, [.next(205, "fresh(Ann)"), .completed(205)])
    }

    func testConcurrentIdenticalFetchesAreShared() {
        stub.stub(.get, "/users/*/name", handler: { request in .text(request.url?.path ?? "").delayed(by: .seconds(10)) })
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        let other = scheduler.createObserver(String.self)
        let later = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(200) { self.repository.value(for: "ann").map(text).subscribe(first).disposed(by: bag) }
        scheduler.scheduleAt(205) { self.repository.value(for: "ann").map(text).subscribe(second).disposed(by: bag) }
        scheduler.scheduleAt(205) { self.repository.value(for: "bob").map(text).subscribe(other).disposed(by: bag) }
        scheduler.scheduleAt(206) { XCTAssertEqual(self.repository.inFlightCount, 2) }
        scheduler.scheduleAt(300) { self.repository.value(for: "ann").map(text).subscribe(later).disposed(by: bag) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, "fresh(/users/ann/name)"), .completed(210)])
        // The second subscriber joined the running fetch: no cached value yet, the same answer.
        XCTAssertEqual(second.events, [.next(210, "fresh(/users/ann/name)"), .completed(210)])
        XCTAssertEqual(other.events, [.next(215, "fresh(/users/bob/name)"), .completed(215)])
        // After it finished, a new subscription fetches again (and sees the cache).
        XCTAssertEqual(later.events, [.next(300, "cached(/users/ann/name)"), .next(310, "fresh(/users/ann/name)"), .completed(310)])
        XCTAssertEqual(stub.requests.map { $0.url?.path }, ["/users/ann/name", "/users/bob/name", "/users/ann/name"])
        XCTAssertEqual(repository.inFlightCount, 0)
    }

    func testTheSharedFetchIsCancelledWhenEverySubscriberLeaves() {
        stub.stub(.get, "/users/ann/name", .text("Ann").delayed(by: .seconds(10)))
        let stays = scheduler.createObserver(String.self)
        var first: Disposable?
        var second: Disposable?
        scheduler.scheduleAt(200) { first = self.repository.value(for: "ann").map(text).subscribe(self.scheduler.createObserver(String.self)) }
        scheduler.scheduleAt(201) { second = self.repository.value(for: "ann").map(text).subscribe(stays) }
        scheduler.scheduleAt(203) { first?.dispose() }
        scheduler.start()
        XCTAssertEqual(stays.events, [.next(210, "fresh(Ann)"), .completed(210)], "one leaving does not cancel the others")
        XCTAssertEqual(stub.cancelledRequests.count, 0)
        second?.dispose()

        let scheduler2 = TestScheduler(initialClock: 0)
        let stub2 = StubHTTPClient(scheduler: scheduler2)
        stub2.stub(.get, "/users/ann/name", .text("Ann").delayed(by: .seconds(10)))
        let session = Session(client: stub2, scheduler: scheduler2)
        let repository = CachedRepository(cache: InMemoryCache<String, String>()) { user in
            session.response(for: ConfigurableRequest<String>(path: "users/\(user)/name", convert: \.text))
        }
        let a = scheduler2.createObserver(String.self)
        var subscriptions: [Disposable] = []
        scheduler2.scheduleAt(200) { subscriptions.append(repository.value(for: "ann").map(text).subscribe(a)) }
        scheduler2.scheduleAt(201) { subscriptions.append(repository.value(for: "ann").map(text).subscribe(a)) }
        scheduler2.scheduleAt(205) { subscriptions.forEach { $0.dispose() } }
        scheduler2.start()
        XCTAssertEqual(a.events, [])
        XCTAssertEqual(stub2.requests.count, 1)
        XCTAssertEqual(stub2.cancelledRequests.count, 1, "the request was cancelled once nobody listened")
        XCTAssertEqual(repository.inFlightCount, 0)
    }

    func testRefreshAndCachedValue() throws {
        stub.stub(.get, "/users/ann/name", .text("Ann").delayed(by: .seconds(3)))
        let res = scheduler.start { self.repository.refresh("ann").asObservable() }
        XCTAssertEqual(res.events, [.next(203, "Ann"), .completed(203)])
        XCTAssertEqual(try repository.cachedValue(for: "ann").asObservable().toBlocking().toArray(), ["Ann"])
        XCTAssertEqual(try repository.cachedValue(for: "bob").asObservable().toBlocking().toArray(), [])

        let failing = TestScheduler(initialClock: 0)
        let stub2 = StubHTTPClient(scheduler: failing)
        stub2.stub(.get, "/x", .status(500))
        let repository2 = CachedRepository(cache: InMemoryCache<String, Int>()) { _ in
            Session(client: stub2, scheduler: failing).response(for: ConfigurableRequest<Int>(path: "x", convert: \.statusCode))
        }
        let failed = failing.start { repository2.refresh("k").asObservable() }
        XCTAssertEqual((failed.events.first?.value.error as? HTTPError)?.statusCode, 500)
    }

    func testFetchedAccessors() {
        let cached = Fetched<Int>.cached(1)
        let fresh = Fetched<Int>.fresh(2)
        let failed = Fetched<Int>.failed(TestError(), cached: 1)
        XCTAssertEqual([cached.value, fresh.value, failed.value], [1, 2, 1])
        XCTAssertEqual([cached.isFinal, fresh.isFinal, failed.isFinal], [false, true, true])
        XCTAssertEqual([cached.isStale, fresh.isStale, failed.isStale], [true, false, true])
        XCTAssertNil(cached.error)
        XCTAssertEqual(failed.error as? TestError, TestError())
    }

    func testInMemoryCache() throws {
        let cache = InMemoryCache<String, Int>(countLimit: 2)
        cache["a"] = 1
        cache["b"] = 2
        cache["a"] = 10
        cache["c"] = 3
        XCTAssertEqual(cache.count, 2)
        XCTAssertNil(cache["b"], "the oldest stored entry went first")
        XCTAssertEqual(cache["a"], 10)
        XCTAssertEqual(try cache.value(forKey: "c").asObservable().toBlocking().toArray(), [3])
        XCTAssertEqual(try cache.value(forKey: "zzz").asObservable().toBlocking().toArray(), [])
        XCTAssertEqual(try cache.setValue(5, forKey: "d").asObservable().toBlocking().toArray().count, 0)
        XCTAssertEqual(cache["d"], 5)
        _ = try cache.removeValue(forKey: "d").asObservable().toBlocking().toArray()
        XCTAssertNil(cache["d"])
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(InMemoryCache<Int, Int>(countLimit: 0).countLimit, 1)
        XCTAssertNil(InMemoryCache<Int, Int>().countLimit)
    }
}

extension Event {
    var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }
}
