import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The decisions of one streamed subscription (``Session/events(for:options:)-(R,_)``,
/// ``Session/jsonLines(for:options:)``): what a response head, a body chunk,
/// the end of a connection or a timeout lead to. A value type with no lock,
/// no threads and no clock (the time is passed in): ``StreamingRun`` owns
/// those and does what this returns.
///
/// ```
/// connecting ──head 2xx──▶ open ──body──▶ elements
///     │   │                  │
///     │   └─head 204───▶ done (completed)
///     │                      └─end──▶ waiting (reconnection time) ──▶ connecting   (a format that resumes)
///     └─failure, timeout, non-2xx──▶ waiting (retry policy) ──▶ connecting, or done (the error)
/// ```
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

    /// The connection's state, for ``Session/eventStream(for:options:)``.
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

    init(format: Format, request: URLRequest, acceptable: AcceptableStatusCodes, retryPolicy: RetryPolicy?, reconnects: Bool) {
        self.format = format
        self.request = request
        self.acceptable = acceptable
        self.retryPolicy = retryPolicy
        self.reconnects = reconnects
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
            if reconnects, let delay = format.reconnectionDelay {
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
    /// format's reconnection time), or ends the stream with `error`.
    private mutating func attemptFailed(_ error: Error, now: Date) -> Step {
        if let retryPolicy, let delay = retryPolicy.delay(beforeRetry: failures + 1, after: error, now: now) {
            failures += 1
            phase = .waiting
            let wait = max(delay, format.reconnectionDelay ?? 0)
            return Step(action: .reconnect(after: wait), status: .waiting(wait, error: error))
        }
        phase = .done
        return Step(action: .fail(error))
    }

    private static func rejection(_ head: HTTPURLResponse, _ body: Data) -> HTTPError {
        .unacceptableStatusCode(head.statusCode, headers: HTTPResponse(data: Data(), response: head).headers, body: body)
    }
}
