import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPClient`` on `URLSession` (FoundationNetworking on Linux).
///
/// - The data task is created and resumed when the `Single` is subscribed;
///   every subscription sends the request again.
/// - Disposing the subscription before the response arrives cancels the task
///   (the connection is closed) and delivers nothing.
/// - The request's `timeoutInterval` is honoured (`URLSession` reports
///   ``HTTPError/transport(_:)`` with `URLError(.timedOut)`). FoundationNetworking
///   (Linux) counts it in whole seconds and fails a request with a shorter
///   interval at once, so there the interval is rounded up to whole seconds.
///   For a precise timeout on a Ripple scheduler use ``Session``'s timeout or
///   ``Ripple/ObservableType/requestTimeout(_:scheduler:)``.
/// - The outcome is delivered on the session's delegate queue, from
///   `URLSession`'s completion handler: no lock is held while your observer
///   runs. Use `observe(on: MainScheduler.instance)` before touching the UI.
///
/// ```swift
/// let client = URLSessionHTTPClient()                       // URLSession.shared
/// client.get(URL(string: "https://api.github.com/users/octocat")!)
///     .subscribe(onSuccess: { print($0.statusCode) })
///     .disposed(by: bag)
/// ```
///
/// ```
/// send(request):  --------(response|)
/// dispose:        ----^                (task cancelled, nothing delivered)
/// ```
public final class URLSessionHTTPClient: HTTPClient, @unchecked Sendable {
    /// The session that runs the data tasks.
    public let session: URLSession
    private let ownsSession: Bool

    /// A client on `session` (by default `URLSession.shared`). The session is
    /// not invalidated by the client.
    public init(session: URLSession = .shared) {
        self.session = session
        self.ownsSession = false
    }

    /// A client on a new session with `configuration`, invalidated (after its
    /// running tasks finish) when the client is released.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// configuration.timeoutIntervalForRequest = 10
    /// let client = URLSessionHTTPClient(configuration: configuration)
    /// ```
    public init(configuration: URLSessionConfiguration) {
        self.session = URLSession(configuration: configuration)
        self.ownsSession = true
    }

    deinit {
        if ownsSession {
            session.finishTasksAndInvalidate()
        }
    }

    /// Sends `request` when subscribed; see the type's documentation.
    ///
    /// ```
    /// send(request):  --------(response|)   or   ----#(HTTPError.transport)
    /// ```
    public func send(_ request: URLRequest) -> Single<HTTPResponse> {
        let session = self.session
        let request = URLSessionHTTPClient.adjusted(request)
        return Single<HTTPResponse>.create { observer in
            let outcome = SingleOutcome(observer)
            let task = session.dataTask(with: request) { data, response, error in
                outcome.report(URLSessionHTTPClient.result(data: data, response: response, error: error))
            }
            task.resume()
            return Disposables.create {
                outcome.cancel()
                task.cancel()
            }
        }
    }

    /// The request as `URLSession` should see it: on FoundationNetworking,
    /// whose timeout truncates to whole seconds (0.5 s would time out at
    /// once), the timeout is rounded up to whole seconds.
    static func adjusted(_ request: URLRequest) -> URLRequest {
        #if canImport(FoundationNetworking)
        let interval = request.timeoutInterval
        if interval.isFinite, interval > 0, interval.rounded(.up) != interval {
            var copy = request
            copy.timeoutInterval = interval.rounded(.up)
            return copy
        }
        #endif
        return request
    }

    /// Turns a completion handler's arguments into the outcome.
    static func result(data: Data?, response: URLResponse?, error: Error?) -> Result<HTTPResponse, Error> {
        if let error {
            return .failure(HTTPError.transport(from: error))
        }
        guard let httpResponse = response as? HTTPURLResponse else {
            return .failure(HTTPError.notHTTPResponse(response))
        }
        return .success(HTTPResponse(data: data ?? Data(), response: httpResponse))
    }
}

/// Hands the completion handler's outcome (on `URLSession`'s queue) to a
/// `Single`'s observer, at most once, and never after cancellation.
final class SingleOutcome<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var observer: ((SingleEvent<Element>) -> Void)?

    init(_ observer: @escaping (SingleEvent<Element>) -> Void) {
        self.observer = observer
    }

    func report(_ result: Result<Element, Error>) {
        lock.lock()
        let observer = self.observer
        self.observer = nil
        lock.unlock()
        // Delivered outside the lock.
        observer?(result)
    }

    func cancel() {
        lock.lock()
        observer = nil
        lock.unlock()
    }
}
