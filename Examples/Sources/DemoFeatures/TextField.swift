import TerminalUI

/// The editable text of a one-line text field, with a cursor.
///
/// Editing works on grapheme clusters (Swift `Character`s), the units a user sees:
/// Left, Right, Backspace and Delete move over or remove a whole `e` + U+0301, a
/// `👍🏽` or a flag. A typed scalar that joins the character before the cursor (a
/// combining accent, a skin-tone modifier, the second half of a flag) makes that
/// character longer instead of adding one, so the cursor does not move.
///
/// The field is one line: a line break (CR, LF, CRLF) or a tab, typed or pasted,
/// becomes one space; other control characters are dropped.
public struct TextFieldState: Equatable, Sendable {
    public private(set) var text: String
    /// The cursor position, in characters (grapheme clusters), `0...text.count`.
    public private(set) var cursor: Int

    public init(text: String = "") {
        self.text = TextFieldState.singleLine(text)
        cursor = self.text.count
    }

    /// The terminal column of the cursor, counted from the field's start (wide
    /// characters take two columns, combining marks none).
    public var cursorColumn: Int {
        DisplayWidth.of(text.prefix(cursor))
    }

    /// The columns the text takes on a terminal.
    public var width: Int {
        DisplayWidth.of(text)
    }

    /// Applies an editing key; returns `false` for keys that do not edit text.
    @discardableResult
    public mutating func apply(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            insert(TextFieldState.singleLine(String(character)))
        case .paste(let pasted):
            insert(TextFieldState.singleLine(pasted))
        case .backspace:
            guard cursor > 0 else { return true }
            let end = index(at: cursor)
            text.remove(at: text.index(before: end))
            cursor = min(cursor - 1, text.count)
        case .delete:
            guard cursor < text.count else { return true }
            text.remove(at: index(at: cursor))
            cursor = min(cursor, text.count)
        case .left:
            cursor = max(cursor - 1, 0)
        case .right:
            cursor = min(cursor + 1, text.count)
        case .home, .control("a"):
            cursor = 0
        case .end, .control("e"):
            cursor = text.count
        case .control("u"):
            text = ""
            cursor = 0
        default:
            return false
        }
        return true
    }

    /// Inserts `inserted` at the cursor and puts the cursor after it. Counting the
    /// characters of the new text before the cursor (rather than adding
    /// `inserted.count`) keeps the cursor right when the insertion merges with the
    /// character before it.
    private mutating func insert(_ inserted: String) {
        guard !inserted.isEmpty else { return }
        let split = index(at: cursor)
        let before = String(text[..<split]) + inserted
        text = before + text[split...]
        cursor = min(before.count, text.count)
    }

    /// The index of the `offset`th character, clamped to the text.
    private func index(at offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: max(offset, 0), limitedBy: text.endIndex) ?? text.endIndex
    }

    /// `text` as one line: line breaks and tabs become a space each, other control
    /// characters are dropped.
    static func singleLine(_ text: String) -> String {
        var result = ""
        for character in text {
            if character.isNewline || character == "\t" {
                result.append(" ")
            } else if !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                result.append(character)
            }
        }
        return result
    }
}
