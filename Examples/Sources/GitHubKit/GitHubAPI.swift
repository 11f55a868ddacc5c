import Foundation
import RippleHTTP
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the search app needs from GitHub: the three endpoints, as `Single`s that
/// fail with ``GitHubError``.
///
/// View models and repositories depend on this protocol; the app gives them a
/// ``GitHubClient``, tests a client on a stub or on the mock server.
public protocol GitHubAPI: Sendable {
    /// `GET /search/repositories`.
    func searchRepositories(_ query: String, page: Int, perPage: Int) -> Single<RepositoryPage>
    /// `GET /users/{user}/repos`.
    func repositories(of user: String, page: Int, perPage: Int) -> Single<RepositoryPage>
    /// `GET /repos/{owner}/{repo}`.
    func repository(owner: String, name: String) -> Single<Repository>
}

/// ``GitHubAPI`` over HTTP, on a RippleHTTP ``Session``.
///
/// ```swift
/// let session = Session(client: URLSessionHTTPClient(), timeout: .seconds(10))
/// let github = GitHubClient(session: session, baseURL: server.baseURL)   // nil: api.github.com
/// github.searchRepositories("ripple", page: 1, perPage: 30)              // Single<RepositoryPage>
/// ```
///
/// Every request carries GitHub's `Accept` and API-version headers (and
/// `Authorization` when a token is given), is retried by ``retryPolicy`` on the
/// session's scheduler, and fails with a ``GitHubError``. The session's own retry
/// policy is not used (GitHub's rate-limit signals need ``GitHubRetryPolicy``).
public struct GitHubClient: GitHubAPI, APIClient {
    public let session: Session
    /// The API root (`nil`: `https://api.github.com`).
    public let baseURL: URL?
    public var retryPolicy: GitHubRetryPolicy
    /// A personal access token, sent as `Authorization: Bearer`.
    public var token: String?

    public init(session: Session, baseURL: URL? = nil, retryPolicy: GitHubRetryPolicy = .default, token: String? = nil) {
        self.session = session
        self.baseURL = baseURL
        self.retryPolicy = retryPolicy
        self.token = token
    }

    public var headerFields: HTTPHeaders {
        var fields: HTTPHeaders = ["User-Agent": "Ripple-github-search"]
        if let token { fields["Authorization"] = "Bearer \(token)" }
        return fields
    }

    public func searchRepositories(_ query: String, page: Int = 1, perPage: Int = 30) -> Single<RepositoryPage> {
        perform(SearchRepositoriesRequest(query: query, page: page, perPage: perPage))
    }

    public func repositories(of user: String, page: Int = 1, perPage: Int = 30) -> Single<RepositoryPage> {
        perform(UserRepositoriesRequest(user: user, page: page, perPage: perPage), notFound: "no account “\(user)”")
    }

    public func repository(owner: String, name: String) -> Single<Repository> {
        perform(RepositoryRequest(owner: owner, name: name), notFound: "no repository “\(owner)/\(name)”")
    }

    /// Sends `request` (with this client's base URL and headers), retries it by
    /// ``retryPolicy`` and converts the response; every error becomes a ``GitHubError``.
    ///
    /// ```
    /// perform(r):   --#(503)·backoff·--(Response|)      or   --#(GitHubError)
    /// ```
    public func perform<R: Request>(_ request: R) -> Single<R.Response> {
        perform(request, notFound: nil)
    }

    /// ``perform(_:)``, with what a `404` means for this request
    /// (`no account “nobody”`): GitHub's own message for it is only "Not Found".
    func perform<R: Request>(_ request: R, notFound: String?) -> Single<R.Response> {
        let request = WithoutSessionRetry(configured(request))
        let policy = retryPolicy
        return session.send(request).asObservable()
            .retry(gitHub: policy, scheduler: session.scheduler)
            .map { response -> R.Response in
                do {
                    return try request.response(from: response)
                } catch let error as HTTPError {
                    throw error
                } catch {
                    throw HTTPError.undecodableBody(error, body: response.data)
                }
            }
            .catch { error -> Observable<R.Response> in
                let error = GitHubError(error)
                if case .notFound(let message) = error, let notFound {
                    return .error(GitHubError.notFound(message: "\(notFound) (\(message))"))
                }
                return .error(error)
            }
            .asSingle()
    }
}

/// A request whose retries are done by ``GitHubClient`` rather than the session.
struct WithoutSessionRetry<Base: Request>: Request {
    typealias Response = Base.Response
    let base: Base

    init(_ base: Base) { self.base = base }

    var baseURL: URL { base.baseURL }
    var method: HTTPMethod { base.method }
    var path: String { base.path }
    var queryParameters: HTTPParameters { base.queryParameters }
    var bodyParameters: HTTPBody { base.bodyParameters }
    var headerFields: HTTPHeaders { base.headerFields }
    var acceptableStatusCodes: AcceptableStatusCodes { base.acceptableStatusCodes }
    var timeout: RxTimeInterval? { base.timeout }
    var retryPolicy: RetryPolicy? { .never }
    var decoder: JSONDecoder { base.decoder }
    var decodingKeyPath: String? { base.decodingKeyPath }
    func intercept(_ urlRequest: URLRequest) throws -> URLRequest { try base.intercept(urlRequest) }
    func response(from response: HTTPResponse) throws -> Base.Response { try base.response(from: response) }
}
