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
        let terminal = try PseudoTerminal()
        let before = terminal.settings()
        let process = try terminal.run("counter")
        // The first frame is drawn after raw mode, the alternate screen and the handlers.
        terminal.read(for: 20) { $0.contains("Count: ") }
        kill(process.processIdentifier, signal)
        terminal.read(for: 10) { $0.contains("\u{1B}[?1049l") }
        if !PseudoTerminal.wait(for: process, seconds: 10) {
            kill(process.processIdentifier, SIGKILL)
            XCTFail("signal \(signal): counter did not end")
        }
        process.waitUntilExit()
        let after = terminal.settings()
        let restored = after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag
        return Run(
            output: terminal.output,
            signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : -1,
            settingsRestored: restored)
    }
}

/// Keys as a real terminal sends them, read by the real `Terminal` (raw mode, the
/// reader thread and its escape delay), not the in-memory one.
final class TerminalKeysProcessTests: XCTestCase {
    /// Alt+Backspace deletes a word and F1 is ignored (they used to quit the app,
    /// or type "OP"); a lone Esc still quits, after the escape delay.
    func testAltKeysEditAndALoneEscQuits() throws {
        let terminal = try PseudoTerminal()
        let process = try terminal.run("characters-left")
        terminal.read(for: 20) { $0.contains("characters left") }
        for keys in ["abc def", "\u{1B}\u{7F}", "X", "\u{1B}OP", "\u{1B}b", "\u{1B}f"] {
            terminal.write(keys)
            Thread.sleep(forTimeInterval: 0.1)
        }
        terminal.read(for: 10) { $0.contains("abc X") }
        XCTAssertTrue(process.isRunning, "an Alt key or F1 quit the app: \(terminal.output.debugDescription)")
        XCTAssertFalse(terminal.output.contains("OP"), terminal.output.debugDescription)
        XCTAssertTrue(terminal.output.contains("abc X"), terminal.output.debugDescription)

        terminal.write("\u{1B}")
        let quit = PseudoTerminal.wait(for: process, seconds: 10)
        if !quit { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        XCTAssertTrue(quit, "Esc alone did not quit")
        XCTAssertEqual(process.terminationStatus, 0)
    }
}

extension TerminalKeysProcessTests {
    /// F1 as a terminal sends it (`ESC O P`) opens github-search's help, which
    /// lists every key; Esc closes it (the app keeps running); Esc again quits.
    func testF1OpensTheSearchHelpOnARealTerminal() throws {
        let terminal = try PseudoTerminal()
        let process = try terminal.run("github-search", ["--no-cache"])
        terminal.read(for: 60) { $0.contains("F1 help") }
        terminal.write("\u{1B}OP")
        terminal.read(for: 10) { $0.contains("Esc, F1 or ? closes this help") }
        XCTAssertTrue(terminal.output.contains("GitHub search — keys"), terminal.output.debugDescription)
        XCTAssertTrue(terminal.output.contains("clears the query"), terminal.output.debugDescription)
        terminal.write("\u{1B}")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(process.isRunning, "Esc closed the help, not the app")
        terminal.write("\u{1B}")
        let quit = PseudoTerminal.wait(for: process, seconds: 10)
        if !quit { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        XCTAssertTrue(quit, "Esc in the list did not quit")
    }
}

/// The real `Terminal` draws once per main-queue turn, the turn's last frame, as
/// UIKit shows a run-loop turn's changes at once. The screens combine streams derived
/// from one key (the text, its "N characters left", the sign-up form's checks), which
/// emit one after the other; drawn as they came, a key showed the new text beside the
/// old count for an instant, one frame per derived stream.
final class TerminalDrawingProcessTests: XCTestCase {
    func testEachKeyDrawsOneFrameInCharactersLeft() throws {
        try assertOneFramePerKey(app: "characters-left", firstScreen: "40 characters left", keys: [
            ("a", "39 characters left"), ("b", "38 characters left"), ("\u{7F}", "39 characters left"),
        ])
    }

    func testEachKeyDrawsOneFrameInSignUp() throws {
        try assertOneFramePerKey(app: "signup", firstScreen: "Enter your e-mail address", keys: [
            ("a", "That is not a valid e-mail address"), ("\t", "Password: "), ("x", "Password needs 5 more characters"),
        ])
    }

    /// Runs `app` on a pseudo-terminal and types each key once the previous one's
    /// frame is on screen; each key's output must be one frame (one "hide the
    /// cursor" sequence, which starts every frame) that shows `shows`, and nothing
    /// may follow it.
    private func assertOneFramePerKey(app: String, firstScreen: String, keys: [(key: String, shows: String)]) throws {
        let terminal = try PseudoTerminal()
        let process = try terminal.run(app)
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        terminal.read(for: 20) { $0.contains(firstScreen) }
        terminal.read(for: 0.3) { _ in false }
        XCTAssertEqual(Self.frames(in: terminal.output), 1, "the first screen: \(terminal.output.debugDescription)")
        for (key, shows) in keys {
            let mark = terminal.mark
            terminal.write(key)
            terminal.read(for: 10) { _ in terminal.output(since: mark).contains(shows) }
            // Whatever else the key draws arrives right after it.
            terminal.read(for: 0.3) { _ in false }
            let drawn = terminal.output(since: mark)
            XCTAssertTrue(drawn.contains(shows), "\(app), key \(key.debugDescription): \(drawn.debugDescription)")
            XCTAssertEqual(Self.frames(in: drawn), 1, "\(app), key \(key.debugDescription) drew: \(drawn.debugDescription)")
        }
        terminal.write("\u{1B}")
        XCTAssertTrue(PseudoTerminal.wait(for: process, seconds: 10), "Esc did not quit \(app)")
    }

    /// How many frames `output` holds: each starts with ``frameStart``.
    private static func frames(in output: String) -> Int {
        output.components(separatedBy: frameStart).count - 1
    }

    /// What `Renderer` writes first in every frame (the cursor hidden while drawing).
    private static let frameStart = "\u{1B}[?25l"
}

/// A pseudo-terminal with a demo executable on its slave side, for tests that need
/// a real terminal.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32
    private var received = Data()

    init() throws {
        // Glibc's module does not export posix_openpt/unlockpt/ptsname; these are the
        // Linux ioctls behind them (grantpt is a no-op with devpts).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw XCTSkip("no pseudo-terminals here (/dev/ptmx)") }
        var unlock: Int32 = 0
        XCTAssertEqual(ioctl(master, UInt(0x4004_5431) /* TIOCSPTLCK */, &unlock), 0)
        var number: UInt32 = 0
        XCTAssertEqual(ioctl(master, UInt(0x8004_5430) /* TIOCGPTN */, &number), 0)
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(slave, 0)
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
    }

    deinit {
        close(slave)
        close(master)
    }

    /// The slave side's terminal settings.
    func settings() -> termios {
        var settings = termios()
        tcgetattr(slave, &settings)
        return settings
    }

    /// Starts the demo executable `name` with the slave side as its standard
    /// input, output and error.
    func run(_ name: String, _ arguments: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = try builtExecutable(named: name)
        process.arguments = arguments
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
        return process
    }

    /// What the process wrote so far.
    var output: String { String(decoding: received, as: UTF8.self) }

    /// How many bytes the process wrote so far, for ``output(since:)``.
    var mark: Int { received.count }

    /// What the process wrote after `mark` bytes.
    func output(since mark: Int) -> String { String(decoding: received.dropFirst(mark), as: UTF8.self) }

    /// Reads what the process writes for up to `seconds`, or until `done` holds for
    /// everything read so far.
    func read(for seconds: TimeInterval, until done: (String) -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let count = Glibc.read(master, &buffer, buffer.count)
            if count <= 0 { return }
            received.append(contentsOf: buffer[0..<count])
            if done(output) { return }
        }
    }

    /// Types `text`'s bytes in one write, as a terminal sends a key.
    func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
    }

    /// Waits up to `seconds` for `process` to end; `false` if it still runs.
    static func wait(for process: Process, seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return !process.isRunning
    }
}
