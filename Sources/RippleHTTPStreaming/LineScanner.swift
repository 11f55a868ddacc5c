/// Splits a byte stream into lines, whatever the chunks it arrives in: the
/// line reading under ``ServerSentEventParser`` and ``RippleHTTP/Session/jsonLines(for:)``.
///
/// A value type with no lock and no I/O: feed it chunks, it calls you with
/// each complete line (without its terminator). A line end is `\n`, `\r\n`,
/// or (when ``carriageReturnEndsLine``) a lone `\r`; a `\r\n` split between
/// two chunks is still one line end. An unfinished line is kept until its end
/// arrives, at most ``maximumLineLength`` bytes: a longer line (finished or
/// not) stops the scan (its users report ``EventStreamError/lineTooLong(limit:)``),
/// so nothing is buffered without bound.
struct LineScanner: Sendable {
    /// The longest line accepted, in bytes (terminator excluded).
    let maximumLineLength: Int
    /// Whether a `\r` alone ends a line (event streams) or is an ordinary
    /// byte (NDJSON, where only `\n` separates values).
    let carriageReturnEndsLine: Bool
    /// The start of a line whose end has not arrived yet.
    private var partial: [UInt8] = []
    /// The last chunk ended with a `\r` that ended a line: a `\n` first in the
    /// next chunk belongs to it.
    private var pendingLineFeed = false

    init(maximumLineLength: Int, carriageReturnEndsLine: Bool) {
        self.maximumLineLength = max(0, maximumLineLength)
        self.carriageReturnEndsLine = carriageReturnEndsLine
    }

    /// Bytes held for an unfinished line.
    var bufferedCount: Int { partial.count }

    /// Forgets the unfinished line (the stream ended or was cut).
    mutating func reset() {
        partial.removeAll(keepingCapacity: partial.capacity <= 4096)
        pendingLineFeed = false
    }

    /// Calls `line` with each line that `bytes` completes, in order, and
    /// returns `true`; or returns `false` at the first line longer than the
    /// limit (the lines before it have been passed on; the stream cannot go
    /// on). Rethrows what `line` throws.
    mutating func scan<Failure: Error>(
        _ bytes: UnsafeRawBufferPointer, _ line: (UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) -> Bool {
        let count = bytes.count
        guard count > 0 else { return true }
        var index = 0
        if pendingLineFeed {
            pendingLineFeed = false
            if bytes[0] == LineScanner.lineFeed { index = 1 }
        }
        var start = index
        while index < count {
            let byte = bytes[index]
            guard byte == LineScanner.lineFeed || (byte == LineScanner.carriageReturn && carriageReturnEndsLine) else {
                index += 1
                continue
            }
            let length = partial.count + (index - start)
            if length > maximumLineLength {
                return false
            }
            if partial.isEmpty {
                try line(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            } else {
                LineScanner.append(bytes, start..<index, to: &partial)
                // `withUnsafeBytes` rethrows untyped errors: carry the typed one out.
                var failure: Failure?
                partial.withUnsafeBytes { buffer in
                    do throws(Failure) { try line(buffer) } catch { failure = error }
                }
                if let failure { throw failure }
                partial.removeAll(keepingCapacity: partial.capacity <= 4096)
            }
            index += 1
            if byte == LineScanner.carriageReturn {
                if index < count {
                    if bytes[index] == LineScanner.lineFeed { index += 1 }
                } else {
                    pendingLineFeed = true
                }
            }
            start = index
        }
        if start < count {
            if partial.count + (count - start) > maximumLineLength {
                return false
            }
            LineScanner.append(bytes, start..<count, to: &partial)
        }
        return true
    }

    /// The stream ended: passes on the unfinished last line, if any (a
    /// stream whose last line has no terminator), and forgets it.
    mutating func flush<Failure: Error>(_ line: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        defer { reset() }
        guard !partial.isEmpty else { return }
        var failure: Failure?
        partial.withUnsafeBytes { buffer in
            do throws(Failure) { try line(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Appends `bytes[range]` as typed bytes: `Array.append(contentsOf:)` on
    /// an `UnsafeBufferPointer<UInt8>` copies them in one go, where a slice of
    /// raw bytes goes through the generic element-by-element path (three times
    /// the instructions of a whole parse in a debug build).
    static func append(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, to array: inout [UInt8]) {
        guard !range.isEmpty, let base = bytes.baseAddress else { return }
        array.append(contentsOf: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self) + range.lowerBound, count: range.count))
    }

    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
}
