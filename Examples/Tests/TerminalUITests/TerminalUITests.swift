import Ripple
@testable import TerminalUI
import XCTest

final class KeyDecoderTests: XCTestCase {
    func testCharactersControlKeysAndEscapeSequences() {
        var decoder = KeyDecoder()
        let bytes: [UInt8] = Array("ab".utf8) + [0x0D, 0x7F, 0x09, 0x03] + Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}[3~\u{1B}[5~\u{1B}OH\u{1B}[Z".utf8)
        XCTAssertEqual(decoder.feed(bytes), [
            .character("a"), .character("b"), .enter, .backspace, .tab, .control("c"),
            .up, .down, .right, .left, .delete, .pageUp, .home, .backTab,
        ])
    }

    func testSplitUTF8AndEscapeSequencesWaitForTheRest() {
        var decoder = KeyDecoder()
        let euro = Array("€".utf8)
        XCTAssertEqual(decoder.feed([euro[0]]), [])
        XCTAssertEqual(decoder.feed(Array(euro[1...])), [.character("€")])
        XCTAssertEqual(decoder.feed([0x1B, UInt8(ascii: "[")]), [])
        XCTAssertEqual(decoder.feed([UInt8(ascii: "A")]), [.up])
    }

    func testLoneEscapeAndUnknownSequences() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [.escape])
        XCTAssertEqual(decoder.feed(Array("\u{1B}x".utf8)), [.escape, .character("x")])
        XCTAssertEqual(decoder.feed(Array("\u{1B}[99q".utf8)), [.unknown(Array("\u{1B}[99q".utf8))])
        XCTAssertEqual(decoder.feed([0xFF]), [.unknown([0xFF])])
    }
}

final class RendererTests: XCTestCase {
    func testRendersFramesOntoTheVirtualScreen() {
        var renderer = Renderer()
        var screen = VirtualScreen(size: TerminalSize(rows: 3, columns: 10))
        screen.apply(renderer.render(Frame(lines: ["hello", Line("world", style: TextStyle(bold: true))]), size: screen.size))
        XCTAssertEqual(screen.lines, ["hello", "world", ""])
        XCTAssertTrue(screen.style(row: 1, column: 0).bold)
        XCTAssertFalse(screen.style(row: 0, column: 0).bold)
        XCTAssertNil(screen.cursor)
    }

    func testOnlyChangedLinesAreRedrawnAndLongLinesAreCut() {
        var renderer = Renderer()
        let size = TerminalSize(rows: 3, columns: 5)
        var screen = VirtualScreen(size: size)
        screen.apply(renderer.render(Frame(lines: ["one", "two", "three"]), size: size))
        let output = renderer.render(Frame(lines: ["one", "2", "three and more"]), size: size)
        XCTAssertFalse(output.contains("one"), "an unchanged line must not be redrawn")
        screen.apply(output)
        XCTAssertEqual(screen.lines, ["one", "2", "three"])
    }

    func testCursorAndResize() {
        var renderer = Renderer()
        var screen = VirtualScreen(size: TerminalSize(rows: 2, columns: 8))
        screen.apply(renderer.render(Frame(lines: ["> abc"], cursor: (0, 5)), size: screen.size))
        XCTAssertEqual(screen.cursor?.row, 0)
        XCTAssertEqual(screen.cursor?.column, 5)
        screen.resize(to: TerminalSize(rows: 3, columns: 4))
        screen.apply(renderer.render(Frame(lines: ["> abc", "x"]), size: screen.size))
        XCTAssertEqual(screen.lines, ["> ab", "x", ""])
    }
}

final class VirtualTerminalTests: XCTestCase {
    func testKeysSizesAndDrawing() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 2, columns: 10))
        var keys: [Key] = []
        var sizes: [TerminalSize] = []
        let bag = DisposeBag()
        terminal.keys.subscribe(onNext: { keys.append($0) }).disposed(by: bag)
        terminal.sizes.subscribe(onNext: { sizes.append($0) }).disposed(by: bag)
        terminal.type("hi")
        terminal.press(.enter)
        terminal.resize(to: TerminalSize(rows: 3, columns: 12))
        terminal.draw(Frame(lines: ["drawn"]))
        XCTAssertEqual(keys, [.character("h"), .character("i"), .enter])
        XCTAssertEqual(sizes, [TerminalSize(rows: 2, columns: 10), TerminalSize(rows: 3, columns: 12)])
        XCTAssertEqual(terminal.screen.lines, ["drawn", "", ""])
        XCTAssertEqual(terminal.drawnFrames.count, 1)
    }
}
