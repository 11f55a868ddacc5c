import ArgumentParser
import Foundation
import GitHubKit
import GitHubSearch
import GitHubStore
import MockGitHubAPI
import Ripple
import RippleDebugExport
import RippleHTTP
import TerminalUI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `github-search`: Ripple's main demo. Search GitHub repositories as you type, in
/// a terminal, against an embedded mock GitHub API (default) or any
/// GitHub-compatible server.
@main
struct GitHubSearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "github-search",
        abstract: "Search GitHub repositories as you type (Ripple's demo app).",
        discussion: """
            By default an embedded mock GitHub API with invented repositories starts on
            127.0.0.1 (a free port), so everything works offline. Results are cached in
            SQLite: cached results show first, then the server's.

            In the terminal: type a query (GitHub syntax: language:swift stars:>100), or
            @login for an account's repositories. Up/Down select, Enter shows details
            (Esc back), r retries after an error, Esc or Ctrl-C quits.

            With --query it prints one page of results and exits (status 1 and a message
            on standard error when the request fails).

            With --input KEYS, or when standard input is not a terminal (its bytes are the
            keys), it runs the same screen without a terminal: it presses the keys, waits
            for the results, prints the screen and exits. Text is typed; {enter} {esc}
            {up} {down} {tab} {backspace} ... are keys (see `counter --help`).
            """
    )

    /// `swift run github-search -- --flag` passes the `--` on; read the rest as options.
    /// A negative number after an option is its value (`--per-page -1`), so that
    /// the option's own validation reports it.
    static func main() {
        main(CommandLineArguments.normalized(Array(CommandLine.arguments.dropFirst())))
    }

    @Option(help: ArgumentHelp("Use this GitHub-compatible API instead of the embedded mock (e.g. https://api.github.com).", valueName: "url"))
    var apiURL: String?

    @Option(help: ArgumentHelp("Print the results for this query and exit.", valueName: "query"))
    var query: String?

    @Option(help: ArgumentHelp("Don't open the terminal: press these keys ({down}, {enter}... for keys), wait for the results, print the screen and exit.", valueName: "keys"))
    var input: String?

    @Option(help: "The page to print with --query.")
    var page = 1

    @Option(help: "Results per page.")
    var perPage = 30

    @Option(help: ArgumentHelp("The SQLite cache file (default: in the user's cache directory, one file per API).", valueName: "path"))
    var cache: String?

    @Flag(help: "Cache in memory only.")
    var noCache = false

    @Option(help: ArgumentHelp("How long cached results stay valid, in seconds.", valueName: "seconds"))
    var cacheTTL = 600.0

    @Option(help: ArgumentHelp("Record the timeline of the app's named streams and write it as a Chrome trace (Perfetto, chrome://tracing) on exit.", valueName: "file"))
    var trace: String?

    @Option(help: ArgumentHelp("Record what is subscribed to what and write the live subscription graph on exit, in the format of the file's extension: .html (a page that draws it), .dot, .mmd (Mermaid), .json or .txt (a tree).", valueName: "file"))
    var graph: String?

    @Option(help: ArgumentHelp("Time limit of one HTTP request, in seconds.", valueName: "seconds"))
    var timeout = 10.0

    @Option(help: ArgumentHelp("A GitHub token for --api-url (default: $GITHUB_TOKEN).", valueName: "token"))
    var token: String?

    @Flag(help: "Log every HTTP request to standard error as a curl command (with --query).")
    var verbose = false

    @Option(name: .customLong("mock-latency-ms"), help: ArgumentHelp("Embedded mock: added latency per response, ms (200) or a range (50-400).", valueName: "ms"))
    var mockLatency: String?

    @Option(name: .customLong("mock-failure-rate"), help: ArgumentHelp("Embedded mock: the share (0...1) of requests that answer 5xx.", valueName: "rate"))
    var mockFailureRate = 0.0

    @Option(name: .customLong("mock-rate-limit"), help: ArgumentHelp("Embedded mock: requests allowed per minute before 403 rate limiting.", valueName: "n"))
    var mockRateLimit: Int?

    @Option(name: .customLong("mock-malformed-json-rate"), help: ArgumentHelp("Embedded mock: the share (0...1) of 200 bodies cut short.", valueName: "rate"))
    var mockMalformedJSONRate = 0.0

    @Option(name: .customLong("mock-seed"), help: "Embedded mock: seed of its random failures and latencies.")
    var mockSeed: UInt64 = 1

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page must be at least 1.") }
        guard (1...100).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 100.") }
        // Finite and bounded: the seconds become integer milliseconds and dates.
        guard timeout.isFinite, timeout > 0, timeout <= Self.maximumTimeout else {
            throw ValidationError("--timeout must be a number of seconds greater than 0 and at most \(Int(Self.maximumTimeout)), not '\(timeout)'.")
        }
        guard cacheTTL.isFinite, cacheTTL >= 0, cacheTTL <= Self.maximumCacheTTL else {
            throw ValidationError("--cache-ttl must be a number of seconds from 0 to \(Int(Self.maximumCacheTTL)), not '\(cacheTTL)'.")
        }
        if let apiURL {
            guard let url = URL(string: apiURL), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw ValidationError("--api-url must be an http(s) URL, not '\(apiURL)'.")
            }
        }
        if let query, query.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--query must not be empty.")
        }
        if let mockRateLimit, mockRateLimit < 1 {
            throw ValidationError("--mock-rate-limit must be at least 1 request per minute, not \(mockRateLimit).")
        }
        let behavior = try mockBehavior()
        do {
            try behavior.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The longest `--timeout`: a day.
    static let maximumTimeout: Double = 86_400
    /// The longest `--cache-ttl`: a year.
    static let maximumCacheTTL: Double = 31_536_000

    func run() throws {
        let recorder = trace.map { _ in TraceRecorder() }
        recorder?.start()
        // Before anything is built: chains built while recording keep every
        // operator as a node of its own.
        if graph != nil {
            Hooks.recordsOperatorSites = true
        }
        let writeTrace = { [graph] in
            if let graph {
                Self.writeGraph(SubscriptionGraph.current(), to: graph)
            }
            guard let recorder, let trace else { return }
            recorder.stop()
            do {
                try recorder.writeChromeTrace(to: URL(fileURLWithPath: trace))
                printError("trace: \(recorder.events.count) events written to \(trace)", prefix: "")
            } catch {
                printError("could not write the trace to \(trace): \(error)")
            }
        }

        // Without --query: the terminal, or keys from --input or a non-terminal standard input.
        var scriptedKeys: [Key]?
        if query == nil {
            if let input {
                do {
                    scriptedKeys = try ScriptedRun.keys(fromScript: input)
                } catch {
                    throw ValidationError(error.message)
                }
            } else if isatty(STDIN_FILENO) != 1 {
                scriptedKeys = ScriptedRun.keys(fromBytes: Array(FileHandle.standardInput.readDataToEndOfFile()))
            } else if !Terminal.isInteractive {
                printError("standard output is not a terminal: pass --query QUERY to print results, --input KEYS to print the screen, or run it in a terminal.")
                throw ExitCode.failure
            }
        }
        let interactive = query == nil && scriptedKeys == nil

        // The API: the embedded mock server, or --api-url.
        var server: MockGitHubServer?
        let baseURL: URL
        let source: String
        if let apiURL {
            baseURL = URL(string: apiURL)!
            source = baseURL.absoluteString
        } else {
            var configuration = MockGitHubConfiguration()
            configuration.behavior = try mockBehavior()
            configuration.seed = mockSeed
            do {
                server = try MockGitHubServer.startBlocking(configuration: configuration)
            } catch {
                printError("could not start the embedded mock GitHub API: \(error)")
                throw ExitCode.failure
            }
            baseURL = server!.baseURL
            source = "mock GitHub API at \(baseURL.absoluteString)"
        }

        // The cache: an unusable file (corrupt, locked by another process) means an
        // in-memory cache for this run and a notice, not a failure.
        let database: GitHubCacheDatabase
        var cacheNotice: String?
        do {
            if noCache {
                database = try GitHubCacheDatabase.inMemory()
            } else {
                let path = cache ?? Self.defaultCachePath(mock: apiURL == nil, baseURL: baseURL)
                (database, cacheNotice) = try GitHubCacheDatabase.openOrFallBack(path: path)
            }
            _ = try? database.removeExpired()
        } catch {
            printError("\(error)")
            server?.stopBlocking()
            throw ExitCode.failure
        }

        let logger: HTTPLogger? = verbose && !interactive
            ? HTTPLogger { entry in FileHandle.standardError.write(Data((entry.description + "\n").utf8)) }
            : nil
        let session = Session(
            // AsyncHTTPClientTransport on Linux (no server can crash it), URLSession elsewhere.
            client: makeHTTPClient(),
            timeout: .milliseconds(Int(timeout * 1000)),
            logger: logger)
        let github = GitHubClient(
            session: session, baseURL: baseURL,
            token: token ?? (apiURL == nil ? nil : ProcessInfo.processInfo.environment["GITHUB_TOKEN"]))
        let store = RepositoryStore(api: github, database: database, pageTimeToLive: cacheTTL, perPage: perPage)

        if let query {
            if let cacheNotice { printError(cacheNotice, prefix: "warning: ") }
            let code = Self.printResults(of: query, page: page, store: store, timeout: timeout * 4 + 5)
            writeTrace()
            server?.stopBlocking()
            if code != 0 { throw ExitCode(code) }
            return
        }

        MainActor.assumeIsolated {
            if let scriptedKeys {
                // The screen reports the debounce and the requests as busy, so the
                // default quiet period is enough; a step may take a request's
                // retries and their backoff.
                let run = ScriptedRun(timeout: timeout * 4 + 10, size: TerminalSize(rows: 24, columns: 100))
                run.run(keys: scriptedKeys, onExit: writeTrace) { host in
                    SearchScreen(host: host, store: store, source: source, notice: cacheNotice)
                }
            }
            TerminalApp.run(onExit: writeTrace) { host in
                SearchScreen(host: host, store: store, source: source, notice: cacheNotice)
            }
        }
    }

    /// Writes `graph` to `path`, in the format its extension names (HTML otherwise).
    static func writeGraph(_ graph: SubscriptionGraph, to path: String) {
        let text: String
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "dot", "gv": text = graph.dot
        case "mmd", "mermaid": text = graph.mermaid
        case "json": text = graph.json()
        case "txt": text = graph.textTree
        default: text = graph.html
        }
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            printError("graph: \(graph.nodes.count) nodes and \(graph.edges.count) edges written to \(path)", prefix: "")
        } catch {
            printError("could not write the graph to \(path): \(error)")
        }
    }

    /// Prints one page; returns the exit status.
    static func printResults(of query: String, page: Int, store: RepositoryStore, timeout: TimeInterval) -> Int32 {
        let width = Terminal.isInteractive ? (Terminal().size.columns) : 160
        switch QueryMode.fetch(query, page: page, store: store, timeout: timeout) {
        case .fresh(let results):
            print(QueryMode.format(results, query: query, width: width))
            return 0
        case .cached(let results, let error):
            printError("\(error.message()); showing cached results", prefix: "warning: ")
            print(QueryMode.format(results, query: query, width: width))
            return 0
        case .failed(let error):
            let hint = error.isRetryable ? " (try again later)" : ""
            printError("\(error.message())\(hint)")
            if case .malformedResponse(let underlying) = error { printError("\(underlying)", prefix: "  ") }
            return 1
        case .timedOut:
            printError("no answer within \(Int(timeout)) seconds")
            return 1
        }
    }

    /// `~/.cache/ripple-github-search/<api>.sqlite` (the temporary directory when
    /// there is no user cache directory).
    static func defaultCachePath(mock: Bool, baseURL: URL) -> String {
        let base = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        let name: String
        if mock {
            name = "mock-api"
        } else {
            let host = (baseURL.host ?? "api") + (baseURL.port.map { "-\($0)" } ?? "")
            name = host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.map(String.init).joined()
        }
        return base.appendingPathComponent("ripple-github-search").appendingPathComponent(name + ".sqlite").path
    }

    func mockBehavior() throws -> MockGitHubConfiguration.Behavior {
        var behavior = MockGitHubConfiguration.Behavior(failureRate: mockFailureRate, malformedJSONRate: mockMalformedJSONRate)
        if let mockLatency {
            guard let latency = MockGitHubConfiguration.Latency(milliseconds: mockLatency) else {
                throw ValidationError("--mock-latency-ms takes milliseconds (200) or a range (50-400), not '\(mockLatency)'.")
            }
            behavior.latency = latency
        }
        if let mockRateLimit {
            behavior.rateLimit = .init(limit: mockRateLimit, window: .seconds(60))
        }
        return behavior
    }
}

private func printError(_ text: String, prefix: String = "error: ") {
    FileHandle.standardError.write(Data((prefix + text + "\n").utf8))
}
