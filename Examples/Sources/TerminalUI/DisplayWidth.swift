/// How many terminal columns text takes, one grapheme cluster (`Character`) at a time.
///
/// - East Asian Wide and Fullwidth characters (CJK ideographs, kana, Hangul
///   syllables, fullwidth forms) take 2 columns;
/// - emoji shown as emoji take 2: characters whose default presentation is emoji
///   (`👍`), text-default ones followed by U+FE0F (`❤️`), flags (two regional
///   indicators) and ZWJ sequences, whose modifiers and joined parts add nothing;
/// - a cluster of only combining marks, format characters (zero-width space and
///   joiners, variation selectors) or control characters takes 0;
/// - everything else takes 1.
///
/// A cluster's width is its first scalar's, so `e` + U+0301 is 1 and `👍🏽` is 2. The
/// wide ranges are the large blocks of Unicode's `EastAsianWidth.txt` (W and F); a
/// rare wide symbol outside them counts as 1, which costs a misplaced cursor, not a
/// crash.
public enum DisplayWidth {
    /// The columns `text` takes.
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let properties = first.properties
        if properties.isEmojiPresentation { return 2 }
        if properties.isEmoji, scalars.contains(variationSelector16) { return 2 }
        if isZeroWidth(first) { return 0 }
        return isWide(first.value) ? 2 : 1
    }

    /// The longest prefix of `text` that fits in `width` columns.
    public static func prefix(_ text: String, fitting width: Int) -> Substring {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let next = used + of(text[index])
            if next > width { break }
            used = next
            end = text.index(after: index)
        }
        return text[..<end]
    }

    private static let variationSelector16: Unicode.Scalar = "\u{FE0F}"

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return true
        default:
            // Hangul medial vowels and final consonants join the preceding syllable.
            return (0x1160...0x11FF).contains(scalar.value)
        }
    }

    static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks, sorted. Emoji are handled by
    /// their presentation property instead.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x2329...0x232A,    // angle brackets
        0x2E80...0x303E,    // CJK radicals, Kangxi radicals, CJK symbols and punctuation
        0x3041...0x33FF,    // kana, Bopomofo, Hangul compatibility Jamo, enclosed CJK, CJK compatibility
        0x3400...0x4DBF,    // CJK extension A
        0x4E00...0x9FFF,    // CJK unified ideographs
        0xA000...0xA4CF,    // Yi
        0xA960...0xA97F,    // Hangul Jamo extended A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x17000...0x18CFF,  // Tangut
        0x1B000...0x1B2FF,  // kana supplement and extensions, Nüshu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B to F, compatibility supplement
        0x30000...0x3FFFD,  // CJK extensions G and H
    ]
}
