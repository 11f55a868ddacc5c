/// An HTTP request method (`GET`, `POST`, ...).
///
/// The common methods are static members; any other token can be written as a
/// string literal (`"PROPFIND"`). Methods are compared case-sensitively, as
/// HTTP does.
///
/// ```swift
/// struct DeleteItem: Request {
///     var method: HTTPMethod { .delete }
///     ...
/// }
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the wire, e.g. `"GET"`.
    public let rawValue: String

    /// A method with the given token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A method written as a string literal.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The token.
    public var description: String { rawValue }

    /// `GET`: parameters go into the query string.
    public static let get: HTTPMethod = "GET"
    /// `POST`: parameters go into the body.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: parameters go into the body.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: parameters go into the body.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: parameters go into the query string.
    public static let delete: HTTPMethod = "DELETE"
    /// `HEAD`: parameters go into the query string.
    public static let head: HTTPMethod = "HEAD"
    /// `OPTIONS`: parameters go into the query string.
    public static let options: HTTPMethod = "OPTIONS"

    /// `true` for methods that a client may safely repeat (RFC 9110 §9.2.2:
    /// `GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE`, `TRACE`). ``Session`` only
    /// retries these unless a ``RetryPolicy`` says otherwise.
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE": return true
        default: return false
        }
    }
}
