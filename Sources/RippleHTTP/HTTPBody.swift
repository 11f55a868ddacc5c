import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body of a request, and how it is encoded.
///
/// ```swift
/// .form(["name": "Ripple", "stars": 5])           // name=Ripple&stars=5
/// .json(["name": "Ripple", "tags": ["rx", "swift"]]) // {"name":"Ripple","tags":["rx","swift"]}
/// .encodable(NewIssue(title: "Bug"))               // JSONEncoder
/// .data(png, contentType: "image/png")
/// ```
///
/// The `Content-Type` header is set from the body unless the request sets it.
public enum HTTPBody: Sendable {
    /// No body.
    case none
    /// An `application/x-www-form-urlencoded` body (see
    /// ``HTTPParameters/formEncodedData()``).
    case form(HTTPParameters)
    /// An `application/json` body: the value as JSON text, objects in the order
    /// written.
    case json(HTTPParameterValue)
    /// An `application/json` body produced by `encoder`.
    case encodable(any Encodable & Sendable, encoder: JSONEncoder = JSONEncoder())
    /// Raw bytes with their content type.
    case data(Data, contentType: String)

    /// The bytes and content type to send, or `nil` for ``none``.
    ///
    /// - Throws: ``HTTPError/invalidRequest(_:)`` when the parameters or the
    ///   value cannot be encoded (non-finite numbers, an encoder error).
    @_alwaysEmitIntoClient
    public func encoded() throws -> (data: Data, contentType: String)? {
        switch self {
        case .none:
            return nil
        case .form(let parameters):
            return (try parameters.formEncodedData(), "application/x-www-form-urlencoded; charset=utf-8")
        case .json(let value):
            return (try value.jsonData(), "application/json")
        case .encodable(let value, let encoder):
            do {
                return (try encoder.encode(value), "application/json")
            } catch {
                throw HTTPError.invalidRequest("the body could not be encoded as JSON: \(error)")
            }
        case .data(let data, let contentType):
            return (data, contentType)
        }
    }
}

/// How the `post` / `put` conveniences of ``HTTPClient`` encode their parameters.
public enum HTTPBodyEncoding: Sendable {
    /// `application/x-www-form-urlencoded`.
    case form
    /// `application/json`.
    case json
}

extension URLRequest {
    /// Builds a request: `parameters` go into the query string (after any query
    /// `url` already has), `body` is encoded with its content type (unless
    /// `headers` sets `Content-Type`), `headers` are validated.
    ///
    /// ```swift
    /// let request = try URLRequest(method: .get, url: searchURL, parameters: ["q": "ripple"])
    /// ```
    ///
    /// - Throws: ``HTTPError/invalidRequest(_:)`` for a URL without a scheme, an
    ///   empty parameter name, a non-finite number, an unencodable body, or a
    ///   header name or value that is not allowed.
    public init(
        method: HTTPMethod,
        url: URL,
        parameters: HTTPParameters = [:],
        body: HTTPBody = .none,
        headers: HTTPHeaders = [:],
        timeoutInterval: TimeInterval? = nil
    ) throws {
        guard let scheme = url.scheme, !scheme.isEmpty else {
            throw HTTPError.invalidRequest("the URL \(String(reflecting: url.absoluteString)) has no scheme")
        }
        var finalURL = url
        if !parameters.isEmpty {
            let query = try parameters.percentEncodedQuery()
            if !query.isEmpty {
                guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
                    throw HTTPError.invalidRequest("the URL \(String(reflecting: url.absoluteString)) cannot take a query")
                }
                if let existing = components.percentEncodedQuery, !existing.isEmpty {
                    components.percentEncodedQuery = existing + "&" + query
                } else {
                    components.percentEncodedQuery = query
                }
                guard let withQuery = components.url else {
                    throw HTTPError.invalidRequest("the URL \(String(reflecting: url.absoluteString)) cannot take a query")
                }
                finalURL = withQuery
            }
        }
        try headers.validate()
        guard !method.rawValue.isEmpty,
              method.rawValue.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic || $0 == "-" || $0 == "_" })
        else {
            throw HTTPError.invalidRequest("invalid HTTP method \(String(reflecting: method.rawValue))")
        }
        self.init(url: finalURL)
        httpMethod = method.rawValue
        if let timeoutInterval {
            guard timeoutInterval > 0, timeoutInterval.isFinite else {
                throw HTTPError.invalidRequest("the timeout must be positive (got \(timeoutInterval))")
            }
            self.timeoutInterval = timeoutInterval
        }
        for field in headers {
            setValue(field.value, forHTTPHeaderField: field.name)
        }
        if let (data, contentType) = try body.encoded() {
            httpBody = data
            if headers["Content-Type"] == nil {
                setValue(contentType, forHTTPHeaderField: "Content-Type")
            }
        }
    }
}
