import Foundation
import Ripple
import RippleHTTP
import RippleHTTPTesting
import RippleRepository
import RippleTest
import XCTest

// docs/Networking.md's example, compiled and run.

// 1. One type per endpoint.
struct Repository: Decodable, Equatable {
    let id: Int
    let fullName: String        // "full_name" in the JSON
    let stargazersCount: Int
    let updatedAt: Date         // ISO-8601
}

struct UserRepositories: Request {
    typealias Response = [Repository]
    let user: String
    var baseURL: URL { URL(string: "https://api.github.com")! }
    var path: String { "users/\(user)/repos" }
    var queryParameters: HTTPParameters { ["sort": "updated", "per_page": 30] }
}

struct AvatarURL: Request {     // a value nested in the JSON: one line
    typealias Response = URL
    let owner: String, name: String
    var baseURL: URL { URL(string: "https://api.github.com")! }
    var path: String { "repos/\(owner)/\(name)" }
    var decodingKeyPath: String? { "owner.avatar_url" }
}

// 2. The service's API, and its client on a Session.
protocol GitHubAPI: Sendable {
    func repositories(of user: String) -> Single<[Repository]>
}

struct GitHubClient: GitHubAPI, APIClient {
    let session: Session
    var baseURL: URL?           // nil: api.github.com; a mock server's URL in tests and demos
    var headerFields: HTTPHeaders { ["Accept": "application/vnd.github+json"] }

    func repositories(of user: String) -> Single<[Repository]> {
        send(UserRepositories(user: user))
    }
}

// 3. The view model: cached results first, then fresh ones; errors keep what we had.
final class RepositoriesViewModel {
    enum State: Equatable {
        case idle
        case loading
        case loaded([Repository], refreshing: Bool)
        case failed(String, cached: [Repository])
    }

    let user = BehaviorRelay(value: "")     // bound to the text field
    let state: Observable<State>            // drives the screen

    init(api: GitHubAPI, cache: some ValueCache<String, [Repository]>, scheduler: SchedulerType = MainScheduler.instance) {
        let repositories = CachedRepository(cache: cache) { user in api.repositories(of: user) }
        state = user.asObservable()
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .debounce(.milliseconds(300), scheduler: scheduler)
            .distinctUntilChanged()
            .flatMapLatest { user -> Observable<State> in    // only the latest request counts
                guard !user.isEmpty else { return .just(.idle) }
                return repositories.value(for: user)
                    .map { fetched -> State in
                        switch fetched {
                        case .cached(let repos): return .loaded(repos, refreshing: true)
                        case .fresh(let repos): return .loaded(repos, refreshing: false)
                        case .failed(let error, let cached): return .failed("\(error)", cached: cached ?? [])
                        }
                    }
                    .startWith(.loading)
            }
            .observe(on: scheduler)
            .share(replay: 1)
    }
}

final class NetworkingExampleTests: HTTPTestCase {
    func testTheViewModelInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)   // 1 tick = 1 ms
        let stub = StubHTTPClient(scheduler: scheduler)
        stub.stub(.get, "/users/octocat/repos", .json(
            #"[{"id": 1, "full_name": "octocat/hello", "stargazers_count": 80, "updated_at": "2024-05-01T12:00:00Z"}]"#
        ).delayed(by: .milliseconds(100)))
        stub.stub(.get, "/users/nobody/repos", .json(#"{"message": "Not Found"}"#, statusCode: 404).delayed(by: .milliseconds(50)))
        let api = GitHubClient(session: Session(client: stub, scheduler: scheduler), baseURL: URL(string: "http://mock.test")!)
        let cache = InMemoryCache<String, [Repository]>()
        let hello = Repository(id: 1, fullName: "octocat/hello", stargazersCount: 80, updatedAt: Date(timeIntervalSince1970: 1_714_564_800))
        let stale = Repository(id: 1, fullName: "octocat/hello", stargazersCount: 79, updatedAt: Date(timeIntervalSince1970: 0))
        cache["octocat"] = [stale]

        let viewModel = RepositoriesViewModel(api: api, cache: cache, scheduler: scheduler)
        scheduler.scheduleAt(1000) { viewModel.user.accept("octo") }
        scheduler.scheduleAt(1100) { viewModel.user.accept("octocat ") }
        scheduler.scheduleAt(3000) { viewModel.user.accept("nobody") }
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 10_000) { viewModel.state }

        // Debounced 300 ms (+1 tick to deliver on the scheduler); "octo" never went out.
        // `.loading` and the cached value arrive together at 1400; observe(on:)
        // delivers each in its own scheduled action (RxSwift), so one tick apart.
        XCTAssertEqual(res.events.map(\.time), [301, 1401, 1402, 1501, 3301, 3351])
        XCTAssertEqual(res.events[0].value.element, .idle)
        XCTAssertEqual(res.events[1].value.element, .loading)
        XCTAssertEqual(res.events[2].value.element, .loaded([stale], refreshing: true))
        XCTAssertEqual(res.events[3].value.element, .loaded([hello], refreshing: false))
        XCTAssertEqual(res.events[4].value.element, .loading)
        XCTAssertEqual(res.events[5].value.element, .failed(#"Unacceptable HTTP status 404 Not Found (application/json): {"message": "Not Found"}"#, cached: []))
        XCTAssertEqual(stub.requests.map { $0.url?.absoluteString }, [
            "http://mock.test/users/octocat/repos?sort=updated&per_page=30",
            "http://mock.test/users/nobody/repos?sort=updated&per_page=30",
        ])
        XCTAssertEqual(stub.requests.first?.value(forHTTPHeaderField: "Accept"), "application/vnd.github+json")
        XCTAssertEqual(cache["octocat"], [hello])
    }

    func testTheAppWiringCompiles() {
        let lines = Recorder<String>()
        let session = Session(
            client: URLSessionHTTPClient(),
            timeout: .seconds(15),
            retryPolicy: .default,
            logger: HTTPLogger { lines.append($0.description) }
        )
        let viewModel = RepositoriesViewModel(api: GitHubClient(session: session), cache: InMemoryCache())
        XCTAssertEqual(viewModel.user.value, "")
        XCTAssertNotNil(Session(logger: .print).client as? LoggingHTTPClient)
        XCTAssertTrue(lines.values.isEmpty, "nothing is sent until somebody subscribes")
    }

    func testAvatarRequestDecodesTheNestedValue() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/repos/octocat/hello", .json(repoJSON))
        let avatar = try outcome(of: Session(client: stub).response(for: AvatarURL(owner: "octocat", name: "hello")))?.get()
        XCTAssertEqual(avatar?.absoluteString, "https://avatars.example/u/583231")
    }
}

// docs/Networking.md's test of the view model, word for word
// (`testTheReadmeShowsTheseTests` checks that).
final class RepositoriesViewModelTests: XCTestCase {
    func testCachedResultsFirstThenFreshOnes() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)     // 1 tick = 1 ms
        let stub = StubHTTPClient(scheduler: scheduler)
        stub.stub(.get, "/users/octocat/repos", .json("""
            [{"id": 1, "full_name": "octocat/hello", "stargazers_count": 80, "updated_at": "2024-05-01T12:00:00Z"}]
            """).delayed(by: .milliseconds(100)))
        let api = GitHubClient(session: Session(client: stub, scheduler: scheduler), baseURL: URL(string: "http://mock.test")!)
        let stale = Repository(id: 1, fullName: "octocat/hello", stargazersCount: 79, updatedAt: Date(timeIntervalSince1970: 0))
        let cache = InMemoryCache<String, [Repository]>()
        cache["octocat"] = [stale]
        let viewModel = RepositoriesViewModel(api: api, cache: cache, scheduler: scheduler)

        scheduler.scheduleAt(1000) { viewModel.user.accept("octocat") }
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 10_000) { viewModel.state }

        let fresh = Repository(id: 1, fullName: "octocat/hello", stargazersCount: 80, updatedAt: Date(timeIntervalSince1970: 1_714_564_800))
        XCTAssertEqual(res.events, [
            .next(301, .idle),                                  // debounced 300 ms, delivered 1 tick later
            .next(1301, .loading),
            .next(1302, .loaded([stale], refreshing: true)),    // the cache first (observe(on:): one tick per event)
            .next(1401, .loaded([fresh], refreshing: false)),   // then the server's answer, 100 ms later
        ])
        XCTAssertEqual(stub.requests.map { $0.url?.absoluteString }, ["http://mock.test/users/octocat/repos?sort=updated&per_page=30"])
        XCTAssertEqual(cache["octocat"], [fresh])
    }
}

final class NetworkingGuideTests: XCTestCase {
    func testTheNetworkingGuideShowsTheseTests() throws {
        let file = URL(fileURLWithPath: #filePath)
        let readme = file.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/Networking.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let source = try String(contentsOf: file, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "final class RepositoriesViewModelTests"))
        let end = try XCTUnwrap(text.range(of: "\n```", range: start.lowerBound..<text.endIndex))
        let shown = String(text[start.lowerBound..<end.lowerBound])
        XCTAssertTrue(source.contains(shown), "docs/Networking.md's RepositoriesViewModelTests differs from this file's:\n\(shown)")
    }
}
