import Foundation
@testable import MockGitHubAPI
import XCTest

/// Parameters at and beyond the limits of integers used to trap (a crashed server,
/// and a crashed `github-search`, which embeds it). Each is now answered, with
/// GitHub's 422 shape where GitHub refuses the request.
final class QueryBoundsTests: XCTestCase {
    private var endpoints: MockGitHubEndpoints!

    override func setUpWithError() throws {
        endpoints = try MockGitHubEndpoints(fixtures: SmallFixtures.set)
    }

    private func get(_ path: String, _ query: [(String, String)]) -> EndpointResponse {
        endpoints.respond(method: "GET", path: path, query: QueryParameters(query.map { (name: $0.0, value: $0.1) }), baseURL: "http://api.test")
    }

    private func assertInvalidQuery(_ q: String, message: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let response = get("/search/repositories", [("q", q)])
        XCTAssertEqual(response.status, 422, q, file: file, line: line)
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: response.body) as? [String: Any], file: file, line: line)
        XCTAssertEqual(body["message"] as? String, "Validation Failed", file: file, line: line)
        XCTAssertEqual(body["documentation_url"] as? String, "https://docs.github.com/rest/search/search#search-repositories", file: file, line: line)
        XCTAssertEqual(body["status"] as? String, "422", file: file, line: line)
        let errors = try XCTUnwrap(body["errors"] as? [[String: String]], file: file, line: line)
        XCTAssertEqual(errors.count, 1, file: file, line: line)
        XCTAssertEqual(errors.first?["resource"], "Search", file: file, line: line)
        XCTAssertEqual(errors.first?["field"], "q", file: file, line: line)
        XCTAssertEqual(errors.first?["code"], "invalid", file: file, line: line)
        if let message {
            XCTAssertEqual(errors.first?["message"], message, file: file, line: line)
        }
    }

    func testAHugePageIsTheThousandResultsErrorNotAnOverflow() throws {
        let response = get("/search/repositories", [("q", "is:public"), ("page", "92233720368547759"), ("per_page", "100")])
        XCTAssertEqual(response.status, 422)
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        XCTAssertEqual(body["message"] as? String, "Only the first 1000 search results are available")
        for page in ["9223372036854775807", "92233720368547759", "99999999999999999999999"] {
            let users = get("/users/alice/repos", [("page", page), ("per_page", "100")])
            XCTAssertEqual(users.status, 200, page)
        }
        // The last page whose start fits in an Int: the end is clamped, not overflowed.
        XCTAssertEqual(Pagination(page: 92_233_720_368_547_759, perPage: 100).range(in: .max), 9_223_372_036_854_775_800..<Int.max)
        XCTAssertEqual(Pagination(page: 92_233_720_368_547_758, perPage: 100).range(in: .max), 9_223_372_036_854_775_700..<9_223_372_036_854_775_800)
        XCTAssertEqual(Pagination(page: 92_233_720_368_547_760, perPage: 100).range(in: .max), Int.max..<Int.max)
    }

    func testNumbersBeyondTheBoundsAreValidationErrors() throws {
        let bounds = "numbers must be between -2147483648 and 2147483647."
        try assertInvalidQuery("stars:>9223372036854775807", message: "stars:>9223372036854775807 is out of range: \(bounds)")
        try assertInvalidQuery("forks:<-9223372036854775808", message: "forks:<-9223372036854775808 is out of range: \(bounds)")
        try assertInvalidQuery("size:<-9223372036854775808", message: "size:<-9223372036854775808 is out of range: \(bounds)")
        try assertInvalidQuery("stars:99999999999999999999..*")
        try assertInvalidQuery("forks:1..2147483648")
    }

    func testNumbersAtTheBoundsAreAnswered() throws {
        for q in ["stars:>2147483647", "stars:<-2147483648", "size:<=-2147483648", "forks:-2147483648..2147483647", "created:>9999-12-31", "forks:<"] {
            XCTAssertEqual(get("/search/repositories", [("q", q)]).status, 200, q)
        }
    }

    func testLongQueriesAndTooManyOperatorsAreRefused() throws {
        try assertInvalidQuery(String(repeating: "a ", count: 4000), message: "The search is longer than 256 characters.")
        try assertInvalidQuery("a OR b OR c OR d AND e NOT f NOT g", message: "The search contains more than 5 AND / OR / NOT operators.")
        XCTAssertEqual(get("/search/repositories", [("q", String(repeating: "x", count: 256))]).status, 200)
        XCTAssertEqual(get("/search/repositories", [("q", "a OR b OR c OR d AND e NOT f")]).status, 200)
    }

    func testAnEightThousandTermQueryIsRefusedWithoutMatchingAnything() throws {
        // Every term matches many bundled repositories, which made the old server
        // score 8000 terms against each of them (seconds on the event loop).
        let bundled = try MockGitHubEndpoints(fixtures: FixtureSet.bundled())
        let q = Array(repeating: "swift", count: 8000).joined(separator: " ")
        let started = ContinuousClock.now
        let response = bundled.respond(method: "GET", path: "/search/repositories", query: QueryParameters([("q", q)]), baseURL: "http://api.test")
        XCTAssertEqual(response.status, 422)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))
    }

    /// A seeded stream of queries built from the pieces that matter (qualifiers,
    /// comparison operators, numbers near and beyond every bound, dates, quotes,
    /// operators, non-ASCII text): the parser never traps, and every query either
    /// parses with its ranges within bounds or is a validation error.
    func testRandomQueriesParseWithinBoundsOrFailValidation() {
        var random = SplitMix64(seed: 0x5EED_2026)
        let keys = ["stars", "forks", "size", "created", "pushed", "language", "user", "in", "fork", "-stars", "-size", "archived", "is"]
        let comparisons = ["", ">", ">=", "<", "<=", "*..", "..*", "..", "..."]
        let numbers = [
            "0", "1", "-1", "+7", "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807",
            "-9223372036854775808", "9223372036854775808", "92233720368547759", "99999999999999999999999", "", "*", "x", "1e9", "٣",
            "2021-04-30", "0000-01-01", "9999-12-31", "2021-04-30T12:00:00Z", "99999-01-01", "2021-13-40",
        ]
        let words = ["swift", "\"a b\"", "AND", "OR", "NOT", "日本", "👍🏽", "e\u{301}", ":", "\"", "-", "..", " ", "\t"]
        var parsed = 0
        var refused = 0
        for _ in 0..<100_000 {
            var q = ""
            for _ in 0..<random.uniform(in: 0...6) {
                if random.uniform(3) == 0 {
                    q += words[random.uniform(words.count)]
                } else {
                    q += keys[random.uniform(keys.count)] + ":" + comparisons[random.uniform(comparisons.count)]
                        + numbers[random.uniform(numbers.count)]
                    if random.uniform(4) == 0 { q += ".." + numbers[random.uniform(numbers.count)] }
                }
                q += random.uniform(5) == 0 ? "" : " "
            }
            switch SearchQuery.parse(q) {
            case .success:
                parsed += 1
                // Each numeric operand that parsed is within the bounds, ±1 for > and <.
                for token in SearchQuery.tokenize(q) {
                    let parts = token.text.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, ["stars", "forks", "size", "-stars", "-size"].contains(String(parts[0])) else { continue }
                    guard let range = try? NumericRange(String(parts[1])) else { continue }
                    let limits = (NumericRange.operandBounds.lowerBound - 1)...(NumericRange.operandBounds.upperBound + 1)
                    XCTAssertTrue(range.lower.map(limits.contains) ?? true, q)
                    XCTAssertTrue(range.upper.map(limits.contains) ?? true, q)
                }
            case .failure(let error):
                refused += 1
                XCTAssertFalse(error.message.isEmpty)
            }
            let pagination = Pagination(query: QueryParameters([
                ("page", numbers[random.uniform(numbers.count)]), ("per_page", numbers[random.uniform(numbers.count)]),
            ]))
            let range = pagination.range(in: random.uniform(2) == 0 ? .max : random.uniform(2000))
            XCTAssertLessThanOrEqual(range.lowerBound, range.upperBound)
        }
        XCTAssertGreaterThan(parsed, 10_000)
        XCTAssertGreaterThan(refused, 5_000)
    }
}
