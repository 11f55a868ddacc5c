import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One piece of a streamed response (``HTTPClient/stream(_:whenStarted:)``):
/// the head once, then the body as it arrives.
///
/// ```
/// stream(request):   ---(head 200)--body--body-----body--|     the body ended
///                    ---(head 200)--body--#(transport)        the connection was lost
/// ```
public enum HTTPResponsePart: Sendable {
    /// The status line and header fields; always the first part, exactly once.
    case head(HTTPURLResponse)
    /// Bytes of the body, in order, as the transport received them (never
    /// empty). Where one chunk ends says nothing about the content.
    case body(Data)

    /// The head's response, or `nil` for a body part.
    public var head: HTTPURLResponse? {
        if case .head(let response) = self { return response }
        return nil
    }

    /// The bytes of a body part, or `nil` for the head.
    public var body: Data? {
        if case .body(let data) = self { return data }
        return nil
    }
}
