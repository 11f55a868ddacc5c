import DemoFeatures
import Ripple
import TerminalUI
import XCTest

/// Text editing by grapheme cluster: characters that merge with the previous one
/// (a skin-tone modifier, the second regional indicator of a flag, a combining
/// accent) used to move the cursor past the end of the text and crash the next key.
final class TextFieldStateTests: XCTestCase {
    private func field(_ keys: [Key]) -> TextFieldState {
        var field = TextFieldState()
        for key in keys { field.apply(key) }
        return field
    }

    func testASkinToneModifierMergesWithTheEmojiBeforeIt() {
        var state = field([.character("👍"), .character("\u{1F3FD}")])
        XCTAssertEqual(state.text, "👍🏽")
        XCTAssertEqual(state.cursor, 1)
        XCTAssertEqual(state.cursorColumn, 2)
        state.apply(.character("x"))
        XCTAssertEqual(state.text, "👍🏽x")
        XCTAssertEqual(state.cursor, 2)
        state.apply(.backspace)
        state.apply(.backspace)
        XCTAssertEqual(state.text, "")
        XCTAssertEqual(state.cursor, 0)
    }

    func testTwoRegionalIndicatorsTypedSeparatelyMakeOneFlag() {
        var state = field([.character("\u{1F1EB}"), .character("\u{1F1F7}")])
        XCTAssertEqual(state.text, "🇫🇷")
        XCTAssertEqual(state.cursor, 1)
        XCTAssertEqual(state.cursorColumn, 2)
        state.apply(.left)
        state.apply(.delete)
        XCTAssertEqual(state.text, "")
        state.apply(.character("a"))
        XCTAssertEqual(state.text, "a")
    }

    func testACombiningAccentMergesWithTheLetterBeforeIt() {
        var state = field([.character("e"), .character("\u{301}")])
        XCTAssertEqual(state.text, "e\u{301}")
        XCTAssertEqual(state.cursor, 1)
        XCTAssertEqual(state.cursorColumn, 1)
        state.apply(.character("z"))
        XCTAssertEqual(state.text, "e\u{301}z")
        state.apply(.home)
        state.apply(.delete)
        XCTAssertEqual(state.text, "z", "Delete removes the whole accented letter")
        state.apply(.end)
        state.apply(.backspace)
        state.apply(.backspace)
        XCTAssertEqual(state.text, "")
    }

    func testInsertingInTheMiddleKeepsTheCursorOnTheMergedCharacter() {
        var state = field("ab".map(Key.character))
        state.apply(.left)
        state.apply(.character("\u{308}"))   // combining diaeresis onto "a"
        XCTAssertEqual(state.text, "a\u{308}b")
        XCTAssertEqual(state.cursor, 1)
        state.apply(.character("c"))
        XCTAssertEqual(state.text, "a\u{308}cb")
        XCTAssertEqual(state.cursor, 2)
    }

    func testWideCharactersTakeTwoColumns() {
        let state = field("日本x".map(Key.character))
        XCTAssertEqual(state.cursor, 3)
        XCTAssertEqual(state.cursorColumn, 5)
        XCTAssertEqual(state.width, 5)
    }

    func testPastedLinesAndTabsBecomeSpacesAndControlCharactersAreDropped() {
        var state = TextFieldState()
        state.apply(.paste("first line\r\nsecond\tthird\nlast\u{7}\u{1B}"))
        XCTAssertEqual(state.text, "first line second third last")
        XCTAssertEqual(state.cursor, state.text.count)
        state.apply(.character("\n"))
        state.apply(.character("\t"))
        state.apply(.character("\u{0}"))
        state.apply(.character("\u{85}"))   // NEL, a C1 control that is also a line break
        state.apply(.character("\u{90}"))   // DCS, a C1 control
        XCTAssertEqual(state.text, "first line second third last   ")
        XCTAssertEqual(TextFieldState(text: "a\nb").text, "a b")
    }
}

/// The same inputs typed into the demo screens on the in-memory terminal, byte by
/// byte as a real terminal sends them.
final class TextFieldScreenTests: XCTestCase {
    func testCharactersLeftSurvivesMergingCharactersThenAnyKey() {
        for input in ["👍\u{1F3FD}", "\u{1F1EB}\u{1F1F7}", "e\u{301}"] {
            let terminal = VirtualTerminal(size: TerminalSize(rows: 6, columns: 80))
            let binding = TerminalApp.bind(CharactersLeftScreen(host: terminal), to: terminal) {}
            terminal.send(input)
            terminal.send("x")
            terminal.press(.backspace, .backspace, .backspace)
            terminal.send(input)
            terminal.press(.left, .delete, .right, .right)
            terminal.send("ok")
            XCTAssertEqual(terminal.screen.lines[2], "Status: ok", input.debugDescription)
            XCTAssertEqual(terminal.screen.lines[3], "38 characters left")
            XCTAssertEqual(terminal.screen.cursor?.column, "Status: ".count + 2)
            binding.dispose()
        }
    }

    func testTheCursorSitsAfterWideCharacters() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 6, columns: 80))
        let binding = TerminalApp.bind(CharactersLeftScreen(host: terminal), to: terminal) {}
        terminal.send("👍\u{1F3FD}日本")
        XCTAssertEqual(terminal.screen.lines[2], "Status: 👍🏽日本")
        XCTAssertEqual(terminal.screen.cursor?.column, "Status: ".count + 6)
        XCTAssertEqual(terminal.screen.lines[3], "37 characters left")
        binding.dispose()
    }

    func testAPasteIsOneSingleLineEdit() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 6, columns: 80))
        let binding = TerminalApp.bind(CharactersLeftScreen(host: terminal), to: terminal) {}
        terminal.send("\u{1B}[200~one\ntwo\tthree\u{1B}[201~")
        XCTAssertEqual(terminal.screen.lines[2], "Status: one two three")
        binding.dispose()
    }

    func testSignUpFieldsSurviveMergingCharacters() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 12, columns: 80))
        let binding = TerminalApp.bind(SignUpScreen(host: terminal), to: terminal) {}
        terminal.send("e\u{301}👍\u{1F3FD}")
        terminal.press(.backspace)
        terminal.send("@x.io")
        XCTAssertEqual(terminal.screen.lines[2], "E-mail:   e\u{301}@x.io")
        XCTAssertEqual(terminal.screen.cursor?.column, "E-mail:   ".count + 6)
        terminal.press(.tab)
        terminal.send("\u{1F1EB}\u{1F1F7}")
        terminal.press(.backspace, .backspace)
        terminal.send("secret")
        XCTAssertEqual(terminal.screen.lines[5], "Password: ••••••")
        binding.dispose()
    }
}
