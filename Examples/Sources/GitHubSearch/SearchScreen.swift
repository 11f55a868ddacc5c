import Foundation
import GitHubKit
import GitHubStore
import Ripple
import DemoFeatures
import TerminalUI

/// The GitHub search app on a terminal (or a ``VirtualTerminal`` in tests).
///
/// Typing edits the query (Left/Right/Home/End/Backspace/Ctrl-U too) and the
/// results follow; Up/Down move the highlight (Down past the last result loads the
/// next page and moves onto its first result); Enter opens the details and Esc or Backspace closes them; `r`
/// retries while an error for the current query is shown (Ctrl-R at any time);
/// Esc (in the list) or Ctrl-C quits.
///
/// The keys go through one `scan` into the screen's own state (the text field,
/// the highlight, whether the details are open) and into commands for the
/// ``SearchViewModel`` (its query, retry, load-next-page and selection inputs);
/// frames combine that state with the view model's outputs and the terminal size.
public final class SearchScreen: BusyReportingScreen {
    public let frames: Driver<Frame>
    public let quit: Signal<Void>
    public let viewModel: SearchViewModel
    /// `true` while typed text waits for the debounce, or a page or the details load.
    public let isBusy: Driver<Bool>

    /// - Parameters:
    ///   - host: the terminal.
    ///   - store: where the results come from.
    ///   - source: what the title says the results come from (`mock API at http://…`).
    ///   - notice: a lasting warning shown after the title (the cache file cannot be used).
    public init(host: TerminalHost, store: RepositoryStore, source: String, notice: String? = nil) {
        let latestSummary = BehaviorRelay(value: SearchSummary())
        let transitions: Signal<ScreenTransition> = host.keySignal
            .scan(ScreenTransition(state: ScreenState(), command: nil)) { previous, key in
                ScreenTransition.reduce(previous.state, key: key, summary: latestSummary.value)
            }
        let commands = transitions.compactMap(\.command)
        let screenState = transitions.map(\.state).asObservable()
            .asDriver(onErrorDriveWith: .empty())
            .startWith(ScreenState())
        viewModel = SearchViewModel(
            input: .init(
                query: screenState.map(\.field.text).distinctUntilChanged(),
                retry: commands.filter { $0 == .retry }.map { _ in () },
                loadNextPage: commands.filter { $0 == .loadNextPage }.map { _ in () },
                selection: commands.compactMap { command -> Repository?? in
                    switch command {
                    case .open(let repository): return .some(repository)
                    case .close: return .some(nil)
                    default: return nil
                    }
                }
            ),
            store: store)
        quit = commands.filter { $0 == .quit }.map { _ in () }
        let summary = viewModel.summary.do(onNext: { latestSummary.accept($0) })
        let spinner = summary
            .map { $0.state == .loading || $0.isRefreshing || $0.isLoadingMore }
            .distinctUntilChanged()
            .flatMapLatest { busy -> Driver<Int> in
                busy ? Driver<Int>.interval(.milliseconds(100)).map { $0 + 1 }.startWith(0) : .just(0)
            }
        isBusy = Driver.combineLatest(screenState, summary, viewModel.details) { state, summary, details in
            state.field.text.trimmingCharacters(in: .whitespacesAndNewlines) != summary.query
                || summary.state == .loading || summary.isRefreshing || summary.isLoadingMore
                || (state.showingDetails && details?.isLoading != false)
        }
        .distinctUntilChanged()
        // The loaded repositories as changes: a new page appends rows to
        // `SearchResultRows` instead of rendering the list again.
        let results = Observable.deferred { () -> Observable<SearchResultRows> in
            let rows = SearchResultRows()
            return summary.asObservable()
                .map { summary -> [Repository] in
                    if case .loaded(let items, _) = summary.state { return items }
                    return []
                }
                .changes()
                .map { change in
                    rows.apply(change)
                    return rows
                }
        }
        .asDriver(onErrorDriveWith: .empty())
        frames = Driver.combineLatest(screenState, summary, viewModel.details, host.sizeDriver, spinner, results) {
            state, summary, details, size, tick, rows in
            SearchScreen.frame(
                state: state, summary: summary, details: details, size: size, spinnerTick: tick, source: source, notice: notice,
                rows: rows)
        }
    }

    static let spinnerFrames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
    static let searchLabel = "Search: "

    /// Draws one frame.
    static func frame(
        state: ScreenState, summary: SearchSummary, details: RepositoryDetails?, size: TerminalSize, spinnerTick: Int, source: String,
        notice: String? = nil, rows: SearchResultRows? = nil
    ) -> Frame {
        let spinner = String(spinnerFrames[spinnerTick % spinnerFrames.count])
        if state.showingDetails, let details {
            return detailsFrame(details, size: size, spinner: spinner)
        }
        let width = max(size.columns, 10)
        let field = state.field.window(width: width - searchLabel.count)
        // A notice takes the source's place: it matters more, and both rarely fit.
        let title = [
            Span("GitHub search", style: TextStyle(bold: true)),
            notice.map { Span("  ⚠ " + $0, style: TextStyle(foreground: .yellow)) } ?? Span("  ·  " + source, style: TextStyle(dim: true)),
        ]
        var lines: [Line] = [
            Line(title),
            Line([Span(searchLabel, style: TextStyle(bold: true))] + field.spans()),
            statusLine(summary, fieldText: state.field.text, spinner: spinner),
            Line(String(repeating: "─", count: width), style: TextStyle(dim: true)),
        ]
        let listHeight = max(size.rows - lines.count - 1, 1)
        if case .loaded(let items, _) = summary.state, !items.isEmpty {
            let highlighted = min(state.highlighted, items.count - 1)
            let top = max(0, highlighted - listHeight + 1)
            let visible = items[top..<min(items.count, top + listHeight)]
            let nameWidth = min(max(visible.map(\.fullName.count).max() ?? 0, 10), max(width / 3, 10))
            for (offset, repository) in visible.enumerated() {
                if let rows, top + offset != highlighted {
                    lines.append(rows.row(at: top + offset, of: repository, nameWidth: nameWidth, width: width))
                } else {
                    lines.append(row(repository, highlighted: top + offset == highlighted, nameWidth: nameWidth, width: width))
                }
            }
        }
        while lines.count < size.rows - 1 { lines.append("") }
        lines.append(Line(
            "Type to search  ↑/↓ select  Enter details  r retry  Esc quit",
            style: TextStyle(dim: true)))
        return Frame(lines: lines, cursor: (row: 1, column: searchLabel.count + field.cursorColumn))
    }

    static func statusLine(_ summary: SearchSummary, fieldText: String, spinner: String) -> Line {
        let retryHint = " — press r to retry"
        switch summary.state {
        case .initial:
            return Line("Type words and qualifiers, e.g. ripple language:swift stars:>100, or @login for an account's repositories",
                        style: TextStyle(dim: true))
        case .loading:
            return Line("\(spinner) Loading…", style: TextStyle(foreground: .cyan))
        case .empty:
            return Line("No repositories match “\(summary.query)”", style: TextStyle(foreground: .yellow))
        case .error(let message, let retryable):
            return Line("✖ " + message + (retryable ? retryHint : ""), style: TextStyle(bold: true, foreground: .red))
        case .loaded(let items, let hasMore):
            if let notice = summary.notice {
                return Line("⚠ " + notice + (summary.noticeRetryable ? retryHint : ""), style: TextStyle(foreground: .yellow))
            }
            var text = summary.totalCount.map { "\(formatCount($0)) repositories" } ?? "\(items.count) repositories"
            if summary.totalCount.map({ $0 != items.count }) ?? hasMore {
                text += " (showing \(items.count)\(hasMore ? ", ↓ at the end loads more" : ""))"
            }
            var spans = [Span(text, style: TextStyle(foreground: .green))]
            if summary.isLoadingMore {
                spans.append(Span("  \(spinner) Loading more…", style: TextStyle(foreground: .cyan)))
            } else if summary.isRefreshing {
                spans.append(Span("  \(spinner) cached, refreshing…", style: TextStyle(dim: true)))
            }
            return Line(spans)
        }
    }

    static func row(_ repository: Repository, highlighted: Bool, nameWidth: Int, width: Int) -> Line {
        let marker = highlighted ? "› " : "  "
        let name = padded(truncated(repository.fullName, to: nameWidth), to: nameWidth)
        let stars = padded("★ " + formatCount(repository.stargazersCount), to: 8)
        let language = padded(truncated(repository.language ?? "", to: 10), to: 10)
        let used = marker.count + name.count + 1 + stars.count + 1 + language.count + 1
        let description = truncated(repository.description ?? "", to: max(width - used, 0))
        if highlighted {
            let style = TextStyle(inverse: true)
            return Line([Span(padded(marker + name + " " + stars + " " + language + " " + description, to: width), style: style)])
        }
        return Line([
            Span(marker),
            Span(name, style: TextStyle(bold: true)),
            Span(" "),
            Span(stars, style: TextStyle(foreground: .yellow)),
            Span(" "),
            Span(language, style: TextStyle(foreground: .cyan)),
            Span(" "),
            Span(description, style: TextStyle(dim: true)),
        ])
    }

    static func detailsFrame(_ details: RepositoryDetails, size: TerminalSize, spinner: String) -> Frame {
        let repository = details.repository
        let width = max(size.columns, 10)
        var title = [Span(repository.fullName, style: TextStyle(bold: true))]
        if repository.isArchived { title.append(Span("  [archived]", style: TextStyle(foreground: .yellow))) }
        if repository.isFork { title.append(Span("  [fork]", style: TextStyle(dim: true))) }
        var lines: [Line] = [Line(title), ""]
        for line in wrapped(repository.description ?? "(no description)", width: width).prefix(4) {
            lines.append(Line(line))
        }
        lines.append("")
        lines.append(Line([
            Span("★ " + counted(repository.stargazersCount, "star"), style: TextStyle(foreground: .yellow)),
            Span("   " + [
                counted(repository.forksCount, "fork"), counted(repository.openIssuesCount, "open issue"),
                counted(repository.watchersCount, "watcher"),
            ].joined(separator: "   ")),
        ]))
        lines.append(Line(
            "Language: \(repository.language ?? "—")   License: \(repository.license ?? "—")   Default branch: \(repository.defaultBranch ?? "—")"))
        if !repository.topics.isEmpty {
            lines.append(Line("Topics: " + repository.topics.joined(separator: ", ")))
        }
        lines.append(Line(
            "Created \(day(repository.createdAt))   Updated \(day(repository.updatedAt))   Pushed \(day(repository.pushedAt))"))
        if let url = repository.htmlURL { lines.append(Line("Web: \(url.absoluteString)")) }
        let avatar = repository.ownerAvatarURL.map { " (avatar \($0.absoluteString))" } ?? ""
        lines.append(Line("Owner: \(repository.ownerLogin)\(avatar)"))
        lines.append("")
        if details.isLoading {
            lines.append(Line("\(spinner) Loading details…", style: TextStyle(foreground: .cyan)))
        } else if let error = details.error {
            lines.append(Line("⚠ Could not load the details: \(error)", style: TextStyle(foreground: .yellow)))
        }
        while lines.count < size.rows - 1 { lines.append("") }
        lines.append(Line("Esc / Backspace: back   Ctrl-C: quit", style: TextStyle(dim: true)))
        return Frame(lines: lines)
    }

    // MARK: Formatting

    /// `999`, `1.2k`, `15k`, `1.3M`.
    static func formatCount(_ count: Int) -> String {
        switch count {
        case ..<1000: return "\(count)"
        case ..<10_000: return String(format: "%.1fk", Double(count) / 1000).replacingOccurrences(of: ".0k", with: "k")
        case ..<1_000_000: return "\(count / 1000)k"
        default: return String(format: "%.1fM", Double(count) / 1_000_000)
        }
    }

    /// `12,345`.
    /// `1 fork`, `2 forks`, `1,024 forks`.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
    }

    static func grouped(_ count: Int) -> String {
        let digits = Array(String(count))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0, digit != "-" { result.append(",") }
            result.append(digit)
        }
        return result
    }

    static func day(_ date: Date?) -> String {
        guard let date else { return "—" }
        var style = Date.ISO8601FormatStyle().year().month().day()
        style.timeZone = TimeZone(identifier: "UTC")!
        return date.formatted(style)
    }

    static func truncated(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        return String(text.prefix(width - 1)) + "…"
    }

    static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map { truncated($0, to: width) }
    }
}

/// What the screen itself remembers.
struct ScreenState: Equatable {
    var field = TextFieldState()
    var highlighted = 0
    var showingDetails = false
}

/// What a key asks the view model (or the app) to do.
enum ScreenCommand: Equatable {
    case retry
    case loadNextPage
    case open(Repository)
    case close
    case quit
}

/// The screen state after a key, and the command it gives.
struct ScreenTransition {
    var state: ScreenState
    var command: ScreenCommand?

    static func reduce(_ state: ScreenState, key: Key, summary: SearchSummary) -> ScreenTransition {
        var state = state
        if key == .control("c") || key == .control("d") {
            return ScreenTransition(state: state, command: .quit)
        }
        if state.showingDetails {
            if key == .escape || key == .backspace || key == .enter || key == .left {
                state.showingDetails = false
                return ScreenTransition(state: state, command: .close)
            }
            return ScreenTransition(state: state, command: nil)
        }
        let items: [Repository]
        let hasMore: Bool
        if case .loaded(let loaded, let more) = summary.state {
            items = loaded
            hasMore = more
        } else {
            items = []
            hasMore = false
        }
        let current = items.isEmpty ? 0 : min(state.highlighted, items.count - 1)
        switch key {
        case .escape:
            return ScreenTransition(state: state, command: .quit)
        case .control("r"):
            return ScreenTransition(state: state, command: summary.canRetry ? .retry : nil)
        case .character("r") where summary.canRetry
            && state.field.text.trimmingCharacters(in: .whitespacesAndNewlines) == summary.query:
            return ScreenTransition(state: state, command: .retry)
        case .up:
            state.highlighted = max(current - 1, 0)
        case .down:
            if current + 1 < items.count {
                state.highlighted = current + 1
            } else if hasMore {
                // Onto the first item of the next page: until it arrives the frame
                // clamps the highlight to the last item; then it lands on the new one.
                state.highlighted = items.count
                if !summary.isLoadingMore {
                    return ScreenTransition(state: state, command: .loadNextPage)
                }
            } else {
                state.highlighted = current
            }
        case .pageDown:
            state.highlighted = min(current + 10, max(items.count - 1, 0))
            if state.highlighted == items.count - 1, hasMore, !summary.isLoadingMore {
                return ScreenTransition(state: state, command: .loadNextPage)
            }
        case .pageUp:
            state.highlighted = max(current - 10, 0)
        case .enter:
            guard !items.isEmpty else { return ScreenTransition(state: state, command: nil) }
            state.highlighted = current
            state.showingDetails = true
            return ScreenTransition(state: state, command: .open(items[current]))
        default:
            let before = state.field.text
            state.field.apply(key)
            if state.field.text != before { state.highlighted = 0 }
        }
        return ScreenTransition(state: state, command: nil)
    }
}

/// The screen's number and text formatting, for tests and other front ends.
public enum SearchScreenFormatting {
    /// `999`, `1.2k`, `15k`, `1.3M`.
    public static func count(_ count: Int) -> String { SearchScreen.formatCount(count) }
    /// `text` cut to `width` characters, with `…` when cut.
    public static func truncated(_ text: String, to width: Int) -> String { SearchScreen.truncated(text, to: width) }
}
