import ArgumentParser
import Foundation
import GitHubActivity
import GitHubKit
import MockGitHubAPI
import Ripple
import RippleHTTP
import RippleHTTPStreaming
import TerminalUI

/// `activity`: a repository's live activity as Server-Sent Events, with the
/// connection's state and its reconnections visible.
@main
struct ActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Watch a repository's live activity (Server-Sent Events), reconnections included.",
        discussion: """
            By default an embedded mock GitHub API starts on 127.0.0.1 (a free port) and
            streams invented events for a repository of its fixtures
            (GET /repos/{owner}/{repo}/events/live). Each event has an id; when the
            connection drops, the app reconnects after the server's retry: time and
            resumes with Last-Event-ID, so nothing is missed or repeated.

            In the terminal: d asks the mock server to drop the connection (watch the
            status line), q or Esc quits.

            With --input KEYS, or when standard input is not a terminal (its bytes are the
            keys), it runs the same screen without a terminal: it presses the keys, waits
            for the screen to settle, prints it and exits. Text is typed; {enter} {esc} ...
            are keys (see `counter --help`).
            """
    )

    /// `swift run activity -- --flag` passes the `--` on; read the rest as options.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--" { arguments.removeFirst() }
        main(arguments)
    }

    @Option(help: ArgumentHelp("The repository, owner/name (default: the first of the mock's fixtures).", valueName: "owner/name"))
    var repo: String?

    @Option(help: ArgumentHelp("Use this API instead of the embedded mock (it must serve /repos/{owner}/{repo}/events/live).", valueName: "url"))
    var apiURL: String?

    @Option(help: ArgumentHelp("Don't open the terminal: press these keys, wait for the screen to settle, print it and exit.", valueName: "keys"))
    var input: String?

    @Option(help: ArgumentHelp("Milliseconds between the mock's events.", valueName: "ms"))
    var intervalMs = 700

    @Option(help: ArgumentHelp("The mock drops each connection after this many events (0: never).", valueName: "n"))
    var dropEvery = 0

    func validate() throws {
        guard (10...60_000).contains(intervalMs) else { throw ValidationError("--interval-ms must be from 10 to 60000, not \(intervalMs).") }
        guard (0...10_000).contains(dropEvery) else { throw ValidationError("--drop-every must be from 0 to 10000, not \(dropEvery).") }
        if let repo, repo.split(separator: "/").count != 2 { throw ValidationError("--repo must be owner/name, not '\(repo)'.") }
        if let apiURL {
            guard let url = URL(string: apiURL), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw ValidationError("--api-url must be an http(s) URL, not '\(apiURL)'.")
            }
        }
    }

    func run() throws {
        var scriptedKeys: [Key]?
        if let input {
            do {
                scriptedKeys = try ScriptedRun.keys(fromScript: input)
            } catch {
                throw ValidationError(error.message)
            }
        } else if isatty(STDIN_FILENO) != 1 {
            scriptedKeys = ScriptedRun.keys(fromBytes: Array(FileHandle.standardInput.readDataToEndOfFile()))
        } else if !Terminal.isInteractive {
            FileHandle.standardError.write(Data("error: standard output is not a terminal: pass --input KEYS to print the screen, or run it in a terminal.\n".utf8))
            throw ExitCode.failure
        }

        var server: MockGitHubServer?
        let baseURL: URL
        let source: String
        var repository = repo
        if let apiURL {
            baseURL = URL(string: apiURL)!
            source = baseURL.absoluteString
        } else {
            do {
                let fixtures = try FixtureSet.bundled()
                repository = repository ?? fixtures.repositories.first.map { "\($0.owner)/\($0.name)" }
                server = try MockGitHubServer.startBlocking(configuration: MockGitHubConfiguration(fixtures: fixtures))
            } catch {
                FileHandle.standardError.write(Data("error: could not start the embedded mock GitHub API: \(error)\n".utf8))
                throw ExitCode.failure
            }
            baseURL = server!.baseURL
            source = "mock GitHub API at \(baseURL.absoluteString)"
        }
        guard let repository, case let parts = repository.split(separator: "/"), parts.count == 2 else {
            throw ValidationError("--repo owner/name is needed with --api-url.")
        }
        let session = Session(client: makeHTTPClient(), timeout: .seconds(10), retryPolicy: RetryPolicy(maxRetries: 5, initialDelay: 1))
        let request = LiveEventsRequest(
            owner: String(parts[0]), name: String(parts[1]), intervalMilliseconds: intervalMs, dropAfter: dropEvery > 0 ? dropEvery : nil,
            baseURL: baseURL)
        let drop = server.map { server in { server.dropLiveEventConnections() } }

        MainActor.assumeIsolated {
            let makeScreen = { (host: TerminalHost) -> TerminalScreen in
                ActivityScreen(
                    host: host, viewModel: ActivityViewModel(updates: session.eventStream(for: request)), repository: repository,
                    source: source, drop: drop)
            }
            if let scriptedKeys {
                ScriptedRun(quietPeriod: 0.3, timeout: 30, size: TerminalSize(rows: 16, columns: 100)).run(keys: scriptedKeys, makeScreen)
            }
            TerminalApp.run(makeScreen)
        }
    }
}
