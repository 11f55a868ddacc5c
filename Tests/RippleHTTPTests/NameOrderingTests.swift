import Ripple
import RippleHTTP
import XCTest

/// Ripple's sort by key (`Ordering.swift`) with string keys, as RippleHTTP uses
/// it: header fields, parameters from a dictionary.
final class NameOrderingTests: XCTestCase {
    func testSortedByStringKeyIsAscendingAndKeepsTheOrderOfEqualKeys() {
        let names = ["Set-Cookie", "accept", "set-cookie", "Accept", "X-Trace", "SET-COOKIE"]
        XCTAssertEqual(
            names.sorted(byKey: { $0.lowercased() }),
            ["accept", "Accept", "Set-Cookie", "set-cookie", "SET-COOKIE", "X-Trace"]
        )
        XCTAssertEqual(names.sorted(byKey: { $0 }), names.sorted())
    }

    func testSortedByKeyComputesEachKeyOnce() {
        var calls = 0
        let sorted = ["delta", "Alpha", "charlie", "Bravo"].sorted(byKey: { (name: String) -> String in
            calls += 1
            return name.lowercased()
        })
        XCTAssertEqual(sorted, ["Alpha", "Bravo", "charlie", "delta"])
        XCTAssertEqual(calls, 4)
    }

    func testOrderedPositionsOfStringKeys() {
        XCTAssertEqual(orderedPositions(ascending: ["b", "a", "b", "a"]), [1, 3, 0, 2])
        XCTAssertEqual(orderedPositions(ascending: [String]()), [])
    }

    func testHeadersAndParametersFromDictionariesAreSortedByName() {
        let headers = HTTPHeaders(["X-Trace": "1", "Accept": "text/plain", "Content-Type": "text/plain"])
        XCTAssertEqual(headers.fields.map(\.name), ["Accept", "Content-Type", "X-Trace"])
        let parameters = HTTPParameters(["page": 2, "q": "swift", "limit": 10])
        XCTAssertEqual(try parameters.percentEncodedQuery(), "limit=10&page=2&q=swift")
    }
}
