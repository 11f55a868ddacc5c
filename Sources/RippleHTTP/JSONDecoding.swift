import Foundation

extension JSONDecoder {
    /// A new decoder for typical REST APIs: `snake_case` keys become
    /// `camelCase` properties (`avatar_url` → `avatarUrl`), dates are ISO-8601
    /// strings with or without fractional seconds (`2024-05-01T12:00:00Z`,
    /// `2024-05-01T12:00:00.250+02:00`).
    ///
    /// It is the default ``Request/decoder`` of every ``Request``. Each access
    /// returns a new instance, so changing one never affects other requests.
    public static var snakeCaseISO8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = JSONDecoder.parseISO8601(text) {
                return date
            }
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "expected an ISO-8601 date, found \(String(reflecting: text))"
            ))
        }
        return decoder
    }

    static func parseISO8601(_ text: String) -> Date? {
        guard #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) else { return ISO8601BeforeFormatStyle.parse(text) }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
            return date
        }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// Decodes the value found at `keyPath` in the JSON `data`.
    ///
    /// `keyPath` is a dot-separated list of the JSON's own keys (as they appear
    /// in the JSON, before any key-decoding strategy). An array on the way is
    /// either indexed by a numeric component (`"items.0.name"`) or, otherwise,
    /// the rest of the path is applied to each of its elements, giving an array
    /// (`"items.owner.login"` on `{"items":[{"owner":{"login":"a"}},...]}` is
    /// `["a", ...]`). An empty key path means the whole document.
    ///
    /// ```swift
    /// let avatar = try JSONDecoder().decode(URL.self, from: data, keyPath: "owner.avatar_url")
    /// let logins = try JSONDecoder().decode([String].self, from: data, keyPath: "items.owner.login")
    /// ```
    ///
    /// - Throws: `DecodingError.keyNotFound` / `.valueNotFound` naming the
    ///   missing component, `.dataCorrupted` for invalid JSON, or the decoder's
    ///   error for the value found, its coding path starting with the key path
    ///   (`items.owner.login[1]`: the second of the values the path spread
    ///   over).
    @_alwaysEmitIntoClient
    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data, keyPath: String) throws -> Value {
        guard !keyPath.isEmpty else {
            return try decode(type, from: data)
        }
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [], debugDescription: "the body is not valid JSON", underlyingError: error
            ))
        }
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let value = try JSONKeyPath.extract(components[...], from: document, path: [])
        let fragment = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
        do {
            return try decode(type, from: fragment)
        } catch let error as DecodingError {
            // Where in the body: the key path, then where in the value found
            // there (after a key that spread over an array, `[i]` is the
            // element's index in the spread values).
            throw error.prefixingKeyPath(components)
        }
    }
}

extension DecodingError {
    /// The same error, with the key path's `components` before its context's
    /// coding path (a number as an index).
    @usableFromInline
    func prefixingKeyPath(_ components: [String]) -> DecodingError {
        let prefix: [CodingKey] = components.map { Int($0).map(JSONKeyPath.Key.init(intValue:)) ?? JSONKeyPath.Key(stringValue: $0) }
        func moved(_ context: Context) -> Context {
            Context(codingPath: prefix + context.codingPath, debugDescription: context.debugDescription, underlyingError: context.underlyingError)
        }
        switch self {
        case .typeMismatch(let type, let context): return .typeMismatch(type, moved(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, moved(context))
        case .keyNotFound(let key, let context): return .keyNotFound(key, moved(context))
        case .dataCorrupted(let context): return .dataCorrupted(moved(context))
        @unknown default: return self
        }
    }
}

/// Walks a parsed JSON document along a key path.
@usableFromInline
enum JSONKeyPath {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            self.stringValue = String(intValue)
            self.intValue = intValue
        }
    }

    @usableFromInline
    static func extract(_ components: ArraySlice<String>, from value: Any, path: [CodingKey]) throws -> Any {
        guard let component = components.first else { return value }
        let rest = components.dropFirst()
        if let object = value as? [String: Any] {
            guard let child = object[component] else {
                throw DecodingError.keyNotFound(Key(stringValue: component), .init(
                    codingPath: path,
                    debugDescription: "the JSON has no key \(String(reflecting: component)) here"
                ))
            }
            if child is NSNull, !rest.isEmpty {
                throw DecodingError.valueNotFound(Any.self, .init(
                    codingPath: path + [Key(stringValue: component)],
                    debugDescription: "null where the key path continues with \(String(reflecting: rest.joined(separator: ".")))"
                ))
            }
            return try extract(rest, from: child, path: path + [Key(stringValue: component)])
        }
        if let array = value as? [Any] {
            if let index = Int(component), component.allSatisfy(\.isASCII) {
                guard array.indices.contains(index) else {
                    throw DecodingError.valueNotFound(Any.self, .init(
                        codingPath: path + [Key(intValue: index)],
                        debugDescription: "index \(index) is out of range (the array has \(array.count) elements)"
                    ))
                }
                return try extract(rest, from: array[index], path: path + [Key(intValue: index)])
            }
            return try array.enumerated().map { index, element in
                try extract(components, from: element, path: path + [Key(intValue: index)])
            }
        }
        throw DecodingError.typeMismatch([String: Any].self, .init(
            codingPath: path,
            debugDescription: "expected an object or an array to look up \(String(reflecting: component)), found \(describe(value))"
        ))
    }

    private static func describe(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if value is String { return "a string" }
        return "a scalar"
    }
}

/// ISO-8601 dates where `Date.ISO8601FormatStyle` does not exist (it needs
/// macOS 12 / iOS 15 / tvOS 15 / watchOS 8; RippleHTTP supports macOS 10.15 /
/// iOS 13): `ISO8601DateFormatter`, which reads and writes the same text but keeps
/// milliseconds only (`.123456` is read as `.123`). A new formatter per call,
/// because a formatter shared between threads would need a lock; only those
/// older systems pay for it. `ISO8601BeforeFormatStyleTests` runs it on Linux.
enum ISO8601BeforeFormatStyle {
    static func parse(_ text: String) -> Date? {
        formatter(fractionalSeconds: true).date(from: text) ?? formatter(fractionalSeconds: false).date(from: text)
    }

    /// With fractional seconds, in UTC: `2024-05-01T12:00:00.000Z`.
    static func format(_ date: Date) -> String {
        formatter(fractionalSeconds: true).string(from: date)
    }

    private static func formatter(fractionalSeconds: Bool) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = fractionalSeconds ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter
    }
}
