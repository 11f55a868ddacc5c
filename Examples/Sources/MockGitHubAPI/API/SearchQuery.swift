import Foundation

/// A parsed `q` of `GET /search/repositories`: free-text terms plus GitHub qualifiers.
///
/// Terms match case-insensitively as substrings of a repository's name, owner login,
/// description or topics (all terms must match; `"quoted phrases"` match as a whole).
/// Supported qualifiers, each negatable with a leading `-` (`-language:go`):
///
/// | qualifier | matches |
/// |---|---|
/// | `language:swift` | the primary language (`cpp`, `csharp` and `-` for spaces accepted) |
/// | `user:NAME`, `org:NAME` | the owner (`org:` only organizations) |
/// | `repo:OWNER/NAME` | one repository |
/// | `topic:NAME` | a topic |
/// | `license:mit` | the license's SPDX id |
/// | `stars:`, `forks:`, `size:` | a number: `10`, `>10`, `>=10`, `<10`, `<=10`, `10..50`, `10..*`, `*..50` |
/// | `created:`, `pushed:` | a date (`2021-04-30`) with the same comparisons |
/// | `fork:true`, `fork:only` | include forks / only forks (by default forks are excluded, as on GitHub) |
/// | `archived:true|false` | archived state |
/// | `in:name,description,topics,owner` | which fields the terms are matched against |
/// | `is:public` / `is:private` | everything / nothing (all fixtures are public) |
///
/// Anything else that looks like a qualifier is treated as a plain term.
///
/// ``parse(_:)`` checks bounds, as GitHub does, and fails with a
/// ``SearchQuery/ValidationError`` (answered `422 Validation Failed`) when:
/// - `q` is longer than ``maximumLength`` (256) characters;
/// - it has more than ``maximumOperators`` (5) `AND`, `OR` or `NOT` operators;
/// - a number in a qualifier (`stars:>N`, `size:A..B`) is outside
///   ``NumericRange/operandBounds`` (32 bits; no count comes near), or a date is
///   outside the years 1 to 9999.
///
/// The limits keep the work per request small: a query is matched against every
/// repository, term by term.
public struct SearchQuery: Sendable {
    /// Why `q` was refused.
    public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
        /// What is wrong, in GitHub's words where GitHub has them.
        public var message: String

        public var description: String { message }
    }

    /// The longest `q` accepted, in characters (GitHub's documented limit).
    public static let maximumLength = 256
    /// The most `AND` / `OR` / `NOT` operators accepted (GitHub's documented limit).
    public static let maximumOperators = 5

    /// Lower-cased free-text terms (phrases keep their inner spaces).
    public private(set) var terms: [String] = []
    private var filters: [Filter] = []
    private var fields: Set<Field> = Field.all
    private var forks: ForkMode = .exclude
    private var qualifierCount = 0

    enum Field: Hashable {
        case name, owner, description, topics
        static let all: Set<Field> = [.name, .owner, .description, .topics]
    }

    enum ForkMode { case exclude, include, only }

    struct Filter {
        var negated: Bool
        var predicate: @Sendable (IndexedRepository) -> Bool
    }

    /// `true` when the query has neither terms nor qualifiers.
    public var isEmpty: Bool { terms.isEmpty && qualifierCount == 0 }

    /// Parses `q`, checking the limits above.
    public static func parse(_ q: String) -> Result<SearchQuery, ValidationError> {
        guard q.count <= maximumLength else {
            return .failure(ValidationError(message: "The search is longer than \(maximumLength) characters."))
        }
        var query = SearchQuery()
        do {
            try query.read(q)
        } catch let error as ValidationError {
            return .failure(error)
        } catch {
            return .failure(ValidationError(message: "\(error)"))
        }
        return .success(query)
    }

    private init() {}

    private mutating func read(_ q: String) throws {
        let tokens = Self.tokenize(q)
        let operators = tokens.filter { !$0.quoted && ["AND", "OR", "NOT"].contains($0.text) }.count
        guard operators <= Self.maximumOperators else {
            throw ValidationError(message: "The search contains more than \(Self.maximumOperators) AND / OR / NOT operators.")
        }
        for token in tokens {
            if !token.quoted, let colon = token.text.firstIndex(of: ":"), colon != token.text.startIndex {
                var key = token.text[..<colon].lowercased()
                let value = String(token.text[token.text.index(after: colon)...])
                var negated = false
                if key.hasPrefix("-") {
                    negated = true
                    key.removeFirst()
                }
                if !value.isEmpty, try apply(qualifier: key, value: value, negated: negated) {
                    qualifierCount += 1
                    continue
                }
            }
            let term = token.text.lowercased()
            if !term.isEmpty { terms.append(term) }
        }
    }

    /// The relevance score of `repository`, or `nil` when it does not match.
    func score(_ repository: IndexedRepository) -> Double? {
        switch forks {
        case .exclude where repository.fixture.fork: return nil
        case .only where !repository.fixture.fork: return nil
        default: break
        }
        for filter in filters where filter.predicate(repository) == filter.negated {
            return nil
        }
        guard !terms.isEmpty else { return 1 }
        var score = 0.0
        for term in terms {
            var termScore = 0.0
            if fields.contains(.name) {
                if repository.name == term {
                    termScore += 20
                } else if repository.name.contains(term) {
                    termScore += repository.name.hasPrefix(term) ? 12 : 8
                }
            }
            if fields.contains(.owner), repository.owner.contains(term) { termScore += 5 }
            if fields.contains(.topics), repository.topics.contains(where: { $0.contains(term) }) { termScore += 4 }
            if fields.contains(.description), repository.description.contains(term) { termScore += 2 }
            guard termScore > 0 else { return nil }
            score += termScore
        }
        // Popularity breaks near-ties, much as GitHub's best match favours popular repositories.
        return score + log10(Double(repository.fixture.stargazersCount) + 1)
    }

    // MARK: - Qualifiers

    private mutating func apply(qualifier key: String, value: String, negated: Bool) throws -> Bool {
        let lower = value.lowercased()
        func add(_ predicate: @escaping @Sendable (IndexedRepository) -> Bool) -> Bool {
            filters.append(Filter(negated: negated, predicate: predicate))
            return true
        }
        switch key {
        case "language":
            let language = Self.languageAliases[lower] ?? lower.replacingOccurrences(of: "-", with: " ")
            return add { $0.language == language }
        case "user":
            return add { $0.owner == lower }
        case "org":
            return add { $0.owner == lower && $0.ownerIsOrganization }
        case "repo":
            return add { $0.fullName == lower }
        case "topic":
            return add { $0.topics.contains(lower) }
        case "license":
            return add { $0.fixture.license?.lowercased() == lower }
        case "stars":
            guard let range = try NumericRange(value, qualifier: key) else { return false }
            return add { range.contains($0.fixture.stargazersCount) }
        case "forks":
            guard let range = try NumericRange(value, qualifier: key) else { return false }
            return add { range.contains($0.fixture.forksCount) }
        case "size":
            guard let range = try NumericRange(value, qualifier: key) else { return false }
            return add { range.contains($0.fixture.size) }
        case "created":
            guard let range = try NumericRange.dates(value, qualifier: key) else { return false }
            return add { range.contains($0.fixture.createdAt) }
        case "pushed":
            guard let range = try NumericRange.dates(value, qualifier: key) else { return false }
            return add { range.contains($0.fixture.pushedAt) }
        case "archived":
            guard let flag = Bool(lower) else { return false }
            return add { $0.fixture.archived == flag }
        case "fork" where !negated:
            switch lower {
            case "true": forks = .include
            case "only": forks = .only
            case "false": forks = .exclude
            default: return false
            }
            return true
        case "in" where !negated:
            var selected: Set<Field> = []
            for part in lower.split(separator: ",") {
                switch part {
                case "name": selected.insert(.name)
                case "description": selected.insert(.description)
                case "topics": selected.insert(.topics)
                case "owner", "login": selected.insert(.owner)
                default: continue
                }
            }
            guard !selected.isEmpty else { return false }
            fields = selected
            return true
        case "is":
            switch lower {
            case "public": return add { _ in true }
            case "private": return add { _ in false }
            default: return false
            }
        default:
            return false
        }
    }

    static let languageAliases: [String: String] = [
        "cpp": "c++", "csharp": "c#", "c-sharp": "c#", "fsharp": "f#", "objective-c": "objective-c",
    ]

    // MARK: - Tokenizing

    struct Token {
        var text: String
        var quoted: Bool
    }

    /// Splits on whitespace, keeping `"quoted phrases"` and `key:"quoted values"` together.
    static func tokenize(_ q: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var inQuotes = false
        var wholeTokenQuoted = false
        func flush() {
            if !current.isEmpty { tokens.append(Token(text: current, quoted: wholeTokenQuoted)) }
            current = ""
            wholeTokenQuoted = false
        }
        for character in q {
            if character == "\"" {
                if !inQuotes && current.isEmpty { wholeTokenQuoted = true }
                inQuotes.toggle()
            } else if character.isWhitespace && !inQuotes {
                flush()
            } else {
                current.append(character)
            }
        }
        flush()
        return tokens
    }
}

/// An inclusive range of integers written the GitHub way: `10`, `>10`, `>=10`, `<10`,
/// `<=10`, `10..50`, `10..*`, `*..50`.
///
/// Dates use the same forms over epoch seconds: a bare day (`2021-04-30`) stands for
/// the whole day (UTC), so `>2021-04-30` starts the next day and `<=2021-04-30` ends
/// at its last second; a full ISO-8601 instant stands for that second.
///
/// Operands are bounded (``operandBounds``, dates within the years 1 to 9999), so
/// that `>N` (`N + 1`) and `<N` (`N - 1`) cannot overflow: an out-of-bounds number
/// throws ``SearchQuery/ValidationError``; text that is not a number makes the
/// qualifier an ordinary term (`nil`).
struct NumericRange: Sendable {
    /// The numbers a count qualifier accepts.
    static let operandBounds = Int(Int32.min)...Int(Int32.max)
    /// Epoch seconds of 0001-01-01 and 9999-12-31T23:59:59Z.
    static let dateBounds = -62_135_596_800...253_402_300_799

    var lower: Int?
    var upper: Int?

    /// Parses `text`, where `value` turns one operand into the interval it stands for
    /// (`nil`: not an operand; throws: out of bounds).
    init?(_ text: String, value: (Substring) throws -> ClosedRange<Int>?) throws {
        func operand(_ text: Substring) throws -> ClosedRange<Int>? {
            text.isEmpty ? nil : try value(text)
        }
        if text.hasPrefix(">=") {
            guard let operand = try operand(text.dropFirst(2)) else { return nil }
            lower = operand.lowerBound
        } else if text.hasPrefix("<=") {
            guard let operand = try operand(text.dropFirst(2)) else { return nil }
            upper = operand.upperBound
        } else if text.hasPrefix(">") {
            guard let operand = try operand(text.dropFirst()) else { return nil }
            lower = operand.upperBound + 1
        } else if text.hasPrefix("<") {
            guard let operand = try operand(text.dropFirst()) else { return nil }
            upper = operand.lowerBound - 1
        } else if let dots = text.range(of: "..") {
            let lowerText = text[..<dots.lowerBound]
            let upperText = text[dots.upperBound...]
            if lowerText != "*" {
                guard let operand = try operand(lowerText) else { return nil }
                lower = operand.lowerBound
            }
            if upperText != "*" {
                guard let operand = try operand(upperText) else { return nil }
                upper = operand.upperBound
            }
        } else {
            guard let operand = try operand(text[...]) else { return nil }
            lower = operand.lowerBound
            upper = operand.upperBound
        }
    }

    /// Integer operands within ``operandBounds``.
    init?(_ text: String, qualifier: String = "stars") throws {
        try self.init(text) { operand in
            let digits = operand.first == "-" || operand.first == "+" ? operand.dropFirst() : operand
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            guard let number = Int(operand), NumericRange.operandBounds.contains(number) else {
                throw SearchQuery.ValidationError(
                    message: "\(qualifier):\(text) is out of range: numbers must be between "
                        + "\(NumericRange.operandBounds.lowerBound) and \(NumericRange.operandBounds.upperBound).")
            }
            return number...number
        }
    }

    /// Date operands (`2021-04-30` or `2021-04-30T12:00:00Z`), as epoch seconds.
    static func dates(_ text: String, qualifier: String = "created") throws -> NumericRange? {
        func seconds(_ date: Date) throws -> Int {
            let value = date.timeIntervalSince1970.rounded(.down)
            guard value >= Double(dateBounds.lowerBound), value <= Double(dateBounds.upperBound) else {
                throw SearchQuery.ValidationError(message: "\(qualifier):\(text) is out of range: dates must be within the years 1 to 9999.")
            }
            return Int(value)
        }
        return try NumericRange(text) { operand in
            if operand.contains("T") {
                guard let date = try? Date(String(operand), strategy: .iso8601) else { return nil }
                let second = try seconds(date)
                return second...second
            }
            guard let date = try? Date(operand + "T00:00:00Z", strategy: .iso8601) else { return nil }
            let start = try seconds(date)
            return start...(start + 86_399)
        }
    }

    func contains(_ value: Int) -> Bool {
        (lower.map { value >= $0 } ?? true) && (upper.map { value <= $0 } ?? true)
    }

    func contains(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        return (lower.map { seconds >= Double($0) } ?? true) && (upper.map { seconds <= Double($0) } ?? true)
    }
}
