import Foundation
import MockGitHubAPI
import Ripple
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server over real HTTP, with `URLSession`, on a random loopback port.
final class MockGitHubServerTests: ServerTestCase {
    // MARK: - Endpoints

    func testServesTheBundledFixturesOnARandomLoopbackPort() async throws {
        let server = try await startServer()
        XCTAssertEqual(server.host, "127.0.0.1")
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)")

        let fixtures = try FixtureSet.bundled()
        let sample = try XCTUnwrap(fixtures.repositories.max { $0.stargazersCount < $1.stargazersCount })
        let result = try await client.get(server, "/repos/\(sample.owner)/\(sample.name)")
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.header("Content-Type"), "application/json; charset=utf-8")
        let repository: ClientRepository = try result.decode()
        XCTAssertEqual(repository.id, sample.id)
        XCTAssertEqual(repository.fullName, sample.fullName)
        XCTAssertEqual(repository.owner.login, sample.owner)
        XCTAssertEqual(repository.stargazersCount, sample.stargazersCount)
        XCTAssertEqual(repository.watchersCount, sample.stargazersCount)
        XCTAssertEqual(repository.language, sample.language)
        XCTAssertEqual(repository.topics, sample.topics)
        XCTAssertEqual(repository.createdAt, sample.createdAt)
        XCTAssertEqual(repository.pushedAt, sample.pushedAt)
        XCTAssertEqual(repository.url, "\(server.baseURL.absoluteString)/repos/\(sample.fullName)")
        XCTAssertTrue(repository.owner.avatarUrl.hasPrefix("https://"))
    }

    func testUserRepositoriesPaginateWithGitHubDefaultsAndLinkHeaders() async throws {
        let server = try await startServer()
        let fixtures = try FixtureSet.bundled()
        // The account with the most repositories, so that there are several pages.
        let counts = Dictionary(grouping: fixtures.repositories, by: \.owner).mapValues(\.count)
        let (login, count) = try XCTUnwrap(counts.max { $0.value < $1.value })
        XCTAssertGreaterThan(count, 10)

        // Default page size is 30.
        let first = try await client.get(server, "/users/\(login)/repos")
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(try first.decode([ClientRepository].self).count, min(30, count))

        // Walk the pages through rel="next" with per_page=7.
        var url: URL? = URL(string: "\(server.baseURL.absoluteString)/users/\(login)/repos?per_page=7")
        var collected: [ClientRepository] = []
        var pages = 0
        while let next = url {
            let page = try await client.get(next)
            XCTAssertEqual(page.status, 200)
            let items = try page.decode([ClientRepository].self)
            XCTAssertLessThanOrEqual(items.count, 7)
            collected += items
            pages += 1
            let links = page.links
            if pages == 1 {
                XCTAssertNil(links["prev"])
                XCTAssertNil(links["first"])
            } else {
                XCTAssertNotNil(links["prev"])
                XCTAssertEqual(links["first"]?.query, "per_page=7&page=1")
            }
            if links["next"] != nil {
                XCTAssertEqual(links["last"]?.query, "per_page=7&page=\((count + 6) / 7)")
            } else {
                XCTAssertNil(links["last"])
            }
            url = links["next"]
            XCTAssertLessThan(pages, 50, "pagination must end")
        }
        XCTAssertEqual(pages, (count + 6) / 7)
        XCTAssertEqual(collected.count, count)
        XCTAssertEqual(Set(collected.map(\.id)).count, count, "no repository on two pages")
        XCTAssertTrue(collected.allSatisfy { $0.owner.login == login })
        XCTAssertEqual(collected.map { $0.name.lowercased() }, collected.map { $0.name.lowercased() }.sorted())

        // Past the end: an empty page; per_page is capped at 100.
        let beyond = try await client.get(server, "/users/\(login)/repos?page=99")
        XCTAssertEqual(beyond.status, 200)
        XCTAssertEqual(try beyond.decode([ClientRepository].self), [])
        let capped = try await client.get(server, "/users/\(login)/repos?per_page=1000")
        XCTAssertEqual(try capped.decode([ClientRepository].self).count, min(count, 100))
        XCTAssertNil(capped.header("Link"))
    }

    func testSearchQualifiersSortingAndPaginationAgainstTheBundledFixtures() async throws {
        let server = try await startServer()
        let fixtures = try FixtureSet.bundled()
        let swift = fixtures.repositories.filter { $0.language == "Swift" && !$0.fork }
        XCTAssertGreaterThan(swift.count, 30)

        let q = encoded("language:swift")
        let first = try await client.get(server, "/search/repositories?q=\(q)&sort=stars&per_page=25")
        XCTAssertEqual(first.status, 200)
        let results: ClientSearchResults = try first.decode()
        XCTAssertEqual(results.totalCount, swift.count)
        XCTAssertFalse(results.incompleteResults)
        XCTAssertEqual(results.items.count, 25)
        XCTAssertTrue(results.items.allSatisfy { $0.language == "Swift" && !$0.fork })
        let stars = results.items.map(\.stargazersCount)
        XCTAssertEqual(stars, stars.sorted(by: >))
        XCTAssertEqual(stars.first, swift.map(\.stargazersCount).max())
        XCTAssertEqual(first.links["next"]?.query, "q=language%3Aswift&sort=stars&per_page=25&page=2")

        // Following the links gives every match once.
        var all = results.items
        var next = first.links["next"]
        while let url = next {
            let page = try await client.get(url)
            all += try page.decode(ClientSearchResults.self).items
            next = page.links["next"]
        }
        XCTAssertEqual(Set(all.map(\.id)), Set(swift.map(\.id)))

        // Ascending, by update date.
        let updated = try await client.get(server, "/search/repositories?q=\(q)&sort=updated&order=asc&per_page=100")
        let dates = try updated.decode(ClientSearchResults.self).items.map(\.updatedAt)
        XCTAssertEqual(dates, dates.sorted())

        // user: + free text, case-insensitively.
        let owner = try XCTUnwrap(swift.first).owner
        let expected = fixtures.repositories.filter {
            $0.owner == owner && !$0.fork
                && ($0.name.lowercased().contains("a") || $0.description?.lowercased().contains("a") == true
                    || $0.owner.lowercased().contains("a") || $0.topics.contains { $0.contains("a") })
        }
        let byUser = try await client.get(server, "/search/repositories?q=\(encoded("A user:\(owner.uppercased())"))&per_page=100")
        XCTAssertEqual(Set(try byUser.decode(ClientSearchResults.self).items.map(\.id)), Set(expected.map(\.id)))

        // A '+' in the query string is a space, as in GitHub's own links.
        let plus = try await client.get(server, "/search/repositories?q=language%3Aswift+user%3A\(owner)&per_page=100")
        XCTAssertEqual(
            try plus.decode(ClientSearchResults.self).totalCount,
            fixtures.repositories.filter { $0.owner == owner && $0.language == "Swift" && !$0.fork }.count)
    }

    /// `page` and `per_page` are read as GitHub reads them (and as Examples/README
    /// says): a page of any size, even beyond 64 bits, is that far away, so a
    /// search answers 422 and a user's repositories an empty page (a page above
    /// `Int64.max` used to be page 1); values that are not whole numbers of at
    /// least 1 are ignored.
    func testPageAndPerPageAreReadAsGitHubReadsThem() async throws {
        let server = try await startServer()
        let q = encoded("language:swift")
        for page in ["9223372036854775808", "99999999999999999999999999", "9223372036854775807", "11"] {
            let result = try await client.get(server, "/search/repositories?q=\(q)&per_page=100&page=\(page)")
            XCTAssertEqual(result.status, 422, page)
            XCTAssertEqual(try result.jsonObject()["message"] as? String, "Only the first 1000 search results are available", page)
        }
        let login = try XCTUnwrap(FixtureSet.bundled().accounts.first?.login)
        let beyond = try await client.get(server, "/users/\(login)/repos?page=9223372036854775808")
        XCTAssertEqual(beyond.status, 200)
        XCTAssertEqual(try beyond.decode([ClientRepository].self).count, 0)

        let firstPage = try await client.get(server, "/search/repositories?q=\(q)")
        let expected = try firstPage.decode(ClientSearchResults.self).items.map(\.id)
        XCTAssertEqual(expected.count, 30)
        for ignored in ["page=0", "page=-1", "page=abc", "page=", "per_page=0", "per_page=-5", "per_page=abc", "page=1.5"] {
            let result = try await client.get(server, "/search/repositories?q=\(q)&\(ignored)")
            XCTAssertEqual(result.status, 200, ignored)
            XCTAssertEqual(try result.decode(ClientSearchResults.self).items.map(\.id), expected, ignored)
        }
        let capped = try await client.get(server, "/search/repositories?q=\(q)&per_page=99999999999999999999")
        XCTAssertEqual(try capped.decode(ClientSearchResults.self).items.count, min(100, try firstPage.decode(ClientSearchResults.self).totalCount))
    }

    func testNotFoundAndValidationBodiesAreGitHubShaped() async throws {
        let server = try await startServer()

        for path in ["/repos/nobody/nothing", "/users/nobody-at-all/repos", "/no/such/route", "/repos/only-owner"] {
            let result = try await client.get(server, path)
            XCTAssertEqual(result.status, 404, path)
            let body = try result.jsonObject()
            XCTAssertEqual(body["message"] as? String, "Not Found", path)
            XCTAssertTrue((body["documentation_url"] as? String)?.hasPrefix("https://docs.github.com/rest") == true, path)
        }

        for query in ["", "?q=", "?q=%20%20", "?page=2"] {
            let result = try await client.get(server, "/search/repositories\(query)")
            XCTAssertEqual(result.status, 422, query)
            let body = try result.jsonObject()
            XCTAssertEqual(body["message"] as? String, "Validation Failed")
            XCTAssertEqual(body["errors"] as? [[String: String]], [["resource": "Search", "field": "q", "code": "missing"]])
            XCTAssertEqual(body["documentation_url"] as? String, "https://docs.github.com/rest/search/search#search-repositories")
        }
    }

    // MARK: - Injected behaviour

    func testInjectedServerErrorsAreDeterministicForASeed() async throws {
        func statuses(seed: UInt64) async throws -> [Int] {
            let server = try await startServer {
                $0.seed = seed
                $0.behavior.failureRate = 0.4
            }
            var statuses: [Int] = []
            for _ in 0..<30 {
                statuses.append(try await client.get(server, "/repos/nobody/x").status)
            }
            await server.stop()
            return statuses
        }
        let first = try await statuses(seed: 7)
        let again = try await statuses(seed: 7)
        let other = try await statuses(seed: 8)
        XCTAssertEqual(first, again, "same seed, same failures")
        XCTAssertNotEqual(first, other)
        let failures = first.filter { $0 >= 500 }
        XCTAssertTrue((4...20).contains(failures.count), "about 40 % of 30: \(first)")
        XCTAssertTrue(Set(failures).isSubset(of: [500, 502, 503]))
        XCTAssertTrue(first.allSatisfy { $0 == 404 || $0 >= 500 })
    }

    func testFailureStatusesAndBodies() async throws {
        let server = try await startServer {
            $0.behavior.failureRate = 1
            $0.behavior.failureStatuses = [503]
        }
        let records = Box<[ServedRequest]>([])
        let subscription = server.requests.subscribe(onNext: { request in records.mutate { $0.append(request) } })
        defer { subscription.dispose() }

        let result = try await client.get(server, "/search/repositories?q=swift")
        XCTAssertEqual(result.status, 503)
        XCTAssertEqual(try result.jsonObject()["message"] as? String, "Service Unavailable")

        // Recovery at run time: the next request succeeds.
        try server.updateBehavior { $0.failureRate = 0 }
        let recovered = try await client.get(server, "/search/repositories?q=swift")
        XCTAssertEqual(recovered.status, 200)
        XCTAssertEqual(records.value.map(\.fault), [.serverError, nil])
        XCTAssertEqual(records.value.map(\.status), [503, 200])
        XCTAssertEqual(records.value.first?.target, "/search/repositories?q=swift")

        XCTAssertThrowsError(try server.updateBehavior { $0.failureRate = 1.5 })
        XCTAssertThrowsError(try server.updateBehavior { $0.failureStatuses = [404] })
        XCTAssertEqual(server.behavior.failureRate, 0, "an invalid update changes nothing")
    }

    func testRateLimitHeadersOnEveryResponseAnd403WhenExceeded() async throws {
        let server = try await startServer { $0.behavior.rateLimit = .init(limit: 3, window: .seconds(3)) }
        let before = Int(Date().timeIntervalSince1970)

        var remaining: [String?] = []
        for path in ["/repos/nobody/x", "/search/repositories?q=swift", "/search/repositories"] {
            let result = try await client.get(server, path)
            XCTAssertNotEqual(result.status, 403)
            XCTAssertEqual(result.header("X-RateLimit-Limit"), "3")
            XCTAssertEqual(result.header("X-RateLimit-Resource"), "core")
            remaining.append(result.header("X-RateLimit-Remaining"))
            let reset = try XCTUnwrap(Int(result.header("X-RateLimit-Reset") ?? ""))
            XCTAssertTrue((before...(before + 5)).contains(reset), "reset \(reset) is the window's end in epoch seconds")
        }
        XCTAssertEqual(remaining, ["2", "1", "0"])

        let limited = try await client.get(server, "/search/repositories?q=swift")
        XCTAssertEqual(limited.status, 403)
        XCTAssertEqual(limited.header("X-RateLimit-Remaining"), "0")
        XCTAssertEqual(limited.header("X-RateLimit-Used"), "3")
        let body = try limited.jsonObject()
        XCTAssertTrue((body["message"] as? String)?.hasPrefix("API rate limit exceeded") == true)
        XCTAssertNotNil(body["documentation_url"] as? String)

        // A new window starts after the old one ends.
        let reset = try XCTUnwrap(Int(limited.header("X-RateLimit-Reset") ?? ""))
        try await Task.sleep(for: .milliseconds(max(0, (reset - Int(Date().timeIntervalSince1970)) * 1000 + 200)))
        let afterReset = try await client.get(server, "/search/repositories?q=swift")
        XCTAssertEqual(afterReset.status, 200)
        XCTAssertEqual(afterReset.header("X-RateLimit-Remaining"), "2")
        XCTAssertEqual(afterReset.header("X-RateLimit-Used"), "1")

        // Without rate limiting there are no such headers.
        try server.updateBehavior { $0.rateLimit = nil }
        let unlimited = try await client.get(server, "/")
        XCTAssertNil(unlimited.header("X-RateLimit-Limit"))
    }

    func testFixedAndRandomLatencyAreMeasurable() async throws {
        let server = try await startServer { $0.behavior.latency = .fixed(.milliseconds(300)) }
        let clock = ContinuousClock()
        var status = 0
        var elapsed = try await clock.measure {
            status = try await client.get(server, "/repos/nobody/x").status
        }
        XCTAssertEqual(status, 404)
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(300))
        XCTAssertLessThan(elapsed, .seconds(5))

        try server.updateBehavior { $0.latency = .uniform(.milliseconds(100), .milliseconds(200)) }
        for _ in 0..<3 {
            elapsed = try await clock.measure { _ = try await client.get(server, "/") }
            XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(100))
        }

        try server.updateBehavior { $0.latency = .none }
        elapsed = try await clock.measure { _ = try await client.get(server, "/") }
        XCTAssertLessThan(elapsed, .milliseconds(100) + .seconds(1), "no latency: fast (loaded machines are slow)")
    }

    func testMalformedJSONMode() async throws {
        let server = try await startServer { $0.behavior.malformedJSONRate = 1 }
        let result = try await client.get(server, "/search/repositories?q=swift")
        XCTAssertEqual(result.status, 200)
        XCTAssertFalse(result.body.isEmpty)
        XCTAssertThrowsError(try JSONSerialization.jsonObject(with: result.body), "the body is not valid JSON")
        XCTAssertThrowsError(try result.decode(ClientSearchResults.self))

        // Error bodies stay intact: clients must still be able to read them.
        let missing = try await client.get(server, "/repos/nobody/x")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(try missing.jsonObject()["message"] as? String, "Not Found")

        // Half of the responses, reproducibly.
        try server.updateBehavior { $0.malformedJSONRate = 0.5 }
        var garbled = 0
        for _ in 0..<20 {
            let body = try await client.get(server, "/").body
            if (try? JSONSerialization.jsonObject(with: body)) == nil { garbled += 1 }
        }
        XCTAssertTrue((3...17).contains(garbled), "\(garbled) of 20")
    }

    // MARK: - Concurrency and life cycle

    func testConcurrentRequestsAreServedInParallel() async throws {
        let server = try await startServer { $0.behavior.latency = .fixed(.milliseconds(200)) }
        let client = self.client
        let clock = ContinuousClock()
        let requestCount = 40
        var statuses: [Int] = []
        let elapsed = try await clock.measure {
            statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<requestCount {
                    group.addTask {
                        let path = index.isMultiple(of: 2) ? "/search/repositories?q=swift&page=\(index % 4 + 1)" : "/repos/nobody/x\(index)"
                        let result = try await client.get(server, path)
                        if result.status == 200 { _ = try result.decode(ClientSearchResults.self) }
                        return result.status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        XCTAssertEqual(statuses.filter { $0 == 200 }.count, requestCount / 2)
        XCTAssertEqual(statuses.filter { $0 == 404 }.count, requestCount / 2)
        XCTAssertEqual(server.requestCount, requestCount)
        // 40 × 200 ms one after another would take 8 s.
        XCTAssertLessThan(elapsed, .seconds(4), "requests wait in parallel")
    }

    func testRequestsAreReportedAndCompleteOnStop() async throws {
        let server = try await startServer()
        let records = Box<[String]>([])
        let completed = Box(false)
        let subscription = server.requests.subscribe(
            onNext: { request in records.mutate { $0.append("\(request.status) \(request.target)") } },
            onCompleted: { completed.value = true }
        )
        _ = try await client.get(server, "/repos/nobody/x")
        _ = try await client.get(server, "/search/repositories?q=a&per_page=1")
        XCTAssertEqual(records.value, ["404 /repos/nobody/x", "200 /search/repositories?q=a&per_page=1"])
        XCTAssertFalse(completed.value)
        await server.stop()
        XCTAssertTrue(completed.value)
        subscription.dispose()
    }

    func testStopFreesThePortAndASecondServerCanTakeIt() async throws {
        let server = try await startServer()
        let port = server.port
        let before = try await client.get(server, "/")
        XCTAssertEqual(before.status, 200)
        await server.stop()
        await server.stop()  // idempotent

        do {
            _ = try await TestClient(timeout: 5).get(server, "/")
            XCTFail("the stopped server still answers")
        } catch {
            // connection refused
        }

        let again = try await startServer { $0.port = port }
        XCTAssertEqual(again.port, port)
        let answer = try await TestClient().get(again, "/repos/nobody/x")
        XCTAssertEqual(answer.status, 404)
    }

    func testStopLetsARequestInFlightFinish() async throws {
        let server = try await startServer { $0.behavior.latency = .fixed(.milliseconds(600)) }
        let client = self.client
        let inFlight = Task { try await client.get(server, "/search/repositories?q=swift") }
        try await Task.sleep(for: .milliseconds(200))
        await server.stop()
        let result = try await inFlight.value
        XCTAssertEqual(result.status, 200)
        XCTAssertNoThrow(try result.decode(ClientSearchResults.self))
    }

    func testStopDoesNotWaitOutTheInjectedLatency() async throws {
        let server = try await startServer { $0.behavior.latency = .fixed(.seconds(30)) }
        let client = self.client
        let inFlight = Task { try await client.get(server, "/search/repositories?q=swift") }
        try await Task.sleep(for: .milliseconds(200))
        let clock = ContinuousClock()
        let stopped = try await clock.measure {
            await server.stop(gracePeriod: .seconds(30))
            let result = try await inFlight.value
            XCTAssertEqual(result.status, 200)
        }
        XCTAssertLessThan(stopped, .seconds(10), "stop waited for the 30 s latency")
    }

    func testStartingOnATakenPortFails() async throws {
        let server = try await startServer()
        do {
            _ = try await MockGitHubServer.start(configuration: .init(port: server.port))
            XCTFail("two servers on one port")
        } catch {
            XCTAssertFalse(error is MockGitHubServer.ConfigurationError)
        }
        // The first one is unaffected.
        let answer = try await client.get(server, "/")
        XCTAssertEqual(answer.status, 200)
    }

    func testInvalidConfigurationIsRefused() async {
        for behavior in [
            MockGitHubConfiguration.Behavior(failureRate: -0.1),
            MockGitHubConfiguration.Behavior(malformedJSONRate: 2),
            MockGitHubConfiguration.Behavior(failureStatuses: []),
            MockGitHubConfiguration.Behavior(latency: .uniform(.seconds(2), .seconds(1))),
            MockGitHubConfiguration.Behavior(rateLimit: .init(limit: 10, window: .zero)),
        ] {
            do {
                _ = try await MockGitHubServer.start(configuration: .init(behavior: behavior))
                XCTFail("accepted \(behavior)")
            } catch {
                XCTAssertTrue(error is MockGitHubServer.ConfigurationError, "\(error)")
            }
        }
    }

    func testCustomFixturesAndHTMLBase() async throws {
        let server = try await startServer {
            $0.fixtures = SmallFixtures.set
            $0.htmlBaseURL = "https://web.test/"
        }
        let result = try await client.get(server, "/users/alice/repos")
        let repositories = try result.decode([ClientRepository].self)
        XCTAssertEqual(repositories.map(\.name), ["notes", "ripple-kit"])
        XCTAssertEqual(repositories.first?.htmlUrl, "https://web.test/alice/notes")
        XCTAssertEqual(repositories.last?.license, .init(key: "mit", spdxId: "MIT"))
    }
}

/// The blocking API, from a synchronous test (not on the cooperative pool).
final class MockGitHubServerBlockingTests: XCTestCase {
    func testStartAndStopBlocking() throws {
        let server = try MockGitHubServer.startBlocking(configuration: .init(fixtures: SmallFixtures.set))
        let client = TestClient()
        let url = try XCTUnwrap(URL(string: server.baseURL.absoluteString + "/repos/acme/acme-cli"))
        let result = try client.getBlocking(url)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(try result.decode(ClientRepository.self).stargazersCount, 42000)
        server.stopBlocking()
        XCTAssertThrowsError(try TestClient(timeout: 5).getBlocking(url))
    }
}
