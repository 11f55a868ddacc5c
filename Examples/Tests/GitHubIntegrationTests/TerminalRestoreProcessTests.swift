import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A demo app killed by a signal (a crash is SIGILL, SIGTRAP, SIGSEGV, SIGBUS or
/// SIGABRT; Ctrl-C from outside or `kill` is SIGINT or SIGTERM) must leave the
/// terminal usable: off the alternate screen, out of raw mode. `counter` runs on a
/// pseudo-terminal here, and the test reads what it wrote.
final class TerminalRestoreProcessTests: XCTestCase {
    func testEveryFatalSignalRestoresTheTerminal() throws {
        for signal in [SIGTERM, SIGINT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT] {
            let run = try runCounterOnAPseudoTerminal(killedWith: signal)
            let output = run.output
            XCTAssertEqual(run.signal, signal, "the process still ends by its signal")
            guard let entered = output.range(of: "\u{1B}[?1049h") else {
                XCTFail("signal \(signal): never entered the alternate screen: \(output.debugDescription)")
                continue
            }
            let after = output[entered.upperBound...]
            XCTAssertTrue(after.contains("\u{1B}[?1049l"), "signal \(signal): still on the alternate screen: \(output.debugDescription)")
            XCTAssertTrue(after.contains("\u{1B}[?2004l"), "signal \(signal): bracketed paste left on")
            XCTAssertTrue(run.settingsRestored, "signal \(signal): the terminal is still in raw mode")
        }
    }

    struct Run {
        var output: String
        var signal: Int32
        var settingsRestored: Bool
    }

    private func runCounterOnAPseudoTerminal(killedWith signal: Int32) throws -> Run {
        // Glibc's module does not export posix_openpt/unlockpt/ptsname; these are the
        // Linux ioctls behind them (grantpt is a no-op with devpts).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw XCTSkip("no pseudo-terminals here (/dev/ptmx)") }
        defer { close(master) }
        var unlock: Int32 = 0
        XCTAssertEqual(ioctl(master, UInt(0x4004_5431) /* TIOCSPTLCK */, &unlock), 0)
        var number: UInt32 = 0
        XCTAssertEqual(ioctl(master, UInt(0x8004_5430) /* TIOCGPTN */, &number), 0)
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(slave, 0)
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        var before = termios()
        tcgetattr(slave, &before)

        let process = Process()
        process.executableURL = try builtExecutable(named: "counter")
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        // The Swift runtime's backtracer would catch the crash signals after ours and,
        // on a terminal, wait for the user; the restore runs before it either way.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        try process.run()

        var output = Data()
        func readAvailable(until deadline: Date, stopWhen done: (String) -> Bool) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 50) > 0 else { continue }
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { return }
                output.append(contentsOf: buffer[0..<count])
                if done(String(decoding: output, as: UTF8.self)) { return }
            }
        }
        // The first frame is drawn after raw mode, the alternate screen and the handlers.
        readAvailable(until: Date().addingTimeInterval(20)) { $0.contains("Count: ") }
        kill(process.processIdentifier, signal)
        readAvailable(until: Date().addingTimeInterval(10)) { $0.contains("\u{1B}[?1049l") }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            XCTFail("signal \(signal): counter did not end")
        }
        process.waitUntilExit()
        var after = termios()
        tcgetattr(slave, &after)
        close(slave)
        let restored = after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag
        return Run(
            output: String(decoding: output, as: UTF8.self),
            signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : -1,
            settingsRestored: restored)
    }
}
