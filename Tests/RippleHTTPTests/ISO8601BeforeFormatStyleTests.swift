import Foundation
@testable import RippleHTTP
import XCTest

/// The ISO-8601 code that RippleHTTP runs on Apple systems older than macOS 12 /
/// iOS 15 (no `Date.ISO8601FormatStyle` there), run here against the same dates
/// as the format style.
final class ISO8601BeforeFormatStyleTests: XCTestCase {
    func testParsesWhatTheFormatStyleParses() {
        for (text, expected) in [
            ("2024-05-01T12:00:00Z", 1_714_564_800.0),
            ("2024-05-01T12:00:00.5Z", 1_714_564_800.5),
            ("2024-05-01T14:00:00+02:00", 1_714_564_800.0),
            ("2024-05-01T14:00:00.125+02:00", 1_714_564_800.125),
        ] {
            let date = ISO8601BeforeFormatStyle.parse(text)
            XCTAssertEqual(date?.timeIntervalSince1970 ?? -1, expected, accuracy: 0.0005, text)
            XCTAssertEqual(date, JSONDecoder.parseISO8601(text), text)
        }
        XCTAssertNil(ISO8601BeforeFormatStyle.parse("yesterday"))
        XCTAssertNil(ISO8601BeforeFormatStyle.parse("2024-05-01"))
    }

    func testKeepsMillisecondsOnly() throws {
        let date = try XCTUnwrap(ISO8601BeforeFormatStyle.parse("2024-05-01T12:00:00.123456Z"))
        XCTAssertEqual(date.timeIntervalSince1970, 1_714_564_800.123, accuracy: 0.0000005)
    }

    func testFormatsAsTheFormatStyleDoes() {
        for seconds in [0, 0.25, 1_714_564_800.25, 1_714_564_800] {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(.string(ISO8601BeforeFormatStyle.format(date)), date.httpParameterValue)
        }
    }
}
