import Dispatch
import Foundation
import Ripple

/// A screen of a terminal app: the frames to draw, and when to quit.
public protocol TerminalScreen: AnyObject {
    /// What to draw, each time something changes.
    var frames: Driver<Frame> { get }
    /// Fires when the user asks to quit.
    var quit: Signal<Void> { get }
}

/// A screen that knows when it is waiting for something (a debounce, a request),
/// so that a ``ScriptedRun`` waits for that rather than only for a pause in drawing.
public protocol BusyReportingScreen: TerminalScreen {
    /// `true` while the screen is waiting for something to finish.
    var isBusy: Driver<Bool> { get }
}

/// Runs terminal apps.
public enum TerminalApp {
    /// Draws `screen` on `host` until it asks to quit; returns the subscriptions
    /// (dispose them to stop).
    public static func bind(_ screen: TerminalScreen, to host: TerminalHost, onQuit: @escaping () -> Void) -> Disposable {
        let bag = CompositeDisposable()
        _ = bag.insert(screen.frames.drive(onNext: { host.draw($0) }))
        _ = bag.insert(screen.quit.emit(onNext: { onQuit() }))
        return bag
    }

    /// Runs `makeScreen` on the process's terminal: raw mode, the alternate screen,
    /// the main queue (which `Driver`s deliver on), and the terminal restored on
    /// every exit path. `onExit` runs when the screen asks to quit, after the
    /// terminal is restored (to write files, print a summary). Call it from the main
    /// thread; it never returns.
    @MainActor
    public static func run(onExit: @escaping () -> Void = {}, _ makeScreen: (TerminalHost) -> TerminalScreen) -> Never {
        let terminal = Terminal()
        do {
            try terminal.start()
        } catch {
            FileHandle.standardError.write("error: \(error)\n".data(using: .utf8)!)
            exit(1)
        }
        let screen = makeScreen(terminal)
        let subscription = bind(screen, to: terminal) {
            terminal.restore()
            onExit()
            exit(0)
        }
        // Kept for the life of the process.
        AppLifetime.shared.keep(subscription, screen)
        dispatchMain()
    }
}

/// Holds what a running app must keep alive.
final class AppLifetime: @unchecked Sendable {
    static let shared = AppLifetime()
    private var kept: [AnyObject] = []
    private let lock = NSLock()

    func keep(_ disposable: Disposable, _ screen: TerminalScreen) {
        lock.withLock { kept.append(screen); kept.append(disposable as AnyObject) }
    }
}

extension TerminalHost {
    /// Keys as a `Signal`, delivered on the main scheduler.
    public var keySignal: Signal<Key> {
        keys.asSignal(onErrorSignalWith: .empty())
    }

    /// The terminal size as a `Driver`.
    public var sizeDriver: Driver<TerminalSize> {
        sizes.asDriver(onErrorJustReturn: TerminalSize(rows: 24, columns: 80))
    }

    /// Quit keys: Esc, Ctrl-C, Ctrl-D.
    public var quitKeys: Signal<Void> {
        keySignal.filter { $0 == .escape || $0 == .control("c") || $0 == .control("d") }.map { _ in () }
    }
}
