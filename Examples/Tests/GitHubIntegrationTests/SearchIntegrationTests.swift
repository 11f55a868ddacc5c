import Foundation
import GitHubKit
import GitHubSearch
import GitHubStore
import MockGitHubAPI
import Ripple
import RippleHTTP
import TerminalUI
import XCTest

/// The view model and the screen on real threads, through the real transport
/// client, against the mock server: Drivers deliver on a serial queue.
final class SearchIntegrationTests: MockServerTestCase {
    let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "search-integration")

    func makeViewModel(server url: URL, query: BehaviorRelay<String>, retry: PublishRelay<Void>, database: GitHubCacheDatabase) -> SearchViewModel {
        let store = RepositoryStore(api: client(for: url), database: database)
        return SearchViewModel(
            input: .init(query: query.asDriver(), retry: retry.asSignal(), loadNextPage: .empty(), selection: .empty()),
            store: store)
    }

    func testKillingTheServerMidSearchShowsTheErrorAndRetryAfterRestartRecovers() throws {
        // The server runs in a process of its own, killed with SIGKILL mid-request.
        let server = try MockServerProcess(arguments: ["--latency-ms", "1500"])
        defer { server.kill() }
        let port = server.port
        let query = BehaviorRelay(value: "")
        let retry = PublishRelay<Void>()
        let states = Recorder<SearchState>()
        try SharingScheduler.mock(scheduler: queue) {
            let viewModel = makeViewModel(server: server.baseURL, query: query, retry: retry, database: try .inMemory())
            let subscription = viewModel.state.drive(onNext: states.append)
            defer { subscription.dispose() }

            query.accept("ripple")
            states.wait { $0 == .loading }
            // The request is in flight (the server waits 1.5 s before answering): kill it.
            server.kill()
            let error = states.wait { if case .error = $0 { true } else { false } }
            XCTAssertEqual(error, .error(message: "Cannot reach the server: connection refused", retryable: true))

            let restarted = try startServer(port: port)
            XCTAssertEqual(restarted.port, port)
            retry.accept(())
            let loaded = states.wait { if case .loaded = $0 { true } else { false } }
            guard case .loaded(let items, _)? = loaded else { return }
            XCTAssertTrue(items.contains { $0.fullName.lowercased().contains("ripple") })
            XCTAssertEqual(Array(states.values.suffix(3)).first, error)
        }
    }

    func testMalformedJSONShowsAnErrorNotACrash() throws {
        let server = try startServer { $0.malformedJSONRate = 1 }
        let query = BehaviorRelay(value: "")
        let states = Recorder<SearchState>()
        try SharingScheduler.mock(scheduler: queue) {
            let viewModel = makeViewModel(server: server.baseURL, query: query, retry: PublishRelay(), database: try .inMemory())
            let subscription = viewModel.state.drive(onNext: states.append)
            defer { subscription.dispose() }
            query.accept("ripple")
            states.wait { $0 == .error(message: "The server sent a malformed response", retryable: true) }
        }
    }

    func testTheScreenOnTheRealNetwork() throws {
        let server = try startServer()
        try SharingScheduler.mock(scheduler: queue) {
            let terminal = VirtualTerminal(size: TerminalSize(rows: 10, columns: 100))
            let store = RepositoryStore(api: client(for: server.baseURL), database: try .inMemory())
            let binding = TerminalApp.bind(SearchScreen(host: terminal, store: store, source: "mock"), to: terminal) {}
            defer { binding.dispose() }
            terminal.type("ripple language:swift")
            // One snapshot of the screen per look: two reads may straddle a frame.
            let deadline = Date().addingTimeInterval(20)
            func showsResults(_ screen: VirtualScreen) -> Bool {
                screen.lines[2].range(of: #"^\d+ repositories"#, options: .regularExpression) != nil
            }
            var screen = terminal.screen
            while Date() < deadline, !showsResults(screen) {
                Thread.sleep(forTimeInterval: 0.02)
                screen = terminal.screen
            }
            XCTAssertEqual(screen.lines[1], "Search: ripple language:swift")
            XCTAssertTrue(showsResults(screen), screen.text)
            XCTAssertTrue(screen.lines[4].hasPrefix("› "), screen.text)
            XCTAssertTrue(screen.lines[4].contains("Swift"), screen.text)
        }
    }
}
