import Foundation
import GitHubKit
import MockGitHubAPI
import Ripple
import RippleHTTP
import RippleTest
import XCTest

/// GitHubKit through the real transport (`makeHTTPClient()`) against the mock server on a
/// random port.
final class GitHubClientIntegrationTests: MockServerTestCase {
    func testSearchUserRepositoriesAndRepositoryLookup() throws {
        let server = try startServer()
        let github = client(for: server.baseURL)

        let search = try XCTUnwrap(github.searchRepositories("ripple", page: 1, perPage: 2).asObservable().toBlocking(timeout: 20).single())
        XCTAssertEqual(search.items.count, 2)
        XCTAssertGreaterThan(search.totalCount ?? 0, 2)
        XCTAssertTrue(search.hasMore, "from the Link header")
        XCTAssertTrue(search.items.allSatisfy { $0.ownerAvatarURL?.absoluteString.contains("/avatars/") ?? false })

        let owner = search.items[0].ownerLogin
        let first = try github.repositories(of: owner, page: 1, perPage: 100).asObservable().toBlocking(timeout: 20).single()
        XCTAssertTrue(first.items.allSatisfy { $0.ownerLogin.lowercased() == owner.lowercased() })
        XCTAssertFalse(first.hasMore)

        let repository = try github.repository(owner: search.items[0].ownerLogin, name: search.items[0].name)
            .asObservable().toBlocking(timeout: 20).single()
        XCTAssertEqual(repository.id, search.items[0].id)
        XCTAssertEqual(repository.ownerAvatarURL, search.items[0].ownerAvatarURL)

        XCTAssertEqual(server.requestCount, 3)
    }

    func testNotFoundAndValidationFailed() throws {
        let server = try startServer()
        let github = client(for: server.baseURL)
        let notFound = github.repositories(of: "no-such-user-here", page: 1, perPage: 30).asObservable().toBlocking(timeout: 20).materialize()
        guard case .failed(_, let error) = notFound, case .notFound? = error as? GitHubError else { return XCTFail("\(notFound)") }
        let invalid = github.searchRepositories(" ", page: 1, perPage: 30).asObservable().toBlocking(timeout: 20).materialize()
        guard case .failed(_, let invalidError) = invalid, case .invalidQuery? = invalidError as? GitHubError else { return XCTFail("\(invalid)") }
    }

    func testInjectedServerErrorsAreRetriedThenReported() throws {
        let server = try startServer { $0.failureRate = 1; $0.failureStatuses = [503] }
        let github = client(for: server.baseURL)
        let result = github.searchRepositories("ripple", page: 1, perPage: 5).asObservable().toBlocking(timeout: 20).materialize()
        guard case .failed(_, let error) = result, case .server(503, _)? = error as? GitHubError else { return XCTFail("\(result)") }
        XCTAssertEqual(server.requestCount, 3, "the first attempt and two retries")

        try server.updateBehavior { $0.failureRate = 0.5 }
        // With the server's seed, some of these attempts fail and are retried; all succeed.
        for _ in 0..<4 {
            XCTAssertNoThrow(try github.searchRepositories("kit", page: 1, perPage: 5).asObservable().toBlocking(timeout: 20).single())
        }
    }

    func testRateLimitingIsAClearErrorWithTheResetTime() throws {
        let server = try startServer { $0.rateLimit = .init(limit: 1, window: .seconds(120)) }
        let github = client(for: server.baseURL)
        XCTAssertNoThrow(try github.searchRepositories("ripple", page: 1, perPage: 5).asObservable().toBlocking(timeout: 20).single())
        let started = Date()
        let result = github.searchRepositories("ripple", page: 2, perPage: 5).asObservable().toBlocking(timeout: 20).materialize()
        guard case .failed(_, let error) = result, case .rateLimited(let limit)? = error as? GitHubError else {
            return XCTFail("\(result)")
        }
        XCTAssertEqual(server.requestCount, 2, "a primary rate limit is not retried")
        XCTAssertEqual(limit.limit, 1)
        let reset = try XCTUnwrap(limit.resetsAt)
        XCTAssertEqual(reset.timeIntervalSince(started), 120, accuracy: 5)
        let message = (error as? GitHubError)?.message(now: started) ?? ""
        XCTAssertTrue(message.hasPrefix("GitHub API rate limit exceeded (limit 1); resets at "), message)
        XCTAssertTrue(message.hasSuffix("(in 2 min)"), message)
    }

    func testMalformedJSONIsAnError() throws {
        let server = try startServer { $0.malformedJSONRate = 1 }
        let result = client(for: server.baseURL).searchRepositories("ripple", page: 1, perPage: 5).asObservable().toBlocking(timeout: 20).materialize()
        guard case .failed(_, let error) = result, case .malformedResponse? = error as? GitHubError else { return XCTFail("\(result)") }
    }

    func testAStoppedServerIsUnreachable() throws {
        let server = try startServer()
        let url = server.baseURL
        server.stopBlocking()
        let result = client(for: url, retryPolicy: .never).searchRepositories("ripple", page: 1, perPage: 5)
            .asObservable().toBlocking(timeout: 20).materialize()
        guard case .failed(_, let error) = result, case .unreachable? = error as? GitHubError else { return XCTFail("\(result)") }
        XCTAssertEqual((error as? GitHubError)?.message(), "Cannot reach the server: connection refused")
    }
}
