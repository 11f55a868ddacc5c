import Ripple
import RippleCollections
import TerminalUI
import XCTest

/// `ListView` renders only inserted and updated rows, and through `Renderer` an
/// update or an append rewrites only its own line of the terminal.
final class ListViewTests: XCTestCase {
    /// The rows (0-based) that `output` positions the cursor on to write.
    private func writtenRows(_ output: String) -> [Int] {
        var rows: [Int] = []
        var rest = Substring(output)
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            let digits = rest.prefix { $0.isNumber || $0 == ";" }
            let after = rest.dropFirst(digits.count)
            if after.first == "H", digits.hasSuffix(";1"), let row = Int(digits.dropLast(2)) {
                rows.append(row - 1)
            }
        }
        return rows
    }

    func testUnchangedRowsAreNeitherRenderedNorRewritten() {
        let size = TerminalSize(rows: 12, columns: 40)
        var screen = VirtualScreen(size: size)
        var renderer = Renderer()
        var list = ListView<String> { Line("• " + $0) }
        let items = ObservableArray((1...8).map { "item \($0)" })
        var outputs: [String] = []
        let subscription = items.changes.subscribe(onNext: { change in
            list.apply(change)
            let output = renderer.render(Frame(lines: list.rows), size: size)
            screen.apply(output)
            outputs.append(output)
        })
        XCTAssertEqual(list.renderedRowCount, 8)

        items[3] = "item 4, edited"
        XCTAssertEqual(list.renderedRowCount, 9, "one row rendered")
        XCTAssertEqual(writtenRows(outputs.last!), [3], "one line rewritten")
        XCTAssertEqual(screen.lines[3], "• item 4, edited")

        items.append("item 9")
        XCTAssertEqual(list.renderedRowCount, 10)
        XCTAssertEqual(writtenRows(outputs.last!), [8])

        items.batchUpdate { $0.swapAt(0, 1) }
        XCTAssertEqual(list.renderedRowCount, 10, "moves render nothing")
        XCTAssertEqual(writtenRows(outputs.last!), [0, 1])
        XCTAssertEqual(Array(screen.lines.prefix(2)), ["• item 2", "• item 1"])
        subscription.dispose()
    }

    func testListRowsFollowAChangeStream() {
        let items = ObservableArray([1, 2])
        var rows: [[Line]] = []
        let subscription = items.changes.listRows { Line("#\($0)") }.subscribe(onNext: { rows.append($0) })
        items.insert(0, at: 0)
        XCTAssertEqual(rows.map { $0.map(\.text) }, [["#1", "#2"], ["#0", "#1", "#2"]])
        subscription.dispose()
    }
}
