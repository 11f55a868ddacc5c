import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an ``HTTPClient`` receives: the body and the `HTTPURLResponse`.
///
/// ```swift
/// client.get(url).subscribe(onSuccess: { response in
///     print(response.statusCode, response.headers["Content-Type"] ?? "", response.data.count)
/// })
/// ```
public struct HTTPResponse: Sendable {
    /// The body (empty when there is none).
    public let data: Data
    /// The response's status line and header fields.
    public let response: HTTPURLResponse

    /// A response.
    public init(data: Data, response: HTTPURLResponse) {
        self.data = data
        self.response = response
    }

    /// A response built from its parts (for stubs and tests). Returns `nil` only
    /// if Foundation refuses the URL or the status code.
    public init?(url: URL, statusCode: Int, headers: HTTPHeaders = [:], data: Data = Data()) {
        guard let response = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers.dictionary) else {
            return nil
        }
        self.init(data: data, response: response)
    }

    /// The status code.
    public var statusCode: Int { response.statusCode }

    /// The header fields (names compared case-insensitively).
    public var headers: HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in response.allHeaderFields {
            if let name = name as? String {
                headers[name] = "\(value)"
            }
        }
        return HTTPHeaders(headers.fields.sorted(byKey: { $0.name.lowercased() }).map { ($0.name, $0.value) })
    }

    /// The URL the response came from.
    public var url: URL? { response.url }

    /// The body as UTF-8 text (invalid sequences repaired), for messages and logs.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// The `(Data, HTTPURLResponse)` pair, the shape RxCocoa's
    /// `URLSession.rx.response` returns.
    public var tuple: (Data, HTTPURLResponse) { (data, response) }
}
