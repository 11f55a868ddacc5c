import Foundation
import GitHubKit
import GitHubSearch
import GitHubStore
import Ripple
import RippleHTTP
import RippleHTTPTesting
import RippleTest
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class SearchViewModelTests: XCTestCase {
    let a = repository(1, "alpha", stars: 300)
    let b = repository(2, "beta", stars: 20)
    let c = repository(3, "gamma", stars: 5)

    func testATypingBurstSendsOneRequestAfterTheDebounce() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", .json(searchBody([a, b])))
        let query = try world.scheduler.createHotObservable("-abc------", values: ["a": "r", "b": "ri", "c": "rip"], timing: frames)
        SharingScheduler.mock(scheduler: world.scheduler) {
            let viewModel = world.viewModel(query: query)
            let res = world.scheduler.start(created: 0, subscribed: 0, disposed: 2000) { viewModel.state }
            // The last key at 300 ms; the request 300 ms later; the answer 200 ms after that.
            assertMarbles(res, "i-----L-D", values: [
                "i": .initial, "L": .loading, "D": .loaded(items: [a, b], hasMore: false),
            ], timing: frames)
        }
        XCTAssertEqual(world.stub.requests.count, 1)
        XCTAssertEqual(world.stub.requests.first.flatMap { parameter("q", of: $0) }, "rip")
        assertSubscriptions(query, "^-------------------!", timing: frames)
    }

    func testANewerQueryCancelsTheOlderRequest() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories") { request in
            parameter("q", of: request) == "first" ? .json(searchBody([self.a])).delayed(by: .milliseconds(500)) : .json(searchBody([self.b]))
        }
        let query = try world.scheduler.createHotObservable("-a---b-------", values: ["a": "first", "b": "second"], timing: frames)
        SharingScheduler.mock(scheduler: world.scheduler) {
            let viewModel = world.viewModel(query: query)
            let res = world.scheduler.start(created: 0, subscribed: 0, disposed: 2000) { viewModel.state }
            // "first" is requested at 400 ms; "second" at 800 ms replaces it before its answer (900 ms).
            assertMarbles(res, "i---L-----D", values: [
                "i": .initial, "L": .loading, "D": .loaded(items: [b], hasMore: false),
            ], timing: frames)
        }
        XCTAssertEqual(world.stub.requests.compactMap { parameter("q", of: $0) }, ["first", "second"])
        XCTAssertEqual(world.stub.cancelledRequests.compactMap { parameter("q", of: $0) }, ["first"])
    }

    func testAnErrorShowsTheErrorStateAndRetryRecovers() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", sequence: [
            .json(#"{"message": "Server Error"}"#, statusCode: 500),
            .json(searchBody([a])),
        ])
        let query = try world.scheduler.createHotObservable("-q-----------", values: ["q": "kit"], timing: frames)
        let retry = try world.scheduler.createHotObservable("--r------r---", timing: frames)
        SharingScheduler.mock(scheduler: world.scheduler) {
            let viewModel = world.viewModel(query: query, retry: retry)
            let res = world.scheduler.start(created: 0, subscribed: 0, disposed: 2000) { viewModel.state }
            // A retry before anything failed does nothing; after the error it loads again.
            assertMarbles(res, "i---L-E--L-D", values: [
                "i": .initial, "L": .loading,
                "E": .error(message: "GitHub answered 500 Server Error", retryable: true),
                "D": .loaded(items: [a], hasMore: false),
            ], timing: frames)
        }
        XCTAssertEqual(world.stub.requests.count, 2)
    }

    func testANotRetryableErrorSaysSo() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", .json(#"{"message": "Validation Failed"}"#, statusCode: 422))
        let query = try world.scheduler.createHotObservable("-q-------", values: ["q": "stars:>>"], timing: frames)
        SharingScheduler.mock(scheduler: world.scheduler) {
            let viewModel = world.viewModel(query: query)
            let res = world.scheduler.start(created: 0, subscribed: 0, disposed: 1000) { viewModel.state }
            assertMarbles(res, "i---L-E", values: [
                "i": .initial, "L": .loading,
                "E": .error(message: "GitHub refused the query: Validation Failed", retryable: false),
            ], timing: frames)
        }
    }

    func testLoadNextPageAppendsTheNextPage() throws {
        let world = SearchWorld(perPage: 2)
        world.stub.stub(.get, "/search/repositories") { request in
            parameter("page", of: request) == "1" ? .json(searchBody([self.a, self.b], total: 3)) : .json(searchBody([self.c], total: 3))
        }
        let query = try world.scheduler.createHotObservable("-q--------------", values: ["q": "kit"], timing: frames)
        let next = try world.scheduler.createHotObservable("-----n----n---n-", timing: frames)
        SharingScheduler.mock(scheduler: world.scheduler) {
            let viewModel = world.viewModel(query: query, loadNextPage: next)
            let summaries = world.scheduler.createObserver(SearchSummary.self)
            let res = world.scheduler.start(created: 0, subscribed: 0, disposed: 2000) {
                viewModel.state.do(onSubscribe: { _ = viewModel.summary.drive(summaries) })
            }
            // "n" at 500 ms comes before page 1 (600 ms) and is ignored; the one at
            // 1000 ms loads page 2 (1200 ms); the last one finds no next page.
            assertMarbles(res, "i---L-P-----Q", values: [
                "i": .initial, "L": .loading,
                "P": .loaded(items: [a, b], hasMore: true),
                "Q": .loaded(items: [a, b, c], hasMore: false),
            ], timing: frames)
            XCTAssertTrue(summaries.events.contains { $0.value.element?.isLoadingMore == true && $0.time < 1200 })
            XCTAssertEqual(summaries.events.last?.value.element?.totalCount, 3)
        }
        XCTAssertEqual(world.stub.requests.compactMap { parameter("page", of: $0) }, ["1", "2"])
    }

    func testEmptyResultsShowTheEmptyStateAndClearingTheQueryGoesBackToInitial() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", .json(searchBody([])))
        let query = try world.scheduler.createHotObservable("-q-----x-----", values: ["q": "zzz", "x": "  "], timing: frames)
        SharingScheduler.mock(scheduler: world.scheduler) {
            let viewModel = world.viewModel(query: query)
            let res = world.scheduler.start(created: 0, subscribed: 0, disposed: 2000) { viewModel.state }
            assertMarbles(res, "i---L-e---i", values: ["i": .initial, "L": .loading, "e": .empty], timing: frames)
        }
        XCTAssertEqual(world.stub.requests.count, 1, "a blank query sends nothing")
    }

    func testCachedResultsShowFirstThenTheNetworks() throws {
        let world = SearchWorld()
        let cached = RepositoryPage(items: [a], page: 1, perPage: 30, totalCount: 1, hasMore: false)
        _ = world.database.cache(RepositoryPage.self, timeToLive: 600)
            .setValue(cached, forKey: .search(query: "kit", page: 1, perPage: 30)).subscribe()
        world.stub.stub(.get, "/search/repositories", .json(searchBody([a, b])).delayed(by: .milliseconds(500)))
        let query = try world.scheduler.createHotObservable("-q------------", values: ["q": "kit"], timing: frames)
        SharingScheduler.mock(scheduler: world.scheduler) {
            let viewModel = world.viewModel(query: query)
            let summaries = world.scheduler.createObserver(SearchSummary.self)
            let res = world.scheduler.start(created: 0, subscribed: 0, disposed: 2000) {
                viewModel.state.do(onSubscribe: { _ = viewModel.summary.drive(summaries) })
            }
            assertMarbles(res, "i---(LC)-F", values: [
                "i": .initial, "L": .loading,
                "C": .loaded(items: [a], hasMore: false),
                "F": .loaded(items: [a, b], hasMore: false),
            ], timing: frames)
            XCTAssertEqual(summaries.events.map { $0.value.element?.isRefreshing }, [false, false, true, false])
        }
    }

    func testOfflineKeepsTheCachedResultsWithANoticeAndRetryRecovers() throws {
        let world = SearchWorld()
        let cached = RepositoryPage(items: [a], page: 1, perPage: 30, totalCount: 1, hasMore: false)
        _ = world.database.cache(RepositoryPage.self, timeToLive: 600)
            .setValue(cached, forKey: .search(query: "kit", page: 1, perPage: 30)).subscribe()
        world.stub.stub(.get, "/search/repositories", sequence: [.failure(.cannotConnectToHost), .json(searchBody([a, b]))])
        let query = try world.scheduler.createHotObservable("-q------------", values: ["q": "kit"], timing: frames)
        let retry = try world.scheduler.createHotObservable("--------r-----", timing: frames)
        SharingScheduler.mock(scheduler: world.scheduler) {
            let viewModel = world.viewModel(query: query, retry: retry)
            let res = world.scheduler.start(created: 0, subscribed: 0, disposed: 2000) { viewModel.summary }
            let summaries = res.events.compactMap(\.value.element)
            let offline = summaries.first { $0.notice != nil }
            XCTAssertEqual(offline?.state, .loaded(items: [a], hasMore: false))
            XCTAssertEqual(offline?.notice, "Cannot reach the server: connection refused (showing cached results)")
            XCTAssertEqual(offline?.canRetry, true)
            XCTAssertEqual(summaries.last?.state, .loaded(items: [a, b], hasMore: false))
            XCTAssertNil(summaries.last?.notice)
        }
        XCTAssertEqual(world.stub.requests.count, 2)
    }

    func testSelectionOpensTheDetailsWithTheFullRepository() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/repos/ann/alpha", .json(
            #"{"id": 1, "name": "alpha", "owner": {"login": "ann"}, "stargazers_count": 301, "topics": ["kit"]}"#))
        let query = try world.scheduler.createHotObservable("--------", values: [:], timing: frames)
        let selection: TestableObservable<Repository?> = try world.scheduler.createHotObservable(
            "-s----x-", values: ["s": a, "x": nil], timing: frames)
        SharingScheduler.mock(scheduler: world.scheduler) {
            let viewModel = world.viewModel(query: query, selection: selection)
            let res = world.scheduler.start(created: 0, subscribed: 0, disposed: 1000) { viewModel.details }
            let full = Repository(id: 1, name: "alpha", ownerLogin: "ann", stargazersCount: 301, topics: ["kit"])
            assertMarbles(res, "nl-f--n", values: [
                "n": nil, "l": RepositoryDetails(repository: a, isLoading: true), "f": RepositoryDetails(repository: full),
            ], timing: frames)
        }
    }

    func testOnlyTheLatestQueryCountsEvenWhenTheOlderAnswersLast() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories") { request in
            parameter("q", of: request) == "slow" ? .json(searchBody([self.a])).delayed(by: .milliseconds(900)) : .json(searchBody([self.b]))
        }
        let query = try world.scheduler.createHotObservable("-s---f----------", values: ["s": "slow", "f": "fast"], timing: frames)
        SharingScheduler.mock(scheduler: world.scheduler) {
            let viewModel = world.viewModel(query: query)
            let res = world.scheduler.start(created: 0, subscribed: 0, disposed: 2000) { viewModel.state }
            XCTAssertEqual(res.events.compactMap(\.value.element).last, .loaded(items: [b], hasMore: false))
            XCTAssertFalse(res.events.contains { $0.value.element == .loaded(items: [a], hasMore: false) })
        }
    }
}
