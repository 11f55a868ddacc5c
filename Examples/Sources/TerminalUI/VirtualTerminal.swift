import Foundation
import Ripple

/// A terminal in memory, for tests: push keys with ``press(_:)``, change the size
/// with ``resize(to:)``, and read what a user would see from ``screen``.
public final class VirtualTerminal: TerminalHost, @unchecked Sendable {
    private let keySubject = PublishSubject<Key>()
    private let sizeSubject: BehaviorSubject<TerminalSize>
    private let lock = NSLock()
    private var renderer = Renderer()
    private var virtualScreen: VirtualScreen
    private var frames: [Frame] = []
    private var decoder = KeyDecoder()

    public init(size: TerminalSize = TerminalSize(rows: 24, columns: 80)) {
        sizeSubject = BehaviorSubject(value: size)
        virtualScreen = VirtualScreen(size: size)
    }

    public var keys: Observable<Key> { keySubject.asObservable() }

    public var sizes: Observable<TerminalSize> { sizeSubject.asObservable() }

    /// Sends keys, as if typed.
    public func press(_ keys: Key...) {
        keys.forEach(keySubject.onNext)
    }

    /// Types `text`, one character key at a time.
    public func type(_ text: String) {
        text.forEach { keySubject.onNext(.character($0)) }
    }

    /// Sends raw input bytes through a ``KeyDecoder``, as the real ``Terminal``
    /// does: a multi-scalar character arrives as one key per scalar. The bytes are
    /// one write followed by a pause: a trailing lone Esc is the Esc key (see
    /// ``KeyDecoder/flush()``); pass `more: true` for a write whose rest follows.
    public func send(bytes: [UInt8], more: Bool = false) {
        let keys = lock.withLock { decoder.feed(bytes) + (more || !decoder.isWaitingForMore ? [] : decoder.flush()) }
        keys.forEach(keySubject.onNext)
    }

    /// Sends `text`'s UTF-8 bytes (see ``send(bytes:more:)``).
    public func send(_ text: String, more: Bool = false) {
        send(bytes: Array(text.utf8), more: more)
    }

    /// Pastes `text`, as a terminal in bracketed-paste mode sends it: one key.
    public func paste(_ text: String) {
        keySubject.onNext(.paste(text))
    }

    /// Changes the size, as a window resize would.
    public func resize(to size: TerminalSize) {
        lock.withLock {
            renderer.invalidate()
            virtualScreen.resize(to: size)
        }
        sizeSubject.onNext(size)
    }

    public func draw(_ frame: Frame) {
        lock.withLock {
            let output = renderer.render(frame, size: virtualScreen.size)
            virtualScreen.apply(output)
            frames.append(frame)
        }
    }

    /// What the screen shows now.
    public var screen: VirtualScreen {
        lock.withLock { virtualScreen }
    }

    /// Every frame drawn so far.
    public var drawnFrames: [Frame] {
        lock.withLock { frames }
    }
}
