import Foundation

/// A response of the mock API before it goes on the wire.
public struct EndpointResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Extra headers (`Link`, ...); `Content-Type` is always JSON and added by the server.
    public var headers: [(name: String, value: String)]
    /// The JSON body.
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name` (case-insensitively).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// The GitHub REST API endpoints the mock serves, as a pure function of the request:
/// no networking, no injected faults (``MockGitHubServer`` adds those around it).
///
/// | route | answer |
/// |---|---|
/// | `GET /users/{user}/repos` | the account's repositories; `type`, `sort` (`created`, `updated`, `pushed`, `full_name`), `direction`, `page`, `per_page` |
/// | `GET /search/repositories` | `{total_count, incomplete_results, items}`; `q` (see ``SearchQuery``), `sort`, `order`, `page`, `per_page`; only the first 1000 results are reachable, as on GitHub |
/// | `GET /repos/{owner}/{repo}` | one repository |
/// | `GET /` | an index of the URLs above |
/// | `GET /repos/{owner}/{repo}/events/live` | live activity as Server-Sent Events (``LiveEventFeed``, served by the server itself): `interval_ms`, `retry_ms`, `drop_after`, `limit`, `Last-Event-ID` |
///
/// Anything else is `404 {"message": "Not Found", ...}`; a missing or blank `q` is
/// `422 Validation Failed` with the code `missing`, a `q` beyond the limits of
/// ``SearchQuery/parse(_:)`` (length, operators, numbers out of range) the same with
/// the code `invalid` and a message, shaped as GitHub shapes them.
public struct MockGitHubEndpoints: Sendable {
    /// GitHub reaches at most this many search results (`page * per_page` beyond it is a 422).
    public static let searchResultLimit = 1000

    let catalog: RepositoryCatalog
    let htmlBaseURL: String

    /// - Parameters:
    ///   - fixtures: the data to serve.
    ///   - htmlBaseURL: the base of the `html_url`s, `avatar_url`s and `clone_url`s in
    ///     the responses (the API's own URLs use the address the client connected to).
    /// - Throws: ``FixtureSet/LoadingError/inconsistent(_:)`` for duplicate logins or
    ///   repositories, or a repository whose owner has no account.
    public init(fixtures: FixtureSet, htmlBaseURL: String = MockGitHubConfiguration.defaultHTMLBaseURL) throws {
        self.catalog = try RepositoryCatalog(fixtures)
        self.htmlBaseURL = htmlBaseURL.hasSuffix("/") ? String(htmlBaseURL.dropLast()) : htmlBaseURL
    }

    /// Answers one request.
    ///
    /// - Parameters:
    ///   - method: the HTTP method (`GET` and `HEAD` are served; others get a 404 as on GitHub).
    ///   - path: the percent-encoded path, e.g. `/users/kasel/repos`.
    ///   - query: the decoded query parameters.
    ///   - baseURL: the scheme and authority the client used (for `Link` and `url` fields).
    public func respond(method: String, path: String, query: QueryParameters, baseURL: String) -> EndpointResponse {
        let bases = URLBases(api: baseURL, html: htmlBaseURL)
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map {
            $0.removingPercentEncoding ?? String($0)
        }
        guard method == "GET" || method == "HEAD" else {
            return notFound(documentation: Self.docsRoot)
        }
        switch segments.count {
        case 0:
            return index(bases)
        case 3 where segments[0] == "users" && segments[2] == "repos":
            return userRepositories(login: segments[1], path: path, query: query, bases: bases)
        case 2 where segments[0] == "search" && segments[1] == "repositories":
            return search(path: path, query: query, bases: bases)
        case 3 where segments[0] == "repos":
            return repository(owner: segments[1], name: segments[2], bases: bases)
        default:
            return notFound(documentation: Self.docsRoot)
        }
    }

    // MARK: - Endpoints

    private func userRepositories(login: String, path: String, query: QueryParameters, bases: URLBases) -> EndpointResponse {
        guard let account = catalog.account(login) else {
            return notFound(documentation: "https://docs.github.com/rest/repos/repos#list-repositories-for-a-user")
        }
        // The fixtures have no memberships: `member` lists nothing, `owner` and `all` the same.
        var repositories = query["type"]?.lowercased() == "member" ? [] : catalog.repositories(ownedBy: account.login)
        let sort = query["sort"]?.lowercased() ?? "full_name"
        let ascending = query["direction"].map { $0.lowercased() == "asc" } ?? (sort == "full_name")
        repositories.sort { lhs, rhs in
            let ordered: Bool
            switch sort {
            case "created" where lhs.fixture.createdAt != rhs.fixture.createdAt:
                ordered = lhs.fixture.createdAt < rhs.fixture.createdAt
            case "updated" where lhs.fixture.updatedAt != rhs.fixture.updatedAt:
                ordered = lhs.fixture.updatedAt < rhs.fixture.updatedAt
            case "pushed" where lhs.fixture.pushedAt != rhs.fixture.pushedAt:
                ordered = lhs.fixture.pushedAt < rhs.fixture.pushedAt
            default:
                if lhs.name != rhs.name { ordered = lhs.name < rhs.name } else { return lhs.fixture.id < rhs.fixture.id }
            }
            return ascending ? ordered : !ordered
        }
        let pagination = Pagination(query: query)
        let page = repositories[pagination.range(in: repositories.count)].map {
            RepositoryPayload(repository: $0.fixture, owner: $0.ownerAccount, bases: bases, score: nil)
        }
        let link = pagination.linkHeader(count: repositories.count, baseURL: bases.api, path: path, query: query)
        return json(200, page, headers: link.map { [("Link", $0)] } ?? [])
    }

    private func search(path: String, query: QueryParameters, bases: URLBases) -> EndpointResponse {
        let documentation = "https://docs.github.com/rest/search/search#search-repositories"
        let q = query["q"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let parsed: SearchQuery
        switch SearchQuery.parse(q) {
        case .success(let query):
            parsed = query
        case .failure(let failure):
            return error(
                422,
                ErrorPayload(
                    message: "Validation Failed",
                    errors: [.init(message: failure.message, resource: "Search", field: "q", code: "invalid")],
                    documentationURL: documentation,
                    status: 422
                )
            )
        }
        guard !q.isEmpty, !parsed.isEmpty else {
            return error(
                422,
                ErrorPayload(
                    message: "Validation Failed",
                    errors: [.init(resource: "Search", field: "q", code: "missing")],
                    documentationURL: documentation,
                    status: 422
                )
            )
        }
        let pagination = Pagination(query: query)
        if pagination.range(in: Int.max).lowerBound >= Self.searchResultLimit {
            return error(
                422,
                ErrorPayload(
                    message: "Only the first \(Self.searchResultLimit) search results are available",
                    documentationURL: documentation,
                    status: 422
                )
            )
        }
        let matches = catalog.search(parsed, sort: query["sort"], order: query["order"])
        let reachable = min(matches.count, Self.searchResultLimit)
        let items = matches[pagination.range(in: reachable)].map {
            RepositoryPayload(repository: $0.repository.fixture, owner: $0.repository.ownerAccount, bases: bases, score: $0.score)
        }
        let link = pagination.linkHeader(count: reachable, baseURL: bases.api, path: path, query: query)
        return json(
            200,
            SearchResultsPayload(totalCount: matches.count, incompleteResults: false, items: items),
            headers: link.map { [("Link", $0)] } ?? []
        )
    }

    private func repository(owner: String, name: String, bases: URLBases) -> EndpointResponse {
        guard let repository = catalog.repository(owner: owner, name: name) else {
            return notFound(documentation: "https://docs.github.com/rest/repos/repos#get-a-repository")
        }
        return json(200, RepositoryPayload(repository: repository.fixture, owner: repository.ownerAccount, bases: bases, score: nil))
    }

    private func index(_ bases: URLBases) -> EndpointResponse {
        json(200, [
            "repository_search_url": "\(bases.api)/search/repositories?q={query}{&page,per_page,sort,order}",
            "repository_url": "\(bases.api)/repos/{owner}/{repo}",
            "user_repositories_url": "\(bases.api)/users/{user}/repos{?type,page,per_page,sort}",
        ])
    }

    // MARK: - Bodies

    static let docsRoot = "https://docs.github.com/rest"

    private func notFound(documentation: String) -> EndpointResponse {
        error(404, ErrorPayload(message: "Not Found", documentationURL: documentation, status: 404))
    }

    private func error(_ status: Int, _ payload: ErrorPayload) -> EndpointResponse {
        json(status, payload)
    }

    private func json(_ status: Int, _ value: some Encodable, headers: [(name: String, value: String)] = []) -> EndpointResponse {
        do {
            return EndpointResponse(status: status, headers: headers, body: try Self.encoder.encode(value))
        } catch {
            // Encoding these payloads cannot fail (no non-finite numbers, string keys only).
            return EndpointResponse(status: 500, body: Data(#"{"message":"Server Error"}"#.utf8))
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
