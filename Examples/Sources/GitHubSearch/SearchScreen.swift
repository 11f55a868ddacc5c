import Foundation
import GitHubKit
import GitHubStore
import Ripple
import RippleCollections
import DemoFeatures
import TerminalUI

/// The GitHub search app on a terminal (or a ``VirtualTerminal`` in tests).
///
/// Typing edits the query (Left/Right/Home/End/Backspace/Ctrl-U too) and the
/// results follow; until the new query's results arrive the previous ones stay,
/// dimmed, with their count marked as the previous query's. Up/Down move the
/// highlight (Down past the last result loads the next page and moves onto its
/// first result); Enter opens the details and Esc or Backspace closes them; `r`
/// retries while an error for the current query is shown (Ctrl-R at any time);
/// F1 (and `?` in the details, where it cannot be query text) shows every key;
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
        // What is pending: typed text waiting for the debounce (the count on
        // screen is then the previous query's), a page, a refresh, the details.
        // The spinner turns while anything is, and starts again when that changes.
        let pending = Driver.combineLatest(screenState, summary, viewModel.details) { state, summary, details in
            [SearchScreen.isTyping(state.field.text, summary: summary), summary.state == .loading, summary.isRefreshing,
             summary.isLoadingMore, state.showingDetails && details?.isLoading != false]
        }
        .distinctUntilChanged()
        isBusy = pending.map { $0.contains(true) }.distinctUntilChanged()
        let spinner = pending
            .flatMapLatest { pending -> Driver<Int> in
                pending.contains(true) ? Driver<Int>.interval(.milliseconds(100)).map { $0 + 1 }.startWith(0) : .just(0)
            }
        // One element per summary: the summary and the results it leaves on
        // screen (the previous query's stay while the next one loads). A frame
        // takes both from this one stream: combined as two streams, each new
        // summary drew a frame with the previous summary's results first
        // ("0 repositories (showing 0)" over an empty list, for an instant).
        let onScreen = summary.scan((summary: SearchSummary(), shown: ResultsOnScreen())) { previous, summary in
            (summary: summary, shown: previous.shown.next(summary))
        }
        // The loaded repositories as changes: a new page appends rows to
        // `SearchResultRows` instead of rendering the list again. The rows are
        // a cache of rendered lines, checked against the repository each frame
        // shows, so a frame drawn before they catch up renders what it lacks.
        let results = Observable.deferred { () -> Observable<SearchResultRows> in
            let rows = SearchResultRows()
            return onScreen.asObservable()
                .map(\.shown.items)
                .changes()
                .map { change in
                    rows.apply(change)
                    return rows
                }
        }
        .asDriver(onErrorDriveWith: .empty())
        frames = Driver.combineLatest(screenState, onScreen, viewModel.details, host.sizeDriver, spinner, results) {
            state, onScreen, details, size, tick, rows in
            SearchScreen.frame(
                state: state, summary: onScreen.summary, details: details, size: size, spinnerTick: tick, source: source, notice: notice,
                rows: rows, shown: onScreen.shown)
        }
    }

    static let spinnerFrames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
    static let searchLabel = "Search: "

    /// Draws one frame.
    static func frame(
        state: ScreenState, summary: SearchSummary, details: RepositoryDetails?, size: TerminalSize, spinnerTick: Int, source: String,
        notice: String? = nil, rows: SearchResultRows? = nil, shown: ResultsOnScreen? = nil
    ) -> Frame {
        let spinner = String(spinnerFrames[spinnerTick % spinnerFrames.count])
        if state.showingHelp {
            return helpFrame(size: size)
        }
        if state.showingDetails, let details {
            return detailsFrame(details, size: size, spinner: spinner)
        }
        let shown = shown ?? ResultsOnScreen().next(summary)
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
            statusLine(summary, shown: shown, fieldText: state.field.text, spinner: spinner, width: width),
            Line(String(repeating: "─", count: width), style: TextStyle(dim: true)),
        ]
        let listHeight = max(size.rows - lines.count - 1, 1)
        // The previous query's results stay, dimmed and without a highlight,
        // until the new query's arrive.
        let stale = shown.staleQuery != nil || isTyping(state.field.text, summary: summary)
        if !shown.items.isEmpty {
            let items = shown.items
            let highlighted = stale ? -1 : min(state.highlighted, items.count - 1)
            let top = max(0, highlighted - listHeight + 1)
            let visible = items[top..<min(items.count, top + listHeight)]
            let nameWidth = min(max(visible.map(\.fullName.count).max() ?? 0, 10), max(width / 3, 10))
            for (offset, repository) in visible.enumerated() {
                var line: Line
                if let rows, top + offset != highlighted {
                    line = rows.row(at: top + offset, of: repository, nameWidth: nameWidth, width: width)
                } else {
                    line = row(repository, highlighted: top + offset == highlighted, nameWidth: nameWidth, width: width)
                }
                if stale { line = Line(line.spans.map { Span($0.text, style: TextStyle(dim: true)) }) }
                lines.append(line)
            }
        }
        while lines.count < size.rows - 1 { lines.append("") }
        lines.append(fitted(Line(
            "Type to search  ↑/↓ select  Enter details  r retry  F1 help  Esc quit",
            style: TextStyle(dim: true)), width: width))
        return Frame(lines: lines, cursor: (row: 1, column: searchLabel.count + field.cursorColumn))
    }

    /// Whether typed text waits for the debounce: the summary is another query's.
    static func isTyping(_ fieldText: String, summary: SearchSummary) -> Bool {
        fieldText.trimmingCharacters(in: .whitespacesAndNewlines) != summary.query
    }

    /// Every key, on F1.
    static let helpRows: [(keys: String, action: String)] = [
        ("typing", "edits the query; the results follow 300 ms after the last key"),
        ("← → Home End", "move in the query; Ctrl-A and Ctrl-E go to its start and end, Alt+B and Alt+F by word"),
        ("Backspace Delete", "delete a character; Alt+Backspace or Ctrl-W a word; Ctrl-U clears the query"),
        ("↑ ↓ PgUp PgDn", "select a result; ↓ past the last one loads the next page"),
        ("Enter", "open the selected repository's details; Esc, Backspace, Enter or ← goes back"),
        ("r  Ctrl-R", "retry after an error (r is typed when there is nothing to retry)"),
        ("F1", "this help; ? too, in the details"),
        ("Esc", "quit, from the list"),
        ("Ctrl-C  Ctrl-D", "quit, anywhere"),
    ]

    static func helpFrame(size: TerminalSize) -> Frame {
        let width = max(size.columns, 10)
        var lines: [Line] = [Line("GitHub search — keys", style: TextStyle(bold: true)), ""]
        let keyWidth = helpRows.map { DisplayWidth.of($0.keys) }.max() ?? 0
        // The actions wrap under their column: nothing is cut at any width.
        let indent = keyWidth + 2
        for row in helpRows {
            let padding = String(repeating: " ", count: indent - DisplayWidth.of(row.keys))
            let parts = wrapped(row.action, width: max(width - indent, 10))
            lines.append(Line([Span(row.keys, style: TextStyle(bold: true)), Span(padding + (parts.first ?? ""))]))
            for part in parts.dropFirst() {
                lines.append(Line(String(repeating: " ", count: indent) + part))
            }
        }
        while lines.count < size.rows - 1 { lines.append("") }
        lines.append(Line("Esc, F1 or ? closes this help   Ctrl-C: quit", style: TextStyle(dim: true)))
        return Frame(lines: lines)
    }

    /// `line`, ending in `…` when it is wider than `width` columns.
    static func fitted(_ line: Line, width: Int) -> Line {
        guard DisplayWidth.of(line.text) > width else { return line }
        var cut = line.truncated(to: max(width - 1, 0))
        cut.spans.append(Span("…", style: line.spans.last?.style ?? .plain))
        return cut
    }

    /// `“query”` cut inside its quotes (`“ripple lang…”`) so that it takes at
    /// most `width` columns; the quotes are always there.
    static func quoted(_ query: String, width: Int) -> String {
        if DisplayWidth.of(query) + 2 <= width { return "“\(query)”" }
        return "“\(DisplayWidth.prefix(query, fitting: max(width - 3, 0)))…”"
    }

    static func statusLine(_ summary: SearchSummary, shown: ResultsOnScreen, fieldText: String, spinner: String, width: Int) -> Line {
        let retryHint = " — press r to retry"
        // The count of results that are not the query's own: dimmed, and says whose.
        func staleCount(_ query: String, after used: Int) -> Span {
            let count = "  \(shown.countText) for "
            let room = width - used - DisplayWidth.of(count)
            return Span(count + quoted(query, width: room), style: TextStyle(dim: true))
        }
        switch summary.state {
        case .initial:
            return fitted(Line("Type words and qualifiers, e.g. ripple language:swift stars:>100, or @login for an account's repositories",
                               style: TextStyle(dim: true)), width: width)
        case .loading:
            if let staleQuery = shown.staleQuery, !shown.items.isEmpty {
                let searching = "\(spinner) Searching "
                let query = quoted(summary.query, width: max(width / 2 - DisplayWidth.of(searching) - 1, 5))
                let head = Span(searching + query + "…", style: TextStyle(foreground: .cyan))
                return fitted(Line([head, staleCount(staleQuery, after: DisplayWidth.of(head.text))]), width: width)
            }
            return Line("\(spinner) Loading…", style: TextStyle(foreground: .cyan))
        case .empty:
            let text = "No repositories match "
            return Line(text + quoted(summary.query, width: width - DisplayWidth.of(text)), style: TextStyle(foreground: .yellow))
        case .error(let message, let retryable):
            return fitted(Line("✖ " + message + (retryable ? retryHint : ""), style: TextStyle(bold: true, foreground: .red)), width: width)
        case .loaded:
            if isTyping(fieldText, summary: summary) {
                // Typed text waits for the debounce: this count is the previous query's.
                let head = Span("\(spinner)", style: TextStyle(foreground: .cyan))
                return fitted(Line([head, staleCount(summary.query, after: DisplayWidth.of(head.text))]), width: width)
            }
            if let notice = summary.notice {
                return fitted(Line("⚠ " + notice + (summary.noticeRetryable ? retryHint : ""), style: TextStyle(foreground: .yellow)), width: width)
            }
            var text = shown.countText
            if summary.totalCount.map({ $0 != shown.items.count }) ?? shown.hasMore {
                text += " (showing \(shown.items.count)\(shown.hasMore ? ", ↓ at the end loads more" : ""))"
            }
            var spans = [Span(text, style: TextStyle(foreground: .green))]
            if summary.isLoadingMore {
                spans.append(Span("  \(spinner) Loading more…", style: TextStyle(foreground: .cyan)))
            } else if summary.isRefreshing {
                spans.append(Span("  \(spinner) cached, refreshing…", style: TextStyle(dim: true)))
            }
            return fitted(Line(spans), width: width)
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
        lines.append(Line("Esc / Backspace: back   ? or F1: help   Ctrl-C: quit", style: TextStyle(dim: true)))
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
    var showingHelp = false
}

/// The results the list shows: the current query's, or while its first page is
/// on its way (nothing cached), the previous query's, marked stale, so that the
/// list does not blank on every new query.
struct ResultsOnScreen: Equatable {
    var items: [Repository] = []
    var hasMore = false
    var totalCount: Int?
    /// The query these results are for.
    var query = ""
    /// The query these results are for, when they are not the current query's.
    var staleQuery: String?

    /// What to show once `summary` arrives.
    func next(_ summary: SearchSummary) -> ResultsOnScreen {
        switch summary.state {
        case .loaded(let items, let hasMore):
            return ResultsOnScreen(items: items, hasMore: hasMore, totalCount: summary.totalCount, query: summary.query)
        case .loading where !items.isEmpty:
            var kept = self
            kept.staleQuery = query
            return kept
        case .initial, .loading, .empty, .error:
            return ResultsOnScreen()
        }
    }

    /// `87 repositories`.
    var countText: String {
        let count = totalCount ?? items.count
        return "\(SearchScreen.formatCount(count)) \(count == 1 ? "repository" : "repositories")"
    }
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
        // Help: F1 anywhere; `?` only in the details, where it cannot be query text.
        if state.showingHelp {
            if key == .function(1) || key == .escape || key == .character("?") || key == .enter || key == .character("q") {
                state.showingHelp = false
            }
            return ScreenTransition(state: state, command: nil)
        }
        if key == .function(1) || (state.showingDetails && key == .character("?")) {
            state.showingHelp = true
            return ScreenTransition(state: state, command: nil)
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
