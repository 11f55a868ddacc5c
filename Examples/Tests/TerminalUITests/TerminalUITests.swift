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

    func testALoneEscapeWaitsForTheRestOfASequenceThenIsTheEscKey() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [], "it may be the start of a sequence")
        XCTAssertTrue(decoder.isWaitingForMore)
        XCTAssertEqual(decoder.flush(), [.escape], "nothing came within the escape delay")
        XCTAssertFalse(decoder.isWaitingForMore)
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertEqual(decoder.feed(Array("[A".utf8)), [.up], "the rest of the sequence came in the next read")
        XCTAssertEqual(KeyDecoder.keys([0x1B]), [.escape])
        XCTAssertEqual(KeyDecoder.keys([0x1B, 0x1B]), [.escape, .escape])
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}[99q".utf8)), [.unknown(Array("\u{1B}[99q".utf8))])
        XCTAssertEqual(KeyDecoder.keys([0xFF]), [.unknown([0xFF])])
    }

    /// Alt (Meta) sends Esc then the key: one key, never Esc followed by the key
    /// (which quit the apps and lost the input).
    func testAltCombinationsAreOneKey() {
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}b\u{1B}f\u{1B}x".utf8)), [
            .alt(.character("b")), .alt(.character("f")), .alt(.character("x")),
        ])
        XCTAssertEqual(KeyDecoder.keys([0x1B, 0x7F]), [.alt(.backspace)])
        XCTAssertEqual(KeyDecoder.keys([0x1B, 0x08]), [.alt(.backspace)])
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}é".utf8)), [.alt(.character("é"))])
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}[1;3D\u{1B}[1;3C".utf8)), [.alt(.left), .alt(.right)])
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}[1;5C".utf8)), [.right], "Ctrl+Right: the modifier is ignored")
        XCTAssertEqual(Key.alt(.character("b")).description, "Alt-b")
        XCTAssertEqual(Key.alt(.backspace).description, "Alt-Backspace")
    }

    /// F1 to F4 are SS3 sequences (`ESC O P`...), F5 and up CSI ones; none is text.
    func testFunctionKeysAreKeysNotText() {
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}OP\u{1B}OQ\u{1B}OR\u{1B}OS".utf8)), [.function(1), .function(2), .function(3), .function(4)])
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}[15~\u{1B}[17~\u{1B}[21~\u{1B}[24~".utf8)), [.function(5), .function(6), .function(10), .function(12)])
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}[11~\u{1B}[1;2P".utf8)), [.function(1), .function(1)])
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}OA\u{1B}OH".utf8)), [.up, .home], "application cursor mode")
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed(Array("\u{1B}O".utf8)), [])
        XCTAssertEqual(decoder.feed(Array("Px".utf8)), [.function(1), .character("x")], "an SS3 key split across reads")
        XCTAssertEqual(Key.function(1).description, "F1")
    }

    /// A paste that has started waits for its end however long it takes: it is
    /// not flushed by the escape delay.
    func testAnOpenPasteIsNotWaitingForTheEscapeDelay() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed(Array("\u{1B}[200~half".utf8)), [])
        XCTAssertFalse(decoder.isWaitingForMore)
        XCTAssertEqual(decoder.feed(Array(" and the rest\u{1B}[201~".utf8)), [.paste("half and the rest")])
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

/// `--input` runs: each step has its own deadline, and a quiet app settles in
/// the quiet period, not in a fixed wait.
final class ScriptedRunTests: XCTestCase {
    /// 40 keys that are not text, each settling in about 20 ms: about 0.8 s in all,
    /// more than the 0.5 s timeout, which is per step.
    func testTheTimeoutIsPerStepNotForTheWholeRun() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 2, columns: 10))
        let run = ScriptedRun(quietPeriod: 0.02, timeout: 0.5)
        var pressed = 0
        let start = Date()
        let unsettled = run.feed(Array(repeating: .down, count: 40), to: terminal, busy: BusyFlag(), quit: QuitFlag()) { _ in
            pressed += 1
            terminal.draw(Frame(lines: [Line("\(pressed)")]))
        }
        XCTAssertNil(unsettled)
        XCTAssertEqual(pressed, 40)
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 0.5, "the run is longer than one step's timeout")
        XCTAssertEqual(terminal.screen.lines[0], "40")
    }

    /// A screen that stays busy fails the step it is in, says which, and the run
    /// still presses the remaining keys.
    func testAStepThatDoesNotSettleIsNamed() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 2, columns: 10))
        let busy = BusyFlag()
        let run = ScriptedRun(quietPeriod: 0.01, timeout: 0.2)
        var pressed: [Key] = []
        let unsettled = run.feed([.character("a"), .down, .up], to: terminal, busy: busy, quit: QuitFlag()) { key in
            pressed.append(key)
            if key == .character("a") { busy.value = true }
        }
        XCTAssertEqual(unsettled, "before key 2 of 3 (Down)")
        XCTAssertEqual(pressed, [.character("a"), .down, .up])
    }
}
