import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's resident memory, read from `/proc/self/status` (Linux):
/// what a test measures to prove a body is not held in memory.
///
/// ``measurePeak(_:)`` reports the highest resident size reached while its
/// body runs, above the size when it began: the kernel's high-water mark
/// (`VmHWM`, reset through `/proc/self/clear_refs` when the process may),
/// and samples of `VmRSS` every 2 ms on a thread of its own in case it may
/// not.
enum ResidentMemory {
    /// Whether this platform reports resident memory.
    static var isAvailable: Bool { current != nil }

    /// `VmRSS` in bytes; `nil` where there is no `/proc`.
    static var current: Int? { field("VmRSS") }

    /// `VmHWM` in bytes (the peak since the process began or the last reset).
    static var peak: Int? { field("VmHWM") }

    /// How much more memory the same work takes in this process: 4 under
    /// ThreadSanitizer (its shadow memory and allocator: the 1.15 GB
    /// gzip bomb took 3.9 GB there), else 1. Memory bounds are multiplied by it.
    static let overhead: Int = {
        #if os(Linux)
        // RTLD_DEFAULT is a null handle on glibc.
        return dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil ? 4 : 1
        #else
        return 1
        #endif
    }()

    /// Resets the kernel's peak (`VmHWM`) to the current size; `false` if the
    /// process may not.
    @discardableResult
    static func resetPeak() -> Bool {
        #if os(Linux)
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
        #else
        return false
        #endif
    }

    /// Runs `body` and returns it with the highest resident size reached
    /// meanwhile, in bytes above the size before `body` began (0 if it never
    /// grew). `nil` where resident memory is not reported.
    static func measurePeak<Result>(_ body: () throws -> Result) rethrows -> (result: Result, growth: Int?) {
        guard let before = current else { return (try body(), nil) }
        let kernelPeak = resetPeak()
        let sampler = Sampler()
        sampler.start()
        let result = try body()
        let sampled = sampler.stop()
        var highest = sampled
        if kernelPeak, let peak {
            highest = max(highest, peak)
        }
        return (result, max(0, highest - before))
    }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            // "VmRSS:	   41236 kB"
            let number = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
                ?? line.split(separator: "\t").dropFirst().first
            guard let kilobytes = number.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else { return nil }
            return kilobytes * 1024
        }
        return nil
    }

    /// Samples `VmRSS` until stopped; keeps the highest.
    private final class Sampler: @unchecked Sendable {
        private let condition = NSCondition()
        private var running = true
        private var finished = false
        private var highest = 0

        func start() {
            Thread { [self] in
                condition.lock()
                while running {
                    condition.unlock()
                    let now = ResidentMemory.current ?? 0
                    condition.lock()
                    highest = max(highest, now)
                    _ = condition.wait(until: Date().addingTimeInterval(0.002))
                }
                finished = true
                condition.broadcast()
                condition.unlock()
            }.start()
        }

        func stop() -> Int {
            condition.lock()
            running = false
            condition.broadcast()
            while !finished {
                condition.wait()
            }
            let result = max(highest, ResidentMemory.current ?? 0)
            condition.unlock()
            return result
        }
    }
}

/// A gzip stream of `count` zero bytes that is about a thousandth of that
/// size: the "decompression bomb" a server can send to a client that
/// inflates bodies. One DEFLATE block with the fixed Huffman codes: a
/// literal 0, then copies of 258 bytes at distance 1 (13 bits each).
///
/// The CRC-32 and length at the end are zeros: every test stops reading
/// long before them (a reader that got there would report a corrupt stream).
func gzipOfZeros(_ count: Int) -> Data {
    var bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]  // gzip header: deflate, no name, unknown OS
    bytes.reserveCapacity(count / 158 + 64)
    var accumulator: UInt64 = 0
    var bits = 0
    func put(_ value: UInt64, _ count: Int) {
        accumulator |= value << UInt64(bits)
        bits += count
        while bits >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            bits -= 8
        }
    }
    put(0b011, 3)       // BFINAL = 1, BTYPE = 01 (fixed Huffman), least significant bit first
    put(0x0C, 8)        // literal 0: code 00110000, sent most significant bit first
    // Length 258 is code 285 (11000101, reversed 10100011), distance 1 is
    // code 0 (00000): 13 bits.
    let copies = max(0, count - 1) / 258
    for _ in 0..<copies {
        put(0xA3, 13)
    }
    let rest = max(0, count - 1) - copies * 258
    for _ in 0..<rest {
        put(0x0C, 8)
    }
    put(0, 7)           // end of block: code 256, 0000000
    if bits > 0 { put(0, 8 - bits) }
    bytes += [0, 0, 0, 0, 0, 0, 0, 0]
    return Data(bytes)
}
