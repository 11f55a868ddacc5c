/// An in-memory terminal screen that interprets the ANSI output of ``Renderer``
/// (cursor moves, clears, styles): what a user would see, for tests. Wide characters
/// (CJK, emoji) take two cells, as on a terminal (see ``DisplayWidth``).
public struct VirtualScreen: Sendable {
    public private(set) var size: TerminalSize
    private var cells: [[Character]]
    private var styles: [[TextStyle]]
    private var row = 0
    private var column = 0
    private var style = TextStyle.plain
    public private(set) var isCursorVisible = true

    public init(size: TerminalSize) {
        self.size = size
        cells = Array(repeating: Array(repeating: " ", count: size.columns), count: size.rows)
        styles = Array(repeating: Array(repeating: .plain, count: size.columns), count: size.rows)
    }

    /// Changes the size (the content is cleared, as a terminal would after the
    /// program redraws).
    public mutating func resize(to size: TerminalSize) {
        self = VirtualScreen(size: size)
    }

    /// The cursor position, when visible.
    public var cursor: (row: Int, column: Int)? {
        isCursorVisible ? (row, column) : nil
    }

    /// Fills the cell after a wide character, which the character covers.
    static let wideContinuation: Character = "\u{0}"

    /// The screen's text, one line per row, trailing spaces removed.
    public var lines: [String] {
        cells.map { row in
            var line = row[...]
            while line.last == " " { line = line.dropLast() }
            return String(line.filter { $0 != VirtualScreen.wideContinuation })
        }
    }

    /// The screen's text as one string.
    public var text: String {
        lines.joined(separator: "\n")
    }

    /// The style of the character at a position.
    public func style(row: Int, column: Int) -> TextStyle {
        styles[row][column]
    }

    /// Applies terminal output.
    public mutating func apply(_ output: String) {
        var iterator = Array(output).makeIterator()
        while let character = iterator.next() {
            if character == "\u{1B}" {
                guard iterator.next() == "[" else { continue }
                var parameters = ""
                while let next = iterator.next() {
                    if next.isLetter || next == "~" {
                        handleSequence(parameters: parameters, final: next)
                        break
                    }
                    parameters.append(next)
                }
            } else if character == "\n" {
                row = Swift.min(row + 1, size.rows - 1)
                column = 0
            } else if character == "\r" {
                column = 0
            } else {
                // As a terminal does: a wide character takes two cells, a zero-width one none.
                let width = DisplayWidth.of(character)
                guard width > 0 else { continue }
                if row < size.rows && column + width <= size.columns {
                    cells[row][column] = character
                    styles[row][column] = style
                    if width == 2 {
                        cells[row][column + 1] = VirtualScreen.wideContinuation
                        styles[row][column + 1] = style
                    }
                }
                column += width
            }
        }
    }

    private mutating func handleSequence(parameters: String, final: Character) {
        let numbers = parameters.split(separator: ";").map { Int($0.filter(\.isNumber)) ?? 0 }
        switch final {
        case "H":
            row = Swift.max((numbers.first ?? 1) - 1, 0)
            column = Swift.max((numbers.count > 1 ? numbers[1] : 1) - 1, 0)
        case "J":
            if numbers.first == 2 {
                cells = Array(repeating: Array(repeating: " ", count: size.columns), count: size.rows)
                styles = Array(repeating: Array(repeating: .plain, count: size.columns), count: size.rows)
            }
        case "K":
            if row < size.rows {
                for index in Swift.min(column, size.columns)..<size.columns {
                    cells[row][index] = " "
                    styles[row][index] = .plain
                }
            }
        case "m":
            style = Self.style(from: numbers.isEmpty ? [0] : numbers)
        case "h" where parameters == "?25":
            isCursorVisible = true
        case "l" where parameters == "?25":
            isCursorVisible = false
        default:
            break
        }
    }

    private static func style(from codes: [Int]) -> TextStyle {
        var style = TextStyle.plain
        for code in codes {
            switch code {
            case 0: style = .plain
            case 1: style.bold = true
            case 2: style.dim = true
            case 4: style.underline = true
            case 7: style.inverse = true
            case 30...37, 90...97: style.foreground = TextStyle.Color(rawValue: code)
            default: break
            }
        }
        return style
    }
}
