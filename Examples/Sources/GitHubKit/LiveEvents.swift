import Foundation
import RippleHTTP
import RippleHTTPStreaming

/// One event of a repository's live activity (the mock GitHub API's
/// `GET /repos/{owner}/{repo}/events/live`, in the shape of GitHub's Events
/// API), decoded from a server-sent event's data.
public struct RepositoryEvent: Decodable, Equatable, Hashable, Sendable, Identifiable {
    /// The event's sequence number (its `id:`), as a string.
    public var id: String
    /// `WatchEvent`, `PushEvent`, `IssuesEvent`, `PullRequestEvent`,
    /// `IssueCommentEvent`, `ForkEvent`.
    public var type: String
    /// Who did it.
    public var actor: String
    /// `owner/name`.
    public var repository: String
    /// `opened`, `closed`, `started`, `created`, ... when the event has one.
    public var action: String?
    /// The issue or pull request number, when there is one.
    public var number: Int?
    /// Commits pushed (a `PushEvent`).
    public var size: Int?
    public var createdAt: Date?

    public init(
        id: String, type: String, actor: String, repository: String, action: String? = nil, number: Int? = nil, size: Int? = nil,
        createdAt: Date? = nil
    ) {
        self.id = id
        self.type = type
        self.actor = actor
        self.repository = repository
        self.action = action
        self.number = number
        self.size = size
        self.createdAt = createdAt
    }

    private struct Wire: Decodable {
        struct Login: Decodable { let login: String }
        struct Name: Decodable { let name: String }
        struct Issue: Decodable { let number: Int }
        struct Payload: Decodable {
            let action: String?
            let number: Int?
            let issue: Issue?
            let size: Int?
        }
        let id: String
        let type: String
        let actor: Login
        let repo: Name
        let payload: Payload?
        let createdAt: Date?
    }

    public init(from decoder: any Decoder) throws {
        let wire = try Wire(from: decoder)
        self.init(
            id: wire.id, type: wire.type, actor: wire.actor.login, repository: wire.repo.name, action: wire.payload?.action,
            number: wire.payload?.number ?? wire.payload?.issue?.number, size: wire.payload?.size, createdAt: wire.createdAt)
    }

    /// Decodes a server-sent event's data.
    ///
    /// - Throws: ``GitHubError/malformedResponse(_:)`` when it is not an event.
    public init(_ event: ServerSentEvent) throws {
        do {
            self = try JSONDecoder.snakeCaseISO8601.decode(RepositoryEvent.self, from: Data(event.data.utf8))
        } catch {
            throw GitHubError.malformedResponse(.undecodableBody(error, body: Data(event.data.utf8)))
        }
    }

    /// One line for a feed: `kasel starred`, `ann opened issue #12`, `bo pushed 3 commits`.
    public var summary: String {
        switch type {
        case "WatchEvent": return "\(actor) starred the repository"
        case "ForkEvent": return "\(actor) forked it"
        case "PushEvent": return "\(actor) pushed \(size ?? 1) commit\(size == 1 ? "" : "s")"
        case "IssuesEvent": return "\(actor) \(action ?? "updated") issue #\(number ?? 0)"
        case "PullRequestEvent": return "\(actor) \(action ?? "updated") pull request #\(number ?? 0)"
        case "IssueCommentEvent": return "\(actor) commented on #\(number ?? 0)"
        default: return "\(actor): \(type)"
        }
    }
}

/// `GET /repos/{owner}/{repo}/events/live` (the mock GitHub API's live
/// activity, Server-Sent Events).
///
/// ```swift
/// session.eventStream(for: LiveEventsRequest(owner: "kasel", name: "kit", baseURL: server.baseURL))
/// ```
public struct LiveEventsRequest: Request, Hashable, Sendable {
    public typealias Response = Void

    public var owner: String
    public var name: String
    /// Milliseconds between events (the mock's `interval_ms`).
    public var intervalMilliseconds: Int?
    /// The mock drops each connection after this many events (`drop_after`).
    public var dropAfter: Int?
    public var baseURL: URL

    public init(owner: String, name: String, intervalMilliseconds: Int? = nil, dropAfter: Int? = nil, baseURL: URL = gitHubAPIBaseURL) {
        self.owner = owner
        self.name = name
        self.intervalMilliseconds = intervalMilliseconds
        self.dropAfter = dropAfter
        self.baseURL = baseURL
    }

    public var path: String { "repos/\(owner)/\(name)/events/live" }
    public var queryParameters: HTTPParameters { ["interval_ms": intervalMilliseconds, "drop_after": dropAfter] }
    public var headerFields: HTTPHeaders { ["User-Agent": "Ripple-activity"] }
}
