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

/// Sends `GET url` through `client` up to 3 000 times (at most 20 s), disposing
/// each subscription 0–3 ms after it (a loopback request takes about 1–2 ms, so
/// the disposes land while waiting for a slot, before, during and after
/// completion), and checks that the window was hit: some requests completed
/// before their dispose, some did not.
func disposeAroundCompletion(
    _ client: any HTTPClient, _ url: URL, seed: UInt64, name: String, file: StaticString = #filePath, line: UInt = #line
) {
    var random = SeededRandomNumberGenerator(seed: seed)
    let delivered = Recorder<Bool>()
    let deadline = Date().addingTimeInterval(20)
    var iterations = 0
    while iterations < 3_000, Date() < deadline {
        let subscription = client.get(url).subscribe { delivered.append((try? $0.get()) != nil) }
        usleep(UInt32(random.below(3_000)))
        subscription.dispose()
        iterations += 1
    }
    XCTAssertGreaterThanOrEqual(iterations, 500, "too few iterations to mean anything", file: file, line: line)
    let completed = delivered.values.count
    XCTAssertGreaterThan(completed, 0, file: file, line: line)
    XCTAssertLessThan(completed, iterations, file: file, line: line)
    print("\(name): \(iterations) requests, \(completed) completed before their dispose")
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
