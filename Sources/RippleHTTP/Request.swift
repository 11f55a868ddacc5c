import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The status codes a request accepts; any other code fails the request with
/// ``HTTPError/unacceptableStatusCode(_:headers:body:)``.
///
/// ```swift
/// var acceptableStatusCodes: AcceptableStatusCodes { .successful }        // 200..<300 (the default)
/// var acceptableStatusCodes: AcceptableStatusCodes { [200, 304] }         // a list
/// var acceptableStatusCodes: AcceptableStatusCodes { .range(200..<400) }
/// var acceptableStatusCodes: AcceptableStatusCodes { .any }               // decide in response(from:)
/// ```
public struct AcceptableStatusCodes: Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    private let predicate: @Sendable (Int) -> Bool
    /// What the rule accepts, in words (for messages).
    public let description: String

    /// A rule from a predicate and its description.
    public init(_ description: String, accepts predicate: @escaping @Sendable (Int) -> Bool) {
        self.description = description
        self.predicate = predicate
    }

    /// Exactly the listed codes.
    public init(arrayLiteral codes: Int...) {
        self = .codes(Set(codes))
    }

    /// `200..<300`.
    public static let successful = AcceptableStatusCodes.range(200..<300)

    /// Every status code.
    public static let any = AcceptableStatusCodes("any status") { _ in true }

    /// The codes in `range`.
    @_alwaysEmitIntoClient
    public static func range(_ range: Range<Int>) -> AcceptableStatusCodes {
        AcceptableStatusCodes("\(range.lowerBound)..<\(range.upperBound)") { range.contains($0) }
    }

    /// Exactly `codes`.
    @_alwaysEmitIntoClient
    public static func codes(_ codes: Set<Int>) -> AcceptableStatusCodes {
        AcceptableStatusCodes(codes.sorted().map(String.init).joined(separator: ", ")) { codes.contains($0) }
    }

    /// Whether `statusCode` is accepted.
    public func contains(_ statusCode: Int) -> Bool {
        predicate(statusCode)
    }

    /// Returns `response` if its status is accepted.
    ///
    /// - Throws: ``HTTPError/unacceptableStatusCode(_:headers:body:)`` otherwise.
    @_alwaysEmitIntoClient
    @discardableResult
    public func validate(_ response: HTTPResponse) throws -> HTTPResponse {
        guard contains(response.statusCode) else {
            throw HTTPError.unacceptableStatusCode(response.statusCode, headers: response.headers, body: HTTPError.bodyPrefix(response.data))
        }
        return response
    }
}

/// One endpoint of an API, as a type: where it is, how it is called, and what
/// its response becomes.
///
/// Only ``baseURL``, ``path`` and the `Response` type are required; everything
/// else has a default. A `Decodable` `Response` is decoded from JSON with
/// ``decoder`` (snake_case keys, ISO-8601 dates), optionally at
/// ``decodingKeyPath``.
///
/// ```swift
/// struct UserRepositories: Request {
///     typealias Response = [Repository]
///     let user: String
///     var baseURL: URL { URL(string: "https://api.github.com")! }
///     var path: String { "users/\(user)/repos" }            // unencoded: "a b" is sent as a%20b
///     var queryParameters: HTTPParameters { ["sort": "updated", "per_page": 50] }
///     var headerFields: HTTPHeaders { ["Accept": "application/vnd.github+json"] }
/// }
///
/// struct AvatarURL: Request {                                // a value nested in the JSON
///     typealias Response = URL
///     let owner: String, name: String
///     var baseURL: URL { URL(string: "https://api.github.com")! }
///     var path: String { "repos/\(owner)/\(name)" }
///     var decodingKeyPath: String? { "owner.avatar_url" }
/// }
///
/// session.response(for: UserRepositories(user: "octocat"))  // Single<[Repository]>
/// ```
public protocol Request {
    /// What a successful response becomes.
    associatedtype Response

    /// The base URL; ``path`` is appended to its path (its query is kept).
    var baseURL: URL { get }
    /// The method. Default: `GET`.
    var method: HTTPMethod { get }
    /// The path after ``baseURL``'s, unencoded (`"users/\(name)/repos"`): every
    /// character that may not appear in a URL path, including `%`, `?` and `#`,
    /// is percent-encoded. Leading and trailing slashes are normalized.
    /// Default: empty (``baseURL`` itself).
    var path: String { get }
    /// Parameters for the query string, after any query of ``baseURL``.
    /// Default: none.
    var queryParameters: HTTPParameters { get }
    /// The body (its parameters and encoding). Default: ``HTTPBody/none``.
    var bodyParameters: HTTPBody { get }
    /// Header fields. Default: none (`Content-Type` comes from the body).
    var headerFields: HTTPHeaders { get }
    /// The status codes that count as success. Default:
    /// ``AcceptableStatusCodes/successful`` (200–299).
    var acceptableStatusCodes: AcceptableStatusCodes { get }
    /// How long one attempt may take before it fails with
    /// ``HTTPError/transport(_:)`` (`URLError(.timedOut)`). Default: `nil`, the
    /// ``Session``'s timeout.
    var timeout: RxTimeInterval? { get }
    /// How failed attempts are retried. Default: `nil`, the ``Session``'s policy.
    var retryPolicy: RetryPolicy? { get }
    /// The decoder of a `Decodable` `Response`. Default:
    /// `JSONDecoder.snakeCaseISO8601`.
    var decoder: JSONDecoder { get }
    /// Where the `Decodable` `Response` sits in the JSON, as a dot-separated
    /// key path of the JSON's own keys (`"owner.avatar_url"`, `"items.login"`;
    /// see `JSONDecoder.decode(_:from:keyPath:)`). Default: `nil`,
    /// the whole body.
    var decodingKeyPath: String? { get }

    /// A last chance to change the `URLRequest` (sign it, set a cache policy).
    /// An error thrown here fails the request with
    /// ``HTTPError/invalidRequest(_:)``. Default: unchanged.
    func intercept(_ urlRequest: URLRequest) throws -> URLRequest

    /// Turns an accepted response into `Response`. An error thrown here fails
    /// the request with ``HTTPError/undecodableBody(_:body:)`` (an
    /// ``HTTPError`` is passed on as it is).
    ///
    /// Default for `Decodable` responses: ``decoder`` at ``decodingKeyPath``;
    /// for `Data`: the body; for `Void`: nothing; for ``HTTPResponse``: the
    /// response itself.
    func response(from response: HTTPResponse) throws -> Response
}

extension Request {
    /// `GET`.
    public var method: HTTPMethod { .get }
    /// Empty: ``baseURL`` itself.
    public var path: String { "" }
    /// None.
    public var queryParameters: HTTPParameters { [:] }
    /// ``HTTPBody/none``.
    public var bodyParameters: HTTPBody { .none }
    /// None.
    public var headerFields: HTTPHeaders { [:] }
    /// 200–299.
    public var acceptableStatusCodes: AcceptableStatusCodes { .successful }
    /// The session's.
    public var timeout: RxTimeInterval? { nil }
    /// The session's.
    public var retryPolicy: RetryPolicy? { nil }
    /// `JSONDecoder.snakeCaseISO8601`.
    public var decoder: JSONDecoder { .snakeCaseISO8601 }
    /// The whole body.
    public var decodingKeyPath: String? { nil }

    /// Unchanged.
    @_alwaysEmitIntoClient
    public func intercept(_ urlRequest: URLRequest) throws -> URLRequest {
        urlRequest
    }

    /// The full URL: ``baseURL`` with ``path`` appended (without the query
    /// parameters).
    ///
    /// - Throws: ``HTTPError/invalidRequest(_:)`` when the URL cannot be built.
    @_alwaysEmitIntoClient
    public func url() throws -> URL {
        try RequestURL.appending(path, to: baseURL)
    }

    /// The `URLRequest` this request sends: URL, method, query, body, headers,
    /// timeout, then ``intercept(_:)``.
    ///
    /// - Throws: ``HTTPError/invalidRequest(_:)`` when any part cannot be built.
    @_alwaysEmitIntoClient
    public func makeURLRequest() throws -> URLRequest {
        let timeoutSeconds: TimeInterval?
        if let timeout {
            guard let seconds = timeout.seconds else {
                throw HTTPError.invalidRequest("the timeout must be positive (got \(timeout))")
            }
            timeoutSeconds = seconds.isInfinite ? nil : seconds
        } else {
            timeoutSeconds = nil
        }
        let urlRequest = try URLRequest(
            method: method, url: url(), parameters: queryParameters, body: bodyParameters,
            headers: headerFields, timeoutInterval: timeoutSeconds
        )
        do {
            return try intercept(urlRequest)
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError.invalidRequest("intercept(_:) failed: \(error)")
        }
    }

    /// ``response(from:)`` with its errors as ``HTTPError``s.
    @usableFromInline
    func decodedResponse(from response: HTTPResponse) throws -> Response {
        do {
            return try self.response(from: response)
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError.undecodableBody(error, body: HTTPError.bodyPrefix(response.data))
        }
    }
}

extension Request where Response: Decodable {
    /// Decodes the body with ``decoder`` at ``decodingKeyPath``.
    @_alwaysEmitIntoClient
    public func response(from response: HTTPResponse) throws -> Response {
        try decoder.decode(Response.self, from: response.data, keyPath: decodingKeyPath ?? "")
    }
}

extension Request where Response == Data {
    /// The body.
    @_alwaysEmitIntoClient
    public func response(from response: HTTPResponse) throws -> Data {
        response.data
    }
}

extension Request where Response == Void {
    /// Nothing: the status code was accepted, that is all.
    @_alwaysEmitIntoClient
    public func response(from response: HTTPResponse) throws {}
}

extension Request where Response == HTTPResponse {
    /// The response itself.
    @_alwaysEmitIntoClient
    public func response(from response: HTTPResponse) throws -> HTTPResponse {
        response
    }
}

extension HTTPResponse {
    /// Decodes the body as JSON, optionally at a key path of the JSON's own
    /// keys (see `JSONDecoder.decode(_:from:keyPath:)`).
    ///
    /// ```swift
    /// func response(from response: HTTPResponse) throws -> [String] {
    ///     try response.decode([String].self, at: "items.full_name")
    /// }
    /// ```
    ///
    /// - Throws: the decoder's error (``Session`` turns it into
    ///   ``HTTPError/undecodableBody(_:body:)``).
    @_alwaysEmitIntoClient
    public func decode<Value: Decodable>(
        _ type: Value.Type = Value.self, at keyPath: String? = nil, using decoder: JSONDecoder = .snakeCaseISO8601
    ) throws -> Value {
        try decoder.decode(type, from: data, keyPath: keyPath ?? "")
    }
}

@usableFromInline
enum RequestURL {
    /// `baseURL` with `path` (unencoded) appended to its path.
    @usableFromInline
    static func appending(_ path: String, to baseURL: URL) throws -> URL {
        guard baseURL.scheme != nil else {
            throw HTTPError.invalidRequest("the base URL \(String(reflecting: baseURL.absoluteString)) has no scheme")
        }
        let trimmed = path.drop { $0 == "/" }
        if trimmed.isEmpty {
            return baseURL
        }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
            throw HTTPError.invalidRequest("the base URL \(String(reflecting: baseURL.absoluteString)) cannot be parsed")
        }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = basePath + "/" + encodePath(String(trimmed))
        guard let url = components.url else {
            throw HTTPError.invalidRequest("cannot append the path \(String(reflecting: path)) to \(baseURL.absoluteString)")
        }
        return url
    }

    /// Percent-encodes everything but RFC 3986 `pchar`s and `/`.
    static func encodePath(_ path: String) -> String {
        HTTPParameters.percentEncode(path) { byte in
            switch byte {
            case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
                return true
            default:
                return HTTPParameters.isUnreserved(byte)
            }
        }
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds; `.infinity` for `.never`; `nil` when negative
    /// or zero.
    @usableFromInline
    package var seconds: TimeInterval? {
        let value: TimeInterval
        switch self {
        case .seconds(let amount): value = TimeInterval(amount)
        case .milliseconds(let amount): value = TimeInterval(amount) / 1_000
        case .microseconds(let amount): value = TimeInterval(amount) / 1_000_000
        case .nanoseconds(let amount): value = TimeInterval(amount) / 1_000_000_000
        case .never: value = .infinity
        @unknown default: return nil
        }
        return value > 0 ? value : nil
    }

    /// `seconds` as an interval (nanosecond precision, at most `Int.max` nanoseconds).
    @usableFromInline
    package static func fromSeconds(_ seconds: TimeInterval) -> DispatchTimeInterval {
        guard seconds.isFinite else { return seconds > 0 ? .never : .nanoseconds(0) }
        let nanoseconds = (seconds * 1_000_000_000).rounded()
        if nanoseconds <= 0 { return .nanoseconds(0) }
        if nanoseconds >= Double(Int.max) { return .nanoseconds(Int.max) }
        return .nanoseconds(Int(nanoseconds))
    }
}
