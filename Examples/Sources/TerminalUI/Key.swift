/// A key press read from the terminal.
public enum Key: Equatable, Hashable, Sendable, CustomStringConvertible {
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
        case .paste(let text): return "paste(\(text.debugDescription))"
        case .unknown(let bytes): return "unknown(\(bytes))"
        }
    }
}

/// Turns the raw bytes a terminal in raw mode sends into ``Key``s: UTF-8
/// characters, control keys and the usual `ESC [` / `ESC O` escape sequences.
///
/// With bracketed paste on (``Terminal`` turns it on), pasted text arrives between
/// `ESC [ 200 ~` and `ESC [ 201 ~` and is reported as one ``Key/paste(_:)``, so that
/// a pasted line break is not taken for Enter.
///
/// Bytes may arrive split across reads: an incomplete UTF-8 character or escape
/// sequence at the end of a chunk is kept for the next one. A lone `ESC` at the end
/// of a chunk is reported as ``Key/escape`` (a terminal sends a whole sequence in
/// one write; a user pressing Esc sends one byte).
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

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
        if remaining == 1 { return (.escape, 1) }
        let introducer = pending[index + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            // Alt+key or a stray Esc followed by a key: report the Esc alone.
            return (.escape, 1)
        }
        // Parameters and intermediates, then one final byte in 0x40...0x7E.
        var end = index + 2
        while end < pending.count {
            let byte = pending[end]
            if (0x40...0x7E).contains(byte) {
                let sequence = Array(pending[index...end])
                if sequence == Self.pasteStart {
                    return decodePaste(contentStart: end + 1, sequenceStart: index)
                }
                return (key(forSequence: sequence, introducer: introducer), end - index + 1)
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

    private func key(forSequence sequence: [UInt8], introducer: UInt8) -> Key {
        let final = sequence.last!
        let parameters = String(decoding: sequence.dropFirst(2).dropLast(), as: UTF8.self)
        switch (final, parameters) {
        case (UInt8(ascii: "A"), _): return .up
        case (UInt8(ascii: "B"), _): return .down
        case (UInt8(ascii: "C"), _): return .right
        case (UInt8(ascii: "D"), _): return .left
        case (UInt8(ascii: "H"), _): return .home
        case (UInt8(ascii: "F"), _): return .end
        case (UInt8(ascii: "Z"), _): return .backTab
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .home
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .end
        case (UInt8(ascii: "~"), "3"): return .delete
        case (UInt8(ascii: "~"), "5"): return .pageUp
        case (UInt8(ascii: "~"), "6"): return .pageDown
        default: return .unknown(sequence)
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
