import Dispatch
import Foundation
import Ripple
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an app reads keys and draws frames: the real terminal, or a
/// ``VirtualTerminal`` in tests.
public protocol TerminalHost: AnyObject, Sendable {
    /// Keys as the user types them.
    var keys: Observable<Key> { get }
    /// The current size, then each new size after a resize.
    var sizes: Observable<TerminalSize> { get }
    /// Draws a frame.
    func draw(_ frame: Frame)
}

/// The process's terminal in raw mode, on the alternate screen.
///
/// ``start()`` switches the terminal to raw mode (no echo, no line buffering, no
/// signal keys: Ctrl-C arrives as a key) and to the alternate screen; ``restore()``
/// undoes both. Restoring happens on every exit path: an explicit call, normal
/// process exit (`atexit`), and SIGINT/SIGTERM/SIGHUP/SIGQUIT. Keys are read on a
/// background thread; resizes come from SIGWINCH.
public final class Terminal: TerminalHost, @unchecked Sendable {
    private let input: Int32
    private let output: Int32
    private let keySubject = PublishSubject<Key>()
    private let sizeSubject: BehaviorSubject<TerminalSize>
    private let lock = NSLock()
    private var renderer = Renderer()
    private var started = false
    private var signalSources: [DispatchSourceSignal] = []
    private var readerThread: Thread?

    /// A terminal on standard input and output.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
        sizeSubject = BehaviorSubject(value: Terminal.querySize(output) ?? TerminalSize(rows: 24, columns: 80))
    }

    /// `true` when standard input and output are both terminals.
    public static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    public var keys: Observable<Key> { keySubject.asObservable() }

    public var sizes: Observable<TerminalSize> { sizeSubject.asObservable() }

    /// The current size.
    public var size: TerminalSize {
        (try? sizeSubject.value()) ?? TerminalSize(rows: 24, columns: 80)
    }

    /// Enters raw mode and the alternate screen, and starts reading keys.
    public func start() throws {
        try lock.withLock {
            guard !started else { return }
            var original = termios()
            guard tcgetattr(input, &original) == 0 else {
                throw TerminalError.notATerminal
            }
            TerminalRestorer.shared.remember(original, input: input, output: output)
            var raw = original
            cfmakeraw(&raw)
            // Keep output post-processing so "\n" still returns the carriage.
            raw.c_oflag |= tcflag_t(OPOST)
            guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
                throw TerminalError.notATerminal
            }
            started = true
        }
        write("\u{1B}[?1049h\u{1B}[2J")
        installSignalHandlers()
        startReading()
    }

    /// Leaves raw mode and the alternate screen. Safe to call more than once.
    public func restore() {
        lock.withLock { started = false }
        signalSources.forEach { $0.cancel() }
        signalSources = []
        TerminalRestorer.shared.restore()
    }

    public func draw(_ frame: Frame) {
        let size = self.size
        let text = lock.withLock { renderer.render(frame, size: size) }
        write(text)
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(output, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }

    private func startReading() {
        let thread = Thread { [weak self, input] in
            var decoder = KeyDecoder()
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = read(input, &buffer, buffer.count)
                guard count > 0, let self else { return }
                for key in decoder.feed(Array(buffer[0..<count])) {
                    self.keySubject.onNext(key)
                }
            }
        }
        thread.name = "ripple.terminal.keys"
        readerThread = thread
        thread.start()
    }

    private func installSignalHandlers() {
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        signal(SIGWINCH, SIG_IGN)
        resize.setEventHandler { [weak self] in
            guard let self, let size = Terminal.querySize(self.output) else { return }
            self.lock.withLock { self.renderer.invalidate() }
            self.sizeSubject.onNext(size)
        }
        resize.resume()
        signalSources = [resize]
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(sig) { number in
                TerminalRestorer.shared.restore()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    static func querySize(_ descriptor: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return TerminalSize(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }
}

/// Errors of ``Terminal``.
public enum TerminalError: Error, CustomStringConvertible {
    case notATerminal

    public var description: String {
        "standard input is not a terminal (run the app in a terminal, or use its --query mode)"
    }
}

/// Remembers the terminal's original settings and restores them exactly once per
/// `start()`, from whichever exit path comes first.
final class TerminalRestorer: @unchecked Sendable {
    static let shared = TerminalRestorer()

    private let lock = NSLock()
    private var saved: (termios, input: Int32, output: Int32)?
    private var registeredAtExit = false

    func remember(_ settings: termios, input: Int32, output: Int32) {
        lock.withLock {
            saved = (settings, input, output)
            if !registeredAtExit {
                registeredAtExit = true
                atexit { TerminalRestorer.shared.restore() }
            }
        }
    }

    func restore() {
        guard let (settings, input, output) = lock.withLock({ () -> (termios, Int32, Int32)? in
            defer { saved = nil }
            return saved
        }) else { return }
        var original = settings
        tcsetattr(input, TCSAFLUSH, &original)
        let leave = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
        _ = leave.withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
    }
}
