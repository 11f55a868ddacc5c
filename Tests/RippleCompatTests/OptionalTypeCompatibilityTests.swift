import Ripple
import RippleCompatFixture
import XCTest

// This file imports Ripple and a module declaring `OptionalType` and
// `filterNil()` as RxOptional and RxSwiftExt do. Both names must resolve to the
// other library's declarations, without "ambiguous use" errors.

/// Uses `OptionalType` unqualified; `value` only exists on the other library's.
private func unwrapped<Wrapper: OptionalType>(_ wrapper: Wrapper) -> Wrapper.Wrapped? {
    wrapper.value
}

extension ObservableType where Element: OptionalType {
    /// A user extension over `OptionalType`, as apps write them.
    fileprivate func countingNils() -> Observable<Int> {
        scan(0) { count, element in element.value == nil ? count + 1 : count }
    }
}

final class OptionalTypeCompatibilityTests: XCTestCase {
    private func elements<Element>(_ source: Observable<Element>) -> [Element] {
        var elements: [Element] = []
        _ = source.subscribe(onNext: { elements.append($0) })
        return elements
    }

    func testFilterNilResolvesToTheOtherLibrarysDeclaration() {
        let before = FixtureCalls.filterNil.withLock { $0 }
        let source: Observable<Int?> = .of(1, nil, 3)
        XCTAssertEqual(elements(source.filterNil()), [1, 3])
        XCTAssertEqual(FixtureCalls.filterNil.withLock { $0 }, before + 1)
    }

    func testOptionalTypeResolvesToTheOtherLibrarysProtocol() {
        XCTAssertEqual(unwrapped(Optional(4)), 4)
        XCTAssertNil(unwrapped(Int?.none))
        let source: Observable<String?> = .of("a", nil, nil, "b")
        XCTAssertEqual(elements(source.countingNils()), [0, 1, 2, 2])
    }

    func testRipplesOptionalConvertibleStaysUsable() {
        let source: Observable<Int?> = .of(nil, 2)
        func rippleUnwrapped<Wrapper: OptionalConvertible>(_ wrapper: Wrapper) -> Wrapper.Wrapped? {
            wrapper.optional
        }
        XCTAssertEqual(rippleUnwrapped(Optional(5)), 5)
        XCTAssertEqual(elements(source.compactMap { $0 }), [2])
    }
}
