/// A key press read from the terminal.
public indirect enum Key: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A printable character (including space).
    case character(Character)
    case enter
    case escape
    case backspace
    case tab
    case backTab
    case up
    case down
    case left
    case right
    case home
    case end
    case pageUp
    case pageDown
    case delete
    /// Ctrl plus a letter, lower-cased: `.control("c")` is Ctrl-C.
    case control(Character)
    /// Alt (Meta) plus a key, which a terminal sends as Esc followed by the key:
    /// `.alt(.character("b"))` is Alt+B, `.alt(.backspace)` Alt+Backspace.
    case alt(Key)
    /// A function key, F1 to F12.
    case function(Int)
    /// Text pasted while the terminal is in bracketed-paste mode, as one key (line
    /// breaks and tabs included, as pasted).
    case paste(String)
    /// A sequence the decoder does not know.
    case unknown([UInt8])

    public var description: String {
        switch self {
        case .character(let character): return "'\(character)'"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PageUp"
        case .pageDown: return "PageDown"
        case .delete: return "Delete"
        case .control(let character): return "Ctrl-\(character.uppercased())"
        case .alt(.character(let character)): return "Alt-\(character)"
        case .alt(let key): return "Alt-\(key)"
        case .function(let number): return "F\(number)"
        case .paste(let text): return "paste(\(text.debugDescription))"
        case .unknown(let bytes): return "unknown(\(bytes))"
        }
    }
}

/// Turns the raw bytes a terminal in raw mode sends into ``Key``s: UTF-8
/// characters, control keys, and what starts with `ESC`: CSI sequences (`ESC [`,
/// arrows, Home, Delete, F5 to F12), SS3 sequences (`ESC O`: F1 to F4, arrows in
/// application mode) and Alt (Meta) combinations (`ESC` followed by a key).
///
/// With bracketed paste on (``Terminal`` turns it on), pasted text arrives between
/// `ESC [ 200 ~` and `ESC [ 201 ~` and is reported as one ``Key/paste(_:)``, so that
/// a pasted line break is not taken for Enter.
///
/// Bytes may arrive split across reads: an incomplete UTF-8 character or escape
/// sequence at the end of a chunk is kept for the next one. That includes a lone
/// `ESC`, which may be the start of a sequence: the reader waits a moment
/// (``escapeDelay``) for more bytes and then calls ``flush()``, which reports it as
/// ``Key/escape``. A terminal sends a whole sequence in one write, so the wait
/// only delays the Esc key itself.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// How long a reader waits after a lone `ESC` before taking it for the Esc key
    /// (25 ms: Emacs and readline use similar delays, tmux and Vim defaults are
    /// longer; a terminal sends the rest of a sequence in the same write).
    public static let escapeDelay: Double = 0.025

    public init() {}

    /// `true` when bytes wait for the rest of a sequence or a character, which
    /// ``flush()`` reports if nothing more comes within ``escapeDelay``. A paste
    /// that has started is not waiting in that sense: its end may come much later.
    public var isWaitingForMore: Bool { !pending.isEmpty && !pending.starts(with: Self.pasteStart) }

    /// Reports what is pending as complete keys: called when no more bytes came
    /// within ``escapeDelay``. A lone `ESC` is the Esc key; `ESC [` or `ESC O` with
    /// nothing after them is Alt+`[` or Alt+`O`; an incomplete UTF-8 character is
    /// ``Key/unknown(_:)``; an unterminated paste is pasted as it is.
    public mutating func flush() -> [Key] {
        var keys: [Key] = []
        while !pending.isEmpty {
            let (key, length) = decode(at: 0) ?? flushKey()
            keys.append(key)
            pending.removeFirst(length)
        }
        return keys
    }

    /// The key of an incomplete sequence at the start of `pending`, taken as it is.
    private func flushKey() -> (Key, Int) {
        guard pending[0] == 0x1B else { return (.unknown(pending), pending.count) }
        if pending.count == 1 { return (.escape, 1) }
        if pending.starts(with: Self.pasteStart) {
            return (.paste(String(decoding: pending.dropFirst(Self.pasteStart.count), as: UTF8.self)), pending.count)
        }
        if pending.count == 2, pending[1] < 0x80 { return (.alt(.character(Character(UnicodeScalar(pending[1])))), 2) }
        return (.unknown(pending), pending.count)
    }

    /// The keys of `bytes`, decoded as if nothing came after them (``feed(_:)`` then
    /// ``flush()``).
    public static func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(bytes) + decoder.flush()
    }

    /// Decodes `bytes` (appended to what is pending).
    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = decode(at: index) else { break }
            keys.append(key)
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// The key starting at `index` and its length in bytes, or `nil` if more bytes
    /// are needed.
    private func decode(at index: Int) -> (Key, Int)? {
        let byte = pending[index]
        switch byte {
        case 0x1B:
            return decodeEscape(at: index)
        case 0x0D, 0x0A:
            return (.enter, 1)
        case 0x09:
            return (.tab, 1)
        case 0x7F, 0x08:
            return (.backspace, 1)
        case 0x01...0x1A:
            return (.control(Character(UnicodeScalar(byte + 0x60))), 1)
        case 0x00...0x1F:
            return (.unknown([byte]), 1)
        default:
            return decodeUTF8(at: index)
        }
    }

    private func decodeEscape(at index: Int) -> (Key, Int)? {
        let remaining = pending.count - index
        // A lone ESC may be the start of a sequence: wait (see `flush`).
        if remaining == 1 { return nil }
        let introducer = pending[index + 1]
        switch introducer {
        case UInt8(ascii: "["):
            return decodeCSI(at: index)
        case UInt8(ascii: "O"):
            // SS3: exactly one more byte.
            guard remaining >= 3 else { return nil }
            return (key(forSS3: pending[index + 2]), 3)
        case 0x1B:
            // Esc pressed twice, or Esc then Alt+key: the first is Esc.
            return (.escape, 1)
        default:
            // Alt+key: ESC followed by the key's own bytes.
            guard let (key, length) = decode(at: index + 1) else { return nil }
            return (.alt(key), length + 1)
        }
    }

    /// `ESC [`, parameters and intermediates, then one final byte in 0x40...0x7E.
    private func decodeCSI(at index: Int) -> (Key, Int)? {
        var end = index + 2
        while end < pending.count {
            let byte = pending[end]
            if (0x40...0x7E).contains(byte) {
                let sequence = Array(pending[index...end])
                if sequence == Self.pasteStart {
                    return decodePaste(contentStart: end + 1, sequenceStart: index)
                }
                return (key(forCSI: sequence), end - index + 1)
            }
            guard (0x20...0x3F).contains(byte) else {
                // Not a sequence after all: Alt+[ and what follows.
                return (.alt(.character("[")), 2)
            }
            end += 1
        }
        return nil
    }

    static let pasteStart = Array("\u{1B}[200~".utf8)
    static let pasteEnd = Array("\u{1B}[201~".utf8)

    /// The pasted text up to the end marker, or `nil` while the marker has not arrived.
    private func decodePaste(contentStart: Int, sequenceStart: Int) -> (Key, Int)? {
        let marker = Self.pasteEnd
        var end = contentStart
        while end + marker.count <= pending.count {
            if pending[end] == marker[0], Array(pending[end..<end + marker.count]) == marker {
                let text = String(decoding: pending[contentStart..<end], as: UTF8.self)
                return (.paste(text), end + marker.count - sequenceStart)
            }
            end += 1
        }
        return nil
    }

    /// The key of a CSI sequence. Modifiers (`ESC [ 1 ; 5 C`, Ctrl+Right) are
    /// ignored, except Alt (3) on an arrow.
    private func key(forCSI sequence: [UInt8]) -> Key {
        let final = sequence.last!
        let parameters = String(decoding: sequence.dropFirst(2).dropLast(), as: UTF8.self)
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
        let number = fields.first.flatMap { Int($0) }
        let alt = fields.count > 1 && fields[1] == "3"
        let key: Key
        switch final {
        case UInt8(ascii: "A"): key = .up
        case UInt8(ascii: "B"): key = .down
        case UInt8(ascii: "C"): key = .right
        case UInt8(ascii: "D"): key = .left
        case UInt8(ascii: "H"): key = .home
        case UInt8(ascii: "F"): key = .end
        case UInt8(ascii: "Z"): key = .backTab
        case UInt8(ascii: "P"): key = .function(1)
        case UInt8(ascii: "Q"): key = .function(2)
        case UInt8(ascii: "R"): key = .function(3)
        case UInt8(ascii: "S"): key = .function(4)
        case UInt8(ascii: "~"):
            switch number {
            case 1, 7: key = .home
            case 4, 8: key = .end
            case 3: key = .delete
            case 5: key = .pageUp
            case 6: key = .pageDown
            case 11, 12, 13, 14, 15: key = .function(number! - 10)
            case 17, 18, 19, 20, 21: key = .function(number! - 11)
            case 23, 24: key = .function(number! - 12)
            default: return .unknown(sequence)
            }
        default: return .unknown(sequence)
        }
        return alt ? .alt(key) : key
    }

    /// The key of `ESC O` and `final`: F1 to F4, and the arrows, Home and End of a
    /// terminal in application cursor mode.
    private func key(forSS3 final: UInt8) -> Key {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "P"): return .function(1)
        case UInt8(ascii: "Q"): return .function(2)
        case UInt8(ascii: "R"): return .function(3)
        case UInt8(ascii: "S"): return .function(4)
        default: return .unknown([0x1B, UInt8(ascii: "O"), final])
        }
    }

    private func decodeUTF8(at index: Int) -> (Key, Int)? {
        let lead = pending[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.unknown([lead]), 1)
        }
        guard index + length <= pending.count else { return nil }
        let bytes = Array(pending[index..<index + length])
        guard let string = String(validating: bytes, as: UTF8.self), let character = string.first else {
            return (.unknown(bytes), length)
        }
        return (.character(character), length)
    }
}
