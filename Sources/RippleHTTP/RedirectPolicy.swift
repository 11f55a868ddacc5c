import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a client follows redirects, the same on every transport
/// (``URLSessionHTTPClient``, `AsyncHTTPClientTransport`).
///
/// - **Credentials never follow a redirect to another origin.** When a
///   redirect changes the scheme, the host or the port, `Authorization`,
///   `Proxy-Authorization` and `Cookie` are removed from the request, with
///   every header in ``sensitiveHeaders``; they stay removed for the rest of
///   the chain. (The Fetch standard and curl since CVE-2018-1000007 do the
///   same; FoundationNetworking on its own forwards them all.)
/// - **No downgrade.** A redirect from `https` to `http` fails with
///   ``HTTPError/insecureRedirect(from:to:)`` unless
///   ``allowsInsecureRedirects`` is set.
/// - **A limit.** More than ``maximumRedirects`` redirects fail with
///   ``HTTPError/transport(_:)`` (`URLError(.httpTooManyRedirects)`); a loop
///   ends there. With a maximum of `0` redirects are not followed: the `3xx`
///   response is delivered as it is.
/// - `301`, `302`, `303`, `307` and `308` with a `Location` are followed
///   (relative locations resolved against the response's URL); `303` turns
///   the request into a `GET` (except `HEAD`), and so do `301` and `302` for a
///   `POST`, without body; `307` and `308` keep the method and the body. A
///   `Location` that is not an `http(s)` URL is not followed (the `3xx` is
///   delivered).
///
/// ```swift
/// var policy = RedirectPolicy.default           // 10 redirects, no downgrade
/// policy.sensitiveHeaders = ["X-Api-Key"]        // also dropped across origins
/// let client = URLSessionHTTPClient(configuration: .default, redirectPolicy: policy)
/// ```
///
/// ```
/// GET https://api.example/a  (Authorization, X-Api-Key)
///   → 302 Location: https://cdn.example/b    GET https://cdn.example/b  (neither header)
///   → 302 Location: http://cdn.example/c     #(HTTPError.insecureRedirect)
/// ```
public struct RedirectPolicy: Sendable, Equatable {
    /// The most redirects followed for one request; one more fails the
    /// request. `0`: redirects are delivered, not followed.
    public var maximumRedirects: Int
    /// Whether a redirect from `https` to `http` is followed (default
    /// `false`: it fails with ``HTTPError/insecureRedirect(from:to:)``).
    public var allowsInsecureRedirects: Bool
    /// Header fields removed, with ``credentialHeaders``, when a redirect
    /// leads to another origin (names compared case-insensitively).
    public var sensitiveHeaders: Set<String>

    /// `Authorization`, `Proxy-Authorization` and `Cookie`: always removed
    /// when a redirect leads to another origin.
    public static let credentialHeaders: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// A policy; see the properties.
    public init(maximumRedirects: Int = 10, allowsInsecureRedirects: Bool = false, sensitiveHeaders: Set<String> = []) {
        self.maximumRedirects = maximumRedirects
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.sensitiveHeaders = sensitiveHeaders
    }

    /// Up to 10 redirects, no downgrade to `http`, credentials dropped across
    /// origins.
    public static let `default` = RedirectPolicy()

    /// Redirects are not followed: the `3xx` response is the response.
    public static let never = RedirectPolicy(maximumRedirects: 0)

    /// What to do with one response.
    enum Decision: Sendable {
        /// Send this request next.
        case follow(URLRequest)
        /// The response is the final one.
        case deliver
        /// Fail the request.
        case fail(HTTPError)
    }

    /// Decides what follows `response` (to `request`, after `redirects`
    /// redirects already followed). A pure function: both transports call it.
    func decide(after request: URLRequest, status: Int, location: String?, responseURL: URL?, redirects: Int) -> Decision {
        guard [301, 302, 303, 307, 308].contains(status), let location, maximumRedirects > 0 else { return .deliver }
        let base = responseURL ?? request.url
        guard let target = URL(string: location, relativeTo: base)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
              target.host?.isEmpty == false
        else { return .deliver }
        if redirects >= maximumRedirects {
            return .fail(.transport(URLError(.httpTooManyRedirects, userInfo: [
                NSURLErrorFailingURLErrorKey: target,
                NSLocalizedDescriptionKey: "more than \(maximumRedirects) redirects",
            ])))
        }
        let from = base ?? target
        if from.scheme?.lowercased() == "https", scheme == "http", !allowsInsecureRedirects {
            return .fail(.insecureRedirect(from: from, to: target))
        }
        var next = request
        next.url = target
        let method = (request.httpMethod ?? "GET").uppercased()
        if (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST") {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        if !RedirectPolicy.sameOrigin(from, target) {
            let removed = Set(RedirectPolicy.credentialHeaders.union(sensitiveHeaders).map { $0.lowercased() })
            for name in (next.allHTTPHeaderFields ?? [:]).keys where removed.contains(name.lowercased()) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return .follow(next)
    }

    /// Same scheme, host (case-insensitively) and port (the scheme's default
    /// port when none is written).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int?) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(a) == origin(b)
    }
}
