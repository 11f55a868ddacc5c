import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything that can go wrong with an HTTP request, as one error type that
/// travels down the stream (never a crash).
///
/// ```swift
/// session.response(for: UserRepositories(user: "octocat"))
///     .subscribe(onSuccess: show, onFailure: { error in
///         switch error as? HTTPError {
///         case .unacceptableStatusCode(404, _, _)?: showNotFound()
///         case .transport(let urlError)? where urlError.code == .notConnectedToInternet: showOffline()
///         default: showMessage("\(error)")    // a readable sentence
///         }
///     })
/// ```
public enum HTTPError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// No response arrived: the connection failed, was lost, timed out, ...
    /// Non-`URLError` failures of the underlying client are wrapped in a
    /// `URLError(.unknown)` whose `NSUnderlyingErrorKey` holds them.
    case transport(URLError)
    /// Something answered, but not with an HTTP response (e.g. a `file:` URL).
    case notHTTPResponse(URLResponse?)
    /// The status code is not one the request accepts (by default 200–299).
    /// `body` is the body's first ``maximumBodyPrefix`` bytes.
    case unacceptableStatusCode(Int, headers: HTTPHeaders, body: Data)
    /// The body did not become the response type: the decoding error (or the
    /// error thrown by ``Request/response(from:)``) and the raw body's first
    /// ``maximumBodyPrefix`` bytes.
    case undecodableBody(Error, body: Data)
    /// The request could not be built: a bad URL, a parameter or header that
    /// cannot be encoded, an invalid policy. Nothing was sent.
    case invalidRequest(String)
    /// The response body is larger than the client accepts
    /// (``URLSessionHTTPClient/maximumResponseBodySize``); the transfer was
    /// stopped.
    case responseTooLarge(limit: Int)
    /// A redirect from `https` to `http` was refused (see
    /// ``RedirectPolicy/allowsInsecureRedirects``); nothing was sent to the
    /// `http` URL.
    case insecureRedirect(from: URL, to: URL)

    /// The most bytes of a body that an error keeps
    /// (``unacceptableStatusCode(_:headers:body:)``,
    /// ``undecodableBody(_:body:)``): 64 KiB. Enough for any error message
    /// or decoding diagnosis, and a failed 100 MB download does not keep
    /// 100 MB alive for as long as its error.
    public static let maximumBodyPrefix = 64 * 1024

    /// The first ``maximumBodyPrefix`` bytes of `body`, copied (a slice would
    /// keep the whole body alive).
    @_alwaysEmitIntoClient
    public static func bodyPrefix(_ body: Data) -> Data {
        guard body.count > maximumBodyPrefix else { return body }
        return body.prefix(maximumBodyPrefix).withUnsafeBytes { Data($0) }
    }

    /// The kind of failure, without its payload (convenient in `switch`es,
    /// assertions and view states).
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// ``HTTPError/transport(_:)``.
        case transport
        /// ``HTTPError/notHTTPResponse(_:)``.
        case notHTTPResponse
        /// ``HTTPError/unacceptableStatusCode(_:headers:body:)``.
        case unacceptableStatusCode
        /// ``HTTPError/undecodableBody(_:body:)``.
        case undecodableBody
        /// ``HTTPError/invalidRequest(_:)``.
        case invalidRequest
        /// ``HTTPError/responseTooLarge(limit:)``.
        case responseTooLarge
        /// ``HTTPError/insecureRedirect(from:to:)``.
        case insecureRedirect
    }

    /// The kind of failure.
    public var kind: Kind {
        switch self {
        case .transport: return .transport
        case .notHTTPResponse: return .notHTTPResponse
        case .unacceptableStatusCode: return .unacceptableStatusCode
        case .undecodableBody: return .undecodableBody
        case .invalidRequest: return .invalidRequest
        case .responseTooLarge: return .responseTooLarge
        case .insecureRedirect: return .insecureRedirect
        }
    }

    /// The `URLError` of a transport failure.
    public var urlError: URLError? {
        if case .transport(let error) = self { return error }
        return nil
    }

    /// The status code of an unacceptable response.
    public var statusCode: Int? {
        if case .unacceptableStatusCode(let code, _, _) = self { return code }
        return nil
    }

    /// The header fields of an unacceptable response.
    public var headers: HTTPHeaders? {
        if case .unacceptableStatusCode(_, let headers, _) = self { return headers }
        return nil
    }

    /// The body of an unacceptable or undecodable response (at most its
    /// first ``maximumBodyPrefix`` bytes when Ripple built the error).
    public var body: Data? {
        switch self {
        case .unacceptableStatusCode(_, _, let body), .undecodableBody(_, let body): return body
        default: return nil
        }
    }

    /// The decoding error of an undecodable body.
    public var decodingError: Error? {
        if case .undecodableBody(let error, _) = self { return error }
        return nil
    }

    /// Converts a failure of the underlying transport: an `HTTPError` stays as
    /// it is, a `URLError` (or an `NSError` in `NSURLErrorDomain`, as
    /// FoundationNetworking reports them) becomes ``transport(_:)``, anything
    /// else becomes ``transport(_:)`` with `URLError(.unknown)` wrapping it.
    @_alwaysEmitIntoClient
    public static func transport(from error: Error) -> HTTPError {
        if let error = error as? HTTPError { return error }
        if let error = error as? URLError { return .transport(error) }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            #if canImport(FoundationNetworking)
            let code = URLError.Code(rawValue: nsError.code) ?? .unknown
            #else
            let code = URLError.Code(rawValue: nsError.code)
            #endif
            return .transport(URLError(code, userInfo: nsError.userInfo))
        }
        return .transport(URLError(.unknown, userInfo: [
            NSUnderlyingErrorKey: error,
            NSLocalizedDescriptionKey: "\(error)",
        ]))
    }

    /// A sentence saying what went wrong, with the details that matter.
    public var description: String {
        switch self {
        case .transport(let error):
            var text = "HTTP transport failure: \(HTTPError.describe(error.code)) (URLError \(error.code.rawValue))"
            if let url = error.failingURL {
                text += " for \(url.absoluteString)"
            }
            if let underlying = error.userInfo[NSUnderlyingErrorKey] {
                text += ": \(underlying)"
            }
            return text
        case .notHTTPResponse(let response):
            if let response {
                let url = response.url?.absoluteString ?? "an unknown URL"
                return "Not an HTTP response: \(type(of: response)) from \(url)"
            }
            return "Not an HTTP response: no response at all"
        case .unacceptableStatusCode(let code, let headers, let body):
            var text = "Unacceptable HTTP status \(code) \(HTTPError.reasonPhrase(code))"
            if let type = headers["Content-Type"] {
                text += " (\(type))"
            }
            if !body.isEmpty {
                text += ": \(HTTPError.preview(body))"
            }
            return text
        case .undecodableBody(let error, let body):
            return "Undecodable response body: \(HTTPError.describe(error)); body: \(body.isEmpty ? "(empty)" : HTTPError.preview(body))"
        case .invalidRequest(let reason):
            return "Invalid HTTP request: \(reason)"
        case .responseTooLarge(let limit):
            return "HTTP response body too large: more than \(limit) bytes"
        case .insecureRedirect(let from, let to):
            return "Refused an insecure redirect from \(from.absoluteString) to \(to.absoluteString) (https to http)"
        }
    }

    /// ``description``.
    public var errorDescription: String? { description }

    /// The standard reason phrase of a status code (RFC 9110 and friends), the
    /// same on every platform.
    static func reasonPhrase(_ code: Int) -> String {
        switch code {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 203: return "Non-Authoritative Information"
        case 204: return "No Content"
        case 205: return "Reset Content"
        case 206: return "Partial Content"
        case 300: return "Multiple Choices"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 402: return "Payment Required"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 407: return "Proxy Authentication Required"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 416: return "Range Not Satisfiable"
        case 417: return "Expectation Failed"
        case 418: return "I'm a teapot"
        case 421: return "Misdirected Request"
        case 422: return "Unprocessable Content"
        case 425: return "Too Early"
        case 426: return "Upgrade Required"
        case 428: return "Precondition Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 451: return "Unavailable For Legal Reasons"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        case 511: return "Network Authentication Required"
        case 100..<200: return "Informational"
        case 200..<300: return "Success"
        case 300..<400: return "Redirection"
        case 400..<500: return "Client Error"
        case 500..<600: return "Server Error"
        default: return "Unknown Status"
        }
    }

    /// At most `limit` characters of `data` as text.
    static func preview(_ data: Data, limit: Int = 200) -> String {
        let text = String(decoding: data.prefix(limit * 4), as: UTF8.self)
        if text.count > limit || data.count > limit * 4 {
            return String(text.prefix(limit)) + "… (\(data.count) bytes)"
        }
        return text
    }

    /// A decoding error in one line.
    static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
                .reduce("") { result, part in
                    part.hasPrefix("[") ? result + part : (result.isEmpty ? part : result + "." + part)
                }
            return path.isEmpty ? "the top level" : path
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "no value for key \"\(key.stringValue)\" at \(path(context)) (\(context.debugDescription))"
        case .valueNotFound(let type, let context):
            return "expected \(type) but found null at \(path(context))"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "invalid data at \(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// Words for the `URLError` codes a client meets (FoundationNetworking's
    /// messages are bare codes).
    static func describe(_ code: URLError.Code) -> String {
        switch code {
        case .timedOut: return "the request timed out"
        case .cancelled: return "the request was cancelled"
        case .networkConnectionLost: return "the network connection was lost"
        case .notConnectedToInternet: return "not connected to the internet"
        case .cannotConnectToHost: return "could not connect to the server"
        case .cannotFindHost: return "the server's host name could not be found"
        case .dnsLookupFailed: return "the DNS lookup failed"
        case .badURL: return "bad URL"
        case .unsupportedURL: return "unsupported URL"
        case .badServerResponse: return "bad server response"
        case .secureConnectionFailed: return "the secure connection failed"
        case .cannotParseResponse: return "the response could not be parsed"
        case .zeroByteResource: return "the resource is empty"
        case .resourceUnavailable: return "the resource is unavailable"
        case .cannotDecodeRawData, .cannotDecodeContentData: return "the content could not be decoded"
        case .dataLengthExceedsMaximum: return "the response is too large"
        case .httpTooManyRedirects: return "too many redirects"
        case .redirectToNonExistentLocation: return "redirect to a non-existent location"
        default: return "URL loading error"
        }
    }
}
