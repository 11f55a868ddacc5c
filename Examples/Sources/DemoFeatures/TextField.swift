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
///
/// Word editing as in a shell: Alt+Backspace and Ctrl-W delete the word before the
/// cursor, Alt+B and Alt+F move one word back and forward (a word is a run of
/// letters and digits).
///
/// A field narrower than its text scrolls: ``window(width:)`` says which part to
/// draw so that the cursor is always on screen.
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
        case .alt(.backspace), .control("w"):
            let start = TextFieldState.wordStart(before: cursor, in: Array(text))
            text.removeSubrange(index(at: start)..<index(at: cursor))
            cursor = start
        case .alt(.character("b")), .alt(.left):
            cursor = TextFieldState.wordStart(before: cursor, in: Array(text))
        case .alt(.character("f")), .alt(.right):
            cursor = TextFieldState.wordEnd(after: cursor, in: Array(text))
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

    /// Where the word before `offset` starts: back over what is not a word, then
    /// over the word.
    static func wordStart(before offset: Int, in characters: [Character]) -> Int {
        var start = min(offset, characters.count)
        while start > 0, !isWordCharacter(characters[start - 1]) { start -= 1 }
        while start > 0, isWordCharacter(characters[start - 1]) { start -= 1 }
        return start
    }

    /// Where the word after `offset` ends: forward over what is not a word, then
    /// over the word.
    static func wordEnd(after offset: Int, in characters: [Character]) -> Int {
        var end = max(offset, 0)
        while end < characters.count, !isWordCharacter(characters[end]) { end += 1 }
        while end < characters.count, isWordCharacter(characters[end]) { end += 1 }
        return end
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
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

/// The part of a one-line field's text that fits in its width, and where the cursor
/// sits in it.
///
/// Text that fits is shown whole. Text that does not scrolls so that the cursor
/// stays visible: from the start while the cursor is within the first columns,
/// otherwise with the cursor on the field's last column. A ``marker`` on the first
/// or last column stands for the hidden text on that side. Widths are terminal
/// columns (``DisplayWidth``), and a character is never cut: a wide one that does
/// not fit is left out (its column stays blank).
public struct TextFieldWindow: Equatable, Sendable {
    /// What stands for hidden text.
    public static let marker = "…"

    /// Hidden text before ``visible``.
    public var hiddenBefore: Bool
    /// The characters shown.
    public var visible: String
    /// Hidden text after ``visible``.
    public var hiddenAfter: Bool
    /// The cursor's column, from the field's first column (its left marker included).
    public var cursorColumn: Int

    /// The window of `text` with the cursor before its `cursor`th character, in a
    /// field `width` columns wide (at least 4 are used).
    public init(text: String, cursor: Int, width: Int) {
        let characters = Array(text)
        let cursor = min(max(cursor, 0), characters.count)
        let width = max(width, 4)
        let widths = characters.map { DisplayWidth.of($0) }
        let total = widths.reduce(0, +)
        let before = widths[..<cursor].reduce(0, +)
        // The cursor's cell: the character under it, or one column after the text.
        let cursorCell = cursor < characters.count ? max(widths[cursor], 1) : 1
        if total + (cursor == characters.count ? 1 : 0) <= width {
            self.init(hiddenBefore: false, visible: text, hiddenAfter: false, cursorColumn: before)
        } else if before + cursorCell <= width - 1 {
            // From the start; the last column is the marker of what follows.
            let shown = Self.count(widths, from: 0, fitting: width - 1)
            self.init(hiddenBefore: false, visible: String(characters[..<shown]), hiddenAfter: true, cursorColumn: before)
        } else {
            // The cursor on the last column: the characters before it, back from the
            // cursor, in what the markers and the cursor's cell leave.
            let hasAfter = cursor + 1 < characters.count
            let budget = width - 1 - cursorCell - (hasAfter ? 1 : 0)
            var start = cursor
            var used = 0
            while start > 0, used + widths[start - 1] <= budget {
                start -= 1
                used += widths[start]
            }
            let end = cursor < characters.count ? cursor + 1 : cursor
            self.init(
                hiddenBefore: true, visible: String(characters[start..<end]), hiddenAfter: end < characters.count,
                cursorColumn: 1 + used)
        }
    }

    init(hiddenBefore: Bool, visible: String, hiddenAfter: Bool, cursorColumn: Int) {
        self.hiddenBefore = hiddenBefore
        self.visible = visible
        self.hiddenAfter = hiddenAfter
        self.cursorColumn = cursorColumn
    }

    /// How many of `widths`, from `start`, fit in `columns`.
    private static func count(_ widths: [Int], from start: Int, fitting columns: Int) -> Int {
        var used = 0
        var count = 0
        for width in widths[start...] {
            if used + width > columns { break }
            used += width
            count += 1
        }
        return count
    }

    /// The window as spans: the text in `style`, the markers in `markerStyle`.
    public func spans(style: TextStyle = .plain, markerStyle: TextStyle = TextStyle(dim: true)) -> [Span] {
        var spans: [Span] = []
        if hiddenBefore { spans.append(Span(Self.marker, style: markerStyle)) }
        spans.append(Span(visible, style: style))
        if hiddenAfter { spans.append(Span(Self.marker, style: markerStyle)) }
        return spans
    }

    /// The window as plain text, markers included.
    public var text: String {
        spans().map(\.text).joined()
    }
}

extension TextFieldState {
    /// The part of the text a field `width` columns wide shows (see ``TextFieldWindow``).
    public func window(width: Int) -> TextFieldWindow {
        TextFieldWindow(text: text, cursor: cursor, width: width)
    }
}
