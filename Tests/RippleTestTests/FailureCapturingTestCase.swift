import XCTest

/// An `XCTestCase` that captures the failures XCTest would record while
/// ``capture(_:)`` runs, to check what an assertion helper reports and where.
class FailureCapturingTestCase: XCTestCase {
    struct CapturedFailure {
        let description: String
        let file: String
        let line: Int
    }

    private var captured: [CapturedFailure] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append(CapturedFailure(description: description, file: filePath, line: lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    /// The failures `body` records; none reaches XCTest.
    func capture(_ body: () throws -> Void) rethrows -> [CapturedFailure] {
        captured = []
        capturing = true
        defer { capturing = false }
        try body()
        return captured
    }
}
