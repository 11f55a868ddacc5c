import Dispatch
import Foundation
import Ripple
import Synchronization
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
    /// Draws a frame (``Terminal``: at the end of the main queue's current turn,
    /// see ``Terminal/draw(_:)``; ``VirtualTerminal``: at once).
    func draw(_ frame: Frame)
}

/// The process's terminal in raw mode, on the alternate screen.
///
/// ``start()`` switches the terminal to raw mode (no echo, no line buffering, no
/// signal keys: Ctrl-C arrives as a key) and to the alternate screen; ``restore()``
/// undoes both. Restoring happens on every exit path: an explicit call, normal
/// process exit (`atexit`), SIGINT/SIGTERM/SIGHUP/SIGQUIT and the crash signals (see
/// ``TerminalRestorer``). Keys are read on a background thread; resizes come from
/// SIGWINCH. Frames are drawn once per turn of the main queue, the turn's last
/// (see ``draw(_:)``).
public final class Terminal: TerminalHost, @unchecked Sendable {
    private let input: Int32
    private let output: Int32
    private let keySubject = PublishSubject<Key>()
    private let sizeSubject: BehaviorSubject<TerminalSize>
    private let lock = NSLock()
    private var renderer = Renderer()
    /// The frame to draw at the end of the main queue's turn (guarded by `lock`).
    private var pendingFrame: Frame?
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
            TerminalRestorer.remember(original, input: input, output: output)
            var raw = original
            cfmakeraw(&raw)
            // Keep output post-processing so "\n" still returns the carriage.
            raw.c_oflag |= tcflag_t(OPOST)
            guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
                throw TerminalError.notATerminal
            }
            started = true
        }
        // The alternate screen, and bracketed paste (pasted text arrives as one key).
        write("\u{1B}[?1049h\u{1B}[2J\u{1B}[?2004h")
        installSignalHandlers()
        startReading()
    }

    /// Leaves raw mode and the alternate screen. Safe to call more than once.
    public func restore() {
        lock.withLock { started = false }
        signalSources.forEach { $0.cancel() }
        signalSources = []
        TerminalRestorer.restore()
    }

    /// Draws `frame` once the main queue's current turn is over, unless a later
    /// call in the same turn replaces it, as UIKit shows the changes of a run-loop
    /// turn together. A screen's frames often combine streams derived from one key
    /// (a text and its count), which emit one after the other within the key's
    /// turn: drawn as they come, the first would show the new text beside the old
    /// count for an instant. Nothing is drawn after ``restore()``.
    public func draw(_ frame: Frame) {
        let isFirstOfTurn = lock.withLock {
            defer { pendingFrame = frame }
            return pendingFrame == nil
        }
        if isFirstOfTurn {
            DispatchQueue.main.async { [weak self] in self?.drawPendingFrame() }
        }
    }

    private func drawPendingFrame() {
        let size = self.size
        let text: String? = lock.withLock {
            defer { pendingFrame = nil }
            guard started, let frame = pendingFrame else { return nil }
            return renderer.render(frame, size: size)
        }
        if let text { write(text) }
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
                // A lone Esc (or the start of a sequence) is a key of its own
                // when nothing follows it within the escape delay.
                if decoder.isWaitingForMore, !Terminal.waitForInput(input, seconds: KeyDecoder.escapeDelay) {
                    guard let self else { return }
                    for key in decoder.flush() { self.keySubject.onNext(key) }
                    continue
                }
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
        TerminalRestorer.installSignalHandlers()
    }

    /// `true` when `descriptor` has bytes to read within `seconds`.
    static func waitForInput(_ descriptor: Int32, seconds: TimeInterval) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, Int32(seconds * 1000)) > 0
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
        "standard input is not a terminal (run the app in a terminal, or pass --input KEYS to run it without one; see --help)"
    }
}

/// Puts the terminal back the way ``Terminal/start()`` found it, from whichever exit
/// path comes first: ``Terminal/restore()``, `exit` (`atexit`), or a signal handler
/// (SIGINT, SIGTERM, SIGHUP, SIGQUIT, and the crash signals SIGSEGV, SIGBUS, SIGILL,
/// SIGTRAP, SIGABRT, which is how a Swift runtime error ends the process).
///
/// The saved settings live in plain static storage written before the handlers are
/// installed, and the handler takes no lock and allocates nothing: it calls only
/// `tcsetattr` and `write`, which are async-signal-safe. An atomic flag makes the
/// restore happen once per start.
public enum TerminalRestorer {
    /// What restoring writes: plain style, cursor shown, bracketed paste off, the
    /// main screen back.
    public static let leaveSequence: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?2004l\u{1B}[?1049l"

    /// The signals after which the terminal is restored before the process ends.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT]

    private static let armed = Atomic<Bool>(false)
    private static let atExitRegistered = Atomic<Bool>(false)
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var hasSettings = false
    nonisolated(unsafe) private static var input: Int32 = -1
    nonisolated(unsafe) private static var output: Int32 = -1
    /// The actions the handlers replaced, by signal number, so that the process
    /// then ends as it would have (a core dump, the Swift runtime's backtrace).
    nonisolated(unsafe) private static let previousActions: UnsafeMutablePointer<sigaction> = {
        let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        pointer.initialize(repeating: sigaction(), count: 65)
        return pointer
    }()

    /// Remembers `settings` (`nil`: only the escape sequences need undoing) and arms
    /// the restore; registers the `atexit` hook once.
    public static func remember(_ settings: termios?, input: Int32, output: Int32) {
        saved = settings ?? termios()
        hasSettings = settings != nil
        TerminalRestorer.input = input
        TerminalRestorer.output = output
        armed.store(true, ordering: .sequentiallyConsistent)
        if !atExitRegistered.exchange(true, ordering: .sequentiallyConsistent) {
            atexit { TerminalRestorer.restore() }
        }
    }

    /// Restores the terminal if it is armed; does nothing otherwise. Safe in a
    /// signal handler.
    public static func restore() {
        guard armed.exchange(false, ordering: .sequentiallyConsistent) else { return }
        if hasSettings {
            _ = tcsetattr(input, TCSAFLUSH, &saved)
        }
        var remaining = leaveSequence.utf8CodeUnitCount
        var pointer = UnsafeRawPointer(leaveSequence.utf8Start)
        while remaining > 0 {
            let written = Glibc.write(output, pointer, remaining)
            if written <= 0 { break }
            remaining -= written
            pointer += written
        }
    }

    /// Installs the handlers of ``signals``: each restores the terminal, puts the
    /// previous action back and raises the signal again (it is delivered when the
    /// handler returns).
    static func installSignalHandlers() {
        _ = previousActions
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                TerminalRestorer.restore()
                _ = sigaction(number, TerminalRestorer.previousActions + Int(number), nil)
                _ = raise(number)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            _ = sigaction(number, &action, previousActions + Int(number))
        }
    }
}
