@testable import TerminalUI
import XCTest

final class ScriptedInputTests: XCTestCase {
    func testScriptsTypeTextAndNameKeys() throws {
        XCTAssertEqual(try ScriptedRun.keys(fromScript: "a{down}{Enter}\\n\\t\\e{ctrl-r}\\{\\\\"), [
            .character("a"), .down, .enter, .enter, .tab, .escape, .control("r"), .character("{"), .character("\\"),
        ])
        // Typed text goes through the key decoder: one key per scalar, as a terminal sends it.
        XCTAssertEqual(try ScriptedRun.keys(fromScript: "e\u{301}"), [.character("e"), .character("\u{301}")])
        XCTAssertThrowsError(try ScriptedRun.keys(fromScript: "{nope}"))
        XCTAssertThrowsError(try ScriptedRun.keys(fromScript: "{down"))
        XCTAssertThrowsError(try ScriptedRun.keys(fromScript: "x\\"))
    }

    func testModes() throws {
        let command = DemoCommandLine(name: "demo", abstract: "A demo.", keys: ["q  quit"])
        XCTAssertEqual(try command.mode(for: [], standardInputIsTerminal: true), .interactive)
        XCTAssertEqual(try command.mode(for: [], standardInputIsTerminal: false), .standardInput)
        XCTAssertEqual(try command.mode(for: ["--help"], standardInputIsTerminal: true), .help)
        XCTAssertEqual(try command.mode(for: ["--", "-h"], standardInputIsTerminal: true), .help)
        XCTAssertEqual(try command.mode(for: ["--input", "+{up}"], standardInputIsTerminal: true), .scripted([.character("+"), .up]))
        XCTAssertEqual(try command.mode(for: ["--input=q"], standardInputIsTerminal: false), .scripted([.character("q")]))
        XCTAssertThrowsError(try command.mode(for: ["--input"], standardInputIsTerminal: true))
        XCTAssertThrowsError(try command.mode(for: ["--query", "x"], standardInputIsTerminal: true))
        XCTAssertTrue(command.help.contains("USAGE: demo [--input <keys>]"))
        XCTAssertTrue(command.help.contains("  q  quit"))
    }
}

final class TerminalErrorTests: XCTestCase {
    func testTheNoTerminalErrorPointsAtOptionsEveryAppHas() {
        XCTAssertEqual(
            TerminalError.notATerminal.description,
            "standard input is not a terminal (run the app in a terminal, or pass --input KEYS to run it without one; see --help)")
    }
}
