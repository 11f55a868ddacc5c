/// Turns frames into ANSI output, redrawing only the lines that changed since the
/// previous frame (everything after a resize).
public struct Renderer: Sendable {
    private var previous: [Line] = []
    private var previousSize: TerminalSize?

    public init() {}

    /// Forgets what is on the screen: the next frame is drawn in full.
    public mutating func invalidate() {
        previous = []
        previousSize = nil
    }

    /// The output that brings a screen of `size` showing the previous frame to
    /// showing `frame`.
    public mutating func render(_ frame: Frame, size: TerminalSize) -> String {
        var output = "\u{1B}[?25l"
        if size != previousSize {
            output += "\u{1B}[2J"
            previous = []
            previousSize = size
        }
        var lines = Array(frame.lines.prefix(size.rows)).map { $0.truncated(to: size.columns) }
        while lines.count < size.rows {
            lines.append(Line(""))
        }
        for (row, line) in lines.enumerated() where row >= previous.count || previous[row] != line {
            output += "\u{1B}[\(row + 1);1H"
            for span in line.spans where !span.text.isEmpty {
                output += span.style.escapeSequence + span.text
            }
            output += "\u{1B}[0m\u{1B}[K"
        }
        previous = lines
        if let cursor = frame.cursor {
            let row = Swift.min(Swift.max(cursor.row, 0), size.rows - 1)
            let column = Swift.min(Swift.max(cursor.column, 0), size.columns - 1)
            output += "\u{1B}[\(row + 1);\(column + 1)H\u{1B}[?25h"
        }
        return output
    }
}
