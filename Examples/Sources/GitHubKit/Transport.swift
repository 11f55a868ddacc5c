import Foundation
import RippleHTTP
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP transport the demos and the integration tests use: on Linux
/// `AsyncHTTPClientTransport` (SwiftNIO), which no server can crash (a
/// connection cut in the middle of a response's header block kills a process
/// that uses FoundationNetworking); elsewhere `URLSessionHTTPClient` on an
/// ephemeral session without cache.
///
/// ```swift
/// let session = Session(client: makeHTTPClient(), timeout: .seconds(10))
/// ```
public func makeHTTPClient() -> any HTTPClient {
    #if os(Linux)
    return AsyncHTTPClientTransport()
    #else
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return URLSessionHTTPClient(configuration: configuration)
    #endif
}
