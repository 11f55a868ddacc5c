import Foundation
import Ripple
import RippleHTTP
import RippleTest
import XCTest

/// Base class of RippleHTTP's XCTest cases: ``RippleTestCase``'s leak check, with
/// more time for URLSession's and dispatch queues to release their last references.
class HTTPTestCase: RippleTestCase {
    override var leakCheckTimeout: TimeInterval { 3 }
    // URLSession may release its last references after a quiet period: wait the
    // whole timeout rather than stop once nothing changes.
    override var leakCheckSettleTime: TimeInterval { 3 }
}

struct TestError: Error, Equatable, CustomStringConvertible {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
    var description: String { "TestError(\(id))" }
}

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

/// Runs the current run loop until `condition` holds or `timeout` passes.
func waitUntil(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return false }
        _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.002))
    }
    return true
}

/// The outcome of a `Single`, waited for with a timeout (the test fails if it
/// does not arrive).
func outcome<Element>(
    of single: Single<Element>, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line
) -> Result<Element, Error>? {
    let outcome = Recorder<Result<Element, Error>>()
    let disposable = single.subscribe { outcome.append($0) }
    defer { disposable.dispose() }
    guard waitUntil(timeout: timeout, { !outcome.values.isEmpty }) else {
        XCTFail("no outcome within \(timeout) s", file: file, line: line)
        return nil
    }
    return outcome.values.first
}

/// The ``HTTPError`` of a failed outcome (the test fails otherwise).
func httpError<Element>(_ result: Result<Element, Error>?, file: StaticString = #filePath, line: UInt = #line) -> HTTPError? {
    switch result {
    case .failure(let error as HTTPError):
        return error
    case .failure(let error):
        XCTFail("expected an HTTPError, got \(error)", file: file, line: line)
    case .success(let value):
        XCTFail("expected a failure, got \(value)", file: file, line: line)
    case nil:
        break
    }
    return nil
}


/// Compares events whose errors are `HTTPError`s by kind and description.
func describe<Element>(_ events: [Recorded<Event<Element>>]) -> [String] {
    events.map { recorded in
        switch recorded.value {
        case .next(let element): return "\(recorded.time): next(\(element))"
        case .error(let error): return "\(recorded.time): error(\(error))"
        case .completed: return "\(recorded.time): completed"
        }
    }
}
