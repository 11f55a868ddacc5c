/// HTTP header fields: an ordered list of name/value pairs whose names are
/// compared case-insensitively, as HTTP requires.
///
/// Write them as a dictionary literal; setting a field replaces any field of the
/// same name, whatever its case.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["authorization"] = "Bearer 42"
/// headers["ACCEPT"]            // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Equatable {
        /// The field name, as written.
        public var name: String
        /// The field value.
        public var value: String

        /// A field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// No fields.
    public init() {
        fields = []
    }

    /// Fields from a dictionary, sorted by name (dictionaries have no order).
    public init(_ dictionary: [String: String]) {
        self.init()
        for (name, value) in dictionary.sorted(byKey: \.key) {
            self[name] = value
        }
    }

    /// Fields from a list of pairs, in order; a later pair replaces an earlier
    /// one of the same name.
    public init(_ pairs: [(String, String)]) {
        self.init()
        for (name, value) in pairs {
            self[name] = value
        }
    }

    /// Fields from a dictionary literal, in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The value of the field `name` (any case), or `nil`; assigning `nil`
    /// removes the field, assigning a value replaces it (keeping its position).
    public subscript(name: String) -> String? {
        get {
            let key = name.lowercased()
            return fields.first { $0.name.lowercased() == key }?.value
        }
        set {
            let key = name.lowercased()
            if let newValue {
                if let index = fields.firstIndex(where: { $0.name.lowercased() == key }) {
                    fields[index] = Field(name: name, value: newValue)
                    var later = index + 1
                    while later < fields.count {
                        if fields[later].name.lowercased() == key {
                            fields.remove(at: later)
                        } else {
                            later += 1
                        }
                    }
                } else {
                    fields.append(Field(name: name, value: newValue))
                }
            } else {
                fields.removeAll { $0.name.lowercased() == key }
            }
        }
    }

    /// `true` when there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The number of fields.
    public var count: Int { fields.count }

    /// The fields as a dictionary (names as written).
    public var dictionary: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// These fields, then `other`'s, which replace fields of the same name.
    @_alwaysEmitIntoClient
    public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var result = self
        for field in other.fields {
            result[field.name] = field.value
        }
        return result
    }

    /// Iterates over the fields in order.
    @_alwaysEmitIntoClient
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// Equal when both have the same fields (names compared case-insensitively)
    /// in the same order.
    @_alwaysEmitIntoClient
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name.lowercased() == $1.name.lowercased() && $0.value == $1.value }
    }

    /// Checks that every name is an HTTP token and no value contains a line
    /// break or NUL (which would let a value inject header lines).
    ///
    /// - Throws: ``HTTPError/invalidRequest(_:)`` naming the offending field.
    public func validate() throws {
        for field in fields {
            if field.name.isEmpty || !field.name.unicodeScalars.allSatisfy(HTTPHeaders.isTokenCharacter) {
                throw HTTPError.invalidRequest("invalid header field name \(String(reflecting: field.name))")
            }
            if field.value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
                throw HTTPError.invalidRequest("header field \(field.name) contains a line break or NUL")
            }
        }
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        // RFC 9110 §5.6.2 tchar.
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": return true
        default: return false
        }
    }
}
