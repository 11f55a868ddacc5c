import Foundation
import RippleHTTP

/// When a GitHub request is tried again, following GitHub's rules:
///
/// - connection failures, timeouts, connections closed without an answer, `408`
///   and `5xx` (but `501`/`505`): exponential
///   backoff (``base``), `Retry-After` honoured on `503`;
/// - `429` or `403` with `Retry-After` (a secondary rate limit): after that many
///   seconds, if it is at most ``maxRateLimitWait``;
/// - `403`/`429` with `X-RateLimit-Remaining: 0` (the primary limit): at
///   `X-RateLimit-Reset`, if that is at most ``maxRateLimitWait`` away;
/// - other rate limits, other `4xx`: not retried. The error then becomes a
///   ``GitHubError`` (``GitHubError/rateLimited(_:)`` with the reset time).
///
/// ```
/// request:   --#(503)·0.5 s·--#(502)·1 s·--(page|)
/// request:   --#(403, X-RateLimit-Remaining: 0, reset in 40 min)      not retried
/// ```
public struct GitHubRetryPolicy: Sendable {
    /// The backoff and the number of retries.
    public var base: RetryPolicy
    /// The longest wait for a rate limit to reset, in seconds (default `0`: a
    /// rate limit fails at once, the user retries when it resets).
    public var maxRateLimitWait: TimeInterval

    public init(base: RetryPolicy = RetryPolicy(maxRetries: 2, initialDelay: 0.25, multiplier: 2, maxDelay: 2, retryAfterLimit: 5),
                maxRateLimitWait: TimeInterval = 0) {
        self.base = base
        self.maxRateLimitWait = maxRateLimitWait
    }

    /// The default: 2 retries after 0.25 s and 0.5 s; rate limits are not waited for.
    public static let `default` = GitHubRetryPolicy()
    /// No retries.
    public static let never = GitHubRetryPolicy(base: .never)

    /// The delay before retry `retry` (1-based) after `error`, in seconds, or `nil`
    /// when the request is not retried. `now` is the scheduler's clock.
    public func delay(beforeRetry retry: Int, after error: Error, now: Date) -> TimeInterval? {
        guard retry >= 1, retry <= base.maxRetries else { return nil }
        if let http = error as? HTTPError, case .unacceptableStatusCode(let status, let headers, let body) = http,
           let limit = GitHubRateLimit.exhausted(status: status, headers: headers, body: body, now: now) {
            let wait: TimeInterval?
            if let retryAfter = limit.retryAfter {
                wait = retryAfter
            } else if headers["X-RateLimit-Remaining"].flatMap({ Int($0) }) == 0, let reset = limit.resetsAt {
                wait = max(0, reset.timeIntervalSince(now)) + 1
            } else if status == 429 {
                return base.delay(beforeRetry: retry, after: error, now: now)
            } else {
                wait = nil
            }
            guard let wait, wait <= maxRateLimitWait else { return nil }
            return wait
        }
        if let http = error as? HTTPError, case .transport(let urlError) = http, urlError.code == .badServerResponse {
            // A connection closed without an answer (FoundationNetworking's "Empty reply
            // from server"): GitHub's requests are GETs, so trying again is safe.
            return base.backoff(beforeRetry: retry)
        }
        return base.delay(beforeRetry: retry, after: error, now: now)
    }
}

extension ObservableType {
    /// Tries the source again after the failures `policy` retries, waiting on
    /// `scheduler`; the last error goes down the stream otherwise.
    ///
    /// ```
    /// source (cold):              --#(503)
    /// retry(gitHub: .default):    --·0.25 s·--#(503)·0.5 s·--#(503)
    /// ```
    public func retry(gitHub policy: GitHubRetryPolicy, scheduler: SchedulerType) -> Observable<Element> {
        guard policy.base.maxRetries > 0 else { return asObservable() }
        return asObservable().retry(when: { (errors: Observable<Swift.Error>) -> Observable<Int> in
            errors.enumerated().flatMap { index, error -> Observable<Int> in
                guard let delay = policy.delay(beforeRetry: index + 1, after: error, now: scheduler.now) else {
                    return .error(error)
                }
                let nanoseconds = Int((delay * 1_000_000_000).rounded())
                return Observable<Int>.timer(.nanoseconds(max(0, nanoseconds)), scheduler: scheduler)
            }
        })
    }
}
