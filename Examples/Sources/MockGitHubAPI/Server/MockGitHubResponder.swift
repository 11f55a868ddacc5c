import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// One request the server answered, as published on ``MockGitHubServer/requests``.
public struct ServedRequest: Sendable, Equatable, CustomStringConvertible {
    /// What the server did to the request on purpose.
    public enum Fault: String, Sendable, Equatable {
        /// Answered `403` because it was over the rate limit.
        case rateLimited
        /// Answered with an injected `5xx`.
        case serverError
        /// A `200` whose JSON body was cut short.
        case malformedJSON
        /// The client closed the connection while the answer was delayed (it
        /// cancelled the request, as `flatMapLatest` does to a superseded search);
        /// nothing was sent. Reported with nginx's status 499, "client closed request".
        case clientClosedRequest
    }

    /// The ``status`` of a request the client gave up on (``Fault/clientClosedRequest``).
    public static let clientClosedStatus = 499

    /// The HTTP method, e.g. `GET`.
    public var method: String
    /// The path and query as received, e.g. `/search/repositories?q=ripple`.
    public var target: String
    /// The status code sent.
    public var status: Int
    /// The injected fault, if any.
    public var fault: Fault?
    /// From the request's arrival to its response being ready (injected latency included).
    public var duration: Duration

    public init(method: String, target: String, status: Int, fault: Fault?, duration: Duration) {
        self.method = method
        self.target = target
        self.status = status
        self.fault = fault
        self.duration = duration
    }

    /// `GET /search/repositories?q=ripple -> 200 (3 ms)`, with the fault when there
    /// is one; `GET /search/repositories?q=rip -> cancelled by the client after 212 ms`
    /// for a request the client gave up on.
    public var description: String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        if fault == .clientClosedRequest {
            return "\(method) \(target) -> cancelled by the client after \(Int(milliseconds.rounded())) ms (\(status), nothing sent)"
        }
        let fault = self.fault.map { ", \($0.rawValue)" } ?? ""
        return "\(method) \(target) -> \(status) (\(Int(milliseconds.rounded())) ms\(fault))"
    }
}

/// Hummingbird responder: applies the behaviour (latency, rate limit, failures,
/// malformed bodies) around ``MockGitHubEndpoints`` and reports every request.
struct MockGitHubResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let endpoints: MockGitHubEndpoints
    let behavior: BehaviorState
    /// `http://host:port` of the listening socket, used when a request has no `Host`.
    let fallbackBaseURL: SharedValue<String>
    let clientDescription: String
    let report: @Sendable (ServedRequest) -> Void
    /// Set when the server begins to stop: requests waiting out their latency answer
    /// at once, so that a graceful shutdown never has to cancel a handler.
    let stopping: SharedValue<Bool>
    /// `/repos/{owner}/{repo}/events/live`: the events and the open streams.
    let feed: LiveEventFeed
    let liveEvents: LiveEventHub

    func respond(to request: Request, context: Context) async throws -> Response {
        let clock = ContinuousClock()
        let started = clock.now
        let plan = behavior.plan()
        // The latency is slept in short slices, ending early when the server stops or
        // the task is cancelled; the handler itself never throws.
        let target = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
        if let (owner, name) = LiveEventStream.repository(inPath: request.uri.path) {
            let (response, status) = LiveEventStream.response(
                to: request, owner: owner, name: name, endpoints: endpoints, feed: feed, hub: liveEvents, stopping: stopping)
            report(ServedRequest(method: request.method.rawValue, target: target, status: status, fault: nil, duration: clock.now - started))
            return response
        }
        if plan.latency > .zero {
            // While the answer is delayed the client may give up (a superseded search
            // is cancelled): watch the connection's input, and report such a request
            // as cancelled instead of pretending it was answered. Watching ends the
            // connection's keep-alive, so the answer says `Connection: close`.
            let clientClosed = SharedValue(false)
            let stopping = self.stopping
            let latency = plan.latency
            // The handler also runs when the watch is torn down after the wait, so
            // only a close seen during the wait counts.
            let abandoned = (try? await request.body.consumeWithInboundCloseHandler { _ in
                var remaining = latency
                while remaining > .zero, !stopping.value, !clientClosed.value, !Task.isCancelled {
                    let slice = min(remaining, .milliseconds(10))
                    try? await Task.sleep(for: slice)
                    remaining -= slice
                }
                return clientClosed.value
            } onInboundClosed: {
                clientClosed.value = true
            }) ?? false
            if abandoned {
                report(
                    ServedRequest(
                        method: request.method.rawValue, target: target, status: ServedRequest.clientClosedStatus,
                        fault: .clientClosedRequest, duration: clock.now - started))
                return Response(status: .init(code: ServedRequest.clientClosedStatus), headers: [.connection: "close"])
            }
        }

        var fault: ServedRequest.Fault?
        var answer: EndpointResponse
        if plan.rateLimited {
            fault = .rateLimited
            answer = Self.errorBody(
                403,
                message: "API rate limit exceeded for \(clientDescription). (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
                documentation: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
            )
        } else if let status = plan.failureStatus {
            fault = .serverError
            answer = Self.errorBody(status, message: Self.failureMessages[status] ?? "Server Error", documentation: nil)
        } else {
            let baseURL = request.head.authority.map { "http://\($0)" } ?? fallbackBaseURL.value
            answer = endpoints.respond(
                method: request.method.rawValue,
                path: request.uri.path,
                query: QueryParameters(rawQuery: request.uri.query),
                baseURL: baseURL
            )
            if plan.malformed, answer.status == 200 {
                fault = .malformedJSON
                answer.body = answer.body.prefix(answer.body.count / 2)
            }
        }

        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[Self.mediaType] = "github.v3; format=json"
        if let rateLimit = plan.rateLimit {
            headers[Self.rateLimitLimit] = String(rateLimit.limit)
            headers[Self.rateLimitRemaining] = String(rateLimit.remaining)
            headers[Self.rateLimitReset] = String(rateLimit.reset)
            headers[Self.rateLimitUsed] = String(rateLimit.used)
            headers[Self.rateLimitResource] = "core"
        }
        for (name, value) in answer.headers {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        if plan.latency > .zero { headers[.connection] = "close" }
        report(
            ServedRequest(
                method: request.method.rawValue, target: target, status: answer.status, fault: fault,
                duration: clock.now - started)
        )
        let body = request.method == .head ? ByteBuffer() : ByteBuffer(bytes: answer.body)
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: body))
    }

    static let failureMessages = [
        500: "Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    static func errorBody(_ status: Int, message: String, documentation: String?) -> EndpointResponse {
        var object: [String: String] = ["message": message, "status": String(status)]
        object["documentation_url"] = documentation
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(object)) ?? Data(#"{"message":"Server Error"}"#.utf8)
        return EndpointResponse(status: status, body: body)
    }

    static let mediaType = HTTPField.Name("X-GitHub-Media-Type")!
    static let rateLimitLimit = HTTPField.Name("X-RateLimit-Limit")!
    static let rateLimitRemaining = HTTPField.Name("X-RateLimit-Remaining")!
    static let rateLimitReset = HTTPField.Name("X-RateLimit-Reset")!
    static let rateLimitUsed = HTTPField.Name("X-RateLimit-Used")!
    static let rateLimitResource = HTTPField.Name("X-RateLimit-Resource")!
}

/// A lock-protected value shared between tasks.
final class SharedValue<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) {
        storage = Mutex(value)
    }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// Changes the value and returns what `body` returns, atomically.
    func update<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        storage.withLock { body(&$0) }
    }
}
