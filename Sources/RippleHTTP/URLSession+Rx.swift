import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The errors of RxCocoa's `URLSession.rx` extensions, with RxCocoa's name and
/// cases, so that code matching them keeps compiling and meaning the same.
///
/// Ripple's own clients (``URLSessionHTTPClient``, ``Session``) report
/// ``HTTPError`` instead.
public enum RxCocoaURLError: Swift.Error {
    /// `URLSession` reported neither a response nor an error.
    case unknown
    /// The response is not an `HTTPURLResponse`.
    case nonHTTPResponse(response: URLResponse)
    /// The status code is not in `200 ..< 300` (`data(request:)`, `json(...)`).
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The body is not valid JSON (`json(...)`).
    case deserializationError(error: Swift.Error)
}

extension RxCocoaURLError: CustomDebugStringConvertible {
    /// What went wrong, in RxCocoa's words.
    public var debugDescription: String {
        switch self {
        case .unknown:
            return "Unknown error has occurred."
        case .nonHTTPResponse(let response):
            return "Response is not NSHTTPURLResponse `\(response)`."
        case .httpRequestFailed(let response, _):
            return "HTTP request failed with `\(response.statusCode)`."
        case .deserializationError(let error):
            return "Error during deserialization of the response: \(error)"
        }
    }
}

extension Reactive where Base: URLSession {
    /// The response to `request`, and its body: RxCocoa's
    /// `URLSession.shared.rx.response(request:)`.
    ///
    /// The request is sent when the observable is subscribed, once per
    /// subscriber; disposing the subscription cancels it. Succeeds with one
    /// element whatever the status code, then completes; fails with
    /// `URLSession`'s error (a `URLError`), with
    /// ``RxCocoaURLError/nonHTTPResponse(response:)`` for a response that is not
    /// HTTP, or ``RxCocoaURLError/unknown`` if there is neither. Events arrive on
    /// the session's delegate queue.
    ///
    /// On Linux, use a session without a `URLCache` (`URLSession.shared` has
    /// one) if requests may be disposed while in flight: FoundationNetworking can
    /// stop the process when a task with a cache is cancelled just as it
    /// completes (see ``URLSessionHTTPClient``).
    ///
    /// ```
    /// response(request:):  --------((response, data)|)
    /// ```
    @_alwaysEmitIntoClient
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = base
        return Observable.create { observer in
            let log = URLSession.rx.shouldLogRequest(request)
            let started = Date()
            if log {
                print(HTTPLogEntry.request(request, curl: request.curlCommand()))
            }
            let task = session.dataTask(with: request) { data, response, error in
                let outcome = Reactive.outcome(data: data, response: response, error: error)
                if log {
                    let duration = Date().timeIntervalSince(started)
                    switch outcome {
                    case .success(let (response, data)):
                        print(HTTPLogEntry.response(request, HTTPResponse(data: data, response: response), duration: duration))
                    case .failure(let error):
                        print(HTTPLogEntry.failure(request, error, duration: duration))
                    }
                }
                switch outcome {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .failure(let error):
                    observer.on(.error(error))
                }
            }
            task.resume()
            return Disposables.create(with: task.cancel)
        }
    }

    /// The body of the response to `request`, if its status code is in
    /// `200 ..< 300`: RxCocoa's `URLSession.shared.rx.data(request:)`.
    ///
    /// Sent when subscribed, once per subscriber; cancelled on dispose. Succeeds
    /// with one element, then completes. Fails as ``response(request:)`` does,
    /// and with ``RxCocoaURLError/httpRequestFailed(response:data:)`` for any
    /// other status code.
    ///
    /// ```
    /// data(request:):  --------(data|)      or   --------#(httpRequestFailed)
    /// ```
    @_alwaysEmitIntoClient
    public func data(request: URLRequest) -> Observable<Data> {
        response(request: request).map { response, data in
            guard 200..<300 ~= response.statusCode else {
                throw RxCocoaURLError.httpRequestFailed(response: response, data: data)
            }
            return data
        }
    }

    /// The body of the response to `request` read as JSON with
    /// `JSONSerialization`: RxCocoa's `URLSession.shared.rx.json(request:options:)`.
    ///
    /// Sent when subscribed, once per subscriber; cancelled on dispose. Succeeds
    /// with one element, then completes. Fails as ``data(request:)`` does, and
    /// with ``RxCocoaURLError/deserializationError(error:)`` if the body is not
    /// valid JSON. (For `Codable` types, use ``data(request:)`` with `map` and a
    /// `JSONDecoder`, or RippleHTTP's typed requests.)
    ///
    /// ```
    /// json(request:):  --------(json|)      or   --------#(deserializationError)
    /// ```
    @_alwaysEmitIntoClient
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data -> Any in
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// `json(request:)` for a `GET` of `url`: RxCocoa's
    /// `URLSession.shared.rx.json(url:)`.
    ///
    /// ```
    /// json(url:):  --------(json|)
    /// ```
    @_alwaysEmitIntoClient
    public func json(url: URL) -> Observable<Any> {
        json(request: URLRequest(url: url))
    }

    /// What a data task's completion handler reported, as RxCocoa reads it.
    @usableFromInline
    static func outcome(data: Data?, response: URLResponse?, error: Error?) -> Result<(response: HTTPURLResponse, data: Data), Error> {
        guard let response, let data else {
            return .failure(error ?? RxCocoaURLError.unknown)
        }
        guard let httpResponse = response as? HTTPURLResponse else {
            return .failure(RxCocoaURLError.nonHTTPResponse(response: response))
        }
        return .success((httpResponse, data))
    }
}

/// `URLSession.rx.shouldLogRequest`'s storage, read and written under the lock.
private let shouldLogRequestLock = PlatformLock()
nonisolated(unsafe) private var shouldLogRequestStorage: @Sendable (URLRequest) -> Bool = { _ in false }

extension Reactive where Base == URLSession {
    /// Decides which requests of the `URLSession.rx` extensions are printed
    /// (as a `curl` command, then the outcome): RxCocoa's switch. Ripple logs
    /// nothing by default, where RxCocoa logs every request in debug builds; set
    /// `URLSession.rx.shouldLogRequest = { _ in true }` to see them, or use an
    /// ``HTTPLogger`` with Ripple's own clients.
    @preconcurrency
    public static var shouldLogRequest: @Sendable (URLRequest) -> Bool {
        get { shouldLogRequestLock.withLock { shouldLogRequestStorage } }
        set { shouldLogRequestLock.withLock { shouldLogRequestStorage = newValue } }
    }
}
