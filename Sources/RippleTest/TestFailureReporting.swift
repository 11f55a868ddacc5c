import XCTest
#if canImport(Testing)
import Testing
#endif

/// Where an assertion was written, in the forms both test frameworks want.
struct AssertionLocation: Sendable {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt
}

/// Reports a failed assertion to the test framework running the current test:
/// Swift Testing (an `Issue` at the assertion's source location) when called from
/// a Swift Testing test, XCTest (`XCTFail` with file and line) otherwise.
///
/// Nothing here asserts the main thread: Swift Testing runs tests in parallel,
/// off the main thread.
enum TestFailure {
    static func report(_ message: String, at location: AssertionLocation) {
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: location.fileID, filePath: "\(location.filePath)",
                    line: Int(location.line), column: Int(location.column)
                )
            )
            return
        }
        #endif
        XCTFail(message, file: location.filePath, line: location.line)
    }

    /// Reports `message` to the running test where no call site is known: an
    /// `Issue` at the test's declaration under Swift Testing, `XCTFail` under
    /// XCTest.
    static func report(_ message: String) {
        #if canImport(Testing)
        if let test = Test.current {
            Issue.record(Comment(rawValue: message), sourceLocation: test.sourceLocation)
            return
        }
        #endif
        XCTFail(message)
    }

    /// Whether the caller runs inside a Swift Testing test.
    static var isSwiftTesting: Bool {
        #if canImport(Testing)
        return Test.current != nil
        #else
        return false
        #endif
    }
}
