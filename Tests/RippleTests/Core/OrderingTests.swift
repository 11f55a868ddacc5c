import Ripple
import RippleTest
import XCTest

/// The sort Ripple uses for its own data (`Ordering.swift`; RippleHTTPTests'
/// `NameOrderingTests` sorts by string keys, as RippleHTTP does).
final class OrderingTests: RippleTestCase {
    func testSortedByIntegerKeyIsAscendingAndKeepsTheOrderOfEqualKeys() {
        // 200 elements, keys 0...6 in a scrambled order; `tag` is the original position.
        let elements = (0..<200).map { (key: UInt64(($0 * 37) % 7), tag: $0) }
        let sorted = elements.sorted(byKey: \.key)
        XCTAssertEqual(sorted.map(\.key), elements.map(\.key).sorted())
        for key in UInt64(0)..<7 {
            let tags = sorted.filter { $0.key == key }.map(\.tag)
            XCTAssertFalse(tags.isEmpty)
            XCTAssertEqual(tags, tags.sorted(), "equal keys keep their order (key \(key))")
        }
        XCTAssertEqual([UInt64.max, 0, 1 << 63].sorted(byKey: { $0 }), [0, 1 << 63, UInt64.max])
    }

    func testSortedByKeyComputesEachKeyOnce() {
        var calls = 0
        let sorted = [UInt64(4), 1, 3, 2].sorted(byKey: { (value: UInt64) -> UInt64 in
            calls += 1
            return value
        })
        XCTAssertEqual(sorted, [1, 2, 3, 4])
        XCTAssertEqual(calls, 4)
    }

    func testSortedByKeyOfEmptyAndSingleSequences() {
        XCTAssertEqual([UInt64]().sorted(byKey: { $0 }), [])
        XCTAssertEqual([UInt64(42)].sorted(byKey: { $0 }), [42])
        XCTAssertEqual(Set<UInt64>([3, 1, 2]).sorted(byKey: { $0 }), [1, 2, 3])
        XCTAssertEqual([UInt64(2): "b", 1: "a"].sorted(byKey: \.key).map(\.value), ["a", "b"])
    }

    func testSortedByKeyRethrows() {
        struct KeyFailure: Error {}
        XCTAssertThrowsError(try [UInt64(1), 2, 3].sorted(byKey: { value -> UInt64 in
            if value == 2 { throw KeyFailure() }
            return value
        })) { XCTAssertTrue($0 is KeyFailure) }
    }

    func testOrderedPositions() {
        XCTAssertEqual(orderedPositions(ascending: [UInt64(30), 10, 20, 10]), [1, 3, 2, 0])
        XCTAssertEqual(orderedPositions(ascending: [UInt64]()), [])
    }
}
