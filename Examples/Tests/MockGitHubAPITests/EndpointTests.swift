import Foundation
import MockGitHubAPI
import XCTest

/// The endpoints as a pure function (no HTTP): search semantics, ordering, pagination.
final class EndpointTests: XCTestCase {
    private let base = "http://api.test"
    private var endpoints: MockGitHubEndpoints!

    override func setUpWithError() throws {
        endpoints = try MockGitHubEndpoints(fixtures: SmallFixtures.set)
    }

    private func get(_ path: String, _ query: [(String, String)] = []) -> EndpointResponse {
        endpoints.respond(method: "GET", path: path, query: QueryParameters(query.map { (name: $0.0, value: $0.1) }), baseURL: base)
    }

    private func search(_ q: String, _ extra: [(String, String)] = []) throws -> [String] {
        let response = get("/search/repositories", [("q", q)] + extra)
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        return try HTTPResult.decoder.decode(ClientSearchResults.self, from: response.body).items.map(\.fullName)
    }

    // MARK: - Search

    func testTermsMatchNameOwnerDescriptionAndTopicsCaseInsensitively() throws {
        XCTAssertEqual(try search("RIPPLE"), ["alice/ripple-kit"])  // the fork is excluded by default
        XCTAssertEqual(try search("tide"), ["Bob-Builder/Tidepool"])  // name and description
        XCTAssertEqual(try search("bob"), ["Bob-Builder/Tidepool"])  // owner
        XCTAssertEqual(Set(try search("reactive")), ["acme/acme-cli", "alice/ripple-kit", "acme/swift-reactive-demo"])  // topics, name, description
        XCTAssertEqual(try search("reactive swift", [("sort", "stars"), ("order", "asc")]), ["acme/swift-reactive-demo", "alice/ripple-kit"])  // all terms must match
        XCTAssertEqual(try search("\"tide tables\""), ["Bob-Builder/Tidepool"])
        XCTAssertEqual(try search("nothing-matches-this"), [])
    }

    func testQualifiers() throws {
        XCTAssertEqual(Set(try search("language:swift")), ["alice/ripple-kit", "acme/swift-reactive-demo"])
        XCTAssertEqual(Set(try search("language:SWIFT fork:true")), ["alice/ripple-kit", "Bob-Builder/ripple-kit", "acme/swift-reactive-demo"])
        XCTAssertEqual(try search("fork:only"), ["Bob-Builder/ripple-kit"])
        XCTAssertEqual(Set(try search("user:alice")), ["alice/ripple-kit", "alice/notes"])
        XCTAssertEqual(Set(try search("user:ACME")), ["acme/acme-cli", "acme/swift-reactive-demo"])
        XCTAssertEqual(Set(try search("org:acme")), ["acme/acme-cli", "acme/swift-reactive-demo"])
        XCTAssertEqual(try search("org:alice"), [])
        XCTAssertEqual(try search("repo:bob-builder/tidepool"), ["Bob-Builder/Tidepool"])
        XCTAssertEqual(Set(try search("topic:reactive")), ["alice/ripple-kit", "acme/acme-cli"])
        XCTAssertEqual(try search("license:apache-2.0"), ["acme/acme-cli"])
        XCTAssertEqual(try search("archived:true"), ["acme/acme-cli"])
        XCTAssertEqual(try search("reactive -language:go -language:swift"), [])
        XCTAssertEqual(try search("user:alice -language:swift"), ["alice/notes"])
        XCTAssertEqual(try search("ripple in:description"), [])
        XCTAssertEqual(try search("streams in:description"), ["alice/ripple-kit"])
        XCTAssertEqual(Set(try search("is:public user:alice")), ["alice/ripple-kit", "alice/notes"])
        XCTAssertEqual(try search("is:private"), [])
    }

    func testNumericAndDateRanges() throws {
        XCTAssertEqual(try search("stars:>1000"), ["acme/acme-cli"])
        XCTAssertEqual(Set(try search("stars:>=120 stars:<=900")), ["alice/ripple-kit", "Bob-Builder/Tidepool", "acme/swift-reactive-demo"])
        XCTAssertEqual(Set(try search("stars:100..200")), ["Bob-Builder/Tidepool", "acme/swift-reactive-demo"])
        XCTAssertEqual(try search("stars:<10"), ["alice/notes"])
        XCTAssertEqual(try search("stars:*..5"), ["alice/notes"])
        XCTAssertEqual(try search("stars:40000..*"), ["acme/acme-cli"])
        XCTAssertEqual(try search("stars:120", [("sort", "stars")]).count, 2)
        XCTAssertEqual(try search("forks:>1000"), ["acme/acme-cli"])
        XCTAssertEqual(try search("created:<2016-01-01"), ["acme/acme-cli"])
        XCTAssertEqual(try search("created:2019-03-01"), ["alice/ripple-kit"])
        XCTAssertEqual(try search("created:>2019-03-01 language:swift"), ["acme/swift-reactive-demo"])
        XCTAssertEqual(Set(try search("created:>=2019-03-01 language:swift")), ["alice/ripple-kit", "acme/swift-reactive-demo"])
        XCTAssertEqual(Set(try search("pushed:2024-01-01..2024-12-31")), ["alice/ripple-kit", "acme/swift-reactive-demo"])
        // A malformed range is an ordinary (unmatched) term.
        XCTAssertEqual(try search("stars:lots"), [])
    }

    func testSortingAndOrder() throws {
        let all = "is:public"
        XCTAssertEqual(
            try search(all, [("sort", "stars")]),
            ["acme/acme-cli", "alice/ripple-kit", "Bob-Builder/Tidepool", "acme/swift-reactive-demo", "alice/notes"])
        XCTAssertEqual(
            try search(all, [("sort", "stars"), ("order", "asc")]),
            ["alice/notes", "Bob-Builder/Tidepool", "acme/swift-reactive-demo", "alice/ripple-kit", "acme/acme-cli"])
        XCTAssertEqual(
            try search(all, [("sort", "updated")]),
            ["acme/swift-reactive-demo", "alice/ripple-kit", "Bob-Builder/Tidepool", "acme/acme-cli", "alice/notes"])
        XCTAssertEqual(try search(all, [("sort", "forks")]).first, "acme/acme-cli")
        // Best match: an exact name beats a name prefix beats a description mention.
        XCTAssertEqual(try search("notes"), ["alice/notes"])
        XCTAssertEqual(try search("reactive").first, "acme/swift-reactive-demo")
    }

    func testSearchItemsCarryAScore() throws {
        let response = get("/search/repositories", [("q", "ripple")])
        let results = try HTTPResult.decoder.decode(ClientSearchResults.self, from: response.body)
        XCTAssertEqual(results.totalCount, 1)
        XCTAssertFalse(results.incompleteResults)
        XCTAssertNotNil(results.items.first?.score)
        let repository = get("/repos/alice/ripple-kit")
        XCTAssertNil(try HTTPResult.decoder.decode(ClientRepository.self, from: repository.body).score)
    }

    func testMissingOrBlankQueryIsAValidationError() throws {
        for query in [[], [("q", "")], [("q", "   ")]] as [[(String, String)]] {
            let response = get("/search/repositories", query)
            XCTAssertEqual(response.status, 422)
            let body = try XCTUnwrap(JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            XCTAssertEqual(body["message"] as? String, "Validation Failed")
            let errors = try XCTUnwrap(body["errors"] as? [[String: String]])
            XCTAssertEqual(errors, [["resource": "Search", "field": "q", "code": "missing"]])
            XCTAssertNotNil(body["documentation_url"] as? String)
        }
    }

    func testOnlyTheFirstThousandSearchResultsAreReachable() throws {
        let response = get("/search/repositories", [("q", "is:public"), ("per_page", "100"), ("page", "11")])
        XCTAssertEqual(response.status, 422)
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains("first 1000 search results"))
        XCTAssertEqual(get("/search/repositories", [("q", "is:public"), ("per_page", "100"), ("page", "10")]).status, 200)
    }

    // MARK: - Users and repositories

    func testUserRepositoriesSortAndDirection() throws {
        func names(_ query: [(String, String)]) throws -> [String] {
            let response = get("/users/ACME/repos", query)
            XCTAssertEqual(response.status, 200)
            return try HTTPResult.decoder.decode([ClientRepository].self, from: response.body).map(\.name)
        }
        XCTAssertEqual(try names([]), ["acme-cli", "swift-reactive-demo"])  // full_name, ascending
        XCTAssertEqual(try names([("direction", "desc")]), ["swift-reactive-demo", "acme-cli"])
        XCTAssertEqual(try names([("sort", "created")]), ["swift-reactive-demo", "acme-cli"])  // newest first
        XCTAssertEqual(try names([("sort", "pushed"), ("direction", "asc")]), ["acme-cli", "swift-reactive-demo"])
        XCTAssertEqual(try names([("type", "member")]), [])
        XCTAssertEqual(get("/users/nobody/repos").status, 404)
    }

    func testRepositoryLookupIsCaseInsensitive() throws {
        let response = get("/repos/BOB-BUILDER/tidepool")
        XCTAssertEqual(response.status, 200)
        let repository = try HTTPResult.decoder.decode(ClientRepository.self, from: response.body)
        XCTAssertEqual(repository.fullName, "Bob-Builder/Tidepool")
        XCTAssertEqual(repository.url, "http://api.test/repos/Bob-Builder/Tidepool")
        XCTAssertEqual(repository.htmlUrl, "https://github.example.com/Bob-Builder/Tidepool")
        XCTAssertEqual(repository.owner.htmlUrl, "https://github.example.com/Bob-Builder")
        XCTAssertEqual(repository.owner.avatarUrl, "https://github.example.com/avatars/u/11?v=4")
        XCTAssertEqual(get("/repos/alice/missing").status, 404)
        XCTAssertEqual(get("/repos/alice").status, 404)
        XCTAssertEqual(get("/repos/alice/ripple-kit/extra").status, 404)
    }

    func testNullsAreWrittenOutAsGitHubDoes() throws {
        let response = get("/repos/acme/swift-reactive-demo")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        XCTAssertTrue(object["description"] is NSNull)
        XCTAssertTrue(object["license"] is NSNull)
        XCTAssertTrue(object["homepage"] is NSNull)
        XCTAssertEqual(object["watchers_count"] as? Int, 120)
        XCTAssertEqual(object["private"] as? Bool, false)
        let owner = try XCTUnwrap(object["owner"] as? [String: Any])
        XCTAssertEqual(owner["type"] as? String, "Organization")
    }

    func testOtherMethodsAndRoutesAreNotFound() throws {
        let post = endpoints.respond(method: "POST", path: "/search/repositories", query: QueryParameters([("q", "x")]), baseURL: base)
        XCTAssertEqual(post.status, 404)
        let unknown = get("/orgs/acme/repos")
        XCTAssertEqual(unknown.status, 404)
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: unknown.body) as? [String: String])
        XCTAssertEqual(body["message"], "Not Found")
        XCTAssertEqual(body["documentation_url"], "https://docs.github.com/rest")
        XCTAssertEqual(get("/").status, 200)
    }

    // MARK: - Pagination and queries

    func testPaginationDefaultsAndClamping() {
        XCTAssertEqual(Pagination(query: QueryParameters()), Pagination(page: 1, perPage: 30))
        XCTAssertEqual(Pagination(query: QueryParameters([("per_page", "500"), ("page", "0")])), Pagination(page: 1, perPage: 100))
        XCTAssertEqual(Pagination(query: QueryParameters([("per_page", "-3"), ("page", "x")])), Pagination(page: 1, perPage: 30))
        XCTAssertEqual(Pagination(query: QueryParameters([("page", "9223372036854775808")])), Pagination(page: Int.max, perPage: 30))
        XCTAssertEqual(Pagination(query: QueryParameters([("page", "+2"), ("per_page", " 7 ")])), Pagination(page: 2, perPage: 7))
        XCTAssertEqual(Pagination(query: QueryParameters([("page", "-9223372036854775809"), ("per_page", "1e3")])), Pagination(page: 1, perPage: 30))
        XCTAssertEqual(Pagination(page: 3, perPage: 10).range(in: 25), 20..<25)
        XCTAssertEqual(Pagination(page: 4, perPage: 10).range(in: 25), 25..<25)
        XCTAssertEqual(Pagination(page: Int.max, perPage: 100).range(in: 25), 25..<25)
        XCTAssertEqual(Pagination(perPage: 10).pageCount(for: 0), 1)
        XCTAssertEqual(Pagination(perPage: 10).pageCount(for: 31), 4)
    }

    func testLinkHeaderFollowsGitHubsOrderAndKeepsTheQuery() {
        let query = QueryParameters([("q", "language:swift stars:>10"), ("per_page", "10"), ("page", "2")])
        let header = Pagination(page: 2, perPage: 10).linkHeader(count: 45, baseURL: base, path: "/search/repositories", query: query)
        let prefix = "http://api.test/search/repositories?q=language%3Aswift+stars%3A%3E10&per_page=10&page="
        XCTAssertEqual(
            header,
            "<\(prefix)1>; rel=\"prev\", <\(prefix)3>; rel=\"next\", <\(prefix)5>; rel=\"last\", <\(prefix)1>; rel=\"first\"")
        XCTAssertEqual(
            Pagination(page: 1, perPage: 10).linkHeader(count: 45, baseURL: base, path: "/p", query: QueryParameters()),
            "<http://api.test/p?page=2>; rel=\"next\", <http://api.test/p?page=5>; rel=\"last\"")
        XCTAssertEqual(
            Pagination(page: 5, perPage: 10).linkHeader(count: 45, baseURL: base, path: "/p", query: QueryParameters()),
            "<http://api.test/p?page=4>; rel=\"prev\", <http://api.test/p?page=1>; rel=\"first\"")
        XCTAssertNil(Pagination(page: 1, perPage: 10).linkHeader(count: 10, baseURL: base, path: "/p", query: QueryParameters()))
    }

    func testQueryStringsAreFormDecoded() {
        let query = QueryParameters(rawQuery: "q=ripple+language%3Aswift&page=2&empty=&flag&q=second")
        XCTAssertEqual(query["q"], "ripple language:swift")
        XCTAssertEqual(query.integer("page"), 2)
        XCTAssertEqual(query["empty"], "")
        XCTAssertEqual(query["flag"], "")
        XCTAssertNil(query["missing"])
        XCTAssertEqual(QueryParameters(rawQuery: query.encoded), query)
        XCTAssertEqual(QueryParameters(rawQuery: "q=%22a+b%22%2B").items.first?.value, "\"a b\"+")
    }
}
