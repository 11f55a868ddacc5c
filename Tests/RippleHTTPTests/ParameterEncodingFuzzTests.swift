import Foundation
import RippleHTTP
import RippleTest
import XCTest

/// Seeded random inputs for query and form encoding: the encoder never traps, its
/// output uses only unreserved characters and `%XX`, and it decodes back (by
/// `URLComponents` and by percent-decoding) to exactly the pairs that went in.
final class ParameterEncodingFuzzTests: HTTPTestCase {
    /// Characters that stress an encoder: reserved and sub-delimiters, `%`
    /// and `+`, controls, non-ASCII of every UTF-8 length, a combining mark,
    /// a zero-width joiner sequence and a flag.
    static let alphabet: [String] = Array("abcXYZ019-._~ &=+?/#%[]!$'()*,;:@\"<>\\^`{|}").map(String.init)
        + ["\0", "\n", "\r", "\t", "\u{7F}", "é", "ß", "€", "中", "\u{FFFD}", "\u{FEFF}", "e\u{301}", "🚀", "👩‍👩‍👧", "🇫🇷", "%20", "%zz", "%"]

    static let alphabetBytes = alphabet.map { Array($0.utf8) }

    static func randomString(_ generator: inout SeededRandomNumberGenerator) -> String {
        let length: Int
        switch generator.below(2000) {
        case 0..<200: length = 0                              // empty
        case 200: length = 1000 + generator.below(3000)       // very long
        default: length = 1 + generator.below(12)
        }
        var bytes: [UInt8] = []
        for _ in 0..<length {
            bytes += alphabetBytes[generator.below(alphabetBytes.count)]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let allowed: [Bool] = (0..<256).map { byte in
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~&=".utf8.contains(UInt8(byte))
    }

    static func usesOnlyAllowedBytes(_ query: String) -> Bool {
        var bytes = Array(query.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%") {
                let hex = bytes.prefix(2)
                guard hex.count == 2, hex.allSatisfy({ (48...57).contains($0) || (65...70).contains($0) }) else { return false }
                bytes = bytes.dropFirst(2)
            } else if !allowed[Int(byte)] {
                return false
            }
        }
        return true
    }

    static func percentDecoded(_ text: Substring) -> [UInt8] {
        var result: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%"), bytes.count >= 2, let high = hexValue(bytes[bytes.startIndex]),
               let low = hexValue(bytes[bytes.startIndex + 1])
            {
                result.append(high << 4 | low)
                bytes = bytes.dropFirst(2)
            } else {
                result.append(byte)
            }
        }
        return result
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    static func droppingBOM(_ text: String) -> String {
        text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }

    /// 100 000 random parameter lists (about 5 s of CPU in a debug build).
    func testRandomParametersRoundTripThroughTheQueryEncoding() throws {
        var generator = SeededRandomNumberGenerator(seed: 0x5249_5050_4C45)   // "RIPPLE"
        var encodedCount = 0, rejectedCount = 0
        for _ in 0..<100_000 {
            // Names are unique (a repeated name replaces the earlier value) and
            // may be empty (the encoder then refuses the list).
            var parameters = HTTPParameters()
            var expected: [(String, String)] = []
            var hasEmptyName = false
            for _ in 0..<generator.below(4) {
                let name = Self.randomString(&generator)
                guard parameters[name] == nil else { continue }
                hasEmptyName = hasEmptyName || name.isEmpty
                if generator.below(5) == 0 {
                    let values = (0..<generator.below(3)).map { _ in Self.randomString(&generator) }
                    parameters[name] = .array(values.map(HTTPParameterValue.string))
                    expected += values.map { (name, $0) }
                } else {
                    let value = Self.randomString(&generator)
                    parameters[name] = .string(value)
                    expected.append((name, value))
                }
            }

            let query: String
            do {
                query = try parameters.percentEncodedQuery()
            } catch let error as HTTPError {
                XCTAssertTrue(hasEmptyName, "\(error)")
                XCTAssertEqual(error.kind, .invalidRequest)
                rejectedCount += 1
                continue
            }
            XCTAssertFalse(hasEmptyName, "an empty name was accepted: \(query)")
            encodedCount += 1

            // Only unreserved characters, & and =, and %XX with uppercase hex.
            XCTAssertTrue(Self.usesOnlyAllowedBytes(query), query)

            // Decoded by hand, byte for byte: split on & and =, then percent-decode.
            let decoded = query.isEmpty ? [] : query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> ([UInt8], [UInt8]) in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (Self.percentDecoded(parts[0]), parts.count > 1 ? Self.percentDecoded(parts[1]) : Array("<no =>".utf8))
            }
            XCTAssertTrue(decoded.elementsEqual(expected.map { (Array($0.utf8), Array($1.utf8)) }, by: ==), "\(query)")

            // Decoded by Foundation, which drops a byte order mark at the start
            // of a decoded name or value (a quirk of its UTF-8 decoding, not of
            // the encoding: the bytes above are exact).
            var components = URLComponents()
            components.percentEncodedQuery = query
            let items = (components.queryItems ?? []).map { ($0.name, $0.value ?? "<nil>") }
            XCTAssertTrue(items.elementsEqual(expected.map { (Self.droppingBOM($0), Self.droppingBOM($1)) }, by: ==), "\(query)")

            // A form body is the same text.
            XCTAssertEqual(try parameters.formEncodedData(), Data(query.utf8))
        }
        XCTAssertGreaterThan(encodedCount, 80_000)
        XCTAssertGreaterThan(rejectedCount, 1_000, "empty names were generated and refused")
    }
}
