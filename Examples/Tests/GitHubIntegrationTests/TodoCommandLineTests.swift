import Foundation
import XCTest

/// The `todo` executable without a terminal: `--help`, `--input KEYS`, `--script`.
final class TodoCommandLineTests: MockServerTestCase {
    func testHelpListsTheKeysAndTheScriptCommands() throws {
        let result = try DemoExecutable.run("todo", ["--help"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("USAGE: todo"), result.stdout)
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

    func testABadScriptLineIsAnError() throws {
        let result = try DemoExecutable.run("todo", ["--script", "-"], input: Data("remove 1\n".utf8))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("line 1: no item 1"), result.stderr)
    }
}
