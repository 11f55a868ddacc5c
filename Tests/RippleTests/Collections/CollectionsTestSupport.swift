import Ripple
import RippleCollections
import RippleTest
import XCTest

/// An element with an identity and contents, to exercise updates.
struct Item: Identifiable, Hashable, CustomStringConvertible {
    var id: Int
    var text: String

    init(_ id: Int, _ text: String = "") {
        self.id = id
        self.text = text
    }

    var description: String { text.isEmpty ? "\(id)" : "\(id):\(text)" }
}

/// An `Identifiable & Equatable` element that is not `Hashable`.
struct Row: Identifiable, Equatable {
    var id: Int
    var value: Int
}

/// An independent reading of UIKit's batch-update convention, used as the oracle
/// for every change: delete the deleted rows and the move sources (old indices,
/// from the bottom up), insert the inserted rows and the move destinations (new
/// indices, from the top down), then reload the updated rows where they ended up.
///
/// Returns `nil` (and the reason) when the edits break the convention: an index
/// out of range, used twice, an update of a deleted or moved row.
func simulateBatchUpdate<T>(_ edits: [ArrayEdit], from old: [T], to new: [T]) -> (result: [T]?, problem: String?) {
    var removals = Set<Int>()
    var placements: [Int: (old: Int?, Void)] = [:]
    var updates = Set<Int>()
    for edit in edits {
        switch edit {
        case .delete(let index), .move(let index, _):
            guard old.indices.contains(index), removals.insert(index).inserted else {
                return (nil, "bad old index \(index) in \(edit)")
            }
        case .insert, .update:
            break
        }
        switch edit {
        case .insert(let index):
            guard new.indices.contains(index), placements[index] == nil else { return (nil, "bad new index in \(edit)") }
            placements[index] = (nil, ())
        case .move(let from, let to):
            guard new.indices.contains(to), placements[to] == nil else { return (nil, "bad new index in \(edit)") }
            placements[to] = (from, ())
        case .update(let index):
            guard old.indices.contains(index), updates.insert(index).inserted else { return (nil, "bad update \(edit)") }
        case .delete:
            break
        }
    }
    if !updates.isDisjoint(with: removals) { return (nil, "update of a removed row") }
    // Tag each old row with (old index, value).
    var rows: [(old: Int?, value: T)] = old.enumerated().map { ($0.offset, $0.element) }
    for index in removals.sorted(by: >) { rows.remove(at: index) }
    for index in placements.keys.sorted() {
        guard index <= rows.count else { return (nil, "insertion past the end at \(index)") }
        if let from = placements[index]!.old {
            rows.insert((from, old[from]), at: index)
        } else {
            rows.insert((nil, new[index]), at: index)
        }
    }
    guard rows.count == new.count else { return (nil, "count \(rows.count), expected \(new.count)") }
    for (index, row) in rows.enumerated() {
        if let from = row.old, updates.contains(from) {
            rows[index].value = new[index]
        }
    }
    return (rows.map(\.value), nil)
}

/// Asserts the invariant every change must satisfy: its edits, read as a UIKit
/// batch update, turn `old` into `change.elements`, and `apply(to:)` does too.
func assertApplies<T: Equatable>(
    _ change: ArrayChange<T>, to old: [T], _ context: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    if change.isInitial {
        XCTAssertTrue(change.edits.isEmpty, "an initial change has no edits", file: file, line: line)
        return
    }
    let (simulated, problem) = simulateBatchUpdate(change.edits, from: old, to: change.elements)
    guard let simulated else {
        XCTFail("\(problem ?? "") — edits \(change.edits) from \(old) to \(change.elements) \(context())", file: file, line: line)
        return
    }
    XCTAssertEqual(simulated, change.elements, "batch update of \(old) by \(change.edits) \(context())", file: file, line: line)
    var applied = old
    change.apply(to: &applied)
    XCTAssertEqual(applied, change.elements, "apply(to:) \(context())", file: file, line: line)
}

/// Asserts that `changes` is a well-formed change stream: an initial change
/// first, then changes that each apply to the previous elements.
func assertChangeStream<T: Equatable>(_ changes: [ArrayChange<T>], file: StaticString = #filePath, line: UInt = #line) {
    guard let first = changes.first else { return }
    XCTAssertTrue(first.isInitial, "the first change is initial", file: file, line: line)
    var current = first.elements
    for change in changes.dropFirst() {
        XCTAssertFalse(change.isInitial, file: file, line: line)
        assertApplies(change, to: current, file: file, line: line)
        current = change.elements
    }
}

/// Random arrays for property tests: small values (many duplicates), sometimes
/// empty, sometimes a related array (a few edits away), sometimes unrelated.
extension SeededRandomNumberGenerator {
    mutating func array(maxCount: Int = 12, values: Int = 8) -> [Int] {
        let count = Int.random(in: 0...maxCount, using: &self)
        return (0..<count).map { _ in Int.random(in: 0..<values, using: &self) }
    }

    mutating func edited(_ array: [Int], values: Int = 8) -> [Int] {
        var result = array
        for _ in 0..<Int.random(in: 0...4, using: &self) {
            switch Int.random(in: 0..<4, using: &self) {
            case 0:
                result.insert(Int.random(in: 0..<values, using: &self), at: Int.random(in: 0...result.count, using: &self))
            case 1 where !result.isEmpty:
                result.remove(at: Int.random(in: 0..<result.count, using: &self))
            case 2 where !result.isEmpty:
                let element = result.remove(at: Int.random(in: 0..<result.count, using: &self))
                result.insert(element, at: Int.random(in: 0...result.count, using: &self))
            default:
                if !result.isEmpty {
                    result[Int.random(in: 0..<result.count, using: &self)] = Int.random(in: 0..<values, using: &self)
                }
            }
        }
        return result
    }

    /// A pair (old, new) of one of the shapes above.
    mutating func pair() -> ([Int], [Int]) {
        let old = array()
        switch Int.random(in: 0..<5, using: &self) {
        case 0: return (old, [])
        case 1: return ([], old)
        case 2: return (old, array())
        default: return (old, edited(old))
        }
    }
}

/// Set once, from any thread.
final class ReleaseFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}

/// Sets its flag when it is deallocated: captured by a handler, it tells when the
/// handler (and what holds it) was released.
final class ReleaseToken: Sendable {
    let flag: ReleaseFlag

    init(_ flag: ReleaseFlag) { self.flag = flag }

    deinit { flag.set() }
}
