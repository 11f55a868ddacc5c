import Foundation
import Ripple
import RippleTest
import XCTest

struct TestError: Error, Equatable, CustomStringConvertible {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
    var description: String { "TestError(\(id))" }
}

let testError = TestError(1)
let testError2 = TestError(2)

/// A thread-safe list that tests append to from any thread.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// Lines that documentation examples `print`, captured instead of the standard
/// output (a test file shadows `print` with one that appends here), so that a test
/// can compare them with what the guide says the example prints.
final class PrintedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    /// The lines printed since the last call.
    func take() -> [String] {
        lock.withLock {
            defer { lines = [] }
            return lines
        }
    }
}

/// Records every event an observable sends, synchronously.
func record<Element>(_ source: Observable<Element>) -> (Recorder<Event<Element>>, Disposable) {
    let recorder = Recorder<Event<Element>>()
    let disposable = source.subscribe { recorder.append($0) }
    return (recorder, disposable)
}

/// Runs the main run loop until `condition` holds or `timeout` passes.
func waitUntil(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return false }
        _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.002))
    }
    return true
}

/// Keeps the CPU busy for `duration` (an observer that takes time, without
/// giving up its thread).
func spin(for duration: Duration) {
    let end = ContinuousClock.now + duration
    while ContinuousClock.now < end {}
}
