import Foundation

/// A value behind a lock, used like `Synchronization.Mutex` (`withLock`), which
/// needs macOS 15 / iOS 18 where the tests build for Ripple's minimum
/// (macOS 10.15 / iOS 13).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
