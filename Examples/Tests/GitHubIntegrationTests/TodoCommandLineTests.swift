import Foundation
import XCTest

/// The `todo` executable without a terminal: `--help`, `--input KEYS`, `--script`.
final class TodoCommandLineTests: MockServerTestCase {
    func testHelpListsTheKeysAndTheScriptCommands() throws {
        let result = try DemoExecutable.run("todo", ["--help"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("USAGE: todo [--input <keys>] | todo --script <file>"), result.stdout)
        XCTAssertTrue(result.stdout.contains("--script <file>"), result.stdout)
    }

    func testInputKeysEditTheListAndPrintTheScreen() throws {
        let result = try DemoExecutable.run("todo", ["--input", "amilk{enter}{up}d"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("> [ ] milk"), result.stdout)
        XCTAssertFalse(result.stdout.contains("Filter with /"), "the item above milk was deleted: \(result.stdout)")
    }

    func testAScriptFromStandardInput() throws {
        let result = try DemoExecutable.run("todo", ["--script", "-"], input: Data("add a\nadd b\nmove 2 up\ntoggle 1\n".utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "1. [x] b\n2. [ ] a\n(1 to do, 1 done)\n")
    }

    /// The `list` lines before a failing line have printed (the output used to be
    /// lost, only the error remained).
    func testAFailingLineKeepsTheOutputBeforeIt() throws {
        let result = try DemoExecutable.run("todo", ["--script", "-"], input: Data("add milk\nlist\nedit 1\nlist\n".utf8))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "1. [ ] milk\n(1 to do, 0 done)\n")
        XCTAssertEqual(result.stderr, "error: line 3: edit needs a title (edit N TITLE)\n")
    }

    func testScriptAndInputTogetherAreAnError() throws {
        let result = try DemoExecutable.run("todo", ["--script", "-", "--input", "a"], input: Data("list\n".utf8))
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.hasPrefix("error: --script and --input cannot be used together"), result.stderr)
    }

    func testABadScriptLineIsAnError() throws {
        let result = try DemoExecutable.run("todo", ["--script", "-"], input: Data("remove 1\n".utf8))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("line 1: no item 1"), result.stderr)
    }
}
