import Foundation
import RippleHTTP

/// GitHub's public REST API root.
public let gitHubAPIBaseURL = URL(string: "https://api.github.com")!

/// The header fields every GitHub request carries: the JSON media type GitHub
/// recommends and the API version.
public let gitHubHeaderFields: HTTPHeaders = [
    "Accept": "application/vnd.github+json",
    "X-GitHub-Api-Version": "2022-11-28",
]

/// `GET /search/repositories?q=&page=&per_page=`: one page of repositories matching
/// a query.
///
/// ```swift
/// session.response(for: SearchRepositoriesRequest(query: "ripple language:swift", page: 2))
///     // Single<RepositoryPage>
/// ```
///
/// `hasMore` comes from the `Link` header (`rel="next"`) when the server sends one,
/// otherwise from `total_count` (GitHub serves at most the first 1000 results).
public struct SearchRepositoriesRequest: Request, Hashable, Sendable {
    public typealias Response = RepositoryPage

    /// GitHub's search syntax: words and qualifiers (`language:swift stars:>10`).
    public var query: String
    public var page: Int
    public var perPage: Int
    /// `stars`, `forks`, `updated`, or `nil` for best match.
    public var sort: String?
    /// `desc` or `asc` (with `sort`).
    public var order: String?
    public var baseURL: URL

    public init(query: String, page: Int = 1, perPage: Int = 30, sort: String? = nil, order: String? = nil, baseURL: URL = gitHubAPIBaseURL) {
        self.query = query
        self.page = page
        self.perPage = perPage
        self.sort = sort
        self.order = order
        self.baseURL = baseURL
    }

    public var path: String { "search/repositories" }
    public var queryParameters: HTTPParameters {
        ["q": query, "sort": sort, "order": order, "page": page, "per_page": perPage]
    }
    public var headerFields: HTTPHeaders { gitHubHeaderFields }

    public func response(from response: HTTPResponse) throws -> RepositoryPage {
        let body = try GitHubJSON.decoder.decode(SearchResponse.self, from: response.data)
        let reachable = min(body.totalCount, 1000)
        let hasMore = LinkHeader(response.headers["Link"])?.hasNext
            ?? (page * perPage < reachable && !body.items.isEmpty)
        return RepositoryPage(
            items: body.items, page: page, perPage: perPage, totalCount: body.totalCount,
            hasMore: hasMore, incompleteResults: body.incompleteResults)
    }
}

/// `GET /users/{user}/repos?page=&per_page=`: one page of an account's repositories.
///
/// `hasMore` comes from the `Link` header when the server sends one, otherwise it is
/// `true` when the page is full.
public struct UserRepositoriesRequest: Request, Hashable, Sendable {
    public typealias Response = RepositoryPage

    public var user: String
    public var page: Int
    public var perPage: Int
    /// `full_name` (GitHub's default), `created`, `updated`, `pushed`.
    public var sort: String?
    public var baseURL: URL

    public init(user: String, page: Int = 1, perPage: Int = 30, sort: String? = nil, baseURL: URL = gitHubAPIBaseURL) {
        self.user = user
        self.page = page
        self.perPage = perPage
        self.sort = sort
        self.baseURL = baseURL
    }

    public var path: String { "users/\(user)/repos" }
    public var queryParameters: HTTPParameters { ["sort": sort, "page": page, "per_page": perPage] }
    public var headerFields: HTTPHeaders { gitHubHeaderFields }

    public func response(from response: HTTPResponse) throws -> RepositoryPage {
        let items = try GitHubJSON.decoder.decode([Repository].self, from: response.data)
        let hasMore = LinkHeader(response.headers["Link"])?.hasNext ?? (items.count >= perPage && !items.isEmpty)
        return RepositoryPage(items: items, page: page, perPage: perPage, hasMore: hasMore)
    }
}

/// `GET /repos/{owner}/{repo}`: one repository.
public struct RepositoryRequest: Request, Hashable, Sendable {
    public typealias Response = Repository

    public var owner: String
    public var name: String
    public var baseURL: URL

    public init(owner: String, name: String, baseURL: URL = gitHubAPIBaseURL) {
        self.owner = owner
        self.name = name
        self.baseURL = baseURL
    }

    public var path: String { "repos/\(owner)/\(name)" }
    public var headerFields: HTTPHeaders { gitHubHeaderFields }
    public var decoder: JSONDecoder { GitHubJSON.decoder }
}

/// A parsed `Link` header (RFC 8288), as GitHub paginates:
/// `<https://api.github.com/...&page=3>; rel="next", <...&page=9>; rel="last"`.
public struct LinkHeader: Equatable, Sendable {
    /// `rel` → URL.
    public var links: [String: URL]

    /// Parses `value`; `nil` when there is no header (so that callers fall back to
    /// counting). Parts that don't parse are skipped.
    public init?(_ value: String?) {
        guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        var links: [String: URL] = [:]
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = String(rest[rest.index(after: open)..<close])
            let afterTarget = rest[rest.index(after: close)...]
            let end = afterTarget.firstIndex(of: "<") ?? afterTarget.endIndex
            let parameters = afterTarget[..<end]
            if let url = URL(string: target) {
                for parameter in parameters.split(separator: ";") {
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else { continue }
                    let rels = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \t\",")).split(separator: " ")
                    for rel in rels { links[rel.lowercased()] = url }
                }
            }
            rest = afterTarget[end...]
        }
        self.links = links
    }

    /// Whether there is a `rel="next"` link.
    public var hasNext: Bool { links["next"] != nil }

    /// The `page` query parameter of the link `rel`.
    public func page(_ rel: String) -> Int? {
        guard let url = links[rel], let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return nil }
        return items.first { $0.name == "page" }?.value.flatMap(Int.init)
    }
}
