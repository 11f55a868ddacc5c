import Foundation
import GitHubKit
import Ripple
import RippleHTTP
import RippleHTTPTesting
import RippleTest
import XCTest

final class GitHubClientTests: XCTestCase {
    var scheduler: TestScheduler!
    var stub: StubHTTPClient!
    var client: GitHubClient!

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0, resolution: 0.001)     // 1 tick = 1 ms
        stub = StubHTTPClient(scheduler: scheduler)
        client = GitHubClient(session: Session(client: stub, scheduler: scheduler), baseURL: URL(string: "http://mock.test")!)
    }

    static func searchBody(_ names: [String], total: Int? = nil) -> String {
        let items = names.enumerated().map { Repository(id: $0.offset + 1, name: $0.element, ownerLogin: "ann", stargazersCount: 10) }
        let data = try! GitHubJSON.encoder.encode(SearchResponse(totalCount: total ?? names.count, items: items))
        return String(decoding: data, as: UTF8.self)
    }

    func testSearchSendsGitHubHeadersAndDecodesThePage() {
        stub.stub(.get, "/search/repositories", .json(Self.searchBody(["a", "b"], total: 12)).delayed(by: .milliseconds(50)))
        let res = scheduler.start { self.client.searchRepositories("kit", page: 1, perPage: 2).asObservable() }
        XCTAssertEqual(res.events.count, 2)
        XCTAssertEqual(res.events.first?.time, 250)
        let page = res.events.first?.value.element
        XCTAssertEqual(page?.items.map(\.fullName), ["ann/a", "ann/b"])
        XCTAssertEqual(page?.totalCount, 12)
        XCTAssertEqual(page?.hasMore, true)
        let request = stub.requests.first
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Accept"), "application/vnd.github+json")
        XCTAssertEqual(request?.value(forHTTPHeaderField: "User-Agent"), "Ripple-github-search")
        XCTAssertNil(request?.value(forHTTPHeaderField: "Authorization"))
        XCTAssertEqual(request?.url?.query, "q=kit&page=1&per_page=2")
    }

    func testTokenIsSentAsBearer() {
        stub.stub(.get, "/repos/ann/kit", .json(#"{"id": 1, "name": "kit", "owner": {"login": "ann"}}"#))
        client.token = "t0k"
        let res = scheduler.start { self.client.repository(owner: "ann", name: "kit").asObservable() }
        XCTAssertEqual(res.events.first?.value.element?.fullName, "ann/kit")
        XCTAssertEqual(stub.requests.first?.value(forHTTPHeaderField: "Authorization"), "Bearer t0k")
    }

    func testServerErrorsAreRetriedWithBackoffThenSucceed() {
        stub.stub(.get, "/search/repositories", sequence: [.status(502), .status(503), .json(Self.searchBody(["a"]))])
        let res = scheduler.start { self.client.searchRepositories("kit", page: 1, perPage: 30).asObservable() }
        // Attempts at 200, 450 (after 0.25 s) and 950 (after 0.5 s more).
        XCTAssertEqual(res.events.map(\.time), [950, 950])
        XCTAssertEqual(res.events.first?.value.element?.items.count, 1)
        XCTAssertEqual(stub.requests.count, 3)
    }

    func testServerErrorsAfterTheRetriesBecomeAGitHubError() {
        stub.stub(.get, "/search/repositories", .json(#"{"message": "Service Unavailable"}"#, statusCode: 503))
        let res = scheduler.start { self.client.searchRepositories("kit", page: 1, perPage: 30).asObservable() }
        XCTAssertEqual(stub.requests.count, 3)
        guard case .server(503, let message)? = res.events.first?.value.error as? GitHubError else {
            return XCTFail("expected a server error, got \(res.events)")
        }
        XCTAssertEqual(message, "Service Unavailable")
        XCTAssertTrue((res.events.first?.value.error as? GitHubError)?.isRetryable ?? false)
    }

    func testPrimaryRateLimitIsNotRetriedAndCarriesTheResetTime() throws {
        let reset = 1_900_000_000
        stub.stub(.get, "/search/repositories", .json(
            #"{"message": "API rate limit exceeded for 127.0.0.1.", "documentation_url": "https://docs.github.com/rest"}"#,
            statusCode: 403,
            headers: ["X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "\(reset)", "X-RateLimit-Used": "60"]))
        let res = scheduler.start { self.client.searchRepositories("kit", page: 1, perPage: 30).asObservable() }
        XCTAssertEqual(stub.requests.count, 1, "a rate limit that resets far away is not waited for")
        let error = try XCTUnwrap(res.events.first?.value.error as? GitHubError)
        guard case .rateLimited(let limit) = error else { return XCTFail("expected rateLimited, got \(error)") }
        XCTAssertEqual(limit.limit, 60)
        XCTAssertEqual(limit.resetsAt, Date(timeIntervalSince1970: TimeInterval(reset)))
        XCTAssertEqual(limit.message, "API rate limit exceeded for 127.0.0.1.")
        let now = Date(timeIntervalSince1970: TimeInterval(reset - 170))
        XCTAssertEqual(
            error.message(now: now, timeZone: TimeZone(identifier: "UTC")!),
            "GitHub API rate limit exceeded (limit 60); resets at \(Date(timeIntervalSince1970: TimeInterval(reset)).formatted(Self.utcTime)) (in 3 min)")
        XCTAssertTrue(error.isRetryable)
    }

    static var utcTime: Date.FormatStyle {
        var style = Date.FormatStyle(date: .omitted, time: .standard)
        style.timeZone = TimeZone(identifier: "UTC")!
        return style
    }

    func testSecondaryRateLimitWithRetryAfterIsRetriedWhenTheWaitIsShort() {
        client.retryPolicy.maxRateLimitWait = 5
        stub.stub(.get, "/search/repositories", sequence: [
            .json(#"{"message": "You have exceeded a secondary rate limit."}"#, statusCode: 403, headers: ["Retry-After": "2"]),
            .json(Self.searchBody(["a"])),
        ])
        let res = scheduler.start(created: 0, subscribed: 200, disposed: 10_000) {
            self.client.searchRepositories("kit", page: 1, perPage: 30).asObservable()
        }
        XCTAssertEqual(res.events.first?.time, 2200)
        XCTAssertEqual(stub.requests.count, 2)
    }

    func testRateLimitResettingSoonIsWaitedForWhenAllowed() {
        client.retryPolicy.maxRateLimitWait = 10
        // The TestScheduler's clock starts at the epoch: the limit resets 3 s after it.
        stub.stub(.get, "/search/repositories", sequence: [
            .json(#"{"message": "API rate limit exceeded"}"#, statusCode: 403,
                  headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "3"]),
            .json(Self.searchBody(["a"])),
        ])
        let res = scheduler.start(created: 0, subscribed: 200, disposed: 10_000) {
            self.client.searchRepositories("kit", page: 1, perPage: 30).asObservable()
        }
        // Failed at 0.2 s; waits until the reset (3 s) plus one second.
        XCTAssertEqual(res.events.first?.time, 4000)
        XCTAssertEqual(stub.requests.count, 2)
    }

    func testForbiddenWithoutRateLimitSignalsIsNotRetried() {
        stub.stub(.get, "/repos/ann/secret", .json(#"{"message": "Resource not accessible"}"#, statusCode: 403))
        let res = scheduler.start { self.client.repository(owner: "ann", name: "secret").asObservable() }
        XCTAssertEqual(stub.requests.count, 1)
        guard case .server(403, "Resource not accessible")? = res.events.first?.value.error as? GitHubError else {
            return XCTFail("\(res.events)")
        }
    }

    func testNotFoundAndValidationFailedAreNotRetriedNorRetryable() {
        stub.stub(.get, "/users/nobody/repos", .json(#"{"message": "Not Found"}"#, statusCode: 404))
        stub.stub(.get, "/search/repositories", .json(#"{"message": "Validation Failed"}"#, statusCode: 422))
        let notFound = scheduler.start { self.client.repositories(of: "nobody", page: 1, perPage: 30).asObservable() }
        let invalid = scheduler.start(created: 1000, subscribed: 1000, disposed: 2000) {
            self.client.searchRepositories(" ", page: 1, perPage: 30).asObservable()
        }
        XCTAssertEqual(stub.requests.count, 2)
        let notFoundError = notFound.events.first?.value.error as? GitHubError
        let invalidError = invalid.events.first?.value.error as? GitHubError
        XCTAssertEqual(notFoundError?.message(), "Not found: no account “nobody” (Not Found)")
        XCTAssertEqual(invalidError?.message(), "GitHub refused the query: Validation Failed")
        XCTAssertEqual(notFoundError?.isRetryable, false)
        XCTAssertEqual(invalidError?.isRetryable, false)
    }

    /// GitHub says only "Not Found": the message says what was not found.
    func testNotFoundSaysWhatWasNotFound() {
        stub.stub(.get, "/repos/ann/gone", .json(#"{"message": "Not Found"}"#, statusCode: 404))
        let gone = scheduler.start { self.client.repository(owner: "ann", name: "gone").asObservable() }
        XCTAssertEqual((gone.events.first?.value.error as? GitHubError)?.message(), "Not found: no repository “ann/gone” (Not Found)")
    }

    func testMalformedJSONIsAnErrorNotACrash() {
        stub.stub(.get, "/search/repositories", .json(#"{"total_count": 3, "items": [{"id": 1, "na"#))
        let res = scheduler.start { self.client.searchRepositories("kit", page: 1, perPage: 30).asObservable() }
        XCTAssertEqual(stub.requests.count, 1, "a malformed body is not retried")
        guard case .malformedResponse? = res.events.first?.value.error as? GitHubError else {
            return XCTFail("\(res.events)")
        }
        XCTAssertEqual((res.events.first?.value.error as? GitHubError)?.message(), "The server sent a malformed response")
    }

    func testConnectionFailuresAreRetriedThenReportedAsUnreachable() {
        stub.stub(.get, "/search/repositories", .failure(.cannotConnectToHost))
        let res = scheduler.start { self.client.searchRepositories("kit", page: 1, perPage: 30).asObservable() }
        XCTAssertEqual(stub.requests.count, 3)
        XCTAssertEqual((res.events.first?.value.error as? GitHubError)?.message(), "Cannot reach the server: connection refused")
    }

    func testDisposingCancelsTheRequest() {
        stub.stub(.get, "/search/repositories", .json(Self.searchBody(["a"])).delayed(by: .seconds(1)))
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 300) {
            self.client.searchRepositories("kit", page: 1, perPage: 30).asObservable()
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(stub.cancelledRequests.count, 1)
    }
}

final class GitHubRetryPolicyTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1000)

    func error(_ status: Int, _ headers: HTTPHeaders = [:], body: String = "") -> HTTPError {
        .unacceptableStatusCode(status, headers: headers, body: Data(body.utf8))
    }

    func testDelays() {
        let policy = GitHubRetryPolicy.default
        XCTAssertEqual(policy.delay(beforeRetry: 1, after: error(500), now: now), 0.25)
        XCTAssertEqual(policy.delay(beforeRetry: 2, after: error(502), now: now), 0.5)
        XCTAssertNil(policy.delay(beforeRetry: 3, after: error(502), now: now), "two retries by default")
        XCTAssertNil(policy.delay(beforeRetry: 1, after: error(501), now: now))
        XCTAssertNil(policy.delay(beforeRetry: 1, after: error(404), now: now))
        XCTAssertEqual(policy.delay(beforeRetry: 1, after: error(503, ["Retry-After": "1"]), now: now), 1)
        XCTAssertEqual(policy.delay(beforeRetry: 1, after: error(429), now: now), 0.25, "429 without headers: backoff")
        XCTAssertNil(policy.delay(beforeRetry: 1, after: error(429, ["Retry-After": "30"]), now: now), "longer than the wait limit")
        XCTAssertNil(policy.delay(beforeRetry: 1, after: error(403, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1002"]), now: now))
        XCTAssertNil(policy.delay(beforeRetry: 1, after: HTTPError.undecodableBody(URLError(.unknown), body: Data()), now: now))
        XCTAssertEqual(policy.delay(beforeRetry: 1, after: HTTPError.transport(URLError(.timedOut)), now: now), 0.25)
        XCTAssertEqual(policy.delay(beforeRetry: 2, after: HTTPError.transport(URLError(.badServerResponse)), now: now), 0.5,
                       "an empty reply (a connection closed without an answer) is retried")
        XCTAssertNil(GitHubRetryPolicy.never.delay(beforeRetry: 1, after: error(500), now: now))

        var patient = GitHubRetryPolicy.default
        patient.maxRateLimitWait = 60
        XCTAssertEqual(patient.delay(beforeRetry: 1, after: error(403, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1002"]), now: now), 3)
        XCTAssertEqual(patient.delay(beforeRetry: 1, after: error(429, ["Retry-After": "30"]), now: now), 30)
        XCTAssertNil(patient.delay(beforeRetry: 1, after: error(403, body: #"{"message": "secondary rate limit"}"#), now: now),
                     "a secondary limit without headers asks for a minute or more")
    }

    /// The reason GitHub gives is shown, not only its headline ("Validation
    /// Failed", "Not Found").
    func testTheReasonTheAPIGivesIsInTheMessage() {
        let outOfRange = #"{"message": "Validation Failed", "errors": [{"message": "stars:>9223372036854775807 is out of range: numbers must be between -2147483648 and 2147483647", "resource": "Search", "field": "q", "code": "invalid"}], "documentation_url": "https://docs.github.com/rest/search/search#search-repositories", "status": "422"}"#
        XCTAssertEqual(
            GitHubError(error(422, body: outOfRange)).message(),
            "GitHub refused the query: Validation Failed: stars:>9223372036854775807 is out of range: numbers must be between -2147483648 and 2147483647")
        let missing = #"{"message": "Validation Failed", "errors": [{"resource": "Search", "field": "q", "code": "missing"}]}"#
        XCTAssertEqual(GitHubError(error(422, body: missing)).message(), "GitHub refused the query: Validation Failed: q is missing")
        let two = #"{"message": "Validation Failed", "errors": [{"field": "per_page", "code": "invalid"}, {"message": "too long"}]}"#
        XCTAssertEqual(GitHubError(error(422, body: two)).message(), "GitHub refused the query: Validation Failed: per_page is invalid; too long")

    }

    func testGitHubErrorClassification() {
        XCTAssertEqual(GitHubError(error(404, body: #"{"message": "Not Found"}"#)).message(), "Not found: Not Found")
        XCTAssertEqual(GitHubError(error(500)).message(), "GitHub answered 500 Internal Server Error")
        XCTAssertEqual(GitHubError(error(429)).message(), "GitHub API rate limit exceeded")
        guard case .rateLimited = GitHubError(error(403, ["X-RateLimit-Remaining": "0"])) else { return XCTFail() }
        guard case .server(403, _) = GitHubError(error(403)) else { return XCTFail() }
        XCTAssertEqual(GitHubError(HTTPError.transport(URLError(.timedOut))).message(), "Cannot reach the server: the request timed out")
        XCTAssertEqual(GitHubError(HTTPError.transport(URLError(.badServerResponse))).message(),
                       "Cannot reach the server: the server closed the connection without answering")
    }
}
