import Foundation
import RippleHTTP
import RippleHTTPStreaming

/// The live activity of a repository as the mock invents it, for
/// `GET /repos/{owner}/{repo}/events/live` (Server-Sent Events): event *n* of
/// a repository is always the same (drawn from the seed, the repository and
/// *n*), so a client that reconnects with `Last-Event-ID: n` gets exactly
/// the continuation. A pure value: the server streams what it returns.
///
/// Each event is `id: n`, `event: <GitHub event type>` and one `data:` line
/// of JSON in the shape of GitHub's Events API:
///
/// ```
/// id: 17
/// event: WatchEvent
/// data: {"actor":{"login":"kasel"},"created_at":"2024-05-01T12:00:17Z","id":"17","payload":{"action":"started"},"repo":{"name":"octo/kit"},"type":"WatchEvent"}
/// ```
public struct LiveEventFeed: Sendable {
    /// The settings of one stream, from the query.
    public struct Settings: Sendable, Equatable {
        /// Between two events (`interval_ms`, 10...60 000; default 1 000).
        public var interval: Duration = .seconds(1)
        /// The reconnection time announced with `retry:` (`retry_ms`,
        /// 0...600 000; default 2 000).
        public var retryMilliseconds = 2000
        /// Each connection drops after this many events (`drop_after`,
        /// 1...10 000; default: never), to show reconnection.
        public var dropAfter: Int?
        /// The last event of the feed (`limit`, 1...1 000 000; default: none);
        /// a client that has it gets `204 No Content`.
        public var limit: Int?

        public init(interval: Duration = .seconds(1), retryMilliseconds: Int = 2000, dropAfter: Int? = nil, limit: Int? = nil) {
            self.interval = interval
            self.retryMilliseconds = retryMilliseconds
            self.dropAfter = dropAfter
            self.limit = limit
        }

        /// The settings a query asks for, or why it is invalid.
        public static func parse(_ query: QueryParameters) -> Result<Settings, SettingsError> {
            var settings = Settings()
            func integer(_ name: String, _ range: ClosedRange<Int>) -> Result<Int?, SettingsError> {
                guard let text = query[name] else { return .success(nil) }
                guard let value = Int(text), range.contains(value) else {
                    return .failure(SettingsError(message: "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'"))
                }
                return .success(value)
            }
            do {
                if let milliseconds = try integer("interval_ms", 10...60_000).get() { settings.interval = .milliseconds(milliseconds) }
                if let milliseconds = try integer("retry_ms", 0...600_000).get() { settings.retryMilliseconds = milliseconds }
                settings.dropAfter = try integer("drop_after", 1...10_000).get()
                settings.limit = try integer("limit", 1...1_000_000).get()
            } catch {
                return .failure(error)
            }
            return .success(settings)
        }
    }

    /// A query value out of range.
    public struct SettingsError: Error, Sendable, Equatable {
        public var message: String
    }

    let logins: [String]
    let seed: UInt64
    let start: Date

    /// A feed whose actors are `fixtures`' accounts.
    public init(fixtures: FixtureSet, seed: UInt64) {
        logins = fixtures.accounts.map(\.login).sorted()
        self.seed = seed
        start = fixtures.generator?.referenceDate ?? Date(timeIntervalSince1970: 1_714_564_800)
    }

    /// Event `number` (from 1) of `repository` (`owner/name`).
    public func event(_ number: Int, of repository: String) -> ServerSentEvent {
        var random = SplitMix64(seed: seed ^ LiveEventFeed.hash(repository) ^ UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15)
        let actor = logins.isEmpty ? "ghost" : random.pick(logins)
        let type = random.weighted([
            ("WatchEvent", 4.0), ("PushEvent", 3.0), ("IssuesEvent", 2.0), ("PullRequestEvent", 2.0),
            ("IssueCommentEvent", 2.0), ("ForkEvent", 1.0),
        ])
        let issue = random.uniform(in: 1...400)
        let payload: [String: LiveJSON]
        switch type {
        case "WatchEvent":
            payload = ["action": .string("started")]
        case "PushEvent":
            payload = ["ref": .string("refs/heads/main"), "size": .number(random.uniform(in: 1...5))]
        case "IssuesEvent":
            payload = ["action": .string(random.chance(0.6) ? "opened" : "closed"), "issue": .object(["number": .number(issue)])]
        case "PullRequestEvent":
            payload = ["action": .string(random.chance(0.6) ? "opened" : "closed"), "number": .number(issue)]
        case "IssueCommentEvent":
            payload = ["action": .string("created"), "issue": .object(["number": .number(issue)])]
        default:
            payload = ["forkee": .object(["full_name": .string("\(actor)/\(repository.split(separator: "/").last ?? "")")])]
        }
        let object: [String: LiveJSON] = [
            "id": .string(String(number)),
            "type": .string(type),
            "actor": .object(["login": .string(actor)]),
            "repo": .object(["name": .string(repository)]),
            "payload": .object(payload),
            "created_at": .string(LiveEventFeed.timestamp(start.addingTimeInterval(TimeInterval(number)))),
        ]
        return ServerSentEvent(id: String(number), event: type, data: LiveJSON.object(object).text)
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// FNV-1a: stable across runs (`hashValue` is not).
    private static func hash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

/// Just enough JSON for the events, with sorted keys (stable output).
enum LiveJSON: Sendable {
    case string(String)
    case number(Int)
    case object([String: LiveJSON])

    var text: String {
        switch self {
        case .string(let value):
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let data = (try? encoder.encode(value)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        case .number(let value):
            return String(value)
        case .object(let fields):
            return "{" + fields.sorted { $0.key < $1.key }.map { "\(LiveJSON.string($0.key).text):\($0.value.text)" }.joined(separator: ",") + "}"
        }
    }
}
