import Foundation
import GitHubKit
import GitHubSearch
import GitHubStore
import Ripple
import RippleHTTP
import RippleHTTPTesting
import RippleTest
import TerminalUI
import XCTest

/// What a user sees on an in-memory terminal after a sequence of keys, in virtual
/// time (the debounce, the stub's latency and the spinner run on the TestScheduler).
final class SearchScreenTests: XCTestCase {
    let kit = repository(1, "kit", stars: 1234, language: "Swift", description: "A reactive kit for terminal apps")
    let tools = repository(2, "tools", stars: 56, language: nil, description: nil)
    let more = repository(3, "more", stars: 7, language: "Rust", description: "More")

    /// Runs `body` with a screen bound to a 12×80 virtual terminal.
    func withScreen(
        _ world: SearchWorld, size: TerminalSize = TerminalSize(rows: 12, columns: 80),
        _ body: (VirtualTerminal, () -> Bool) throws -> Void
    ) rethrows {
        try SharingScheduler.mock(scheduler: world.scheduler) {
            let terminal = VirtualTerminal(size: size)
            let screen = SearchScreen(host: terminal, store: world.store, source: "test server")
            var quit = false
            let binding = TerminalApp.bind(screen, to: terminal) { quit = true }
            defer { binding.dispose() }
            world.scheduler.advanceTo(1)
            try body(terminal, { quit })
        }
    }

    func testTypingAQueryShowsResultsThenSelectingAndDetails() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", .json(searchBody([kit, tools], total: 2)).delayed(by: .milliseconds(500)))
        world.stub.stub(.get, "/repos/ann/tools", .json(
            #"{"id": 2, "name": "tools", "owner": {"login": "ann", "avatar_url": "https://avatars.example.com/u/1"}, "stargazers_count": 57, "forks_count": 3, "topics": ["cli", "swift"], "license": {"spdx_id": "MIT"}, "created_at": "2020-05-01T10:00:00Z"}"#))
        withScreen(world) { terminal, quit in
            XCTAssertEqual(terminal.screen.lines[0], "GitHub search  ·  test server")
            XCTAssertEqual(terminal.screen.lines[1], "Search:")
            XCTAssertTrue(terminal.screen.lines[2].hasPrefix("Type words and qualifiers, e.g. ripple language:swift stars:>100"), terminal.screen.lines[2])
            XCTAssertEqual(terminal.screen.lines[11], "Type to search  ↑/↓ select  Enter details  r retry  F1 help  Esc quit")

            terminal.type("kit")
            world.scheduler.advanceTo(200)
            XCTAssertEqual(terminal.screen.lines[1], "Search: kit")
            XCTAssertEqual(terminal.screen.cursor?.row, 1)
            XCTAssertEqual(terminal.screen.cursor?.column, "Search: kit".count)
            world.scheduler.advanceTo(400)
            XCTAssertEqual(terminal.screen.lines[2], "⠋ Loading…", "after the debounce")
            world.scheduler.advanceTo(450)
            XCTAssertEqual(terminal.screen.lines[2], "⠙ Loading…", "the spinner turns")
            world.scheduler.advanceTo(900)
            XCTAssertEqual(terminal.screen.lines[2], "2 repositories")
            XCTAssertEqual(terminal.screen.lines[4],
                           "› ann/kit    ★ 1.2k   Swift      A reactive kit for terminal apps")
            XCTAssertTrue(terminal.screen.style(row: 4, column: 2).inverse, "the highlighted row")
            XCTAssertEqual(terminal.screen.lines[5], "  ann/tools  ★ 56                The tools library")
            XCTAssertFalse(terminal.screen.style(row: 5, column: 2).inverse)

            terminal.press(.down)
            world.scheduler.advanceTo(910)
            XCTAssertTrue(terminal.screen.lines[5].hasPrefix("› ann/tools"))
            XCTAssertTrue(terminal.screen.lines[4].hasPrefix("  ann/kit"))

            terminal.press(.enter)
            world.scheduler.advanceTo(920)
            XCTAssertEqual(terminal.screen.lines[0], "ann/tools")
            XCTAssertTrue(terminal.screen.text.contains("Loading details…"))
            world.scheduler.advanceTo(1200)
            XCTAssertEqual(terminal.screen.lines[4], "★ 57 stars   3 forks   0 open issues   0 watchers")
            XCTAssertEqual(terminal.screen.lines[5], "Language: —   License: MIT   Default branch: —")
            XCTAssertEqual(terminal.screen.lines[6], "Topics: cli, swift")
            XCTAssertEqual(terminal.screen.lines[7], "Created 2020-05-01   Updated —   Pushed —")
            XCTAssertEqual(terminal.screen.lines[8], "Owner: ann (avatar https://avatars.example.com/u/1)")
            XCTAssertFalse(terminal.screen.text.contains("Loading details…"))

            terminal.press(.escape)
            world.scheduler.advanceTo(1210)
            XCTAssertEqual(terminal.screen.lines[1], "Search: kit", "Esc goes back to the list")
            XCTAssertFalse(quit())
            terminal.press(.escape)
            world.scheduler.advanceTo(1220)
            XCTAssertTrue(quit(), "Esc in the list quits")
        }
    }

    func testAnErrorSaysPressRToRetryAndRRetries() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", sequence: [
            .json(#"{"message": "Service Unavailable"}"#, statusCode: 503),
            .json(searchBody([kit])),
        ])
        withScreen(world) { terminal, _ in
            terminal.type("kit")
            world.scheduler.advanceTo(800)
            XCTAssertEqual(terminal.screen.lines[2], "✖ GitHub answered 503 Service Unavailable — press r to retry")
            XCTAssertEqual(terminal.screen.style(row: 2, column: 0).foreground, .red)
            terminal.type("r")
            world.scheduler.advanceTo(810)
            XCTAssertEqual(terminal.screen.lines[1], "Search: kit", "r retried instead of typing")
            XCTAssertEqual(terminal.screen.lines[2], "⠋ Loading…")
            world.scheduler.advanceTo(1100)
            XCTAssertEqual(terminal.screen.lines[2], "1 repository")
            XCTAssertTrue(terminal.screen.lines[4].contains("ann/kit"))
        }
        XCTAssertEqual(world.stub.requests.count, 2)
    }

    func testRIsTypedWhenThereIsNothingToRetry() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", .json(searchBody([])))
        withScreen(world) { terminal, _ in
            terminal.type("rx")
            world.scheduler.advanceTo(800)
            XCTAssertEqual(terminal.screen.lines[1], "Search: rx")
            XCTAssertEqual(terminal.screen.lines[2], "No repositories match “rx”")
            terminal.press(.backspace, .backspace)
            world.scheduler.advanceTo(1500)
            XCTAssertEqual(terminal.screen.lines[1], "Search:")
            XCTAssertTrue(terminal.screen.lines[2].hasPrefix("Type words and qualifiers, e.g. ripple language:swift stars:>100"))
        }
    }

    func testDownAtTheEndLoadsTheNextPage() throws {
        let world = SearchWorld(perPage: 2)
        world.stub.stub(.get, "/search/repositories") { request in
            parameter("page", of: request) == "1"
                ? .json(searchBody([self.kit, self.tools], total: 3)) : .json(searchBody([self.more], total: 3))
        }
        withScreen(world) { terminal, _ in
            terminal.type("k")
            world.scheduler.advanceTo(700)
            XCTAssertEqual(terminal.screen.lines[2], "3 repositories (showing 2, ↓ at the end loads more)")
            terminal.press(.down, .down)
            world.scheduler.advanceTo(710)
            XCTAssertEqual(terminal.screen.lines[2], "3 repositories (showing 2, ↓ at the end loads more)  ⠋ Loading more…")
            XCTAssertTrue(terminal.screen.lines[5].hasPrefix("› ann/tools"), "the last item stays highlighted while loading")
            world.scheduler.advanceTo(1000)
            XCTAssertEqual(terminal.screen.lines[2], "3 repositories")
            XCTAssertTrue(terminal.screen.lines[5].hasPrefix("  ann/tools"))
            XCTAssertTrue(terminal.screen.lines[6].hasPrefix("› ann/more"), "the selection moves onto the first new item")
            terminal.press(.down)
            world.scheduler.advanceTo(1010)
            XCTAssertTrue(terminal.screen.lines[6].hasPrefix("› ann/more"), "no more pages: it stays on the last")
            terminal.press(.up)
            world.scheduler.advanceTo(1020)
            XCTAssertTrue(terminal.screen.lines[5].hasPrefix("› ann/tools"))
        }
        XCTAssertEqual(world.stub.requests.compactMap { parameter("page", of: $0) }, ["1", "2"])
    }

    func testResizeRelaysOutAndCutsLongLines() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", .json(searchBody([kit, tools, more])))
        withScreen(world) { terminal, _ in
            terminal.type("kit")
            world.scheduler.advanceTo(700)
            terminal.resize(to: TerminalSize(rows: 7, columns: 30))
            world.scheduler.advanceTo(710)
            XCTAssertEqual(terminal.screen.lines, [
                "GitHub search  ·  test server",
                "Search: kit",
                "3 repositories",
                "──────────────────────────────",
                "› ann/kit    ★ 1.2k   Swift",
                "  ann/tools  ★ 56",
                "Type to search  ↑/↓ select  E…",
            ])
            terminal.press(.down, .down)
            world.scheduler.advanceTo(720)
            XCTAssertEqual(terminal.screen.lines[4], "  ann/tools  ★ 56", "the list scrolls to keep the highlight visible")
            XCTAssertTrue(terminal.screen.lines[5].hasPrefix("› ann/more"))
        }
    }

    func testAnOverLongStatusEndsInAnEllipsisInsideItsQuotes() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", .json(searchBody([])))
        let query = String(repeating: "reactive streams ", count: 7) + "end"   // 122 characters
        withScreen(world) { terminal, _ in
            terminal.type(query)
            world.scheduler.advanceTo(900)
            let status = terminal.screen.lines[2]
            XCTAssertTrue(status.hasPrefix("No repositories match “reactive streams"), status)
            XCTAssertTrue(status.hasSuffix("…”"), "cut inside the quotes, the closing one kept: \(status)")
            XCTAssertEqual(DisplayWidth.of(status), 80, status)
        }
    }

    func testWhileANewQueryLoadsThePreviousResultsStayDimmedWithTheirCountMarkedAsTheirs() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories") { request in
            parameter("q", of: request) == "swift"
                ? .json(searchBody([self.kit, self.tools], total: 87))
                : .json(searchBody([self.more], total: 105)).delayed(by: .milliseconds(600))
        }
        withScreen(world) { terminal, _ in
            terminal.type("swift")
            world.scheduler.advanceTo(700)
            XCTAssertEqual(terminal.screen.lines[2], "87 repositories (showing 2, ↓ at the end loads more)")
            XCTAssertFalse(terminal.screen.style(row: 2, column: 0).dim)

            // Typing: the debounce has not fired, the count is the previous query's.
            terminal.press(.backspace, .backspace)
            world.scheduler.advanceTo(710)
            XCTAssertEqual(terminal.screen.lines[1], "Search: swi")
            XCTAssertEqual(terminal.screen.lines[2], "⠋  87 repositories for “swift”")
            XCTAssertTrue(terminal.screen.style(row: 2, column: 3).dim, "the old count is dimmed")
            XCTAssertTrue(terminal.screen.lines[4].hasPrefix("  ann/kit"), "the old results stay, without a highlight")
            XCTAssertTrue(terminal.screen.style(row: 4, column: 2).dim)
            XCTAssertFalse(terminal.screen.style(row: 4, column: 2).inverse)

            // The new query's request is in flight: a spinner, the old results still there.
            world.scheduler.advanceTo(1100)
            XCTAssertTrue(terminal.screen.lines[2].hasSuffix(" Searching “swi”…  87 repositories for “swift”"), terminal.screen.lines[2])
            XCTAssertTrue("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏".contains(terminal.screen.lines[2].first!), "a spinner: \(terminal.screen.lines[2])")
            XCTAssertTrue(terminal.screen.style(row: 2, column: 30).dim)
            XCTAssertTrue(terminal.screen.lines[5].hasPrefix("  ann/tools"))
            XCTAssertFalse(terminal.screen.text.contains("Loading…"), "the list does not blank")

            // The new results replace them.
            world.scheduler.advanceTo(1700)
            XCTAssertEqual(terminal.screen.lines[2], "105 repositories (showing 1, ↓ at the end loads more)")
            XCTAssertTrue(terminal.screen.lines[4].hasPrefix("› ann/more"))
            XCTAssertFalse(terminal.screen.style(row: 4, column: 2).dim)
            XCTAssertEqual(terminal.screen.lines[5], "")
        }
    }

    /// Every frame drawn is one state of the screen: the results' count, the
    /// rows and the highlight come from the same summary. The frames combined
    /// the summary with two streams derived from it (the results shown and
    /// their rows), so each new summary drew a frame with the previous one's
    /// results first: "0 repositories (showing 0)" above an empty list, for an
    /// instant, which an integration test polling the screen caught.
    func testNoFrameMixesASummaryWithAnotherSummarysResults() {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories") { request in
            let body = parameter("q", of: request) == "swift"
                ? searchBody([self.kit, self.tools], total: 87) : searchBody([self.more], total: 105)
            return .json(body).delayed(by: .milliseconds(100))
        }
        SharingScheduler.mock(scheduler: world.scheduler) {
            let terminal = VirtualTerminal(size: TerminalSize(rows: 12, columns: 80))
            let screen = SearchScreen(host: terminal, store: world.store, source: "test server")
            var frames: [[String]] = []
            let recording = screen.frames.drive(onNext: { frames.append($0.lines.map(\.text)) })
            defer { recording.dispose() }
            world.scheduler.advanceTo(1)
            terminal.type("swift")
            world.scheduler.advanceTo(700)
            terminal.press(.backspace, .backspace)
            world.scheduler.advanceTo(1400)
            let counts = frames.filter { $0[2].range(of: #"^\d+ repositories"#, options: .regularExpression) != nil }
            XCTAssertEqual(
                Set(counts.map { Array($0[2...5]) }),
                [
                    ["87 repositories (showing 2, ↓ at the end loads more)", String(repeating: "─", count: 80),
                     "› ann/kit    ★ 1.2k   Swift      A reactive kit for terminal apps".padding(toLength: 80, withPad: " ", startingAt: 0),
                     "  ann/tools  ★ 56                The tools library"],
                    ["105 repositories (showing 1, ↓ at the end loads more)", String(repeating: "─", count: 80),
                     "› ann/more   ★ 7      Rust       More".padding(toLength: 80, withPad: " ", startingAt: 0), ""],
                ],
                "every frame with a count shows that count's results: \(counts.map { $0[2] })")
        }
    }

    func testF1ShowsEveryKeyAndQuestionMarkOnlyWhereItCannotBeQueryText() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", .json(searchBody([kit])))
        world.stub.stub(.get, "/repos/**", .never)
        withScreen(world, size: TerminalSize(rows: 16, columns: 100)) { terminal, quit in
            terminal.type("kit?")
            world.scheduler.advanceTo(700)
            XCTAssertEqual(terminal.screen.lines[1], "Search: kit?", "? is query text in the list")
            terminal.press(.backspace)
            world.scheduler.advanceTo(1300)
            XCTAssertEqual(terminal.screen.lines[2], "1 repository")
            terminal.press(.function(1))
            world.scheduler.advanceTo(1310)
            XCTAssertEqual(terminal.screen.lines[0], "GitHub search — keys")
            let help = terminal.screen.text
            for keys in ["typing", "← → Home End", "Ctrl-A", "Alt+B", "Backspace Delete", "Ctrl-W", "Ctrl-U", "↑ ↓ PgUp PgDn",
                         "Enter", "r  Ctrl-R", "F1", "Esc", "Ctrl-C  Ctrl-D"] {
                XCTAssertTrue(help.contains(keys), "the help lists \(keys): \(help)")
            }
            XCTAssertEqual(terminal.screen.lines[15], "Esc, F1 or ? closes this help   Ctrl-C: quit")
            XCTAssertFalse(help.contains("…"), "the help wraps, it never cuts: \(help)")
            terminal.press(.escape)
            world.scheduler.advanceTo(1320)
            XCTAssertEqual(terminal.screen.lines[1], "Search: kit", "Esc closes the help, not the app")
            XCTAssertFalse(quit())

            terminal.press(.enter)
            world.scheduler.advanceTo(1330)
            XCTAssertEqual(terminal.screen.lines[0], "ann/kit")
            XCTAssertEqual(terminal.screen.lines[15], "Esc / Backspace: back   ? or F1: help   Ctrl-C: quit")
            terminal.type("?")
            world.scheduler.advanceTo(1340)
            XCTAssertEqual(terminal.screen.lines[0], "GitHub search — keys", "? opens the help in the details")
            terminal.press(.function(1))
            world.scheduler.advanceTo(1350)
            XCTAssertEqual(terminal.screen.lines[0], "ann/kit", "F1 closes it, back to the details")
        }
    }

    func testCtrlCQuitsFromTheDetails() throws {
        let world = SearchWorld()
        world.stub.stub(.get, "/search/repositories", .json(searchBody([kit])))
        world.stub.stub(.get, "/repos/**", .never)
        withScreen(world) { terminal, quit in
            terminal.type("kit")
            world.scheduler.advanceTo(700)
            terminal.press(.enter)
            world.scheduler.advanceTo(710)
            XCTAssertEqual(terminal.screen.lines[0], "ann/kit")
            terminal.press(.control("c"))
            world.scheduler.advanceTo(720)
            XCTAssertTrue(quit())
        }
    }

    func testFormatting() {
        XCTAssertEqual(SearchScreenFormatting.count(999), "999")
        XCTAssertEqual(SearchScreenFormatting.count(1000), "1k")
        XCTAssertEqual(SearchScreenFormatting.count(1234), "1.2k")
        XCTAssertEqual(SearchScreenFormatting.count(15_300), "15k")
        XCTAssertEqual(SearchScreenFormatting.count(2_345_678), "2.3M")
        XCTAssertEqual(SearchScreenFormatting.truncated("abcdef", to: 4), "abc…")
        XCTAssertEqual(SearchScreenFormatting.truncated("abc", to: 4), "abc")
    }
}
