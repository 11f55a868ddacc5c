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

/// Shell-style word editing: Alt+Backspace / Ctrl-W delete the word before the
/// cursor, Alt+B / Alt+F move over words.
final class TextFieldWordEditingTests: XCTestCase {
    func testAltBackspaceAndCtrlWDeleteTheWordBeforeTheCursor() {
        var state = TextFieldState(text: "ripple language:swift  ")
        state.apply(.alt(.backspace))
        XCTAssertEqual(state.text, "ripple language:")
        XCTAssertEqual(state.cursor, 16)
        state.apply(.control("w"))
        XCTAssertEqual(state.text, "ripple ")
        state.apply(.alt(.backspace))
        XCTAssertEqual(state.text, "")
        state.apply(.alt(.backspace))
        XCTAssertEqual(state.text, "", "nothing left to delete")
    }

    func testAltBAndAltFMoveOneWord() {
        var state = TextFieldState(text: "e\u{301}t\u{E9} 👍🏽 日本 end")
        state.apply(.alt(.character("b")))
        XCTAssertEqual(state.cursor, 9, "before “end”")
        state.apply(.alt(.character("b")))
        XCTAssertEqual(state.cursor, 6, "before “日本”, over the emoji, which is not a word")
        state.apply(.alt(.character("b")))
        state.apply(.alt(.character("b")))
        XCTAssertEqual(state.cursor, 0)
        state.apply(.alt(.character("f")))
        XCTAssertEqual(state.cursor, 3, "after “étè”: the accent is part of its letter")
        state.apply(.alt(.right))
        XCTAssertEqual(state.cursor, 8)
        state.apply(.alt(.backspace))
        XCTAssertEqual(state.text, "e\u{301}t\u{E9} 👍🏽  end")
    }

    func testOtherAltKeysAndFunctionKeysDoNotEdit() {
        var state = TextFieldState(text: "abc")
        XCTAssertFalse(state.apply(.alt(.character("x"))))
        XCTAssertFalse(state.apply(.function(1)))
        XCTAssertEqual(state.text, "abc")
    }
}

/// A field narrower than its text scrolls so that the cursor is visible, by
/// display width, with a marker for the hidden text at either end.
final class TextFieldWindowTests: XCTestCase {
    func testTextThatFitsIsShownWhole() {
        let window = TextFieldWindow(text: "abc", cursor: 3, width: 10)
        XCTAssertEqual(window.text, "abc")
        XCTAssertEqual(window.cursorColumn, 3)
        XCTAssertEqual(TextFieldWindow(text: "abcdefghi", cursor: 9, width: 10).text, "abcdefghi", "the cursor's cell fits too")
    }

    func testTheEndOfALongTextIsShownWithTheCursorOnTheLastColumn() {
        let text = String(repeating: "x", count: 100) + "END"
        let window = TextFieldWindow(text: text, cursor: text.count, width: 10)
        XCTAssertEqual(window.text, "…xxxxxEND")
        XCTAssertEqual(window.cursorColumn, 9)
        XCTAssertTrue(window.hiddenBefore)
        XCTAssertFalse(window.hiddenAfter)
    }

    func testTheStartIsShownWhileTheCursorIsInTheFirstColumns() {
        let text = String(repeating: "x", count: 20)
        let window = TextFieldWindow(text: text, cursor: 3, width: 10)
        XCTAssertEqual(window.text, "xxxxxxxxx…")
        XCTAssertEqual(window.cursorColumn, 3)
    }

    func testInTheMiddleBothMarkersShowAndTheCursorStaysVisible() {
        let text = "0123456789abcdefghij"
        let window = TextFieldWindow(text: text, cursor: 12, width: 8)
        XCTAssertEqual(window.text, "…789abc…")
        XCTAssertEqual(window.cursorColumn, 6, "on the “c”, the character the cursor is before")
    }

    func testWideCharactersAreNeverCut() {
        let text = String(repeating: "日", count: 10)
        for cursor in 0...10 {
            let window = TextFieldWindow(text: text, cursor: cursor, width: 7)
            XCTAssertLessThanOrEqual(DisplayWidth.of(window.text), 7, "cursor \(cursor): \(window.text)")
            XCTAssertLessThan(window.cursorColumn, 7, "cursor \(cursor)")
            XCTAssertTrue(window.visible.allSatisfy { $0 == "日" })
        }
        let end = TextFieldWindow(text: text, cursor: 10, width: 7)
        XCTAssertEqual(end.text, "…日日")
        XCTAssertEqual(end.cursorColumn, 5)
    }

    /// Every cursor position of every text, in every width: the window fits, the
    /// cursor is inside it, and the characters shown are the text's around the cursor.
    func testTheCursorIsAlwaysVisibleAndTheWindowAlwaysFits() {
        let texts = ["", "a", "abcdefghijklmnopqrstuvwxyz", "日本語のテキスト", "e\u{301}👍🏽x🇫🇷日y" + String(repeating: "z", count: 9)]
        for text in texts {
            let characters = Array(text)
            for width in 4...30 {
                for cursor in 0...characters.count {
                    let window = TextFieldWindow(text: text, cursor: cursor, width: width)
                    let label = "\(text.debugDescription) cursor \(cursor) width \(width): \(window.text.debugDescription)"
                    XCTAssertLessThanOrEqual(DisplayWidth.of(window.text), width, label)
                    XCTAssertLessThan(window.cursorColumn, width, label)
                    XCTAssertTrue(window.visible.isEmpty || text.contains(window.visible), label)
                    let before = DisplayWidth.of(characters[..<cursor].map(String.init).joined())
                    if !window.hiddenBefore { XCTAssertEqual(window.cursorColumn, before, label) }
                    let fits = DisplayWidth.of(text) + (cursor == characters.count ? 1 : 0) <= width
                    XCTAssertEqual(window.hiddenBefore || window.hiddenAfter, !fits, label)
                }
            }
        }
    }
}

/// The demo screens scroll their fields: the end of a long text, where one types,
/// is on screen.
final class ScrollingFieldScreenTests: XCTestCase {
    func testCharactersLeftShowsTheEndOfALongText() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 6, columns: 80))
        let binding = TerminalApp.bind(CharactersLeftScreen(host: terminal), to: terminal) {}
        terminal.send(String(repeating: "x", count: 100) + "END")
        XCTAssertTrue(terminal.screen.lines[2].hasSuffix("xxxEND"), terminal.screen.lines[2])
        XCTAssertTrue(terminal.screen.lines[2].hasPrefix("Status: …x"), terminal.screen.lines[2])
        XCTAssertEqual(terminal.screen.cursor?.column, 79)
        XCTAssertEqual(terminal.screen.lines[3], "63 characters too many")
        terminal.press(.backspace)
        XCTAssertTrue(terminal.screen.lines[2].hasSuffix("xxxEN"), "Backspace at the end shows: \(terminal.screen.lines[2])")
        terminal.press(.home)
        XCTAssertEqual(terminal.screen.lines[2], "Status: " + String(repeating: "x", count: 71) + "…")
        XCTAssertEqual(terminal.screen.cursor?.column, 8)
        binding.dispose()
    }

    func testSignUpShowsTheDomainOfALongAddress() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 12, columns: 80))
        let binding = TerminalApp.bind(SignUpScreen(host: terminal), to: terminal) {}
        terminal.send(String(repeating: "a", count: 90) + "@example.com")
        XCTAssertTrue(terminal.screen.lines[2].hasSuffix("aaa@example.com"), terminal.screen.lines[2])
        XCTAssertEqual(terminal.screen.cursor?.column, 79)
        terminal.press(.tab)
        terminal.send(String(repeating: "p", count: 80))
        XCTAssertEqual(terminal.screen.lines[5], "Password: …" + String(repeating: "•", count: 68))
        XCTAssertEqual(terminal.screen.cursor?.column, 79)
        binding.dispose()
    }
}
