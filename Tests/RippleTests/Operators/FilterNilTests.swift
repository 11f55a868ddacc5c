import Ripple
import RippleTest
import XCTest

/// Ripple's `filterNil()` and `OptionalConvertible` for a file that imports
/// Ripple alone (`RippleCompatTests` covers a file that also imports a library
/// declaring `OptionalType` and `filterNil()`).
final class FilterNilTests: XCTestCase {
    func testFilterNilSkipsNils() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Optional(1)), .next(220, nil), .next(230, 3), .completed(240)])
        let res = scheduler.start { xs.filterNil() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .completed(240)])
    }

    func testOptionalConvertibleIsUsableInConstraints() {
        func unwrapped<Wrapper: OptionalConvertible>(_ wrapper: Wrapper) -> Wrapper.Wrapped? { wrapper.optional }
        XCTAssertEqual(unwrapped(Optional("a")), "a")
        XCTAssertNil(unwrapped(String?.none))
    }
}
