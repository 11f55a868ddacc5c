import Foundation
import XCTest

/// The demo executables without a terminal: `--help`, `--input KEYS`, keys from
/// standard input, argument errors.
final class DemoCommandLineTests: MockServerTestCase {
    func testEveryDemoHasHelp() throws {
        for name in ["counter", "characters-left", "signup", "github-search", "mock-github-api"] {
            let result = try DemoExecutable.run(name, ["--help"])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stdout.contains("USAGE: \(name)"), "\(name): \(result.stdout)")
        }
    }

    func testCounterPressesTheInputKeysAndPrintsTheScreen() throws {
        let result = try DemoExecutable.run("counter", ["--input", "++{down}+{up}"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, """
            Ripple counter

            Count: 3

            + / Up: count up   - / Down: count down   r: reset   q / Esc: quit

            """)
    }

    func testKeysComeFromStandardInputWhenItIsNotATerminal() throws {
        let result = try DemoExecutable.run("counter", [], input: Data("+++-\u{1B}[A".utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Count: 3"), result.stdout)
        let empty = try DemoExecutable.run("counter", [])
        XCTAssertTrue(empty.stdout.contains("Count: 0"), empty.stdout)
    }

    func testCharactersLeftTakesMergingCharactersAsATerminalSendsThem() throws {
        // Each scalar is its own key, as in a terminal: these used to crash the app.
        let input = "👍\u{1F3FD}x\u{7F}\u{7F}\u{7F}\u{1F1EB}\u{1F1F7}\u{7F}e\u{301}\u{7F}ok"
        let result = try DemoExecutable.run("characters-left", [], input: Data(input.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Status: ok\n38 characters left"), result.stdout)
    }

    func testSignUpThroughTheInputScript() throws {
        let result = try DemoExecutable.run("signup", ["--input", "me@example.com{tab}secret1{tab}{enter}"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Signed up as me@example.com!"), result.stdout)
    }

    func testALeadingDoubleDashIsIgnoredAndUnknownArgumentsAreUsageErrors() throws {
        let dashed = try DemoExecutable.run("counter", ["--", "--input", "+"])
        XCTAssertEqual(dashed.status, 0, dashed.stderr)
        XCTAssertTrue(dashed.stdout.contains("Count: 1"), dashed.stdout)
        let unknown = try DemoExecutable.run("characters-left", ["--query", "x"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.hasPrefix("error: unexpected argument '--query'"), unknown.stderr)
        let badKey = try DemoExecutable.run("signup", ["--input", "{nope}"])
        XCTAssertEqual(badKey.status, 64)
        XCTAssertTrue(badKey.stderr.contains("unknown key {nope}"), badKey.stderr)
        let search = try DemoExecutable.run("github-search", ["--", "--query", "@bowynia", "--no-cache", "--per-page", "2"])
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stdout.hasPrefix("Repositories of “@bowynia”"), search.stdout)
        let mock = try DemoExecutable.run("mock-github-api", ["--", "--port", "70000"])
        XCTAssertEqual(mock.status, 64, "validated, so the -- was dropped")
        XCTAssertTrue(mock.stderr.contains("--port must be between 0 and 65535"), mock.stderr)
    }

    func testGitHubSearchWithoutATerminalRunsTheScreenOnTheInputKeys() throws {
        let server = try startServer()
        let result = try DemoExecutable.run(
            "github-search", ["--api-url", server.baseURL.absoluteString, "--no-cache", "--per-page", "3", "--input", "ripple{down}{down}{down}"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines[1], "Search: ripple")
        XCTAssertTrue(lines[2].contains("repositories"), result.stdout)
        XCTAssertEqual(lines.filter { $0.hasPrefix("›") }.count, 1, result.stdout)
        XCTAssertTrue(lines[7].hasPrefix("› "), "Down past the third loaded the next page and moved onto its first: \(result.stdout)")
        XCTAssertEqual(server.requestCount, 2)

        let idle = try DemoExecutable.run("github-search", ["--no-cache"])
        XCTAssertEqual(idle.status, 0, idle.stderr)
        XCTAssertTrue(idle.stdout.contains("Type words and qualifiers"), idle.stdout)
    }

    func testNonFiniteOrOutOfRangeTimeoutsAreArgumentErrors() throws {
        for value in ["inf", "1e300", "nan", "-1", "0", "-inf"] {
            let result = try DemoExecutable.run("github-search", ["--timeout=\(value)", "--query", "x", "--no-cache"])
            XCTAssertEqual(result.status, 64, value)
            XCTAssertTrue(result.stderr.contains("--timeout must be a number of seconds greater than 0 and at most 86400"), "\(value): \(result.stderr)")
        }
        let ttl = try DemoExecutable.run("github-search", ["--cache-ttl", "inf", "--query", "x", "--no-cache"])
        XCTAssertEqual(ttl.status, 64)
        let window = try DemoExecutable.run("mock-github-api", ["--rate-limit-window", "1e300"])
        XCTAssertEqual(window.status, 64)
        XCTAssertTrue(window.stderr.contains("--rate-limit-window must be a number of seconds"), window.stderr)
    }

    /// `--port -1` used to say "Missing value for '--port <port>'" (ArgumentParser
    /// reads `-1` as an option): a negative number gets the option's range message.
    func testNegativeNumbersGetTheRangeMessage() throws {
        let cases: [(String, [String], String)] = [
            ("mock-github-api", ["--port", "-1"], "--port must be between 0 and 65535"),
            ("mock-github-api", ["--latency-ms", "-5"], "--latency-ms takes milliseconds (200) or a range (50-400), not '-5'"),
            ("mock-github-api", ["--rate-limit", "-3"], "--rate-limit must be at least 1 request per window, not -3"),
            ("mock-github-api", ["--failure-rate", "-0.5"], "failure rate -0.5 is not between 0 and 1"),
            ("github-search", ["--per-page", "-1", "--query", "x"], "--per-page must be between 1 and 100"),
            ("github-search", ["--page", "-2", "--query", "x"], "--page must be at least 1"),
            ("github-search", ["--timeout", "-.5", "--query", "x"], "--timeout must be a number of seconds greater than 0"),
            ("github-search", ["--mock-latency-ms", "-5", "--query", "x"], "--mock-latency-ms takes milliseconds"),
        ]
        for (name, arguments, message) in cases {
            let result = try assertUsageError(name, arguments, message)
            XCTAssertFalse(result.stderr.contains("Missing value"), result.stderr)
        }
    }

    /// Runs `name` with `arguments`, expecting a usage error (status 64) that says `message`.
    @discardableResult
    private func assertUsageError(_ name: String, _ arguments: [String], _ message: String, line: UInt = #line) throws -> CommandResult {
        let result = try DemoExecutable.run(name, arguments)
        XCTAssertEqual(result.status, 64, "\(name) \(arguments): \(result.stderr)", line: line)
        XCTAssertTrue(result.stderr.contains(message), "\(name) \(arguments): \(result.stderr)", line: line)
        return result
    }

    func testMockServerArgumentsAreValidated() throws {
        let missing = try assertUsageError(
            "mock-github-api", ["--fixtures", "/nonexistent/fixtures.json"], "Error: --fixtures: cannot read '/nonexistent/fixtures.json' (no such file).\n")
        XCTAssertFalse(missing.stderr.contains("NSCocoaErrorDomain"), missing.stderr)

        let notFixtures = temporaryFile("fixtures.json")
        try Data(#"{"accounts": 3}"#.utf8).write(to: notFixtures)
        let invalid = try assertUsageError(
            "mock-github-api", ["--fixtures", notFixtures.path, "--port", "0"], "error: the fixture file \(notFixtures.path) is not a fixture set: ")
        XCTAssertEqual(invalid.stderr.split(separator: "\n").count, 1, invalid.stderr)

        try assertUsageError("mock-github-api", ["--html-base-url", "notaurl"], "--html-base-url must be an http(s) URL")
        try assertUsageError("mock-github-api", ["--rate-limit", "0"], "--rate-limit must be at least 1 request per window, not 0")
        try assertUsageError("github-search", ["--mock-rate-limit", "0", "--query", "x"], "--mock-rate-limit must be at least 1")
    }

    /// `--input` with many keys that are not text: each waits for the screen to
    /// settle, which used to cost 0.6 s a key under one deadline for the whole
    /// run (86 Downs failed after 50 s with "did not settle").
    func testManyNonTextKeysSettleQuicklyAndEachStepHasItsOwnDeadline() throws {
        let start = Date()
        let result = try DemoExecutable.run(
            "github-search", ["--no-cache", "--timeout", "2", "--input", "swift" + String(repeating: "{down}", count: 86)], timeout: 120)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Search: swift"), result.stdout)
        XCTAssertEqual(result.stdout.split(separator: "\n").filter { $0.hasPrefix("›") }.count, 1, result.stdout)
        XCTAssertLessThan(elapsed, 86 * 0.3, "settling costs far less than 0.6 s a key when nothing is pending")
    }
}
