import Foundation

/// The decoded query string of a request, in order, with form decoding (`+` is a
/// space, `%XX` escapes), as GitHub reads it.
public struct QueryParameters: Sendable, Equatable {
    public private(set) var items: [(name: String, value: String)]

    public init(_ items: [(name: String, value: String)] = []) {
        self.items = items
    }

    /// Parses a raw query string such as `q=ripple+language%3Aswift&page=2`.
    public init(rawQuery: String?) {
        guard let rawQuery, !rawQuery.isEmpty else {
            self.items = []
            return
        }
        items = rawQuery.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.formDecode(parts[0]), parts.count > 1 ? Self.formDecode(parts[1]) : "")
        }
    }

    /// The first value for `name`, if any.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// The first value for `name` as an integer, if it is one.
    public func integer(_ name: String) -> Int? {
        self[name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// A copy with `name` set to `value` (replacing the first occurrence, or appended).
    public func setting(_ name: String, to value: String) -> QueryParameters {
        var copy = self
        if let index = copy.items.firstIndex(where: { $0.name == name }) {
            copy.items[index].value = value
        } else {
            copy.items.append((name, value))
        }
        return copy
    }

    /// The query string, form-encoded (spaces as `+`), without the leading `?`.
    public var encoded: String {
        items.map { "\(Self.formEncode($0.name))=\(Self.formEncode($0.value))" }.joined(separator: "&")
    }

    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.items.map(\.name) == rhs.items.map(\.name) && lhs.items.map(\.value) == rhs.items.map(\.value)
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func formEncode(_ string: String) -> String {
        string.split(separator: " ", omittingEmptySubsequences: false)
            .map { String($0).addingPercentEncoding(withAllowedCharacters: unreserved) ?? String($0) }
            .joined(separator: "+")
    }

    static func formDecode(_ string: Substring) -> String {
        let spaced = string.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
