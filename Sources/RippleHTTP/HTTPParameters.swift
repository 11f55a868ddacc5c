import Foundation

/// A parameter value: what a query string, a form body or a JSON body can carry.
///
/// You rarely write the cases: ``HTTPParameters`` and ``HTTPBody/json(_:)``
/// take literals and any ``HTTPParameterConvertible`` value (strings, numbers,
/// booleans, arrays, string-keyed dictionaries, optionals, URLs, dates).
///
/// How each case is encoded:
///
/// | Value | query / form | JSON |
/// |---|---|---|
/// | `string`, `int`, `double`, `bool` | `key=text` | the JSON scalar |
/// | `null` (e.g. a `nil` optional) | left out | `null` |
/// | `array` | the key repeated: `tag=a&tag=b` | an array |
/// | `object` | bracketed keys: `user[name]=x` | an object |
///
/// A non-finite `double` (NaN, ±infinity) cannot be encoded: the request fails
/// with ``HTTPError/invalidRequest(_:)``.
public indirect enum HTTPParameterValue: Sendable, Equatable, HTTPParameterConvertible,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Text.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A boolean, encoded as `true` / `false`.
    case bool(Bool)
    /// No value: left out of query strings and forms, `null` in JSON.
    case null
    /// A list.
    case array([HTTPParameterValue])
    /// Named values, in order.
    case object(HTTPParameters)

    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `nil`.
    public init(nilLiteral: ()) { self = .null }
    /// An array literal of convertible values (`nil` elements become `null`).
    public init(arrayLiteral elements: (any HTTPParameterConvertible)?...) {
        self = .array(elements.map { $0?.httpParameterValue ?? .null })
    }
    /// A dictionary literal: an object whose keys keep the order written.
    public init(dictionaryLiteral elements: (String, (any HTTPParameterConvertible)?)...) {
        self = .object(HTTPParameters(elements))
    }

    /// `self`.
    public var httpParameterValue: HTTPParameterValue { self }
}

/// A value that can be sent as a request parameter.
///
/// Strings, integers, floating-point numbers, booleans, `Decimal`, `URL` (its
/// absolute string), `Date` (ISO-8601 with fractional seconds, UTC), arrays and
/// string-keyed dictionaries of convertible values, and optionals (`nil` is left
/// out of query strings) conform. Conform your own types (an enum's raw value,
/// an identifier) to pass them directly.
public protocol HTTPParameterConvertible {
    /// The value to encode.
    var httpParameterValue: HTTPParameterValue { get }
}

extension String: HTTPParameterConvertible {
    /// `.string(self)`.
    public var httpParameterValue: HTTPParameterValue { .string(self) }
}

extension Substring: HTTPParameterConvertible {
    /// `.string(String(self))`.
    public var httpParameterValue: HTTPParameterValue { .string(String(self)) }
}

extension Bool: HTTPParameterConvertible {
    /// `.bool(self)`.
    public var httpParameterValue: HTTPParameterValue { .bool(self) }
}

extension Double: HTTPParameterConvertible {
    /// `.double(self)`.
    public var httpParameterValue: HTTPParameterValue { .double(self) }
}

extension Float: HTTPParameterConvertible {
    /// `.double(Double(self))`.
    public var httpParameterValue: HTTPParameterValue { .double(Double(self)) }
}

extension Decimal: HTTPParameterConvertible {
    /// The decimal's exact text (`.string`), so that no digit is lost.
    public var httpParameterValue: HTTPParameterValue { .string("\(self)") }
}

extension URL: HTTPParameterConvertible {
    /// `.string(absoluteString)`.
    public var httpParameterValue: HTTPParameterValue { .string(absoluteString) }
}

extension Date: HTTPParameterConvertible {
    /// ISO-8601 with fractional seconds in UTC, e.g. `2024-05-01T12:00:00.000Z`.
    public var httpParameterValue: HTTPParameterValue {
        guard #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) else { return .string(ISO8601BeforeFormatStyle.format(self)) }
        return .string(formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
}

extension HTTPParameterConvertible where Self: BinaryInteger {
    /// `.int` when the value fits in `Int`, else its decimal text.
    public var httpParameterValue: HTTPParameterValue {
        if let value = Int(exactly: self) { return .int(value) }
        return .string(String(self))
    }
}

extension Int: HTTPParameterConvertible {}
extension Int8: HTTPParameterConvertible {}
extension Int16: HTTPParameterConvertible {}
extension Int32: HTTPParameterConvertible {}
extension Int64: HTTPParameterConvertible {}
extension UInt: HTTPParameterConvertible {}
extension UInt8: HTTPParameterConvertible {}
extension UInt16: HTTPParameterConvertible {}
extension UInt32: HTTPParameterConvertible {}
extension UInt64: HTTPParameterConvertible {}

extension Optional: HTTPParameterConvertible where Wrapped: HTTPParameterConvertible {
    /// The wrapped value's, or `.null` (left out of query strings and forms).
    public var httpParameterValue: HTTPParameterValue { self?.httpParameterValue ?? .null }
}

extension Array: HTTPParameterConvertible where Element: HTTPParameterConvertible {
    /// `.array` of the elements' values.
    public var httpParameterValue: HTTPParameterValue { .array(map(\.httpParameterValue)) }
}

extension Dictionary: HTTPParameterConvertible where Key == String, Value: HTTPParameterConvertible {
    /// `.object`, keys sorted (a dictionary has no order).
    public var httpParameterValue: HTTPParameterValue {
        .object(HTTPParameters(sorted(byKey: \.key).map { ($0.key, $0.value.httpParameterValue) }))
    }
}

/// Named request parameters, in order: the query of a `GET`, or a form or JSON
/// body.
///
/// Write them as a dictionary literal of strings, numbers, booleans, arrays,
/// optionals (a `nil` value is left out of the query) or any
/// ``HTTPParameterConvertible``; the order written is the order sent.
///
/// ```swift
/// let parameters: HTTPParameters = ["q": "swift rx", "page": 2, "sort": sortKey /* String? */]
/// // ?q=swift%20rx&page=2          (sort was nil)
/// ```
public struct HTTPParameters: Sendable, Equatable, ExpressibleByDictionaryLiteral, HTTPParameterConvertible {
    /// The parameters, in order.
    public private(set) var entries: [(name: String, value: HTTPParameterValue)]

    /// No parameters.
    public init() {
        entries = []
    }

    /// Parameters from name/value pairs, in order; a later pair replaces an
    /// earlier one with the same name.
    public init(_ pairs: [(String, (any HTTPParameterConvertible)?)]) {
        self.init()
        for (name, value) in pairs {
            self[name] = value?.httpParameterValue ?? .null
        }
    }

    /// Parameters from a dictionary, sorted by name (a dictionary has no order).
    public init(_ dictionary: [String: any HTTPParameterConvertible]) {
        self.init(dictionary.sorted(byKey: \.key).map { ($0.key, $0.value) })
    }

    /// Parameters from a dictionary literal, in the order written.
    public init(dictionaryLiteral elements: (String, (any HTTPParameterConvertible)?)...) {
        self.init(elements)
    }

    /// The value named `name`, or `nil`; assigning replaces it in place (or
    /// appends it), assigning `nil` removes it.
    public subscript(name: String) -> HTTPParameterValue? {
        get { entries.first { $0.name == name }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.name == name }) {
                if let newValue {
                    entries[index].value = newValue
                } else {
                    entries.remove(at: index)
                }
            } else if let newValue {
                entries.append((name, newValue))
            }
        }
    }

    /// `true` when there are no parameters.
    public var isEmpty: Bool { entries.isEmpty }

    /// `.object(self)`.
    public var httpParameterValue: HTTPParameterValue { .object(self) }

    /// Equal when both hold the same names and values in the same order.
    @_alwaysEmitIntoClient
    public static func == (lhs: HTTPParameters, rhs: HTTPParameters) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    // MARK: Encoding

    /// The parameters as a percent-encoded query string (without `?`):
    /// `q=swift%20rx&page=2`.
    ///
    /// Only RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`) are left as
    /// they are; everything else, including `&`, `=`, `+`, `/`, `?`, spaces and
    /// non-ASCII characters (as UTF-8), is percent-encoded. See
    /// ``HTTPParameterValue`` for arrays, objects and `nil`.
    ///
    /// - Throws: ``HTTPError/invalidRequest(_:)`` for an empty name or a
    ///   non-finite number.
    public func percentEncodedQuery() throws -> String {
        var pairs: [(String, String)] = []
        for entry in entries {
            guard !entry.name.isEmpty else {
                throw HTTPError.invalidRequest("a parameter has an empty name")
            }
            try HTTPParameters.flatten(entry.value, name: entry.name, into: &pairs)
        }
        return pairs.map { "\(HTTPParameters.percentEncode($0.0))=\(HTTPParameters.percentEncode($0.1))" }
            .joined(separator: "&")
    }

    /// The parameters as an `application/x-www-form-urlencoded` body: the same
    /// text as ``percentEncodedQuery()``, in UTF-8.
    ///
    /// - Throws: ``HTTPError/invalidRequest(_:)`` as ``percentEncodedQuery()``.
    @_alwaysEmitIntoClient
    public func formEncodedData() throws -> Data {
        Data(try percentEncodedQuery().utf8)
    }

    private static func flatten(_ value: HTTPParameterValue, name: String, into pairs: inout [(String, String)]) throws {
        switch value {
        case .string(let text):
            pairs.append((name, text))
        case .int(let number):
            pairs.append((name, String(number)))
        case .double(let number):
            guard number.isFinite else {
                throw HTTPError.invalidRequest("parameter \(name) is not a finite number (\(number))")
            }
            pairs.append((name, HTTPParameters.format(number)))
        case .bool(let flag):
            pairs.append((name, flag ? "true" : "false"))
        case .null:
            break
        case .array(let elements):
            for element in elements {
                try flatten(element, name: name, into: &pairs)
            }
        case .object(let parameters):
            for entry in parameters.entries {
                guard !entry.name.isEmpty else {
                    throw HTTPError.invalidRequest("parameter \(name) has a member with an empty name")
                }
                try flatten(entry.value, name: "\(name)[\(entry.name)]", into: &pairs)
            }
        }
    }

    /// A double as text: integral values without a fraction (`2`, not `2.0`).
    static func format(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 {
            return String(Int64(number))
        }
        return "\(number)"
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    @_alwaysEmitIntoClient
    public static func percentEncode(_ text: String) -> String {
        percentEncode(text, keeping: isUnreserved)
    }

    /// RFC 3986's unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    @usableFromInline
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Percent-encodes (uppercase hex) every UTF-8 byte of `text` for which
    /// `isKept` is false.
    @usableFromInline
    static func percentEncode(_ text: String, keeping isKept: (UInt8) -> Bool) -> String {
        // Bytes into one buffer, one String at the end: building the String
        // piece by piece (two small Strings per escaped byte) cost a quarter
        // of the fuzz test's CPU time (debug build: 9.9 s → 7.2 s).
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isKept(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension HTTPParameterValue {
    /// The value as JSON text (objects keep their order).
    ///
    /// - Throws: ``HTTPError/invalidRequest(_:)`` for a non-finite number.
    public func jsonData() throws -> Data {
        var text = ""
        try write(into: &text, path: "body")
        return Data(text.utf8)
    }

    private func write(into text: inout String, path: String) throws {
        switch self {
        case .string(let string):
            HTTPParameterValue.writeJSONString(string, into: &text)
        case .int(let number):
            text += String(number)
        case .double(let number):
            guard number.isFinite else {
                throw HTTPError.invalidRequest("\(path) is not a finite number (\(number)); JSON cannot carry it")
            }
            text += HTTPParameters.format(number)
        case .bool(let flag):
            text += flag ? "true" : "false"
        case .null:
            text += "null"
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                try element.write(into: &text, path: "\(path)[\(index)]")
            }
            text += "]"
        case .object(let parameters):
            text += "{"
            for (index, entry) in parameters.entries.enumerated() {
                if index > 0 { text += "," }
                HTTPParameterValue.writeJSONString(entry.name, into: &text)
                text += ":"
                try entry.value.write(into: &text, path: "\(path).\(entry.name)")
            }
            text += "}"
        }
    }

    private static func writeJSONString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case "\u{00}"..."\u{1F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16, uppercase: false)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
