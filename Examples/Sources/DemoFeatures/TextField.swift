import TerminalUI

/// The editable text of a one-line text field, with a cursor.
public struct TextFieldState: Equatable, Sendable {
    public private(set) var text: String
    /// The cursor position, in characters.
    public private(set) var cursor: Int

    public init(text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// Applies an editing key; returns `false` for keys that do not edit text.
    @discardableResult
    public mutating func apply(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            let index = text.index(text.startIndex, offsetBy: cursor)
            text.insert(character, at: index)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return true }
            let index = text.index(text.startIndex, offsetBy: cursor - 1)
            text.remove(at: index)
            cursor -= 1
        case .delete:
            guard cursor < text.count else { return true }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor))
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
}
