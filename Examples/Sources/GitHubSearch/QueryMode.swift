import Foundation
import GitHubKit
import GitHubStore
import RippleHTTP

/// `github-search --query X`: fetch one page, print it, exit. For scripts, tests
/// and terminals-less runs.
public enum QueryMode {
    /// What one run produced.
    public enum Outcome {
        /// The network's answer.
        case fresh(RepositoryPage)
        /// The cached page, because the network failed with `error`.
        case cached(RepositoryPage, error: GitHubError)
        /// The network failed and nothing was cached.
        case failed(GitHubError)
        /// No answer within the time limit.
        case timedOut
    }

    /// Loads page `page` of `query` (cache first, the network's answer wins) and
    /// waits for the final answer, at most `timeout` seconds. Blocks the calling
    /// thread; don't call it from the main thread of a running app.
    public static func fetch(_ query: String, page: Int = 1, store: RepositoryStore, timeout: TimeInterval = 60) -> Outcome {
        let done = DispatchSemaphore(value: 0)
        let outcome = LockedBox<Outcome?>(nil)
        let subscription = store.results(for: query, page: page)
            .named("query mode results")
            .filter(\.isFinal)
            .take(1)
            .subscribe(onNext: { fetched in
                switch fetched {
                case .fresh(let value): outcome.value = .fresh(value)
                case .failed(let error, let cached?): outcome.value = .cached(cached, error: GitHubError(error))
                case .failed(let error, nil): outcome.value = .failed(GitHubError(error))
                case .cached: break
                }
            }, onDisposed: { done.signal() })
        if done.wait(timeout: .now() + timeout) == .timedOut {
            subscription.dispose()
            return .timedOut
        }
        return outcome.value ?? .timedOut
    }

    /// The report printed for `page`: a header line, then one line per repository
    /// (name, stars, language, description), each cut to `width` characters.
    public static func format(_ page: RepositoryPage, query: String, width: Int = 120) -> String {
        guard !page.items.isEmpty else {
            return page.page > 1 ? "No more repositories for “\(query)” (page \(page.page))" : "No repositories match “\(query)”"
        }
        var header = page.totalCount.map { "\($0) repositories match “\(query)”" } ?? "Repositories of “\(query)”"
        header += " (page \(page.page), \(page.items.count) shown\(page.hasMore ? "; more with --page \(page.page + 1)" : ""))"
        let nameWidth = min(page.items.map(\.fullName.count).max() ?? 0, 40)
        var lines = [header]
        for repository in page.items {
            let name = SearchScreen.padded(SearchScreen.truncated(repository.fullName, to: nameWidth), to: nameWidth)
            let stars = SearchScreen.padded("★ " + SearchScreen.formatCount(repository.stargazersCount), to: 8)
            let language = SearchScreen.padded(SearchScreen.truncated(repository.language ?? "-", to: 10), to: 10)
            let line = "\(name)  \(stars) \(language) \(repository.description ?? "")"
            lines.append(SearchScreen.truncated(line.trimmingCharacters(in: .whitespaces), to: max(width, 40)))
        }
        return lines.joined(separator: "\n")
    }
}

/// A value behind a lock, written from other threads.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
