import Dispatch
import Foundation
import Ripple

/// Runs a terminal app without a terminal, for scripts, tests and CI: keys come
/// from the command line (`--input`) or standard input, the app draws on a
/// ``VirtualTerminal``, and when the keys are used up and the app has settled the
/// screen's text is printed on standard output.
///
/// *Settled* means no frame was drawn for ``quietPeriod`` and, for a
/// ``BusyReportingScreen``, that it is not busy. Typed text arrives as a
/// burst, as a paste would; before every other key (Enter, arrows, Tab, Esc...) the
/// run waits for the app to settle, so that a Down after a query acts on its results.
/// A quit key (Esc, Ctrl-C, `q` in the counter) ends the run early; so does a
/// step that does not settle within ``timeout``, with exit status 1.
public struct ScriptedRun: Sendable {
    /// How long no frame must be drawn before the app counts as settled. Keep it
    /// short: it is paid before every key that is not text. An app that waits for
    /// something longer (a debounce, a request) says so with
    /// ``BusyReportingScreen/isBusy`` instead.
    public var quietPeriod: TimeInterval
    /// The longest one step may wait for the app to settle: before a key that is
    /// not text, and after the last key. Each step has its own deadline, so a long
    /// script is not cut short.
    public var timeout: TimeInterval
    /// The virtual terminal's size.
    public var size: TerminalSize

    public init(quietPeriod: TimeInterval = 0.05, timeout: TimeInterval = 30, size: TerminalSize = TerminalSize(rows: 24, columns: 80)) {
        self.quietPeriod = quietPeriod
        self.timeout = timeout
        self.size = size
    }

    /// Runs `makeScreen` with `keys`, prints the final screen and exits (0; 1 on
    /// timeout). Call it from the main thread; it never returns.
    @MainActor
    public func run(keys: [Key], onExit: @escaping () -> Void = {}, _ makeScreen: (TerminalHost) -> TerminalScreen) -> Never {
        let terminal = VirtualTerminal(size: size)
        let screen = makeScreen(terminal)
        let quit = QuitFlag()
        let subscription = TerminalApp.bind(screen, to: terminal) { quit.set() }
        AppLifetime.shared.keep(subscription, screen)
        let busy = BusyFlag()
        if let screen = screen as? BusyReportingScreen {
            AppLifetime.shared.keep(screen.isBusy.drive(onNext: { busy.value = $0 }), screen)
        }
        let run = self
        // Called on the main queue only, as `TerminalApp.run` calls it.
        let exitHandler = UncheckedSendable(onExit)
        let thread = Thread {
            let outcome = run.feed(keys, to: terminal, busy: busy, quit: quit) { key in
                DispatchQueue.main.sync { terminal.press(key) }
            }
            DispatchQueue.main.async {
                let text = ScriptedRun.printable(terminal.screen)
                FileHandle.standardOutput.write(Data((text + "\n").utf8))
                exitHandler.value()
                if let unsettled = outcome {
                    FileHandle.standardError.write(Data("error: the app did not settle within \(Int(run.timeout)) seconds \(unsettled)\n".utf8))
                    exit(1)
                }
                exit(0)
            }
        }
        thread.name = "ripple.scripted-run"
        thread.start()
        dispatchMain()
    }

    /// Presses `keys` with `press`, waiting for `terminal` to settle before each
    /// key that is not text and after the last one, until `quit` is set. Returns
    /// `nil` when every step settled, else which step did not ("before key 3 of 9
    /// (Down)", "after the last key"); the run goes on after such a step, so the
    /// screen printed at the end is the one the keys lead to.
    func feed(_ keys: [Key], to terminal: VirtualTerminal, busy: BusyFlag, quit: QuitFlag, press: (Key) -> Void) -> String? {
        var unsettled: String?
        for (index, key) in keys.enumerated() where !quit.isSet {
            if case .character = key {} else if case .paste = key {} else {
                if !waitUntilQuiet(terminal, busy: busy, deadline: Date().addingTimeInterval(timeout)), unsettled == nil {
                    unsettled = "before key \(index + 1) of \(keys.count) (\(key))"
                }
            }
            press(key)
        }
        if !quit.isSet, !waitUntilQuiet(terminal, busy: busy, deadline: Date().addingTimeInterval(timeout)), unsettled == nil {
            unsettled = "after the last key"
        }
        return unsettled
    }

    /// Waits until no frame was drawn for ``quietPeriod`` while not busy; `false`
    /// at the deadline.
    func waitUntilQuiet(_ terminal: VirtualTerminal, busy: BusyFlag, deadline: Date) -> Bool {
        var count = terminal.drawnFrames.count
        var quietSince = Date()
        while Date() < deadline {
            Thread.sleep(forTimeInterval: min(0.01, quietPeriod))
            let now = terminal.drawnFrames.count
            if now != count || busy.value {
                count = now
                quietSince = Date()
            } else if Date().timeIntervalSince(quietSince) >= quietPeriod {
                return true
            }
        }
        return false
    }

    /// The screen's lines without the blank ones at the bottom.
    static func printable(_ screen: VirtualScreen) -> String {
        var lines = screen.lines
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// The keys of an `--input` script: text is typed character by character
    /// (through a ``KeyDecoder``, as a terminal sends it), `{name}` is a key and a
    /// backslash escapes the next character (`\{`, `\\`; `\n` is Enter, `\t` Tab,
    /// `\e` Esc).
    ///
    /// Key names: `enter`, `esc`, `tab`, `backtab`, `backspace`, `delete`, `up`,
    /// `down`, `left`, `right`, `home`, `end`, `pageup`, `pagedown`, `f1`, `ctrl-X`.
    public static func keys(fromScript script: String) throws(ScriptError) -> [Key] {
        var keys: [Key] = []
        var decoder = KeyDecoder()
        var text = ""
        func flush() {
            keys += decoder.feed(Array(text.utf8)) + decoder.flush()
            text = ""
        }
        var iterator = script.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            switch scalar {
            case "\\":
                guard let next = iterator.next() else { throw ScriptError(message: "a \\ at the end of --input") }
                switch next {
                case "n": flush(); keys.append(.enter)
                case "t": flush(); keys.append(.tab)
                case "e": flush(); keys.append(.escape)
                default: text.unicodeScalars.append(next)
                }
            case "{":
                var name = ""
                var closed = false
                while let next = iterator.next() {
                    if next == "}" { closed = true; break }
                    name.unicodeScalars.append(next)
                }
                guard closed else { throw ScriptError(message: "an unclosed { in --input") }
                guard let key = namedKeys[name.lowercased()] ?? controlKey(name) else {
                    throw ScriptError(message: "unknown key {\(name)} in --input (known: \(namedKeys.keys.sorted().joined(separator: ", ")), ctrl-X)")
                }
                flush()
                keys.append(key)
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        flush()
        return keys
    }

    /// The keys of raw input bytes (standard input that is not a terminal).
    public static func keys(fromBytes bytes: [UInt8]) -> [Key] {
        KeyDecoder.keys(bytes)
    }

    static let namedKeys: [String: Key] = [
        "enter": .enter, "esc": .escape, "escape": .escape, "tab": .tab, "backtab": .backTab, "backspace": .backspace,
        "delete": .delete, "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
        "pageup": .pageUp, "pagedown": .pageDown, "f1": .function(1),
    ]

    static func controlKey(_ name: String) -> Key? {
        let lower = name.lowercased()
        guard lower.hasPrefix("ctrl-"), lower.count == 6, let letter = lower.last, ("a"..."z").contains(letter) else { return nil }
        return .control(letter)
    }

    /// An `--input` script that cannot be read.
    public struct ScriptError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}

/// A value handed to another thread that the code ensures is used safely.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The latest `isBusy` of a ``BusyReportingScreen``, written on the main queue.
final class BusyFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false

    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Set once by the app's quit signal, read by the feeding thread.
final class QuitFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
