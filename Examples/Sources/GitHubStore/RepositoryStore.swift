import Foundation
import GitHubKit
import RippleHTTP
import RippleRepository

/// The search app's data: GitHub's answers through a cache, as RippleHTTP
/// ``Fetched`` values: the cached page first (if any), then the network's.
///
/// ```swift
/// let store = try RepositoryStore(api: github, database: GitHubCacheDatabase(path: path))
/// store.results(for: "ripple", page: 1)   // .cached(page)?, then .fresh(page) or .failed(error, cached: page?)
/// ```
///
/// A network failure keeps the cached value (``Fetched/failed(_:cached:)``), so the
/// app works offline from the cache. Entries expire after the caches' time to live.
/// Concurrent loads of one key share one request (``CachedRepository``).
///
/// ```
/// cache:            (c|)
/// network:          --------(n|)
/// results(for:):    c-------(n|)       .cached(c), .fresh(n)
/// offline:          c-------(f|)       .cached(c), .failed(error, cached: c)
/// ```
public final class RepositoryStore: Sendable {
    private let pages: CachedRepository<GitHubCacheKey, RepositoryPage>
    private let details: CachedRepository<GitHubCacheKey, Repository>
    /// The page size of every list request.
    public let perPage: Int

    /// A store on `api` with the given caches.
    public init(
        api: any GitHubAPI,
        pageCache: some ValueCache<GitHubCacheKey, RepositoryPage>,
        repositoryCache: some ValueCache<GitHubCacheKey, Repository>,
        perPage: Int = 30
    ) {
        self.perPage = perPage
        pages = CachedRepository(cache: pageCache) { key in
            switch key {
            case .search(let query, let page, let perPage):
                return api.searchRepositories(query, page: page, perPage: perPage)
            case .userRepositories(let user, let page, let perPage):
                return api.repositories(of: user, page: page, perPage: perPage)
            case .repository:
                return .error(GitHubError.other(GitHubCacheError.databaseFailure("not a page key: \(key)")))
            }
        }
        details = CachedRepository(cache: repositoryCache) { key in
            guard case .repository(let fullName) = key else {
                return .error(GitHubError.other(GitHubCacheError.databaseFailure("not a repository key: \(key)")))
            }
            let parts = fullName.split(separator: "/", maxSplits: 1).map(String.init)
            return api.repository(owner: parts.first ?? "", name: parts.count > 1 ? parts[1] : "")
        }
    }

    /// A store on `api` caching in `database`: pages for `pageTimeToLive` seconds
    /// (default 10 minutes), repositories for `repositoryTimeToLive` (1 hour).
    public convenience init(
        api: any GitHubAPI, database: GitHubCacheDatabase,
        pageTimeToLive: TimeInterval = 600, repositoryTimeToLive: TimeInterval = 3600, perPage: Int = 30
    ) {
        self.init(
            api: api,
            pageCache: database.cache(RepositoryPage.self, timeToLive: pageTimeToLive),
            repositoryCache: database.cache(Repository.self, timeToLive: repositoryTimeToLive),
            perPage: perPage)
    }

    /// The key for the app's query text: `@login` lists that account's
    /// repositories, anything else is a repository search.
    public func key(for query: String, page: Int) -> GitHubCacheKey {
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("@"), trimmed.count > 1, !trimmed.contains(" ") {
            return .userRepositories(user: String(trimmed.dropFirst()), page: page, perPage: perPage)
        }
        return .search(query: trimmed, page: page, perPage: perPage)
    }

    /// Page `page` of the results for the app's query text (see ``key(for:page:)``).
    ///
    /// ```
    /// results(for: q, page: 1):   c-------(n|)
    /// ```
    public func results(for query: String, page: Int) -> Observable<Fetched<RepositoryPage>> {
        pages.value(for: key(for: query, page: page))
    }

    /// Page `page` of a repository search.
    public func search(_ query: String, page: Int) -> Observable<Fetched<RepositoryPage>> {
        pages.value(for: .search(query: query, page: page, perPage: perPage))
    }

    /// Page `page` of an account's repositories.
    public func repositories(of user: String, page: Int) -> Observable<Fetched<RepositoryPage>> {
        pages.value(for: .userRepositories(user: user, page: page, perPage: perPage))
    }

    /// One repository (the details view).
    public func repository(_ fullName: String) -> Observable<Fetched<Repository>> {
        details.value(for: .repository(fullName: fullName))
    }
}
