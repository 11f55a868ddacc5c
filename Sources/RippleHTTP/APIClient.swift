import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The generic part of a per-service API client: a ``Session``, a base URL
/// that replaces the requests' own (production, staging, a local mock
/// server), and header fields every request of the service carries.
///
/// Declare what the service offers as a protocol (what view models and
/// repositories depend on, and what tests stub), and implement it on a type
/// that conforms to `APIClient`:
///
/// ```swift
/// protocol GitHubAPI {
///     func repositories(of user: String) -> Single<[Repository]>
///     func searchRepositories(_ query: String, page: Int) -> Single<SearchPage>
/// }
///
/// struct GitHubClient: GitHubAPI, APIClient {
///     let session: Session
///     let baseURL: URL?                      // nil: each request's own baseURL
///     var headerFields: HTTPHeaders { ["Accept": "application/vnd.github+json"] }
///
///     func repositories(of user: String) -> Single<[Repository]> {
///         send(UserRepositories(user: user))
///     }
///     func searchRepositories(_ query: String, page: Int) -> Single<SearchPage> {
///         send(SearchRepositories(query: query, page: page))
///     }
/// }
/// ```
public protocol APIClient: Sendable {
    /// Sends the requests.
    var session: Session { get }
    /// Replaces every request's ``Request/baseURL`` when not `nil` (default:
    /// `nil`).
    var baseURL: URL? { get }
    /// Added to every request's header fields; a request's own field of the
    /// same name wins (default: none).
    var headerFields: HTTPHeaders { get }
}

extension APIClient {
    /// `nil`: requests keep their own base URL.
    public var baseURL: URL? { nil }
    /// None.
    public var headerFields: HTTPHeaders { [:] }

    /// Sends `request` through ``session`` after applying ``baseURL`` and
    /// ``headerFields``. The outcome arrives where the session delivers it (its
    /// ``Session/deliveryScheduler``, else the client's queue: a background
    /// queue for `URLSessionHTTPClient`).
    ///
    /// ```
    /// send(r):   ------(Response|)
    /// ```
    @_alwaysEmitIntoClient
    public func send<R: Request>(_ request: R) -> Single<R.Response> {
        session.response(for: configured(request))
    }

    /// `request` with this client's base URL and header fields applied.
    @_alwaysEmitIntoClient
    public func configured<R: Request>(_ request: R) -> ConfiguredRequest<R> {
        ConfiguredRequest(request, baseURL: baseURL, headerFields: headerFields)
    }
}

/// A request with another base URL and extra header fields; everything else
/// is the wrapped request's.
public struct ConfiguredRequest<Base: Request>: Request {
    /// What the wrapped request's response becomes.
    public typealias Response = Base.Response

    /// The wrapped request.
    public let base: Base
    private let overridingBaseURL: URL?
    private let extraHeaderFields: HTTPHeaders

    /// `base` with `baseURL` (when not `nil`) and `headerFields` (under the
    /// request's own fields of the same name).
    public init(_ base: Base, baseURL: URL?, headerFields: HTTPHeaders) {
        self.base = base
        self.overridingBaseURL = baseURL
        self.extraHeaderFields = headerFields
    }

    /// The overriding base URL, or the wrapped request's.
    public var baseURL: URL { overridingBaseURL ?? base.baseURL }
    /// The wrapped request's.
    public var method: HTTPMethod { base.method }
    /// The wrapped request's.
    public var path: String { base.path }
    /// The wrapped request's.
    public var queryParameters: HTTPParameters { base.queryParameters }
    /// The wrapped request's.
    public var bodyParameters: HTTPBody { base.bodyParameters }
    /// The extra fields, then the wrapped request's.
    public var headerFields: HTTPHeaders { extraHeaderFields.merging(base.headerFields) }
    /// The wrapped request's.
    public var acceptableStatusCodes: AcceptableStatusCodes { base.acceptableStatusCodes }
    /// The wrapped request's.
    public var timeout: RxTimeInterval? { base.timeout }
    /// The wrapped request's.
    public var retryPolicy: RetryPolicy? { base.retryPolicy }
    /// The wrapped request's.
    public var decoder: JSONDecoder { base.decoder }
    /// The wrapped request's.
    public var decodingKeyPath: String? { base.decodingKeyPath }

    /// The wrapped request's.
    @_alwaysEmitIntoClient
    public func intercept(_ urlRequest: URLRequest) throws -> URLRequest {
        try base.intercept(urlRequest)
    }

    /// The wrapped request's.
    @_alwaysEmitIntoClient
    public func response(from response: HTTPResponse) throws -> Base.Response {
        try base.response(from: response)
    }
}

extension ConfiguredRequest: Sendable where Base: Sendable {}
