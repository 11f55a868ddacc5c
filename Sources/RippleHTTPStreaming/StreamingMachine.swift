import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The decisions of one streamed subscription (``RippleHTTP/Session/events(for:options:)-(R,_)``,
/// ``RippleHTTP/Session/jsonLines(for:options:)``): what a response head, a body chunk,
/// the end of a connection or a timeout lead to. A value type with no lock,
/// no threads and no clock (the time is passed in): ``StreamingRun`` owns
/// those and does what this returns.
///
/// ```
/// connecting ──head 2xx──▶ open ──body──▶ elements
///     │   │                  │
///     │   └─head 204───▶ done (completed)
///     │                      └─end──▶ waiting (reconnection time, backed off) ──▶ connecting   (a format that resumes)
///     └─failure, timeout, non-2xx──▶ waiting (retry policy) ──▶ connecting, or done (the error)
/// ```
///
/// No wait is shorter than the backoff's floor, and connections that keep
/// ending without an element wait longer each time (``ReconnectionBackoff``).
struct StreamingMachine<Format: StreamFormat> {
    enum Phase: Sendable {
        case idle
        case connecting
        case open
        /// A status the request does not accept: its body (a prefix) is read
        /// for the error.
        case rejected(HTTPURLResponse, Data)
        case waiting
        case done
    }

    /// What the storage must do after a step.
    enum Action {
        /// Close the current connection and open a new one after this many
        /// seconds (then call ``reconnect()``).
        case reconnect(after: TimeInterval)
        /// Close the connection; the stream completes.
        case complete
        /// Close the connection; the stream fails.
        case fail(Error)
    }

    /// The connection's state, for ``RippleHTTP/Session/eventStream(for:options:)``.
    enum Status {
        /// The server accepted the connection.
        case connected
        /// The connection ended or failed (`error`); the next attempt starts
        /// after this many seconds.
        case waiting(TimeInterval, error: Error?)
    }

    /// The elements a step produced, then what to do (`nil`: go on), and
    /// what became of the connection.
    struct Step {
        var elements: [Format.Element] = []
        var action: Action?
        var status: Status?
    }

    private(set) var format: Format
    private(set) var phase = Phase.idle
    /// Consecutive failed connection attempts.
    private(set) var failures = 0
    private let request: URLRequest
    private let acceptable: AcceptableStatusCodes
    /// Retries failed attempts; `nil`: a failure ends the stream.
    private let retryPolicy: RetryPolicy?
    /// Whether an ended connection is opened again (a format that resumes,
    /// an idempotent request).
    private let reconnects: Bool
    /// The floor of every wait, and how waits grow when connections keep
    /// ending without an element.
    private let backoff: ReconnectionBackoff
    /// Consecutive connections that were accepted and ended without
    /// delivering an element (0: the last one delivered something).
    private(set) var barrenConnections = 0
    /// The current connection delivered an element.
    private var deliveredOnConnection = false

    init(
        format: Format, request: URLRequest, acceptable: AcceptableStatusCodes, retryPolicy: RetryPolicy?, reconnects: Bool,
        backoff: ReconnectionBackoff = .none
    ) {
        self.format = format
        self.request = request
        self.acceptable = acceptable
        self.retryPolicy = retryPolicy
        self.reconnects = reconnects
        self.backoff = backoff
    }

    /// The request of the next connection.
    mutating func reconnect() -> URLRequest {
        phase = .connecting
        return format.prepare(request)
    }

    mutating func receivedHead(_ head: HTTPURLResponse, now: Date) -> Step {
        guard case .connecting = phase else { return Step() }
        if head.statusCode == 204 {
            // "No Content": the server says there is nothing (more) to send.
            phase = .done
            return Step(action: .complete)
        }
        guard acceptable.contains(head.statusCode) else {
            phase = .rejected(head, Data())
            return Step()
        }
        if let error = format.accept(head) {
            phase = .done
            return Step(action: .fail(error))
        }
        phase = .open
        failures = 0
        deliveredOnConnection = false
        return Step(status: .connected)
    }

    mutating func receivedBody(_ chunk: Data, now: Date) -> Step {
        switch phase {
        case .open:
            var step = Step()
            do {
                try format.decode(chunk, into: &step.elements)
            } catch {
                phase = .done
                step.action = .fail(error)
            }
            if !step.elements.isEmpty { deliveredOnConnection = true }
            return step
        case .rejected(let head, var body):
            body.append(chunk.prefix(HTTPError.maximumBodyPrefix - body.count))
            guard body.count >= HTTPError.maximumBodyPrefix else {
                phase = .rejected(head, body)
                return Step()
            }
            // Enough for the error: the rest is not read.
            return attemptFailed(StreamingMachine.rejection(head, body), now: now)
        case .idle, .connecting, .waiting, .done:
            return Step()
        }
    }

    /// The connection ended: `error` is `nil` when the body ended normally.
    mutating func ended(_ error: Error?, now: Date) -> Step {
        switch phase {
        case .open:
            var step = Step()
            do {
                try format.endOfStream(complete: error == nil, into: &step.elements)
            } catch {
                phase = .done
                step.action = .fail(error)
                return step
            }
            if reconnects, let reconnectionTime = format.reconnectionDelay {
                if deliveredOnConnection || !step.elements.isEmpty {
                    barrenConnections = 0
                } else {
                    barrenConnections += 1
                }
                let delay = backoff.wait(after: reconnectionTime, barrenConnections: barrenConnections)
                phase = .waiting
                step.action = .reconnect(after: delay)
                step.status = .waiting(delay, error: error.map(HTTPError.transport(from:)))
            } else {
                phase = .done
                step.action = error.map { .fail(HTTPError.transport(from: $0)) } ?? .complete
            }
            return step
        case .connecting:
            return attemptFailed(error.map(HTTPError.transport(from:)) ?? HTTPError.notHTTPResponse(nil), now: now)
        case .rejected(let head, let body):
            return attemptFailed(StreamingMachine.rejection(head, body), now: now)
        case .idle, .waiting, .done:
            return Step()
        }
    }

    /// No head within the timeout.
    mutating func timedOut(now: Date) -> Step {
        guard case .connecting = phase else { return Step() }
        return attemptFailed(HTTPError.transport(URLError(.timedOut)), now: now)
    }

    /// The subscription was disposed.
    mutating func cancel() {
        phase = .done
    }

    /// Retries a failed attempt after the policy's delay (at least the
    /// format's reconnection time and the backoff's floor), or ends the
    /// stream with `error`.
    private mutating func attemptFailed(_ error: Error, now: Date) -> Step {
        if let retryPolicy, let delay = retryPolicy.delay(beforeRetry: failures + 1, after: error, now: now) {
            failures += 1
            phase = .waiting
            let wait = max(delay, format.reconnectionDelay ?? 0, backoff.minimum)
            return Step(action: .reconnect(after: wait), status: .waiting(wait, error: error))
        }
        phase = .done
        return Step(action: .fail(error))
    }

    private static func rejection(_ head: HTTPURLResponse, _ body: Data) -> HTTPError {
        .unacceptableStatusCode(head.statusCode, headers: HTTPResponse(data: Data(), response: head).headers, body: body)
    }
}

/// How long a stream waits before it reconnects, beyond the reconnection time
/// (the server's `retry:`, or the app's default): a floor on every wait, and
/// an exponential backoff with jitter while connections keep ending without
/// delivering anything. The WHATWG rules let a client wait longer than the
/// reconnection time, never shorter; this only ever lengthens it.
///
/// With `barrenConnections` consecutive connections that ended empty-handed
/// (0 after one that delivered an element), the wait is
///
/// ```
/// base   = max(minimum, reconnection time)
/// n = 0:   base                                         (as the server asked)
/// n ≥ 1:   max(base, grown × (1 − jitter.factor × r))   grown = min(max(maximum, base), base × 2ⁿ), r in 0..<1
/// ```
///
/// A pure value: the jitter's random source is its only input besides the
/// arguments (fixed or seeded in tests).
struct ReconnectionBackoff: Sendable {
    /// The shortest wait, in seconds, whatever the server asks (`retry: 0`).
    var minimum: TimeInterval
    /// Where the backoff stops growing, in seconds (a longer reconnection
    /// time from the server is still honoured).
    var maximum: TimeInterval
    /// Spreads backed-off waits downwards (never below `base`), so that
    /// clients dropped together do not come back together.
    var jitter: RetryPolicy.Jitter

    /// No floor, no backoff: the reconnection time as it is.
    static let none = ReconnectionBackoff(minimum: 0, maximum: 0, jitter: .none)

    /// The wait before the next connection, in seconds.
    func wait(after reconnectionTime: TimeInterval, barrenConnections: Int) -> TimeInterval {
        let base = max(minimum, ReconnectionBackoff.sanitized(reconnectionTime))
        guard barrenConnections > 0, base > 0 else { return base }
        // No maximum (`.never`): as long as a finite number allows.
        let ceiling = max(maximum == .infinity ? .greatestFiniteMagnitude : ReconnectionBackoff.sanitized(maximum), base)
        // 2^n overflows to infinity past n = 1023; `min` keeps the ceiling.
        let grown = min(ceiling, base * pow(2, Double(min(barrenConnections, 1100))))
        var draw = jitter.random()
        if !draw.isFinite || draw < 0 { draw = 0 }
        if draw >= 1 { draw = 1 }
        let factor = min(max(jitter.factor.isFinite ? jitter.factor : 0, 0), 1)
        return max(base, grown * (1 - factor * draw))
    }

    private static func sanitized(_ seconds: TimeInterval) -> TimeInterval {
        seconds.isFinite && seconds > 0 ? seconds : 0
    }
}
