@testable import Ripple
import XCTest

/// How an operator site finds the module a frame belongs to: from the symbol's
/// mangled name (`$s` or `$e`, optionally with a leading underscore, then the
/// module name's length and the name).
final class OperatorSitesTests: XCTestCase {
    func testTheModuleComesFromTheLengthAndTheName() {
        XCTAssertEqual(OperatorSites.moduleName(ofMangled: "$s6Ripple3MapV"), "Ripple")
        XCTAssertEqual(OperatorSites.moduleName(ofMangled: "_$s10RippleHTTP7SessionC"), "RippleHTTP")
        XCTAssertEqual(OperatorSites.moduleName(ofMangled: "$e4main3AppV"), "main")
        XCTAssertEqual(OperatorSites.moduleName(ofMangled: "_$e1Xyz"), "X")
        // Exactly as long as the length says.
        XCTAssertEqual(OperatorSites.moduleName(ofMangled: "$s3Abc"), "Abc")
    }

    func testNamesThatAreNotSwiftSymbolsHaveNoModule() {
        for name in ["", "main", "_ZN3foo3barEv", "$", "$s", "$x6Ripple", "s6Ripple"] {
            XCTAssertNil(OperatorSites.moduleName(ofMangled: name), name)
        }
    }

    func testLengthsThatDoNotFitAreRejected() {
        // No digits, a zero length, a name shorter than its length.
        XCTAssertNil(OperatorSites.moduleName(ofMangled: "$sRipple"))
        XCTAssertNil(OperatorSites.moduleName(ofMangled: "$s0Ripple"))
        XCTAssertNil(OperatorSites.moduleName(ofMangled: "$s7Ripple"))
        XCTAssertNil(OperatorSites.moduleName(ofMangled: "$s99Ripple"))
        // A length past any integer: no overflow, no module.
        XCTAssertNil(OperatorSites.moduleName(ofMangled: "$s" + String(repeating: "9", count: 40) + "Ripple"))
        XCTAssertNil(OperatorSites.moduleName(ofMangled: "$s12345678901Ripple"))
    }
}
