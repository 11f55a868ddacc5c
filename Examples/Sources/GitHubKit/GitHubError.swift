import Foundation
import RippleHTTP

/// Why a GitHub request failed, in the terms a user understands.
///
/// ``GitHubClient`` turns every failure into one of these (the underlying
/// ``HTTPError`` is kept), so view models show ``message`` and decide from
/// ``isRetryable`` whether to offer a retry.
public enum GitHubError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// GitHub's rate limit is exhausted: `403` (or `429`) with
    /// `X-RateLimit-Remaining: 0`, or a secondary limit with `Retry-After`.
    /// `resetsAt` comes from `X-RateLimit-Reset` (epoch seconds) or `Retry-After`.
    case rateLimited(RateLimit)
    /// `404`: no such user or repository.
    case notFound(message: String)
    /// `422`: GitHub refused the query: GitHub's message and the reasons its
    /// `errors` give ("Validation Failed: stars:>99999999999 is out of range ...").
    case invalidQuery(message: String)
    /// Another non-2xx status after the retries (`5xx` usually), with GitHub's
    /// `message` when the body has one.
    case server(status: Int, message: String)
    /// The server could not be reached (connection refused, timed out, lost).
    case unreachable(URLError)
    /// The body was not the JSON expected (a truncated or garbled response).
    case malformedResponse(HTTPError)
    /// Anything else (an invalid request, ...).
    case other(Error)

    /// The rate-limit details of a ``rateLimited(_:)`` error.
    public struct RateLimit: Sendable, Equatable {
        /// Requests allowed per window (`X-RateLimit-Limit`).
        public var limit: Int?
        /// When requests are allowed again.
        public var resetsAt: Date?
        /// GitHub's message.
        public var message: String

        public init(limit: Int?, resetsAt: Date?, message: String) {
            self.limit = limit
            self.resetsAt = resetsAt
            self.message = message
        }
    }

    /// Converts any failure of a GitHub request.
    public init(_ error: Error) {
        if let error = error as? GitHubError {
            self = error
            return
        }
        guard let http = error as? HTTPError else {
            self = .other(error)
            return
        }
        switch http {
        case .transport(let urlError):
            self = .unreachable(urlError)
        case .undecodableBody:
            self = .malformedResponse(http)
        case .unacceptableStatusCode(let status, let headers, let body):
            let message = GitHubError.message(in: body) ?? HTTPResponse.reasonPhrase(status)
            if let rateLimit = GitHubRateLimit.exhausted(status: status, headers: headers, body: body) {
                self = .rateLimited(RateLimit(limit: rateLimit.limit, resetsAt: rateLimit.resetsAt, message: message))
            } else if status == 404 {
                self = .notFound(message: message)
            } else if status == 422 {
                self = .invalidQuery(message: message)
            } else {
                self = .server(status: status, message: message)
            }
        default:
            self = .other(http)
        }
    }

    /// Whether trying again may help: everything but ``notFound(message:)``,
    /// ``invalidQuery(message:)`` and ``other(_:)``.
    public var isRetryable: Bool {
        switch self {
        case .rateLimited, .server, .unreachable, .malformedResponse: return true
        case .notFound, .invalidQuery, .other: return false
        }
    }

    /// A one-line message for a status line, with times relative to `now`.
    public func message(now: Date = Date(), timeZone: TimeZone = .current) -> String {
        switch self {
        case .rateLimited(let rateLimit):
            var text = "GitHub API rate limit exceeded"
            if let limit = rateLimit.limit { text += " (limit \(limit))" }
            if let reset = rateLimit.resetsAt {
                var style = Date.FormatStyle(date: .omitted, time: .standard)
                style.timeZone = timeZone
                let seconds = Int(reset.timeIntervalSince(now).rounded(.up))
                text += "; resets at \(reset.formatted(style)) (\(GitHubError.duration(max(0, seconds))))"
            }
            return text
        case .notFound(let message):
            return "Not found: \(message)"
        case .invalidQuery(let message):
            return "GitHub refused the query: \(message)"
        case .server(let status, let message):
            return "GitHub answered \(status) \(message)"
        case .unreachable(let error):
            return "Cannot reach the server: \(GitHubError.describe(error))"
        case .malformedResponse:
            return "The server sent a malformed response"
        case .other(let error):
            return "\(error)"
        }
    }

    /// ``message(now:timeZone:)`` now, with the underlying error's details.
    public var description: String {
        switch self {
        case .malformedResponse(let error), .other(let error as HTTPError):
            return "\(message()): \(error)"
        default:
            return message()
        }
    }

    public var errorDescription: String? { description }

    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "in \(seconds) s" }
        let minutes = Int((Double(seconds) / 60).rounded())
        if minutes < 60 { return "in \(minutes) min" }
        return "in \(minutes / 60) h \(minutes % 60) min"
    }

    static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: return "connection refused"
        case .timedOut: return "the request timed out"
        case .networkConnectionLost: return "the connection was lost"
        case .badServerResponse: return "the server closed the connection without answering"
        case .notConnectedToInternet: return "not connected to the internet"
        case .cannotFindHost, .dnsLookupFailed: return "unknown host"
        default: return HTTPError.transport(error).description
        }
    }

    /// GitHub's `message` field of an error body, followed by the reasons of its
    /// `errors` list when it has one: each error's own `message`, or its `field`
    /// and `code` (`{"field": "q", "code": "missing"}` is "q is missing").
    static func message(in body: Data) -> String? {
        struct Detail: Decodable { var message: String?; var field: String?; var code: String? }
        struct Body: Decodable { var message: String?; var errors: [Detail]? }
        guard let decoded = try? JSONDecoder().decode(Body.self, from: body) else { return nil }
        let reasons = (decoded.errors ?? []).compactMap { detail -> String? in
            if let message = detail.message, !message.isEmpty { return message }
            guard let code = detail.code else { return nil }
            let field = detail.field ?? "the request"
            return code == "missing" || code == "missing_field" ? "\(field) is missing" : "\(field) is \(code.replacingOccurrences(of: "_", with: " "))"
        }
        guard let message = decoded.message else { return reasons.isEmpty ? nil : reasons.joined(separator: "; ") }
        return reasons.isEmpty ? message : message + ": " + reasons.joined(separator: "; ")
    }
}

extension HTTPResponse {
    /// A short reason phrase for common statuses.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "HTTP \(status)"
        }
    }
}

/// How GitHub signals rate limits, read from a response.
enum GitHubRateLimit {
    struct Exhausted: Equatable {
        var limit: Int?
        var resetsAt: Date?
        /// Seconds to wait, from `Retry-After`.
        var retryAfter: TimeInterval?
    }

    /// The rate-limit details when a `403`/`429` means "rate limited" (GitHub's
    /// documented signals: `X-RateLimit-Remaining: 0`, a `Retry-After` header, or a
    /// message about a rate limit), else `nil`. `now` dates a `Retry-After`.
    static func exhausted(status: Int, headers: HTTPHeaders, body: Data, now: Date = Date()) -> Exhausted? {
        guard status == 403 || status == 429 else { return nil }
        let remaining = headers["X-RateLimit-Remaining"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let retryAfter = headers["Retry-After"].flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
        let mentionsLimit = GitHubError.message(in: body)?.lowercased().contains("rate limit") ?? false
        guard remaining == 0 || retryAfter != nil || mentionsLimit || status == 429 else { return nil }
        let limit = headers["X-RateLimit-Limit"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        var resetsAt = headers["X-RateLimit-Reset"]
            .flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
            .map { Date(timeIntervalSince1970: $0) }
        if let retryAfter { resetsAt = now.addingTimeInterval(retryAfter) }
        return Exhausted(limit: limit, resetsAt: resetsAt, retryAfter: retryAfter)
    }
}
