import Foundation
import GitHubKit
import RippleHTTP
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A repository as GitHub's REST API sends it (most fields), for decoding tests.
let gitHubRepositoryJSON = #"""
{
  "id": 1296269, "node_id": "MDEwOlJlcG9zaXRvcnkxMjk2MjY5", "name": "Hello-World", "full_name": "octo/Hello-World",
  "private": false,
  "owner": {"login": "octo", "id": 1, "avatar_url": "https://avatars.example.com/u/1?v=4", "type": "User", "site_admin": false},
  "html_url": "https://github.example.com/octo/Hello-World", "description": "This your first repo!", "fork": false,
  "url": "https://api.example.com/repos/octo/Hello-World",
  "created_at": "2011-01-26T19:01:12Z", "updated_at": "2011-01-26T19:14:43.250Z", "pushed_at": "2011-01-26T19:06:43Z",
  "stargazers_count": 80, "watchers_count": 80, "language": null, "forks_count": 9, "open_issues_count": 0,
  "topics": ["octocat", "api"], "archived": false, "default_branch": "master",
  "license": {"key": "mit", "name": "MIT License", "spdx_id": "MIT"}, "score": 1.0
}
"""#

final class ModelTests: XCTestCase {
    func testRepositoryDecodesGitHubsShapeWithTheOwnerAvatarFromTheNestedObject() throws {
        let repository = try GitHubJSON.decoder.decode(Repository.self, from: Data(gitHubRepositoryJSON.utf8))
        XCTAssertEqual(repository.id, 1_296_269)
        XCTAssertEqual(repository.fullName, "octo/Hello-World")
        XCTAssertEqual(repository.ownerLogin, "octo")
        XCTAssertEqual(repository.ownerAvatarURL, URL(string: "https://avatars.example.com/u/1?v=4"))
        XCTAssertEqual(repository.htmlURL?.absoluteString, "https://github.example.com/octo/Hello-World")
        XCTAssertNil(repository.language)
        XCTAssertEqual(repository.stargazersCount, 80)
        XCTAssertEqual(repository.license, "MIT")
        XCTAssertEqual(repository.topics, ["octocat", "api"])
        XCTAssertEqual(repository.createdAt, Date(timeIntervalSince1970: 1_296_068_472))
        XCTAssertEqual(repository.updatedAt?.timeIntervalSince1970 ?? 0, 1_296_069_283.25, accuracy: 0.001)
    }

    func testRepositoryRoundTripsThroughItsOwnEncoding() throws {
        let repository = try GitHubJSON.decoder.decode(Repository.self, from: Data(gitHubRepositoryJSON.utf8))
        let data = try GitHubJSON.encoder.encode(repository)
        XCTAssertEqual(try GitHubJSON.decoder.decode(Repository.self, from: data), repository)
        // The encoding keeps GitHub's nested owner.
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let owner = try XCTUnwrap(object["owner"] as? [String: Any])
        XCTAssertEqual(owner["avatar_url"] as? String, "https://avatars.example.com/u/1?v=4")
    }

    func testMinimalRepositoryAndNullLicense() throws {
        let json = #"{"id": 7, "name": "kit", "owner": {"login": "ann"}, "license": null, "description": null}"#
        let repository = try GitHubJSON.decoder.decode(Repository.self, from: Data(json.utf8))
        XCTAssertEqual(repository, Repository(id: 7, name: "kit", ownerLogin: "ann"))
    }

    func testMissingOwnerIsADecodingError() {
        let json = #"{"id": 7, "name": "kit"}"#
        XCTAssertThrowsError(try GitHubJSON.decoder.decode(Repository.self, from: Data(json.utf8)))
    }

    func testSearchResponse() throws {
        let json = #"{"total_count": 40, "incomplete_results": true, "items": [\#(gitHubRepositoryJSON)]}"#
        let response = try GitHubJSON.decoder.decode(SearchResponse.self, from: Data(json.utf8))
        XCTAssertEqual(response.totalCount, 40)
        XCTAssertTrue(response.incompleteResults)
        XCTAssertEqual(response.items.map(\.name), ["Hello-World"])
    }
}

final class RequestTests: XCTestCase {
    let base = URL(string: "http://mock.test")!

    func testSearchRequestURLAndHeaders() throws {
        let request = try SearchRepositoriesRequest(query: "ripple language:swift", page: 2, perPage: 5, baseURL: base).makeURLRequest()
        XCTAssertEqual(request.url?.absoluteString, "http://mock.test/search/repositories?q=ripple%20language%3Aswift&page=2&per_page=5")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/vnd.github+json")
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-GitHub-Api-Version"), "2022-11-28")
        XCTAssertEqual(request.httpMethod, "GET")
    }

    func testUserAndRepositoryRequestPaths() throws {
        XCTAssertEqual(
            try UserRepositoriesRequest(user: "ann", page: 3, perPage: 10, baseURL: base).makeURLRequest().url?.absoluteString,
            "http://mock.test/users/ann/repos?page=3&per_page=10")
        XCTAssertEqual(
            try RepositoryRequest(owner: "ann", name: "my kit", baseURL: base).makeURLRequest().url?.absoluteString,
            "http://mock.test/repos/ann/my%20kit")
    }

    func testSearchHasMoreFromTheLinkHeader() throws {
        let request = SearchRepositoriesRequest(query: "x", page: 1, perPage: 2, baseURL: base)
        let body = #"{"total_count": 2, "incomplete_results": false, "items": []}"#
        let withNext = try XCTUnwrap(HTTPResponse(
            url: base, statusCode: 200,
            headers: ["Link": #"<http://mock.test/search/repositories?q=x&page=2>; rel="next", <http://mock.test/search/repositories?q=x&page=5>; rel="last""#],
            data: Data(body.utf8)))
        XCTAssertTrue(try request.response(from: withNext).hasMore)
        let lastPage = try XCTUnwrap(HTTPResponse(
            url: base, statusCode: 200, headers: ["Link": #"<http://mock.test/search/repositories?q=x&page=1>; rel="first""#],
            data: Data(body.utf8)))
        XCTAssertFalse(try request.response(from: lastPage).hasMore)
    }

    func testSearchHasMoreFromTheCountsWithoutALinkHeader() throws {
        func page(_ number: Int, total: Int, items: Int) throws -> RepositoryPage {
            let repositories = (0..<items).map { Repository(id: $0, name: "r\($0)", ownerLogin: "o") }
            let data = try GitHubJSON.encoder.encode(SearchResponse(totalCount: total, items: repositories))
            let response = try XCTUnwrap(HTTPResponse(url: base, statusCode: 200, data: data))
            return try SearchRepositoriesRequest(query: "x", page: number, perPage: 10, baseURL: base).response(from: response)
        }
        XCTAssertTrue(try page(1, total: 25, items: 10).hasMore)
        XCTAssertTrue(try page(2, total: 25, items: 10).hasMore)
        XCTAssertFalse(try page(3, total: 25, items: 5).hasMore)
        XCTAssertFalse(try page(100, total: 5000, items: 10).hasMore, "GitHub serves only the first 1000 results")
        XCTAssertEqual(try page(1, total: 25, items: 10).totalCount, 25)
    }

    func testUserRepositoriesHasMoreWhenThePageIsFullWithoutALinkHeader() throws {
        let full = try GitHubJSON.encoder.encode((0..<3).map { Repository(id: $0, name: "r\($0)", ownerLogin: "o") })
        let request = UserRepositoriesRequest(user: "o", perPage: 3, baseURL: base)
        XCTAssertTrue(try request.response(from: XCTUnwrap(HTTPResponse(url: base, statusCode: 200, data: full))).hasMore)
        let short = try GitHubJSON.encoder.encode([Repository(id: 1, name: "r", ownerLogin: "o")])
        XCTAssertFalse(try request.response(from: XCTUnwrap(HTTPResponse(url: base, statusCode: 200, data: short))).hasMore)
    }

    func testLinkHeaderParsing() throws {
        let header = try XCTUnwrap(LinkHeader(
            #"<https://api.github.com/user/repos?page=3&per_page=100>; rel="next", <https://api.github.com/user/repos?page=50&per_page=100>; rel="last""#))
        XCTAssertTrue(header.hasNext)
        XCTAssertEqual(header.page("next"), 3)
        XCTAssertEqual(header.page("last"), 50)
        XCTAssertNil(header.page("prev"))
        XCTAssertNil(LinkHeader(nil))
        XCTAssertNil(LinkHeader("  "))
        XCTAssertEqual(LinkHeader("garbage")?.links, [:])
        XCTAssertEqual(LinkHeader(#"<http://a.test/?page=2>; rel="next prev""#)?.links.keys.sorted(), ["next", "prev"])
    }
}
