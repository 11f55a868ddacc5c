import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What went wrong below HTTP, whatever the transport: each transport sorts
/// its own failures (libcurl's messages under FoundationNetworking,
/// AsyncHTTPClient's and SwiftNIO's error types) into one of these, and
/// ``code`` is the one table that turns a fault into the `URLError` code
/// delivered in ``HTTPError/transport(_:)``. docs/Networking.md shows the
/// table; `TransportConformanceTests` checks it on every transport against
/// a loopback server that commits each fault.
enum TransportFault: Equatable, CaseIterable, Sendable {
    /// Nobody accepted the connection (refused, unreachable).
    case cannotConnect
    /// The host name did not resolve.
    case cannotFindHost
    /// The connection, or an answer, took longer than allowed.
    case timedOut
    /// The connection closed or was reset before the response ended: before
    /// any byte of it, in the head, in the body, in a chunk.
    case connectionLost
    /// The server answered something that is not an HTTP/1.x response: no or
    /// a malformed status line, a malformed header line, a header block over
    /// the transport's limit (libcurl: 300 KiB or 100 KiB in one field;
    /// SwiftNIO: 80 KiB), an invalid `Content-Length`, a chunk size that is
    /// not hexadecimal or too large.
    case malformedResponse
    /// TLS could not be set up (handshake, certificate).
    case secureConnectionFailed
    /// The URL cannot be sent (no host, no scheme).
    case badURL
    /// A scheme the transport does not speak.
    case unsupportedURL
    /// More redirects than allowed, or a redirect loop.
    case tooManyRedirects
    /// The request was cancelled.
    case cancelled

    /// The `URLError` code of the fault, the same on every transport.
    var code: URLError.Code {
        switch self {
        case .cannotConnect: return .cannotConnectToHost
        case .cannotFindHost: return .cannotFindHost
        case .timedOut: return .timedOut
        case .connectionLost: return .networkConnectionLost
        case .malformedResponse: return .badServerResponse
        case .secureConnectionFailed: return .secureConnectionFailed
        case .badURL: return .badURL
        case .unsupportedURL: return .unsupportedURL
        case .tooManyRedirects: return .httpTooManyRedirects
        case .cancelled: return .cancelled
        }
    }

    /// The fault FoundationNetworking (libcurl) reports with `code` (an
    /// `NSURLErrorDomain` code) and `message` (libcurl's error text), or
    /// `nil` when the code already says it (the error is kept as it is).
    ///
    /// FoundationNetworking maps a handful of libcurl's results to codes and
    /// everything else to `-1` (`.unknown`), keeping only libcurl's message:
    /// the message is all there is to tell a body cut short ("transfer
    /// closed with 993 bytes remaining to read") from a bad chunk size
    /// ("Illegal or missing hexadecimal sequence in chunked-encoding").
    /// Messages of libcurl 7.88 (Debian 12, the toolchain images); a message
    /// not recognised stays a lost connection, as before this table existed.
    static func foundationNetworking(code: Int, message: String) -> TransportFault? {
        switch code {
        case NSURLErrorUnsupportedURL:
            // libcurl's CURLE_UNSUPPORTED_PROTOCOL is also what it answers to a
            // response it cannot read as HTTP: "Received HTTP/0.9 when not
            // allowed", "Unsupported HTTP version in response", "Unsupported
            // response code in HTTP response". (A scheme it does not speak is
            // "Protocol "gopher" not supported or disabled in libcurl".)
            let lowered = message.lowercased()
            return lowered.contains("http/0.9") || lowered.contains("response") ? .malformedResponse : nil
        case NSURLErrorBadServerResponse:
            // CURLE_GOT_NOTHING, "Empty reply from server": closed before any byte.
            return .connectionLost
        case NSURLErrorUnknown:
            return libcurlMessages.first { message.range(of: $0.text, options: .caseInsensitive) != nil }?.fault ?? .connectionLost
        default:
            return nil
        }
    }

    /// libcurl's messages behind FoundationNetworking's `-1`, first match wins.
    private static let libcurlMessages: [(text: String, fault: TransportFault)] = [
        ("transfer closed", .connectionLost),                  // a body or a chunk cut short
        ("connection reset", .connectionLost),
        ("recv failure", .connectionLost),
        ("send failure", .connectionLost),
        ("chunked-encoding", .malformedResponse),              // "Illegal or missing hexadecimal sequence in ...", "Too long hexadecimal number in ..."
        ("response headers", .malformedResponse),              // "Too large response headers: 307212 > 307200"
        ("header without colon", .malformedResponse),
        ("nul byte in header", .malformedResponse),            // a NUL in a header line
        ("invalid content-length", .malformedResponse),
        ("weird server reply", .malformedResponse),
        ("unsupported http version", .malformedResponse),
        // One header field over libcurl's 100 KiB: its result is CURLE_OUT_OF_MEMORY.
        ("out of memory", .malformedResponse),
    ]
}
