import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a transport puts one response, the same for every transport
/// (``URLSessionHTTPClient``, `AsyncHTTPClientTransport`): collected into one
/// ``HTTPResponse`` within the body size limit (``HTTPClient/send(_:)``), or
/// passed on part by part (``HTTPClient/stream(_:whenStarted:)``).
///
/// The transport calls ``head(_:)``, ``body(_:)`` and ``finish(_:)`` from one
/// thread at a time (its callbacks are serial); ``dispose()`` may come from
/// any thread. The observer hears at most one terminal event, nothing after
/// `dispose()` returns unless a delivery had already begun, and never under a
/// lock.
@usableFromInline
final class ResponseReceiver: @unchecked Sendable {
    private enum Consumer {
        case collect((SingleEvent<HTTPResponse>) -> Void)
        case stream((Event<HTTPResponsePart>) -> Void)
    }

    private let lock: PlatformLock
    private var consumer: Consumer?
    private var response: HTTPURLResponse?
    private var collected: Data
    /// The largest body collected (`send`); streams have no limit.
    let limit: Int

    /// A receiver collecting the body (at most `limit` bytes) for `observer`.
    @usableFromInline
    convenience init(collectingUpTo limit: Int, observer: @escaping (SingleEvent<HTTPResponse>) -> Void) {
        self.init(limit: limit, consumer: .collect(observer))
    }

    /// A receiver passing the parts on to `observer`.
    @usableFromInline
    convenience init(streamingTo observer: @escaping (Event<HTTPResponsePart>) -> Void) {
        self.init(limit: .max, consumer: .stream(observer))
    }

    private init(limit: Int, consumer: Consumer) {
        lock = PlatformLock()
        collected = Data()
        self.limit = limit
        self.consumer = consumer
    }

    /// Whether the receiver still wants events (not disposed, not finished).
    var isActive: Bool {
        lock.lock()
        defer { lock.unlock() }
        return consumer != nil
    }

    /// The head of the final response. Returns `false` when the transfer
    /// should stop: the receiver is done, or the announced `Content-Length`
    /// is over the limit (then ``HTTPError/responseTooLarge(limit:)`` has
    /// been delivered).
    func head(_ head: HTTPURLResponse) -> Bool {
        lock.lock()
        guard let consumer else {
            lock.unlock()
            return false
        }
        response = head
        switch consumer {
        case .collect(let observer):
            let expected = head.expectedContentLength
            if expected > Int64(limit) {
                tooLarge(observer)
                return false
            }
            if expected > 0 {
                // One allocation of the announced size (within the limit)
                // instead of growing by doubling. A 100 MB body over
                // loopback: peak RSS +117 MB without the reservation, +108 MB
                // with it (and +202 MB through a completion handler).
                collected.reserveCapacity(Int(expected))
            }
            lock.unlock()
            return true
        case .stream(let observer):
            lock.unlock()
            observer(.next(.head(head)))
            return true
        }
    }

    /// Bytes of the body. Returns `false` when the transfer should stop:
    /// the receiver is done, or the body went over the limit (then
    /// ``HTTPError/responseTooLarge(limit:)`` has been delivered, at once:
    /// not when the transport has stopped, which FoundationNetworking may do
    /// only once the server stops sending).
    func body(_ data: Data) -> Bool {
        guard !data.isEmpty else { return isActive }
        lock.lock()
        guard let consumer else {
            lock.unlock()
            return false
        }
        switch consumer {
        case .collect(let observer):
            if data.count > limit - collected.count {
                tooLarge(observer)
                return false
            }
            collected.append(data)
            lock.unlock()
            return true
        case .stream(let observer):
            lock.unlock()
            observer(.next(.body(data)))
            return true
        }
    }

    /// Under the lock, which it releases: the body is over the limit; the
    /// receiver is done and `observer` hears
    /// ``HTTPError/responseTooLarge(limit:)``, outside the lock.
    private func tooLarge(_ observer: (SingleEvent<HTTPResponse>) -> Void) {
        consumer = nil
        collected = Data()
        lock.unlock()
        observer(.failure(HTTPError.responseTooLarge(limit: limit)))
    }

    /// The transfer ended: `error` is `nil` when the body is complete.
    /// Delivers once; later calls (and calls after a body over the limit,
    /// already reported) do nothing.
    func finish(_ error: HTTPError?) {
        lock.lock()
        guard let consumer else {
            lock.unlock()
            return
        }
        self.consumer = nil
        let response = self.response
        let body = collected
        collected = Data()
        lock.unlock()
        let failure = error
        switch consumer {
        case .collect(let observer):
            if let failure {
                observer(.failure(failure))
            } else if let response {
                observer(.success(HTTPResponse(data: body, response: response)))
            } else {
                observer(.failure(HTTPError.notHTTPResponse(nil)))
            }
        case .stream(let observer):
            if let failure {
                observer(.error(failure))
            } else if response == nil {
                observer(.error(HTTPError.notHTTPResponse(nil)))
            } else {
                observer(.completed)
            }
        }
    }

    /// Nothing is delivered from now on.
    func dispose() {
        lock.lock()
        consumer = nil
        collected = Data()
        lock.unlock()
    }
}
