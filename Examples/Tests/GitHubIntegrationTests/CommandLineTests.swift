import Foundation
import MockGitHubAPI
import XCTest

/// `github-search --query` run as a subprocess (the executable built next to this
/// test bundle) against the mock server on a random port.
final class CommandLineTests: MockServerTestCase {
    func testQueryModePrintsOnePageAndExits() throws {
        let server = try startServer()
        let result = try GitHubSearchExecutable.run(["--api-url", server.baseURL.absoluteString, "--query", "ripple", "--no-cache", "--per-page", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, result.stdout)
        XCTAssertTrue(lines[0].hasSuffix("repositories match “ripple” (page 1, 3 shown; more with --page 2)"), lines[0])
        XCTAssertTrue(lines.dropFirst().allSatisfy { $0.contains("★") && $0.contains("/") }, result.stdout)
        XCTAssertEqual(server.requestCount, 1)
    }

    func testTheEmbeddedServerIsTheDefault() throws {
        let result = try GitHubSearchExecutable.run(["--query", "@bowynia", "--no-cache", "--per-page", "100"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("Repositories of “@bowynia” (page 1, "), result.stdout)
        XCTAssertTrue(result.stdout.contains("bowynia/"))
    }

    func testInjectedServerErrorsFailWithAClearMessage() throws {
        let server = try startServer { $0.failureRate = 1; $0.failureStatuses = [502] }
        let result = try GitHubSearchExecutable.run(["--api-url", server.baseURL.absoluteString, "--query", "ripple", "--no-cache"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "error: GitHub answered 502 Bad Gateway (try again later)\n")
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(server.requestCount, 3, "retried twice")
    }

    func testOccasionalServerErrorsAreRetried() throws {
        // The mock's seed 1 fails some of the first requests at this rate; the retries get through.
        let result = try GitHubSearchExecutable.run(["--query", "kit", "--no-cache", "--mock-failure-rate", "0.5", "--mock-seed", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("repositories match “kit”"), result.stdout)
    }

    func testRateLimitingFailsWithTheResetTime() throws {
        let server = try startServer { $0.rateLimit = .init(limit: 0, window: .seconds(600)) }
        let result = try GitHubSearchExecutable.run(["--api-url", server.baseURL.absoluteString, "--query", "ripple", "--no-cache"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("error: GitHub API rate limit exceeded (limit 0); resets at "), result.stderr)
        XCTAssertTrue(result.stderr.contains("(in 10 min)"), result.stderr)
    }

    func testMalformedJSONFailsWithAMessageNotACrash() throws {
        let result = try GitHubSearchExecutable.run(["--query", "ripple", "--no-cache", "--mock-malformed-json-rate", "1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("error: The server sent a malformed response (try again later)\n  Undecodable response body"), result.stderr)
    }

    func testAStoppedServerFailsAndTheCacheServesOffline() throws {
        let server = try startServer()
        let cache = temporaryFile("cache.sqlite")
        let arguments = ["--api-url", server.baseURL.absoluteString, "--query", "ripple", "--cache", cache.path, "--timeout", "2"]
        let online = try GitHubSearchExecutable.run(arguments)
        XCTAssertEqual(online.status, 0, online.stderr)
        server.stopBlocking()

        let offline = try GitHubSearchExecutable.run(arguments)
        XCTAssertEqual(offline.status, 0, offline.stderr)
        XCTAssertEqual(offline.stderr, "warning: Cannot reach the server: connection refused; showing cached results\n")
        XCTAssertEqual(offline.stdout, online.stdout)

        let uncached = try GitHubSearchExecutable.run(arguments.dropLast(4) + ["--no-cache"])
        XCTAssertEqual(uncached.status, 1)
        XCTAssertEqual(uncached.stderr, "error: Cannot reach the server: connection refused (try again later)\n")
    }

    func testACorruptCacheFileIsSkippedWithAWarning() throws {
        let cache = temporaryFile("corrupt.sqlite")
        try Data(repeating: 7, count: 2048).write(to: cache)
        let result = try GitHubSearchExecutable.run(["--query", "ripple", "--cache", cache.path])
        XCTAssertEqual(result.status, 0, "the network still works")
        XCTAssertEqual(
            result.stderr,
            "warning: Not caching: the file is not a SQLite database; delete the cache file to start a new one (\(cache.path))\n")
        XCTAssertTrue(result.stdout.contains("repositories match “ripple”"), result.stdout)

        // The screen says so where the title names the source.
        let screen = try GitHubSearchExecutable.run(["--cache", cache.path, "--input", "ripple"])
        XCTAssertEqual(screen.status, 0, screen.stderr)
        let lines = screen.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("GitHub search  ⚠ Not caching: the file is not a SQLite database") ?? false, screen.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("› ") }, "results from the network: \(screen.stdout)")
    }

    func testTraceWritesAChromeTrace() throws {
        let trace = temporaryFile("trace.json")
        let result = try GitHubSearchExecutable.run(["--query", "ripple", "--no-cache", "--trace", trace.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("events written to \(trace.path)"), result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: trace)) as? [String: Any])
        let events = try XCTUnwrap(json["traceEvents"] as? [[String: Any]])
        let names = Set(events.compactMap { $0["name"] as? String })
        XCTAssertTrue(names.contains("query mode results"), "\(names)")
        XCTAssertTrue(names.contains("query mode results: next"), "\(names)")
    }

    func testGraphWritesTheLiveSearchPipeline() throws {
        let graph = temporaryFile("graph.json")
        let result = try GitHubSearchExecutable.run(["--no-cache", "--input", "ripple", "--graph", graph.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("edges written to \(graph.path)"), result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: graph)) as? [String: Any])
        XCTAssertEqual(json["schema"] as? String, "ripple.subscription-graph")
        let nodes = try XCTUnwrap(json["nodes"] as? [[String: Any]])
        let operators = Set(nodes.compactMap { $0["operator"] as? String })
        for name in ["debounce", "distinctUntilChanged", "flatMapLatest", "observe(on:)", "share"] {
            XCTAssertTrue(operators.contains(name), "\(name) in \(operators.sorted())")
        }
        let files = Set(nodes.compactMap { ($0["site"] as? [String: Any])?["file"] as? String })
        XCTAssertTrue(files.contains("GitHubSearch/SearchViewModel.swift"), "\(files.sorted())")
    }

    /// The reason the API gives is shown: for a 422 the `errors` messages (it used
    /// to be "GitHub refused the query: Validation Failed" alone), for a 404 what
    /// was not found (it used to be "Not found: Not Found").
    func testARefusedQueryShowsTheReasonTheAPIGives() throws {
        let refused = try GitHubSearchExecutable.run(["--query", "stars:>9223372036854775807", "--no-cache"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(
            refused.stderr.hasPrefix(
                "error: GitHub refused the query: Validation Failed: stars:>9223372036854775807 is out of range: numbers must be between "),
            refused.stderr)
        let unknown = try GitHubSearchExecutable.run(["--query", "@nobody-here", "--no-cache"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderr, "error: Not found: no account “nobody-here” (Not Found)\n")
    }

    func testInvalidOptions() throws {
        let result = try GitHubSearchExecutable.run(["--api-url", "ftp://x", "--query", "a"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--api-url must be an http(s) URL"), result.stderr)
    }
}
