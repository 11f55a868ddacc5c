import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One subscription to ``URLSessionHTTPClient/send(_:)``: waits for a
/// connection slot, hands the request to `URLSession` unless it was disposed
/// first, collects the body within the size limit, and reports the outcome
/// once.
///
/// ```
/// waiting ──slot──▶ scheduled ──start (delegate queue)──▶ running ──complete──▶ finished
///    │                  │                                    │
///    └─dispose─▶ disposed (nothing sent)                     └─dispose─▶ task cancelled, nothing delivered
/// ```
final class URLSessionTaskRun: @unchecked Sendable {
    enum Phase {
        case waiting
        case scheduled
        case running(URLSessionDataTask)
        case finished
        case disposed
    }

    private let lock = NSLock()
    private var phase = Phase.waiting
    private var observer: ((SingleEvent<HTTPResponse>) -> Void)?
    private var body = Data()
    private var tooLarge = false

    private let client: URLSessionHTTPClient
    private let request: URLRequest
    private let id: UInt64
    private let host: String
    private let started: @Sendable () -> Void

    init(
        client: URLSessionHTTPClient, request: URLRequest, started: @escaping @Sendable () -> Void,
        observer: @escaping (SingleEvent<HTTPResponse>) -> Void
    ) {
        self.client = client
        self.request = request
        self.started = started
        self.observer = observer
        id = client.limiter.makeID()
        host = URLSessionTaskRun.hostKey(request.url)
        // The client (and so its session) lives as long as a request that
        // may still start: a session is never used after its client
        // invalidated it.
    }

    /// The limiter's key: scheme, host and port (what a connection is to).
    static func hostKey(_ url: URL?) -> String {
        guard let url else { return "" }
        return "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port.map(String.init) ?? "")"
    }

    /// Asks for a connection slot.
    func begin() {
        client.limiter.acquire(id, host: host) { [self] in granted() }
    }

    private func granted() {
        lock.lock()
        guard case .waiting = phase else {
            // Disposed while the slot was being granted.
            lock.unlock()
            client.limiter.release(host: host)
            return
        }
        phase = .scheduled
        lock.unlock()
        // Started from the delegate queue, not from `subscribe`: a dispose
        // that comes right after the subscription (before this operation
        // runs) sends nothing at all.
        client.session.delegateQueue.addOperation { [self] in start() }
    }

    private func start() {
        lock.lock()
        guard case .scheduled = phase else {
            lock.unlock()
            client.limiter.release(host: host)
            return
        }
        let task: URLSessionDataTask
        if let events = client.events {
            task = client.session.dataTask(with: request)
            events.register(task, self)
        } else {
            task = client.session.dataTask(with: request) { [self] data, response, error in
                complete(data: data, response: response, error: error)
            }
        }
        phase = .running(task)
        // Resumed under the lock that `dispose` takes: the check above and the
        // hand-over are one step, so a disposed request is never sent.
        task.resume()
        lock.unlock()
        started()
    }

    /// The subscription was disposed: nothing is delivered from now on; a
    /// waiting request leaves the queue, a running one is cancelled.
    func dispose() {
        lock.lock()
        let previous = phase
        observer = nil
        switch previous {
        case .waiting, .scheduled:
            phase = .disposed
        case .running, .finished, .disposed:
            break
        }
        lock.unlock()
        switch previous {
        case .waiting:
            // Out of the queue; if the slot was granted meanwhile, `granted`
            // sees `.disposed` and gives it back.
            _ = client.limiter.withdraw(id, host: host)
        case .running(let task):
            task.cancel()
        case .scheduled, .finished, .disposed:
            break
        }
    }

    // MARK: Delegate events (on the session's delegate queue)

    func received(_ data: Data, expectedLength: Int64, from task: URLSessionDataTask) {
        let limit = client.maximumResponseBodySize
        lock.lock()
        if tooLarge {
            lock.unlock()
            return
        }
        if expectedLength > Int64(limit) || data.count > limit - body.count {
            tooLarge = true
            body = Data()
            lock.unlock()
            task.cancel()
            return
        }
        if body.isEmpty, expectedLength > 0 {
            // One allocation of the announced size (within the limit) instead
            // of growing by doubling. A 100 MB body over loopback: peak RSS
            // +117 MB without the reservation, +108 MB with it (and +202 MB
            // through a completion handler, a session passed in).
            body.reserveCapacity(Int(expectedLength))
        }
        body.append(data)
        lock.unlock()
    }

    func completed(response: URLResponse?, error: Error?) {
        lock.lock()
        let data = body
        let exceeded = tooLarge
        body = Data()
        lock.unlock()
        if exceeded {
            finish(.failure(HTTPError.responseTooLarge(limit: client.maximumResponseBodySize)))
        } else {
            complete(data: data, response: response, error: error)
        }
    }

    private func complete(data: Data?, response: URLResponse?, error: Error?) {
        var result = URLSessionHTTPClient.result(data: data, response: response, error: error)
        if case .success(let response) = result, response.data.count > client.maximumResponseBodySize {
            // A session without Ripple's delegate collects the whole body.
            result = .failure(HTTPError.responseTooLarge(limit: client.maximumResponseBodySize))
        }
        finish(result)
    }

    private func finish(_ result: Result<HTTPResponse, Error>) {
        lock.lock()
        let observer = self.observer
        self.observer = nil
        if case .running = phase {
            phase = .finished
        }
        lock.unlock()
        client.limiter.release(host: host)
        // Delivered outside the lock.
        observer?(result)
    }
}

/// The delegate of the sessions ``URLSessionHTTPClient`` creates: routes each
/// task's body and completion to its ``URLSessionTaskRun``, so that bodies
/// are checked against the size limit while they stream in.
///
/// It holds no reference to the client (the session holds its delegate until
/// it is invalidated, which the client does when it is released).
final class URLSessionTaskEvents: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [Int: URLSessionTaskRun] = [:]

    func register(_ task: URLSessionTask, _ run: URLSessionTaskRun) {
        lock.lock()
        runs[task.taskIdentifier] = run
        lock.unlock()
    }

    private func run(for task: URLSessionTask, removing: Bool = false) -> URLSessionTaskRun? {
        lock.lock()
        defer { lock.unlock() }
        return removing ? runs.removeValue(forKey: task.taskIdentifier) : runs[task.taskIdentifier]
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let expected = dataTask.response?.expectedContentLength ?? -1
        run(for: dataTask)?.received(data, expectedLength: expected, from: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        run(for: task, removing: true)?.completed(response: task.response, error: error)
    }
}
