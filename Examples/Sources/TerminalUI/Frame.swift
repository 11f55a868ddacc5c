/// How a run of text looks.
public struct TextStyle: Equatable, Hashable, Sendable {
    /// ANSI colours.
    public enum Color: Int, Sendable {
        case black = 30, red, green, yellow, blue, magenta, cyan, white
        case brightBlack = 90, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
    }

    public var bold = false
    public var dim = false
    public var underline = false
    public var inverse = false
    public var foreground: Color?

    public init(bold: Bool = false, dim: Bool = false, underline: Bool = false, inverse: Bool = false, foreground: Color? = nil) {
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.inverse = inverse
        self.foreground = foreground
    }

    public static let plain = TextStyle()

    /// The SGR escape sequence that switches to this style from plain text.
    var escapeSequence: String {
        var codes: [String] = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if underline { codes.append("4") }
        if inverse { codes.append("7") }
        if let foreground { codes.append(String(foreground.rawValue)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

/// A run of text with one style.
public struct Span: Equatable, Sendable {
    public var text: String
    public var style: TextStyle

    public init(_ text: String, style: TextStyle = .plain) {
        self.text = text
        self.style = style
    }
}

/// One line of a frame: styled runs of text.
public struct Line: Equatable, Sendable, ExpressibleByStringLiteral {
    public var spans: [Span]

    public init(_ spans: [Span]) {
        self.spans = spans
    }

    public init(_ text: String, style: TextStyle = .plain) {
        spans = [Span(text, style: style)]
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The text without styles.
    public var text: String {
        spans.map(\.text).joined()
    }

    /// The line cut to `width` terminal columns (styles kept; a wide character
    /// that would straddle the edge is left out).
    public func truncated(to width: Int) -> Line {
        var remaining = Swift.max(width, 0)
        var result: [Span] = []
        for span in spans where remaining > 0 {
            let characters = DisplayWidth.prefix(span.text, fitting: remaining)
            remaining -= DisplayWidth.of(characters)
            result.append(Span(String(characters), style: span.style))
            if characters.endIndex != span.text.endIndex { break }
        }
        return Line(result)
    }
}

/// What the screen shows: lines from the top, and where the cursor sits (hidden when
/// `nil`).
public struct Frame: Equatable, Sendable {
    public var lines: [Line]
    public var cursor: (row: Int, column: Int)?

    public init(lines: [Line], cursor: (row: Int, column: Int)? = nil) {
        self.lines = lines
        self.cursor = cursor
    }

    public static func == (lhs: Frame, rhs: Frame) -> Bool {
        lhs.lines == rhs.lines && lhs.cursor?.row == rhs.cursor?.row && lhs.cursor?.column == rhs.cursor?.column
    }

    /// The plain text of every line, for tests and logs.
    public var text: String {
        lines.map(\.text).joined(separator: "\n")
    }
}

/// A terminal size.
public struct TerminalSize: Equatable, Sendable {
    public var rows: Int
    public var columns: Int

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
}
