import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When and how soon a failed request is tried again: exponential backoff with
/// optional jitter, `Retry-After` honoured, transient failures only.
///
/// The delay before retry *n* (1, 2, ...) is
/// `min(maxDelay, initialDelay × multiplier^(n-1))`, spread by ``jitter``. If
/// the failure is a `429` or `503` with a `Retry-After` header (seconds or an
/// HTTP date), that delay is used instead; a `Retry-After` longer than
/// ``retryAfterLimit`` ends the retries (the error is delivered).
///
/// ```swift
/// let policy = RetryPolicy(maxRetries: 3, initialDelay: 0.5, multiplier: 2, jitter: .proportional(0.2))
/// client.get(url).retry(policy, scheduler: MainScheduler.instance)
/// // fails at 0 → waits 0.5 s (±20%) → fails → 1 s → fails → 2 s → last attempt
/// ```
///
/// Apply it with ``Ripple/ObservableType/retry(_:scheduler:)`` or give it to a
/// ``Session`` or a ``Request``.
public struct RetryPolicy: Sendable {
    /// How many times a failed request is tried again (attempts = retries + 1).
    public var maxRetries: Int
    /// The delay before the first retry, in seconds.
    public var initialDelay: TimeInterval
    /// The factor between consecutive delays.
    public var multiplier: Double
    /// The longest backoff delay, in seconds.
    public var maxDelay: TimeInterval
    /// How delays are spread to avoid synchronized retries.
    public var jitter: Jitter
    /// The longest `Retry-After` honoured, in seconds; `nil` ignores
    /// `Retry-After` (the backoff is used).
    public var retryAfterLimit: TimeInterval?
    /// Whether ``Session`` retries requests whose method is not idempotent
    /// (`POST`, `PATCH`). Default: `false`. The operator itself does not know
    /// the method and always retries.
    public var retriesNonIdempotentRequests: Bool
    /// Which failures are retried. Default: ``isTransient(_:)``.
    public var shouldRetry: @Sendable (Error) -> Bool

    /// A policy; see the properties for the meaning of each argument.
    public init(
        maxRetries: Int = 3,
        initialDelay: TimeInterval = 0.5,
        multiplier: Double = 2,
        maxDelay: TimeInterval = 30,
        jitter: Jitter = .none,
        retryAfterLimit: TimeInterval? = 60,
        retriesNonIdempotentRequests: Bool = false,
        shouldRetry: @escaping @Sendable (Error) -> Bool = RetryPolicy.isTransient
    ) {
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.retryAfterLimit = retryAfterLimit
        self.retriesNonIdempotentRequests = retriesNonIdempotentRequests
        self.shouldRetry = shouldRetry
    }

    /// 3 retries after 0.5 s, 1 s, 2 s; `Retry-After` up to 60 s; no jitter.
    public static let `default` = RetryPolicy()

    /// Never retries.
    public static let never = RetryPolicy(maxRetries: 0)

    /// `true` when the settings make sense: `maxRetries ≥ 0`, delays ≥ 0 and
    /// finite, `multiplier ≥ 0` and finite, jitter factor in `0...1`.
    public var isValid: Bool { invalidSetting == nil }

    /// Why the policy is not valid, naming the first bad setting and its value
    /// (`"maxRetries must be 0 or more (got -1)"`), or `nil` when it is valid.
    /// `retry(_:scheduler:)` fails with this text in an
    /// ``HTTPError/invalidRequest(_:)``.
    public var invalidSetting: String? {
        if maxRetries < 0 {
            return "maxRetries must be 0 or more (got \(maxRetries))"
        }
        if !(initialDelay.isFinite && initialDelay >= 0) {
            return "initialDelay must be a finite number of seconds, 0 or more (got \(initialDelay))"
        }
        if !(multiplier.isFinite && multiplier >= 0) {
            return "multiplier must be finite, 0 or more (got \(multiplier))"
        }
        if !(maxDelay >= 0) {
            return "maxDelay must be 0 or more seconds (got \(maxDelay))"
        }
        if !(jitter.factor >= 0 && jitter.factor <= 1) {
            return "jitter factor must be in 0...1 (got \(jitter.factor))"
        }
        if let limit = retryAfterLimit, !(limit >= 0) {
            return "retryAfterLimit must be 0 or more seconds, or nil (got \(limit))"
        }
        return nil
    }

    /// Failures worth another try: connection failures, lost connections and
    /// timeouts (``HTTPError/transport(_:)`` with `.timedOut`,
    /// `.networkConnectionLost`, `.cannotConnectToHost`,
    /// `.notConnectedToInternet`, `.dnsLookupFailed`), `408`, `429` and 5xx
    /// statuses except `501` and `505` (which will not change), and
    /// `RxError.timeout`.
    @Sendable
    public static func isTransient(_ error: Error) -> Bool {
        if let error = error as? HTTPError {
            switch error {
            case .transport(let urlError):
                return isTransient(urlError.code)
            case .unacceptableStatusCode(let code, _, _):
                return code == 408 || code == 429 || ((500...599).contains(code) && code != 501 && code != 505)
            default:
                return false
            }
        }
        if let error = error as? URLError {
            return isTransient(error.code)
        }
        if let error = error as? RxError, case .timeout = error {
            return true
        }
        return false
    }

    private static func isTransient(_ code: URLError.Code) -> Bool {
        switch code {
        case .timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet, .dnsLookupFailed:
            return true
        default:
            return false
        }
    }

    /// The backoff delay before retry `retry` (1-based), jitter included, in
    /// seconds.
    @_alwaysEmitIntoClient
    public func backoff(beforeRetry retry: Int) -> TimeInterval {
        guard retry >= 1, initialDelay > 0 else { return 0 }
        let exponential = initialDelay * pow(multiplier, Double(retry - 1))
        let base = exponential.isNaN ? maxDelay : min(maxDelay, exponential)
        return max(0, min(maxDelay, jitter.apply(to: base)))
    }

    /// The delay before retry `retry` (1-based) after `error`, in seconds, or
    /// `nil` when the error is not retried (not transient, retries used up, or
    /// a `Retry-After` beyond ``retryAfterLimit``). `now` is the scheduler's
    /// clock, for `Retry-After` HTTP dates.
    @_alwaysEmitIntoClient
    public func delay(beforeRetry retry: Int, after error: Error, now: Date) -> TimeInterval? {
        guard isValid, retry >= 1, retry <= maxRetries, shouldRetry(error) else { return nil }
        if let limit = retryAfterLimit, let retryAfter = RetryPolicy.retryAfter(of: error, now: now) {
            return retryAfter <= limit ? retryAfter : nil
        }
        return backoff(beforeRetry: retry)
    }

    /// The `Retry-After` delay of a `429` or `503` ``HTTPError``, in seconds
    /// (`nil` without a valid header).
    @_alwaysEmitIntoClient
    public static func retryAfter(of error: Error, now: Date) -> TimeInterval? {
        guard case .unacceptableStatusCode(let code, let headers, _)? = error as? HTTPError,
              code == 429 || code == 503,
              let value = headers["Retry-After"]
        else { return nil }
        return retryAfter(value, now: now)
    }

    /// Parses a `Retry-After` value: delay seconds (`"120"`) or an HTTP date
    /// (`"Wed, 21 Oct 2015 07:28:00 GMT"`, also the obsolete RFC 850 and
    /// asctime forms), relative to `now`; a date in the past is `0`. `nil` when
    /// the value is neither.
    @_alwaysEmitIntoClient
    public static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return Double(trimmed)
        }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) {
                return max(0, date.timeIntervalSince(now))
            }
        }
        return nil
    }

    /// Spreads retry delays so that many clients do not retry in lockstep.
    ///
    /// A delay `d` becomes a value drawn uniformly from
    /// `d × (1 - factor) ... d × (1 + factor)`, using ``random`` (a number in
    /// `0..<1`). Tests make it deterministic with a fixed or seeded source.
    ///
    /// ```swift
    /// .proportional(0.2)                          // ±20%, system random numbers
    /// .proportional(0.2, random: { 0.5 })         // always the middle: no change
    /// .seeded(0.2, seed: 42)                      // the same sequence every run
    /// ```
    public struct Jitter: Sendable {
        /// The relative spread, `0...1`.
        public let factor: Double
        /// Draws a number in `0..<1`.
        public let random: @Sendable () -> Double

        /// A jitter of relative spread `factor` drawing from `random`.
        public init(factor: Double, random: @escaping @Sendable () -> Double) {
            self.factor = factor
            self.random = random
        }

        /// No jitter: the delays are exactly the backoff.
        public static let none = Jitter(factor: 0) { 0.5 }

        /// A spread of `factor` (e.g. `0.2` for ±20%) drawing from `random`
        /// (default: the system's random numbers).
        @_alwaysEmitIntoClient
        public static func proportional(
            _ factor: Double, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
        ) -> Jitter {
            Jitter(factor: factor, random: random)
        }

        /// A spread of `factor` drawing from a generator seeded with `seed`:
        /// the same delays on every run.
        @_alwaysEmitIntoClient
        public static func seeded(_ factor: Double, seed: UInt64) -> Jitter {
            let generator = SeededRandom(seed: seed)
            return Jitter(factor: factor) { generator.next() }
        }

        @usableFromInline
        func apply(to delay: TimeInterval) -> TimeInterval {
            guard factor > 0 else { return delay }
            var draw = random()
            if !draw.isFinite || draw < 0 { draw = 0 }
            if draw >= 1 { draw = 1 }
            return delay * (1 - factor + 2 * factor * draw)
        }
    }
}

/// SplitMix64: a tiny deterministic generator for seeded jitter.
@usableFromInline
final class SeededRandom: @unchecked Sendable {
    private let lock: PlatformLock
    private var state: UInt64

    @usableFromInline
    init(seed: UInt64) {
        lock = PlatformLock()
        state = seed
    }

    /// A number in `0..<1`.
    @usableFromInline
    func next() -> Double {
        lock.lock()
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        lock.unlock()
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
