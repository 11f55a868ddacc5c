import Foundation
import Testing

/// The test scripts refuse a test run that ran no test: `swift test --filter`
/// with a filter that matches nothing prints "Executed 0 tests" and exits 0.
/// Run with a stand-in `swift` first on `PATH` (it prints what `swift test`
/// prints), so that no package is built here.
@Suite("Test scripts") struct TestScriptTests {
    static let root = DocumentationLinkTests.root

    /// A directory holding a `swift` that lists three test classes and runs
    /// 0 tests for a filter containing "Nothing", 3 otherwise.
    static func fakeSwift() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-fake-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = """
            #!/usr/bin/env bash
            if [ "$1 $2" = "test list" ]; then
                printf 'RippleTests.TakeLastTests/testA\\nRippleTests.TakeWhileUntilPredicateTests/testB\\nRippleTests.MapTests/testC\\n'
                exit 0
            fi
            case "$*" in
            *Nothing*) echo "Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds"; echo "Test run with 0 tests in 0 suites passed" ;;
            *) echo "Executed 3 tests, with 0 failures (0 unexpected) in 0.1 (0.1) seconds" ;;
            esac
            """
        let file = directory.appendingPathComponent("swift")
        try script.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        return directory
    }

    /// Runs `script` (relative to the repository) with the stand-in `swift`.
    static func run(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let fake = try fakeSwift()
        defer { try? FileManager.default.removeItem(at: fake) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", root.appendingPathComponent(script).path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = fake.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs check-doc-commands.sh on a page of one `sh` block holding `lines`;
    /// `where` is how the script names that block in its output.
    static func checkDocs(_ lines: [String]) throws -> (status: Int32, output: String, where: String) {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-doc-\(UUID().uuidString).md")
        try (["```sh"] + lines + ["```", ""]).joined(separator: "\n").write(to: page, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: page) }
        let result = try run("scripts/check-doc-commands.sh", [page.path])
        return (result.status, result.output, "\(page.path) (block 1)")
    }

    @Test("test-quick.sh fails a --filter that runs no test, naming the test classes near it")
    func testQuickFailsAnEmptyFilter() throws {
        let empty = try Self.run("scripts/test-quick.sh", ["--filter", "TakeNothingTests"])
        #expect(empty.status == 1, "\(empty.output)")
        #expect(empty.output.contains("--filter 'TakeNothingTests' matched no test"), "\(empty.output)")
        #expect(empty.output.contains("Test classes with a near name: TakeLastTests, TakeWhileUntilPredicateTests"), "\(empty.output)")

        let found = try Self.run("scripts/test-quick.sh", ["--filter", "TakeLastTests"])
        #expect(found.status == 0, "\(found.output)")
        #expect(!found.output.contains("matched no test"))
    }

    @Test("check-doc-commands.sh fails a documented test command that runs no test")
    func checkDocCommandsFailsACommandThatRunsNoTest() throws {
        let result = try Self.checkDocs(["swift test --filter NothingMatchesThis", "swift test --filter SomethingThatExists"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("FAIL: \(result.where): swift test --filter NothingMatchesThis (exit 0, but it ran no test"),
                "\(result.output)")
        #expect(result.output.contains("ok:   \(result.where): swift test --filter SomethingThatExists (3 XCTest"), "\(result.output)")
        #expect(result.output.contains("documentation: 1 passed, 1 failed, 0 skipped"), "\(result.output)")
    }

    @Test("check-doc-commands.sh skips test-quick.sh without arguments (test-all.sh ran the suite) and runs it with a filter")
    func checkDocCommandsSkipsTheWholeSuiteOnly() throws {
        let result = try Self.checkDocs(["./scripts/test-quick.sh   # the root package's tests (swift test)", "./scripts/test-quick.sh --filter TakeLastTests"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("skip: \(result.where): ./scripts/test-quick.sh   # the root package's tests (swift test) (test-all.sh's swift test step runs the whole suite)"),
                "\(result.output)")
        #expect(result.output.contains("ok:   \(result.where): ./scripts/test-quick.sh --filter TakeLastTests (3 XCTest"), "\(result.output)")
        #expect(result.output.contains("documentation: 1 passed, 0 failed, 1 skipped"), "\(result.output)")
    }

    @Test("check-doc-commands.sh skips a line of test-all.sh whatever its comment holds: an apostrophe, a quoted #")
    func checkDocCommandsRecognisesTestAllLinesBehindAnyComment() throws {
        let result = try Self.checkDocs([
            "swift test --package-path Examples   # the Examples package's tests",
            "swift test --filter 'Some#Thing'   # a # inside quotes is an argument",
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("skip: \(result.where): swift test --package-path Examples   # the Examples package's tests (scripts/test-all.sh runs exactly this"),
                "\(result.output)")
        // Not a line of test-all.sh once its comment is gone: run.
        #expect(result.output.contains("ok:   \(result.where): swift test --filter 'Some#Thing'"), "\(result.output)")
        #expect(result.output.contains("documentation: 1 passed, 0 failed, 1 skipped"), "\(result.output)")
    }
}
