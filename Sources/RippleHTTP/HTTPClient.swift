import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends HTTP requests as reactive `Single`s: the lowest layer of a Ripple
/// networking stack, and the seam where tests plug in a stub.
///
/// Implementations start the request when the `Single` is subscribed, or as
/// soon as they can after that (each subscription sends it again; a client
/// that makes requests wait reports the real start through
/// ``send(_:whenStarted:)``), cancel it when the subscription is disposed,
/// and report failures as ``HTTPError``s:
///
/// - ``HTTPError/transport(_:)`` when no response arrived,
/// - ``HTTPError/notHTTPResponse(_:)`` when the answer is not HTTP,
/// - ``HTTPError/responseTooLarge(limit:)`` when the body is over the
///   client's limit.
///
/// A client does **not** judge status codes: a `404` is a successful
/// ``HTTPResponse``. ``Session`` and ``Ripple/ObservableType/validate(_:)`` do that.
///
/// ```
/// send(request):   ----------(response|)      the server answered
///                  -----#(transport)          the connection failed
/// dispose at ^:    ---^                       the request is cancelled, nothing is delivered
/// ```
///
/// ``URLSessionHTTPClient`` is the real one; `StubHTTPClient` (module
/// `RippleHTTPTesting`) answers from canned responses.
public protocol HTTPClient: Sendable {
    /// A `Single` that sends `request` when subscribed and succeeds with the
    /// response (whatever its status code), or fails with an ``HTTPError``.
    func send(_ request: URLRequest) -> Single<HTTPResponse>

    /// ``send(_:)``, calling `started` when the request is handed to the
    /// network: later than the subscription when the client makes requests
    /// wait (``URLSessionHTTPClient`` waits for a free connection to the
    /// host); never if the subscription is disposed before.
    ///
    /// ``send(_:timeout:scheduler:)`` and ``Session`` start their timeouts
    /// there. The default implementation calls `started` on subscription.
    func send(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Single<HTTPResponse>

    /// The response to `request` as it arrives: its head, then its body in
    /// chunks, completing when the body ends; sent when subscribed, cancelled
    /// when disposed, failing with an ``HTTPError`` like ``send(_:)``.
    /// `started` is called when the request is handed to the network, as in
    /// ``send(_:whenStarted:)``.
    ///
    /// The body has no size limit (a stream of events may never end): the
    /// consumer bounds what it keeps. A slow consumer slows the reading
    /// instead of filling a buffer: `AsyncHTTPClientTransport` reads the next
    /// part once the observer has returned; ``URLSessionHTTPClient`` (on a
    /// session it creates) lets at most 1 MiB wait for the observer (16 MiB
    /// while a cancel waits for FoundationNetworking). Redirects are followed
    /// as in ``send(_:)``; the parts are those of the final response.
    ///
    /// The default implementation, for clients that cannot stream, sends the
    /// request with ``send(_:whenStarted:)`` and delivers the whole body as
    /// one part when it is complete. ``URLSessionHTTPClient`` (on a session it
    /// creates), `AsyncHTTPClientTransport` and `StubHTTPClient` stream.
    ///
    /// ```
    /// stream(request):   ---(head)--body--body--body--|
    /// dispose at ^:      ---(head)--body-^              the connection is closed
    /// ```
    func stream(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Observable<HTTPResponsePart>
}

extension HTTPClient {
    /// Calls `started` on subscription, then ``send(_:)``.
    @_alwaysEmitIntoClient
    public func send(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Single<HTTPResponse> {
        Observable.deferred { [self] in
            started()
            return self.send(request).asObservable()
        }
        .asSingle()
    }

    /// Sends `request` with ``send(_:whenStarted:)`` and delivers the head,
    /// then the whole body as one part (if it is not empty).
    @_alwaysEmitIntoClient
    public func stream(_ request: URLRequest, whenStarted started: @escaping @Sendable () -> Void) -> Observable<HTTPResponsePart> {
        send(request, whenStarted: started).asObservable().flatMap { response -> Observable<HTTPResponsePart> in
            response.data.isEmpty ? .just(.head(response.response)) : .of(.head(response.response), .body(response.data))
        }
    }

    /// ``stream(_:whenStarted:)`` without the start notification.
    ///
    /// ```
    /// stream(request):   ---(head)--body--body--|
    /// ```
    @_alwaysEmitIntoClient
    public func stream(_ request: URLRequest) -> Observable<HTTPResponsePart> {
        stream(request, whenStarted: {})
    }

    /// ``send(_:)`` in the shape of RxCocoa's `URLSession.rx.response`: the body
    /// and the `HTTPURLResponse`.
    ///
    /// ```
    /// response(request):  ------((Data, HTTPURLResponse)|)
    /// ```
    @_alwaysEmitIntoClient
    public func response(_ request: URLRequest) -> Single<(Data, HTTPURLResponse)> {
        send(request).asObservable().map { $0.tuple }.asSingle()
    }

    /// Sends a request built from its parts. A request that cannot be built
    /// fails the `Single` with ``HTTPError/invalidRequest(_:)`` when subscribed
    /// (nothing is sent; nothing is thrown at the call site).
    ///
    /// ```
    /// send(.get, url, parameters: ["q": "a b"]):  ---(response|)     GET url?q=a%20b
    /// ```
    @_alwaysEmitIntoClient
    public func send(
        _ method: HTTPMethod,
        _ url: URL,
        parameters: HTTPParameters = [:],
        body: HTTPBody = .none,
        headers: HTTPHeaders = [:]
    ) -> Single<HTTPResponse> {
        Observable.deferred { [self] in
            let request = try URLRequest(method: method, url: url, parameters: parameters, body: body, headers: headers)
            return self.send(request).asObservable()
        }
        .asSingle()
    }

    /// `GET url?parameters` with `headers`.
    ///
    /// ```
    /// get(url, parameters: ["page": 2]):  ---(response|)
    /// ```
    @_alwaysEmitIntoClient
    public func get(_ url: URL, parameters: HTTPParameters = [:], headers: HTTPHeaders = [:]) -> Single<HTTPResponse> {
        send(.get, url, parameters: parameters, headers: headers)
    }

    /// `DELETE url?parameters` with `headers`.
    ///
    /// ```
    /// delete(url):  ---(response|)
    /// ```
    @_alwaysEmitIntoClient
    public func delete(_ url: URL, parameters: HTTPParameters = [:], headers: HTTPHeaders = [:]) -> Single<HTTPResponse> {
        send(.delete, url, parameters: parameters, headers: headers)
    }

    /// `POST url` with `parameters` as a form (default) or JSON body.
    ///
    /// ```
    /// post(url, parameters: ["name": "x"]):  ---(response|)     body name=x
    /// ```
    public func post(
        _ url: URL, parameters: HTTPParameters = [:], encoding: HTTPBodyEncoding = .form, headers: HTTPHeaders = [:]
    ) -> Single<HTTPResponse> {
        send(.post, url, body: Self.body(parameters, encoding), headers: headers)
    }

    /// `PUT url` with `parameters` as a form (default) or JSON body.
    ///
    /// ```
    /// put(url, parameters: ["name": "x"], encoding: .json):  ---(response|)     body {"name":"x"}
    /// ```
    public func put(
        _ url: URL, parameters: HTTPParameters = [:], encoding: HTTPBodyEncoding = .form, headers: HTTPHeaders = [:]
    ) -> Single<HTTPResponse> {
        send(.put, url, body: Self.body(parameters, encoding), headers: headers)
    }

    private static func body(_ parameters: HTTPParameters, _ encoding: HTTPBodyEncoding) -> HTTPBody {
        switch encoding {
        case .form: return .form(parameters)
        case .json: return .json(.object(parameters))
        }
    }
}
