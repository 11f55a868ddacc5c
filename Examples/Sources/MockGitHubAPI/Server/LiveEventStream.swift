import Foundation
import HTTPTypes
import Hummingbird
import RippleHTTP

/// `GET /repos/{owner}/{repo}/events/live`: the repository's live activity as
/// Server-Sent Events (`text/event-stream`), from ``LiveEventFeed``.
///
/// - A `retry:` line first (the reconnection time, `retry_ms`), then an event
///   at once and one every `interval_ms`, each with its `id:`.
/// - `Last-Event-ID: n` resumes with event `n + 1`; with `limit`, a client
///   that has every event gets `204 No Content` (the end of the feed).
/// - `drop_after=k` drops each connection after `k` events (half an event,
///   then the connection closes), and ``MockGitHubServer/dropLiveEventConnections()``
///   drops every open stream: the client reconnects.
/// - An unknown repository is `404`, a query value out of range `422`.
///
/// ```sh
/// curl -N 'http://127.0.0.1:8080/repos/kasel/kit/events/live?interval_ms=500&drop_after=5'
/// ```
enum LiveEventStream {
    /// The repository (`owner/name`) of a live events path, or `nil`.
    static func repository(inPath path: String) -> (owner: String, name: String)? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { $0.removingPercentEncoding ?? String($0) }
        guard segments.count == 5, segments[0] == "repos", segments[3] == "events", segments[4] == "live" else { return nil }
        return (segments[1], segments[2])
    }

    /// The answer to a live events request.
    static func response(
        to request: Request, owner: String, name: String, endpoints: MockGitHubEndpoints, feed: LiveEventFeed, hub: LiveEventHub,
        stopping: SharedValue<Bool>
    ) -> (Response, status: Int) {
        guard request.method == .get else {
            return (json(MockGitHubResponder.errorBody(404, message: "Not Found", documentation: MockGitHubEndpoints.docsRoot)), 404)
        }
        guard let repository = endpoints.catalog.repository(owner: owner, name: name) else {
            return (json(MockGitHubResponder.errorBody(404, message: "Not Found", documentation: MockGitHubEndpoints.docsRoot)), 404)
        }
        let settings: LiveEventFeed.Settings
        switch LiveEventFeed.Settings.parse(QueryParameters(rawQuery: request.uri.query)) {
        case .success(let parsed):
            settings = parsed
        case .failure(let error):
            return (json(MockGitHubResponder.errorBody(422, message: error.message, documentation: nil)), 422)
        }
        let resumeAfter = request.headers[lastEventID].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        if let limit = settings.limit, resumeAfter >= limit {
            return (Response(status: .noContent), 204)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        let fullName = repository.fullName
        let body = ResponseBody { writer in
            let generation = hub.opened()
            defer { hub.closed() }
            try await writer.write(ByteBuffer(string: ": live events of \(fullName)\nretry: \(settings.retryMilliseconds)\n\n"))
            var number = resumeAfter + 1
            var sent = 0
            while settings.limit.map({ number <= $0 }) ?? true {
                if sent > 0 {
                    // The interval in short slices: a drop or a stop ends it early.
                    var remaining = settings.interval
                    while remaining > .zero {
                        if hub.dropped(since: generation) { throw Dropped() }
                        if stopping.value || Task.isCancelled { return try await writer.finish(nil) }
                        let slice = min(remaining, .milliseconds(10))
                        try? await Task.sleep(for: slice)
                        remaining -= slice
                    }
                }
                if hub.dropped(since: generation) { throw Dropped() }
                try await writer.write(ByteBuffer(string: feed.event(number, of: fullName).encoded))
                sent += 1
                number += 1
                if let dropAfter = settings.dropAfter, sent >= dropAfter, settings.limit.map({ number <= $0 }) ?? true {
                    try await writer.write(ByteBuffer(string: "data: {\"cut\":"))
                    throw Dropped()
                }
            }
            try await writer.finish(nil)
        }
        return (Response(status: .ok, headers: headers, body: body), 200)
    }

    private static func json(_ answer: EndpointResponse) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    /// Thrown to drop a connection mid-stream (Hummingbird then closes it).
    struct Dropped: Error {}

    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}

/// The live event streams a server has open, and a way to drop them all.
final class LiveEventHub: Sendable {
    private let state = SharedValue<(generation: Int, open: Int)>((0, 0))

    /// A stream starts; returns the current generation.
    func opened() -> Int {
        state.update { state in
            state.open += 1
            return state.generation
        }
    }

    func closed() {
        state.update { $0.open -= 1 }
    }

    /// Whether the streams of `generation` must drop.
    func dropped(since generation: Int) -> Bool {
        state.value.generation != generation
    }

    /// Every open stream drops (at its next check, within 10 ms).
    func dropAll() {
        state.update { $0.generation += 1 }
    }

    var openStreams: Int { state.value.open }
}

extension MockGitHubServer {
    /// Drops every open live event stream (`/repos/{owner}/{repo}/events/live`)
    /// mid-stream, as a flaky network or a restarting proxy would: the
    /// clients reconnect with `Last-Event-ID`.
    public func dropLiveEventConnections() {
        liveEvents.dropAll()
    }

    /// The live event streams open now.
    public var liveEventConnectionCount: Int { liveEvents.openStreams }
}
