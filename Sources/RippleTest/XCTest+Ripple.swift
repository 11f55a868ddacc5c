import Ripple
import XCTest

/// Asserts that two event lists are equal; on failure prints both lists, one event
/// per line, with the first difference marked.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Event<Element>], _ rhs: [Event<Element>], file: StaticString = #filePath, line: UInt = #line
) {
    if lhs == rhs { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that two recorded event lists are equal; on failure prints both lists
/// with the first difference marked.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>],
    file: StaticString = #filePath, line: UInt = #line
) {
    if lhs == rhs { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that two lists of `Single` outcomes are equal.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>], file: StaticString = #filePath, line: UInt = #line
) {
    if lhs.count == rhs.count && zip(lhs, rhs).allSatisfy({ $0 == $1 }) { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that two lists of `Maybe` outcomes are equal.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [MaybeEvent<Element>], _ rhs: [MaybeEvent<Element>], file: StaticString = #filePath, line: UInt = #line
) {
    if lhs == rhs { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that two lists of `Completable` outcomes are equal.
public func XCTAssertEqual(
    _ lhs: [CompletableEvent], _ rhs: [CompletableEvent], file: StaticString = #filePath, line: UInt = #line
) {
    if lhs == rhs { return }
    XCTFail(describeDifference(lhs, rhs), file: file, line: line)
}

/// Asserts that the `.next` elements of `stream` are `elements`, ignoring times
/// and terminal events.
public func XCTAssertRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath, line: UInt = #line
) {
    let actual = stream.compactMap { $0.value.element }
    if actual == elements { return }
    XCTFail(describeDifference(actual, elements), file: file, line: line)
}

/// Both lists, one item per line, the first differing line marked with `>`.
func describeDifference<T>(_ lhs: [T], _ rhs: [T]) -> String {
    let left = lhs.map { String(reflecting: $0) }
    let right = rhs.map { String(reflecting: $0) }
    let firstDifference = zip(left, right).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? Swift.min(left.count, right.count)
    func render(_ items: [String]) -> String {
        items.enumerated().map { index, item in
            (index == firstDifference ? "> " : "  ") + item
        }.joined(separator: "\n")
    }
    return """
    Events differ at index \(firstDifference).
    actual (\(left.count)):
    \(render(left))
    expected (\(right.count)):
    \(render(right))
    """
}
