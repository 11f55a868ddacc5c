import Foundation
import Ripple

/// A marble string that does not follow the syntax, with where and why.
///
/// ```
/// Invalid marbles at column 6 ('x'): expected an event or ')' inside a group
///   --a-(bx-c)
///         ^
/// ```
public struct MarbleSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The marble string.
    public let marbles: String
    /// The 1-based column (in characters, spaces included) of the problem;
    /// `marbles.count + 1` means the end of the string; `0` when the problem is not
    /// at a position (for example an invalid ``MarbleTiming``).
    public let column: Int
    /// The character at `column`, `nil` at the end of the string.
    public let character: Character?
    /// What the parser expected there.
    public let expected: String

    /// Creates an error.
    public init(marbles: String, column: Int, character: Character?, expected: String) {
        self.marbles = marbles
        self.column = column
        self.character = character
        self.expected = expected
    }

    /// The message, the marble string and a caret under the column.
    public var description: String {
        guard column > 0 else {
            return "Invalid marbles \"\(marbles)\": expected \(expected)"
        }
        let found = character.map { "'\($0)'" } ?? "end of string"
        return """
        Invalid marbles at column \(column) (\(found)): expected \(expected)
          \(marbles)
          \(String(repeating: " ", count: column - 1))^
        """
    }
}

/// The result of parsing: entries keep the column of their token, so that a token
/// missing from a `values` dictionary can be reported precisely.
struct ParsedMarbles {
    struct Entry {
        let frame: Int
        let marble: MarbleTimeline.Marble
        let column: Int
        let token: Character?
    }

    var entries: [Entry] = []
    var subscriptionFrame: Int?
    var unsubscriptionFrame: Int?
}

/// The marble-string parser.
///
/// Every character except whitespace is one frame, including `(` and `)`; the
/// events of a group `(ab)` all happen at the frame of its `(`. A group may hold
/// `^` (hot and subscription marbles) and `!` (subscription marbles): `(^!)` is a
/// subscription that ended in the frame it started.
enum MarbleParser {
    static func isToken(_ character: Character) -> Bool {
        (character.isLetter || character.isNumber) && !character.isWhitespace
    }

    static func parse(_ marbles: String, kind: MarbleKind) throws -> ParsedMarbles {
        var result = ParsedMarbles()
        var frame = 0
        var group: (column: Int, frame: Int, isEmpty: Bool)?
        var originFrame: Int?
        var lastColumn = 0
        /// The column and character of the terminal event, once there is one:
        /// nothing may happen after it (in its group, events before it are fine).
        var terminal: (column: Int, character: Character)?

        func fail(_ column: Int, _ character: Character?, _ expected: String) -> MarbleSyntaxError {
            MarbleSyntaxError(marbles: marbles, column: column, character: character, expected: expected)
        }

        let outside: String
        switch kind {
        case .hot: outside = "'-', a letter or digit, '|', '#', '(', '^' or a space"
        case .cold, .events: outside = "'-', a letter or digit, '|', '#', '(' or a space"
        case .subscription: outside = "'-', '^', '!', '(' or a space"
        }
        let inside: String
        switch kind {
        case .hot: inside = "an event (a letter or digit, '|' or '#'), '^' or ')' inside a group"
        case .cold, .events: inside = "an event (a letter or digit, '|' or '#') or ')' inside a group"
        case .subscription: inside = "'^', '!' or ')' inside a group"
        }

        func failAfterTerminal(_ column: Int, _ character: Character) -> MarbleSyntaxError {
            let (terminalColumn, terminalCharacter) = terminal!
            let what = terminalCharacter == "|" ? "completion" : "error"
            let allowed = group != nil ? "')'" : "'-' or a space"
            return fail(column, character, "\(allowed) (nothing happens after the \(what) '\(terminalCharacter)' at column \(terminalColumn))")
        }

        for (offset, character) in marbles.enumerated() {
            let column = offset + 1
            lastColumn = column
            if character.isWhitespace { continue }
            let eventFrame = group?.frame ?? frame
            switch character {
            case "-":
                if group != nil { throw fail(column, character, inside) }
            case "(":
                if group != nil { throw fail(column, character, inside + " (groups do not nest)") }
                group = (column, frame, true)
            case ")":
                guard let open = group else {
                    throw fail(column, character, outside + " (no group is open)")
                }
                if open.isEmpty {
                    throw fail(column, character, (kind == .subscription ? "'^' or '!'" : "an event") + " inside the group opened at column \(open.column)")
                }
                group = nil
            case "|", "#":
                if kind == .subscription { throw fail(column, character, group != nil ? inside : outside) }
                if terminal != nil { throw failAfterTerminal(column, character) }
                result.entries.append(.init(frame: eventFrame, marble: character == "|" ? .completed : .error, column: column, token: nil))
                terminal = (column, character)
                group?.isEmpty = false
            case "^":
                switch kind {
                case .cold, .events:
                    throw fail(column, character, (group != nil ? inside : outside) + " ('^' marks the subscription point of hot observables and subscription marbles only)")
                case .hot, .subscription:
                    if originFrame != nil {
                        let expected = group != nil ? inside.replacingOccurrences(of: ", '^'", with: "").replacingOccurrences(of: "'^', ", with: "") : outside.replacingOccurrences(of: ", '^'", with: "")
                        throw fail(column, character, expected + " (only one '^' is allowed)")
                    }
                    originFrame = eventFrame
                    group?.isEmpty = false
                }
            case "!":
                guard kind == .subscription else {
                    throw fail(column, character, (group != nil ? inside : outside) + " ('!' belongs in subscription marbles)")
                }
                guard originFrame != nil else { throw fail(column, character, "'^' before '!'") }
                if result.unsubscriptionFrame != nil {
                    throw fail(column, character, (group != nil ? "')'" : "'-' or a space") + " (only one '!' is allowed)")
                }
                result.unsubscriptionFrame = eventFrame
                group?.isEmpty = false
            default:
                guard kind != .subscription, isToken(character) else {
                    throw fail(column, character, group != nil ? inside : outside)
                }
                if terminal != nil { throw failAfterTerminal(column, character) }
                result.entries.append(.init(frame: eventFrame, marble: .next(String(character)), column: column, token: character))
                group?.isEmpty = false
            }
            frame += 1
        }

        if let open = group {
            throw fail(lastColumn + 1, nil, "')' to close the group opened at column \(open.column)")
        }
        switch kind {
        case .subscription:
            guard let origin = originFrame else {
                throw fail(lastColumn + 1, nil, "'^' (a subscription marble marks when the subscription was made)")
            }
            result.subscriptionFrame = origin
        case .hot:
            if let origin = originFrame {
                result.entries = result.entries.map { .init(frame: $0.frame - origin, marble: $0.marble, column: $0.column, token: $0.token) }
                result.subscriptionFrame = 0
            }
        case .cold, .events:
            break
        }
        return result
    }

    /// The recorded events of `marbles`: frames become times with `timing` (hot and
    /// expected events) or relative to a subscription (cold), tokens become elements
    /// through `resolve`.
    static func recordedEvents<Element>(
        _ marbles: String, kind: MarbleKind, timing: MarbleTiming, error: Swift.Error,
        tokenDescription: String, resolve: (Character) -> Element?
    ) throws -> [Recorded<Event<Element>>] {
        try timing.validate(marbles)
        let parsed = try parse(marbles, kind: kind)
        return try parsed.entries.map { entry in
            let time = kind == .cold ? entry.frame * timing.ticksPerFrame : timing.time(ofFrame: entry.frame)
            switch entry.marble {
            case .next:
                guard let token = entry.token, let element = resolve(token) else {
                    throw MarbleSyntaxError(marbles: marbles, column: entry.column, character: entry.token, expected: tokenDescription)
                }
                return Recorded(time: time, value: .next(element))
            case .error:
                return Recorded(time: time, value: .error(error))
            case .completed:
                return Recorded(time: time, value: .completed)
            }
        }
    }

    /// The ``Subscription`` a subscription marble describes.
    static func subscription(_ marbles: String, timing: MarbleTiming) throws -> Subscription {
        try timing.validate(marbles)
        let parsed = try parse(marbles, kind: .subscription)
        let start = timing.time(ofFrame: parsed.subscriptionFrame ?? 0)
        guard let end = parsed.unsubscriptionFrame else { return Subscription(start) }
        return Subscription(start, timing.time(ofFrame: end))
    }

    /// "a key of `values` (a, b)" and the like, for an unknown token.
    static func tokenDescription<Element>(values: [String: Element], selfDescribing: String?) -> String {
        let keys = values.keys.sorted()
        let known = keys.isEmpty ? "" : "a key of `values` (\(keys.joined(separator: ", ")))"
        switch (selfDescribing, known.isEmpty) {
        case (nil, true): return "a key of `values` (the dictionary is empty)"
        case (nil, false): return known
        case (let own?, true): return own
        case (let own?, false): return "\(own) or \(known)"
        }
    }
}
