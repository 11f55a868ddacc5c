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

/// 1 tick = 1 ms; 1 marble frame = 100 ms, frame 0 at time 0.
let frames = MarbleTiming(ticksPerFrame: 100, origin: 0)

func repository(_ id: Int, _ name: String, stars: Int = 10, language: String? = "Swift", description: String? = nil) -> Repository {
    Repository(
        id: id, name: name, ownerLogin: "ann", ownerAvatarURL: URL(string: "https://avatars.example.com/u/1"),
        description: description ?? "The \(name) library", language: language, stargazersCount: stars)
}

/// A search response body with `items` and `total`.
func searchBody(_ items: [Repository], total: Int? = nil) -> String {
    String(decoding: try! GitHubJSON.encoder.encode(SearchResponse(totalCount: total ?? items.count, items: items)), as: UTF8.self)
}

/// The query parameter `name` of a recorded request.
func parameter(_ name: String, of request: URLRequest) -> String? {
    request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?.queryItems?.first { $0.name == name }?.value
}

/// A view model's world in virtual time: a stub server, a client without retries
/// (so that failures show at once), an in-memory SQLite cache.
final class SearchWorld {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    let stub: StubHTTPClient
    let database: GitHubCacheDatabase
    let store: RepositoryStore

    init(perPage: Int = 30, retryPolicy: GitHubRetryPolicy = .never) {
        stub = StubHTTPClient(scheduler: scheduler, defaultDelay: .milliseconds(200))
        database = try! GitHubCacheDatabase.inMemory()
        let api = GitHubClient(session: Session(client: stub, scheduler: scheduler), baseURL: URL(string: "http://mock.test")!, retryPolicy: retryPolicy)
        store = RepositoryStore(api: api, database: database, perPage: perPage)
    }

    /// Builds a view model from marble inputs (inside `SharingScheduler.mock`).
    func viewModel(
        query: TestableObservable<String>,
        retry: TestableObservable<String>? = nil,
        loadNextPage: TestableObservable<String>? = nil,
        selection: TestableObservable<Repository?>? = nil
    ) -> SearchViewModel {
        SearchViewModel(
            input: .init(
                query: query.asDriver(onErrorJustReturn: ""),
                retry: (retry?.asObservable() ?? .never()).map { _ in () }.asSignal(onErrorSignalWith: .empty()),
                loadNextPage: (loadNextPage?.asObservable() ?? .never()).map { _ in () }.asSignal(onErrorSignalWith: .empty()),
                selection: (selection?.asObservable() ?? .never()).asSignal(onErrorSignalWith: .empty())),
            store: store)
    }
}
