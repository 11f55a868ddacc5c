import Foundation
@testable import TerminalUI
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class DisplayWidthTests: XCTestCase {
    func testColumnsOfEachKindOfCharacter() {
        XCTAssertEqual(DisplayWidth.of(Character("a")), 1)
        XCTAssertEqual(DisplayWidth.of(Character("é")), 1)
        XCTAssertEqual(DisplayWidth.of(Character("e\u{301}")), 1, "a combining accent adds nothing")
        XCTAssertEqual(DisplayWidth.of(Character("\u{301}")), 0, "a lone combining mark")
        XCTAssertEqual(DisplayWidth.of(Character("\u{200B}")), 0, "zero-width space")
        XCTAssertEqual(DisplayWidth.of(Character("日")), 2)
        XCTAssertEqual(DisplayWidth.of(Character("한")), 2)
        XCTAssertEqual(DisplayWidth.of(Character("Ａ")), 2, "fullwidth A")
        XCTAssertEqual(DisplayWidth.of(Character("ｱ")), 1, "halfwidth katakana")
        XCTAssertEqual(DisplayWidth.of(Character("👍")), 2)
        XCTAssertEqual(DisplayWidth.of(Character("👍🏽")), 2, "a skin-tone modifier adds nothing")
        XCTAssertEqual(DisplayWidth.of(Character("🇫🇷")), 2)
        XCTAssertEqual(DisplayWidth.of(Character("👨‍👩‍👧")), 2, "a ZWJ sequence")
        XCTAssertEqual(DisplayWidth.of(Character("❤")), 1, "text presentation by default")
        XCTAssertEqual(DisplayWidth.of(Character("❤️")), 2, "emoji presentation with U+FE0F")
        XCTAssertEqual(DisplayWidth.of("ab日本👍🏽"), 8)
    }

    func testPrefixFittingAWidthNeverSplitsAWideCharacter() {
        XCTAssertEqual(DisplayWidth.prefix("日本語", fitting: 3), "日")
        XCTAssertEqual(DisplayWidth.prefix("日本語", fitting: 4), "日本")
        XCTAssertEqual(DisplayWidth.prefix("ab", fitting: 5), "ab")
        XCTAssertEqual(Line("ab日本").truncated(to: 5).text, "ab日")
    }

    func testTheVirtualScreenGivesWideCharactersTwoCells() {
        var renderer = Renderer()
        var screen = VirtualScreen(size: TerminalSize(rows: 1, columns: 8))
        screen.apply(renderer.render(Frame(lines: ["日本👍🏽xyz"], cursor: (row: 0, column: 6)), size: screen.size))
        XCTAssertEqual(screen.lines, ["日本👍🏽xy"])
        XCTAssertEqual(screen.cursor?.column, 6)
    }
}

final class BracketedPasteTests: XCTestCase {
    func testAPasteIsOneKeyEvenWithLineBreaksAndSplitReads() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed(Array("a\u{1B}[200~one\r\ntw".utf8)), [.character("a")])
        XCTAssertEqual(decoder.feed(Array("o\u{1B}[20".utf8)), [])
        XCTAssertEqual(decoder.feed(Array("1~b".utf8)), [.paste("one\r\ntwo"), .character("b")])
    }
}

final class TerminalRestorerTests: XCTestCase {
    func testRestoreWritesTheLeaveSequenceOncePerStart() throws {
        var descriptors: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&descriptors), 0)
        defer { close(descriptors[0]) }
        TerminalRestorer.remember(nil, input: -1, output: descriptors[1])
        TerminalRestorer.restore()
        TerminalRestorer.restore()
        close(descriptors[1])
        let output = FileHandle(fileDescriptor: descriptors[0]).readDataToEndOfFile()
        XCTAssertEqual(
            String(decoding: output, as: UTF8.self),
            "\u{1B}[0m\u{1B}[?25h\u{1B}[?2004l\u{1B}[?1049l",
            "plain style, cursor on, bracketed paste off, main screen; written once")
    }
}
