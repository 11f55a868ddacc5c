import ArgumentParser
import Foundation
import MockGitHubAPI
import Ripple
import UnixSignals

/// `mock-github-api`: runs the mock GitHub REST API in the foreground until Ctrl-C.
@main
struct MockGitHubAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock-github-api",
        abstract: "Serve a mock of the GitHub REST API (repository search, user repositories, repository lookup) on loopback.",
        discussion: """
            Serves a bundled, invented fixture set (or --fixtures FILE) at
              GET /users/{user}/repos?page=&per_page=&sort=&direction=
              GET /search/repositories?q=&page=&per_page=&sort=&order=
              GET /repos/{owner}/{repo}
            with optional latency, 5xx failures, rate limiting and malformed JSON.
            Each request is logged on standard output unless --quiet. Ctrl-C stops it.
            """
    )

    /// `swift run mock-github-api -- --flag` passes the `--` on; read the rest as options.
    /// A negative number after an option is its value (`--port -1`), so that the
    /// option's own validation reports it.
    static func main() async {
        await main(CommandLineArguments.normalized(Array(CommandLine.arguments.dropFirst())))
    }

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(
        name: .customLong("latency-ms"),
        help: ArgumentHelp("Added latency per response in milliseconds: a number (200) or a range (50-400).", valueName: "ms"))
    var latency: String?

    @Option(help: "Probability (0...1) that a request fails with a 5xx status.")
    var failureRate = 0.0

    @Option(
        name: .customLong("failure-status"), parsing: .singleValue,
        help: ArgumentHelp("A status injected failures use (repeatable; default 500, 502, 503).", valueName: "code"))
    var failureStatuses: [Int] = []

    @Option(help: ArgumentHelp("Allow this many requests per rate-limit window, then answer 403.", valueName: "n"))
    var rateLimit: Int?

    @Option(help: ArgumentHelp("The length of the rate-limit window in seconds.", valueName: "seconds"))
    var rateLimitWindow = 3600.0

    @Option(name: .customLong("malformed-json-rate"), help: "Probability (0...1) that a 200 response's JSON is cut short.")
    var malformedJSONRate = 0.0

    @Option(help: "Seed of the random decisions (latency ranges, failures, malformed bodies).")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Serve this fixture file instead of the bundled one.", valueName: "file"))
    var fixtures: String?

    @Option(help: "The base of html_url, clone_url and avatar_url in responses.")
    var htmlBaseURL = MockGitHubConfiguration.defaultHTMLBaseURL

    @Flag(help: "Don't log each request.")
    var quiet = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        // Finite and bounded: the seconds become integer milliseconds.
        guard rateLimitWindow.isFinite, rateLimitWindow > 0, rateLimitWindow <= 31_536_000 else {
            throw ValidationError("--rate-limit-window must be a number of seconds greater than 0 and at most 31536000 (a year), not '\(rateLimitWindow)'.")
        }
        if let rateLimit, rateLimit < 1 {
            throw ValidationError("--rate-limit must be at least 1 request per window, not \(rateLimit).")
        }
        guard let url = URL(string: htmlBaseURL), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false else {
            throw ValidationError("--html-base-url must be an http(s) URL such as \(MockGitHubConfiguration.defaultHTMLBaseURL), not '\(htmlBaseURL)'.")
        }
        if let fixtures, !FileManager.default.isReadableFile(atPath: fixtures) {
            let reason = FileManager.default.fileExists(atPath: fixtures) ? "it cannot be read" : "no such file"
            throw ValidationError("--fixtures: cannot read '\(fixtures)' (\(reason)).")
        }
        let behavior = try makeBehavior()
        do {
            try behavior.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        var configuration = MockGitHubConfiguration(host: host, port: port, seed: seed, htmlBaseURL: htmlBaseURL)
        configuration.behavior = try makeBehavior()
        if let fixtures {
            do {
                configuration.fixtures = try FixtureSet(jsonData: Data(contentsOf: URL(fileURLWithPath: fixtures)))
            } catch {
                printError("the fixture file \(fixtures) is not a fixture set: \(Self.oneLine(error))")
                throw ExitCode.validationFailure
            }
        }

        let server: MockGitHubServer
        do {
            server = try await MockGitHubServer.start(configuration: configuration, gracefulShutdownSignals: [.sigint, .sigterm])
        } catch {
            printError("Could not start the server on \(host):\(port): \(error)\nTry another --port, or --port 0 for a free one.")
            throw ExitCode.failure
        }
        let base = server.baseURL.absoluteString
        printFlushed(
            """
            Mock GitHub API listening on \(base)
              curl '\(base)/search/repositories?q=reactive+language:swift&per_page=5'
              curl '\(base)/users/\(Self.exampleLogin(configuration))/repos'
            Press Ctrl-C to stop.
            """
        )
        let subscription = quiet ? nil : server.requests.subscribe(onNext: { request in
            printFlushed(request.description)
        })
        defer { subscription?.dispose() }
        try await server.waitUntilStopped()
        printFlushed("Stopped after \(server.requestCount) request(s).")
    }

    private func parsedLatency() throws -> MockGitHubConfiguration.Latency {
        guard let latency else { return .none }
        guard let parsed = MockGitHubConfiguration.Latency(milliseconds: latency) else {
            throw ValidationError("--latency-ms takes milliseconds (200) or a range (50-400), not '\(latency)'.")
        }
        return parsed
    }

    private func makeBehavior() throws -> MockGitHubConfiguration.Behavior {
        var behavior = MockGitHubConfiguration.Behavior(
            latency: try parsedLatency(),
            failureRate: failureRate,
            malformedJSONRate: malformedJSONRate
        )
        if !failureStatuses.isEmpty { behavior.failureStatuses = failureStatuses }
        if let rateLimit {
            behavior.rateLimit = .init(limit: rateLimit, window: .milliseconds(Int64((rateLimitWindow * 1000).rounded())))
        }
        return behavior
    }

    /// An error on one line: a decoding error's description and coding path
    /// rather than its whole dump.
    private static func oneLine(_ error: Error) -> String {
        let text: String
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
             DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            text = path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default:
            text = (error as? LocalizedError)?.errorDescription ?? "\(error)"
        }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private static func exampleLogin(_ configuration: MockGitHubConfiguration) -> String {
        let fixtures = configuration.fixtures ?? (try? FixtureSet.bundled())
        return fixtures?.accounts.first?.login ?? "USER"
    }
}

/// Prints a line and flushes at once, so that the output is timely when piped.
private func printFlushed(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

private func printError(_ text: String) {
    FileHandle.standardError.write(Data(("error: " + text + "\n").utf8))
}
