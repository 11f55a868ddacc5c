import Foundation
import Logging

/// How a ``MockGitHubServer`` listens, what it serves and how it misbehaves.
///
/// ```swift
/// var configuration = MockGitHubConfiguration()          // 127.0.0.1, a free port, bundled fixtures
/// configuration.behavior.latency = .uniform(.milliseconds(50), .milliseconds(250))
/// configuration.behavior.failureRate = 0.1                 // 10 % of requests answer 5xx
/// configuration.behavior.rateLimit = .init(limit: 60, window: .seconds(60))
/// configuration.seed = 42                                  // reproducible failures
/// let server = try await MockGitHubServer.start(configuration: configuration)
/// ```
public struct MockGitHubConfiguration: Sendable {
    /// The default base of `html_url`s: a reserved `.example` domain, so that no link
    /// in the invented fixtures points at a real account.
    public static let defaultHTMLBaseURL = "https://github.example.com"

    /// The address to bind, `127.0.0.1` by default (loopback only).
    public var host: String
    /// The port to bind; `0` (the default) picks a free one, see ``MockGitHubServer/port``.
    public var port: Int
    /// The data to serve; `nil` (the default) means ``FixtureSet/bundled()``.
    public var fixtures: FixtureSet?
    /// Latency, failures, rate limiting and malformed bodies; can be changed while the
    /// server runs with ``MockGitHubServer/updateBehavior(_:)``.
    public var behavior: Behavior
    /// Seeds the random decisions of ``behavior`` (see ``Behavior`` for how they are drawn).
    public var seed: UInt64
    /// The base of the `html_url`, `clone_url` and `avatar_url` fields.
    public var htmlBaseURL: String
    /// The level of the server's own log (Hummingbird's), `.warning` by default.
    public var logLevel: Logger.Level
    /// How long a client may take to send a complete request head, from the moment
    /// it connects or its previous response was sent; 20 s by default (Apache's
    /// `RequestReadTimeout header=20`). A client that sent part of a request by
    /// then gets `408 Request Timeout` and the connection is closed; an idle
    /// connection is closed without an answer. Must be positive.
    public var headerReadTimeout: Duration

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        fixtures: FixtureSet? = nil,
        behavior: Behavior = Behavior(),
        seed: UInt64 = 1,
        htmlBaseURL: String = MockGitHubConfiguration.defaultHTMLBaseURL,
        logLevel: Logger.Level = .warning,
        headerReadTimeout: Duration = .seconds(20)
    ) {
        self.host = host
        self.port = port
        self.fixtures = fixtures
        self.behavior = behavior
        self.seed = seed
        self.htmlBaseURL = htmlBaseURL
        self.logLevel = logLevel
        self.headerReadTimeout = headerReadTimeout
    }

    /// The server's injected misbehaviour.
    ///
    /// Every request draws exactly one number from each of three generators seeded from
    /// ``MockGitHubConfiguration/seed`` (latency, failure, malformed body), whatever
    /// else happens to it. So with the same seed the *n*-th request always gets the
    /// same latency, fails or not, and is garbled or not, independently of the other
    /// settings, and a sequence of requests made one after another is reproducible.
    ///
    /// The order of effects for one request: wait the latency; count it against the
    /// rate limit (over the limit: `403`); maybe fail it (`5xx`); answer it; maybe
    /// truncate a `200` body so it is no longer valid JSON.
    public struct Behavior: Sendable, Equatable {
        /// Time added before each response.
        public var latency: Latency
        /// The probability (`0...1`) that a request answers with one of ``failureStatuses``.
        public var failureRate: Double
        /// The statuses of injected failures, picked uniformly (all must be `500...599`).
        public var failureStatuses: [Int]
        /// GitHub-style rate limiting, or `nil` for none (then no `X-RateLimit-*` headers).
        public var rateLimit: RateLimit?
        /// The probability (`0...1`) that a `200` response's JSON body is cut in half.
        public var malformedJSONRate: Double

        public init(
            latency: Latency = .none,
            failureRate: Double = 0,
            failureStatuses: [Int] = [500, 502, 503],
            rateLimit: RateLimit? = nil,
            malformedJSONRate: Double = 0
        ) {
            self.latency = latency
            self.failureRate = failureRate
            self.failureStatuses = failureStatuses
            self.rateLimit = rateLimit
            self.malformedJSONRate = malformedJSONRate
        }

        /// Checks the values; ``MockGitHubServer`` refuses invalid ones with this error.
        public func validate() throws(MockGitHubServer.ConfigurationError) {
            guard (0...1).contains(failureRate) else {
                throw .invalid("failure rate \(failureRate) is not between 0 and 1")
            }
            guard (0...1).contains(malformedJSONRate) else {
                throw .invalid("malformed-JSON rate \(malformedJSONRate) is not between 0 and 1")
            }
            guard !failureStatuses.isEmpty, failureStatuses.allSatisfy({ (500...599).contains($0) }) else {
                throw .invalid("failure statuses \(failureStatuses) must be one or more of 500...599")
            }
            switch latency {
            case .none: break
            case .fixed(let duration):
                guard duration >= .zero else { throw .invalid("latency \(duration) is negative") }
            case .uniform(let low, let high):
                guard low >= .zero, low <= high else { throw .invalid("latency range \(low)...\(high) is invalid") }
            }
            if let rateLimit {
                guard rateLimit.limit >= 0 else { throw .invalid("rate limit \(rateLimit.limit) is negative") }
                guard rateLimit.window > .zero else { throw .invalid("rate-limit window \(rateLimit.window) is not positive") }
            }
        }
    }

    /// Added response time.
    public enum Latency: Sendable, Equatable {
        /// Answer at once.
        case none
        /// Wait this long before every response.
        case fixed(Duration)
        /// Wait a uniformly random time between the two durations (inclusive).
        case uniform(Duration, Duration)

        /// The latency a command line gives in milliseconds: `200` (`0` for none)
        /// or a range `50-400`; `nil` for anything else, a negative number
        /// (`-5`) included.
        public init?(milliseconds text: String) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            let values = parts.map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch (parts.count, values.first ?? nil, values.last ?? nil) {
            case (1, let value?, _) where value >= 0:
                self = value == 0 ? .none : .fixed(.milliseconds(value))
            case (2, let low?, let high?) where low >= 0 && low <= high:
                self = .uniform(.milliseconds(low), .milliseconds(high))
            default:
                return nil
            }
        }
    }

    /// At most ``limit`` requests per ``window``; the window starts with the first
    /// request after the previous one ended. Over the limit, requests get `403` with
    /// GitHub's "API rate limit exceeded" body. Every response carries
    /// `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds), `-Used` and `-Resource`.
    public struct RateLimit: Sendable, Equatable {
        public var limit: Int
        public var window: Duration

        public init(limit: Int, window: Duration = .seconds(3600)) {
            self.limit = limit
            self.window = window
        }
    }
}
