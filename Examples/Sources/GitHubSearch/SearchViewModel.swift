import Foundation
import GitHubKit
import GitHubStore
import RippleHTTP
import RippleRepository

/// What the results area shows.
public enum SearchState: Equatable, Sendable {
    /// Nothing typed yet.
    case initial
    /// The first page is on its way and nothing is cached.
    case loading
    /// Repositories (the pages loaded so far) and whether there are more.
    case loaded(items: [Repository], hasMore: Bool)
    /// The query matched nothing.
    case empty
    /// The first page failed and nothing is cached; `retryable` says whether a
    /// retry may help.
    case error(message: String, retryable: Bool)
}

/// Everything the search screen shows about the current query: the ``SearchState``
/// and what goes around it.
public struct SearchSummary: Equatable, Sendable {
    /// The query the state is for (trimmed).
    public var query: String
    public var state: SearchState
    /// The number of matches, when the API says.
    public var totalCount: Int?
    /// A cached page is shown while the network's answer is on its way.
    public var isRefreshing: Bool
    /// A next page is loading.
    public var isLoadingMore: Bool
    /// A problem that does not replace the results: a failed next page, or a
    /// failed refresh while cached results are shown (offline).
    public var notice: String?
    /// Whether `r` may fix ``notice``.
    public var noticeRetryable: Bool

    public init(
        query: String = "", state: SearchState = .initial, totalCount: Int? = nil, isRefreshing: Bool = false,
        isLoadingMore: Bool = false, notice: String? = nil, noticeRetryable: Bool = false
    ) {
        self.query = query
        self.state = state
        self.totalCount = totalCount
        self.isRefreshing = isRefreshing
        self.isLoadingMore = isLoadingMore
        self.notice = notice
        self.noticeRetryable = noticeRetryable
    }

    /// Whether a retry would do something now.
    public var canRetry: Bool {
        if case .error(_, let retryable) = state { return retryable }
        return notice != nil && noticeRetryable
    }
}

/// The details view of one repository: the list's copy at once, then the full
/// repository from `GET /repos/{owner}/{repo}` (cached first).
public struct RepositoryDetails: Equatable, Sendable {
    public var repository: Repository
    public var isLoading: Bool
    /// Why the full repository could not be loaded (the list's copy is shown).
    public var error: String?

    public init(repository: Repository, isLoading: Bool = false, error: String? = nil) {
        self.repository = repository
        self.isLoading = isLoading
        self.error = error
    }
}

/// The GitHub search screen's logic, with no reference to the view.
///
/// ```
/// query:          -r-ri-rip---------------------rx------
/// debounce 300ms: ---------rip------------------------rx
/// distinct, flatMapLatest(results(for:page: 1)) — only the latest query counts:
/// state:          i--------L------(loaded)-------------L---(loaded)
/// loadNextPage:   ----------------------n---
///                 (page 2 appended to the items when it arrives)
/// retry:          after an error, loads the failed page again
/// ```
///
/// Results come from a ``RepositoryStore``: cached pages show first, then the
/// network's. A failed first page with nothing cached is ``SearchState/error(message:retryable:)``;
/// with a cached page, the cached results stay and ``SearchSummary/notice`` says
/// what failed. Drivers deliver on the `SharingScheduler` (the main thread in the
/// app, a `TestScheduler` in tests), which also runs the debounce.
public final class SearchViewModel {
    public struct Input {
        /// The query text as typed (`@login` lists that account's repositories).
        public let query: Driver<String>
        /// Try the failed request again.
        public let retry: Signal<Void>
        /// Append the next page (ignored unless there is one and nothing is loading).
        public let loadNextPage: Signal<Void>
        /// Open a repository's details, or close them (`nil`).
        public let selection: Signal<Repository?>

        public init(query: Driver<String>, retry: Signal<Void>, loadNextPage: Signal<Void>, selection: Signal<Repository?>) {
            self.query = query
            self.retry = retry
            self.loadNextPage = loadNextPage
            self.selection = selection
        }
    }

    /// The debounce applied to the query text.
    public static let debounce: RxTimeInterval = .milliseconds(300)

    /// The state of the results.
    public let state: Driver<SearchState>
    /// The state and what goes around it (counts, refreshing, notices).
    public let summary: Driver<SearchSummary>
    /// The repository whose details are open, or `nil`.
    public let details: Driver<RepositoryDetails?>

    public init(input: Input, store: RepositoryStore) {
        let retry = input.retry.asObservable()
        let loadNextPage = input.loadNextPage.asObservable()
        summary = input.query
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .debounce(SearchViewModel.debounce)
            .distinctUntilChanged()
            .asObservable()
            .named("search query")
            .flatMapLatest { query -> Observable<SearchSummary> in
                // Only the latest query counts: a new one disposes this one's requests.
                guard !query.isEmpty else { return .just(SearchSummary()) }
                return SearchViewModel.pages(of: query, from: 1, store: store, retry: retry, loadNextPage: loadNextPage)
                    .scan(into: Paging(query: query)) { paging, event in paging.apply(event) }
                    .map(\.summary)
            }
            .named("search summary")
            .asDriver(onErrorJustReturn: SearchSummary())
            .startWith(SearchSummary())
            .distinctUntilChanged()
        state = summary.map(\.state).distinctUntilChanged()
        details = input.selection
            .asObservable()
            .flatMapLatest { repository -> Observable<RepositoryDetails?> in
                guard let repository else { return .just(nil) }
                return store.repository(repository.fullName)
                    .map { fetched -> RepositoryDetails? in
                        switch fetched {
                        case .cached(let full): return RepositoryDetails(repository: full, isLoading: true)
                        case .fresh(let full): return RepositoryDetails(repository: full)
                        case .failed(let error, let cached):
                            return RepositoryDetails(repository: cached ?? repository, error: GitHubError(error).message())
                        }
                    }
                    .startWith(RepositoryDetails(repository: repository, isLoading: true))
            }
            .named("details")
            .asDriver(onErrorJustReturn: nil)
            .startWith(nil)
    }

    /// Loads page `page` of `query`, then waits: for `loadNextPage` when there is
    /// a next page, for `retry` after a failure, and continues from there.
    ///
    /// ```
    /// results(page 1):   (L1)c---f1            (loading, cached, fresh)
    /// loadNextPage:      ----------n
    /// results(page 2):             (L2)---f2
    /// ```
    static func pages(
        of query: String, from page: Int, store: RepositoryStore, retry: Observable<Void>, loadNextPage: Observable<Void>
    ) -> Observable<PageEvent> {
        store.results(for: query, page: page)
            .named("results page \(page)")
            .concatMap { fetched -> Observable<PageEvent> in
                let event = Observable.just(PageEvent.fetched(page: page, fetched))
                guard fetched.isFinal else { return event }
                var next: [Observable<Int>] = []
                if fetched.error != nil {
                    next.append(retry.map { page })
                }
                if let value = fetched.value, value.hasMore {
                    next.append(loadNextPage.map { page + 1 })
                }
                guard !next.isEmpty else { return event }
                let continuation = Observable.merge(next).take(1).flatMap { nextPage in
                    pages(of: query, from: nextPage, store: store, retry: retry, loadNextPage: loadNextPage)
                }
                return event.concat(continuation)
            }
            .startWith(.loading(page: page))
    }
}

/// What happens to one page.
enum PageEvent {
    case loading(page: Int)
    case fetched(page: Int, Fetched<RepositoryPage>)
}

/// The pages of one query, as they arrive.
struct Paging {
    let query: String
    var pages: [Int: RepositoryPage] = [:]
    var loadingPage: Int?
    var refreshing = false
    var failure: (page: Int, error: GitHubError)?

    init(query: String) {
        self.query = query
    }

    mutating func apply(_ event: PageEvent) {
        switch event {
        case .loading(let page):
            loadingPage = page
            refreshing = false
            failure = nil
        case .fetched(let page, .cached(let value)):
            pages[page] = value
            refreshing = true
        case .fetched(let page, .fresh(let value)):
            pages[page] = value
            loadingPage = nil
            refreshing = false
            failure = nil
        case .fetched(let page, .failed(let error, let cached)):
            if let cached { pages[page] = cached }
            loadingPage = nil
            refreshing = false
            failure = (page, GitHubError(error))
        }
    }

    var summary: SearchSummary {
        var summary = SearchSummary(query: query)
        let loaded = pages.keys.sorted()
        guard let last = loaded.last.flatMap({ pages[$0] }) else {
            if let failure {
                summary.state = .error(message: failure.error.message(), retryable: failure.error.isRetryable)
            } else {
                summary.state = .loading
            }
            return summary
        }
        var seen = Set<Int>()
        var items: [Repository] = []
        for page in loaded {
            for item in pages[page]?.items ?? [] where seen.insert(item.id).inserted {
                items.append(item)
            }
        }
        summary.state = items.isEmpty && loaded == [1] ? .empty : .loaded(items: items, hasMore: last.hasMore)
        summary.totalCount = pages[1]?.totalCount ?? last.totalCount
        summary.isRefreshing = refreshing
        summary.isLoadingMore = (loadingPage ?? 0) > 1 && !refreshing
        if let failure {
            summary.notice = pages[failure.page] != nil
                ? "\(failure.error.message()) (showing cached results)"
                : "Could not load page \(failure.page): \(failure.error.message())"
            summary.noticeRetryable = failure.error.isRetryable
        }
        return summary
    }
}
