import Foundation

/// Finds where an XCTest test method is written, so that a failure found after
/// the test body ran (``RippleTestCase``'s leak check, in `tearDown()`) is reported
/// at the test instead of inside this library.
///
/// XCTest knows a test by name only (`-[SearchTests testQuery]` on Apple
/// platforms, `SearchTests.testQuery` elsewhere). The sources are looked up under
/// the working directory's `Tests` folder, where `swift test` runs: the first
/// `func testQuery(` in a file that declares or extends `SearchTests`.
enum TestSourceLocator {
    struct Location: Equatable {
        let file: String
        let line: Int
    }

    /// The class and method of an XCTest test name, in either form.
    static func components(ofTestName name: String) -> (type: String, method: String)? {
        var trimmed = name
        if trimmed.hasPrefix("-[") && trimmed.hasSuffix("]") {
            trimmed = String(trimmed.dropFirst(2).dropLast())
            let parts = trimmed.split(separator: " ")
            guard parts.count == 2 else { return nil }
            return (String(parts[0].split(separator: ".").last ?? parts[0]), String(parts[1]))
        }
        let parts = trimmed.split(separator: ".")
        guard parts.count >= 2 else { return nil }
        return (String(parts[parts.count - 2]), String(parts[parts.count - 1]))
    }

    /// Where the test `name` is declared, if its source can be found under
    /// `root` (the working directory by default).
    static func location(ofTest name: String, root: String = FileManager.default.currentDirectoryPath) -> Location? {
        guard let (type, method) = components(ofTestName: name) else { return nil }
        let testsFolder = (root as NSString).appendingPathComponent("Tests")
        guard let files = FileManager.default.enumerator(atPath: testsFolder) else { return nil }
        let declaration = "func \(method)("
        for case let relativePath as String in files where relativePath.hasSuffix(".swift") {
            let path = (testsFolder as NSString).appendingPathComponent(relativePath)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                  text.contains(declaration),
                  text.contains("class \(type)") || text.contains("extension \(type)")
            else { continue }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(declaration) {
                return Location(file: path, line: index + 1)
            }
        }
        return nil
    }
}
