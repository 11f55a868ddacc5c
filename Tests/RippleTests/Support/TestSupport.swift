import Foundation
@testable import Ripple
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
/// giving up its thread). `DispatchTime`, not `ContinuousClock` (macOS 13 /
/// iOS 16): the tests build for Ripple's minimum, macOS 10.15 / iOS 13.
func spin(for duration: DispatchTimeInterval) {
    let end = DispatchTime.now() + duration
    while DispatchTime.now() < end {}
}

/// The producer of issue 22.2's tests: once started, another thread sends in a
/// tight loop (until `stop()`, or its own 5 s limit), counting what it sent.
/// Started from a subscriber while the test's thread is the deliverer, its
/// events queue behind the one being delivered, so the test's thread has to
/// deliver them: the tests measure for how long.
final class TightLoopProducer: @unchecked Sendable {
    let sent = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let send: @Sendable (Int) -> Void

    init(_ send: @escaping @Sendable (Int) -> Void) {
        self.send = send
    }

    /// Starts the loop and returns once `count` values were sent.
    func start(andWaitFor count: Int = 100) {
        DispatchQueue.global().async { [self] in
            let limit = DispatchTime.now() + .seconds(5)
            var value = 0
            while !stopped.load(ordering: .relaxed) {
                send(value)
                value += 1
                sent.store(value, ordering: .relaxed)
                if value % 64 == 0 && DispatchTime.now() > limit { break }
            }
            done.signal()
        }
        _ = waitUntil(timeout: 5) { sent.load(ordering: .relaxed) >= count }
    }

    /// Stops the loop and waits for it to end.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        done.wait()
    }
}

/// How long `body` took.
func duration(of body: () -> Void) -> Elapsed {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Elapsed(nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
}

/// A time ``duration(of:)`` measured, compared with limits written
/// `.seconds(2)` or `.milliseconds(5)` (what `Duration` gave before the tests
/// had to build for macOS 10.15 / iOS 13, where it does not exist).
struct Elapsed: Comparable, CustomStringConvertible {
    let nanoseconds: UInt64

    static func seconds(_ count: UInt64) -> Elapsed { Elapsed(nanoseconds: count * 1_000_000_000) }
    static func milliseconds(_ count: UInt64) -> Elapsed { Elapsed(nanoseconds: count * 1_000_000) }
    static func < (lhs: Elapsed, rhs: Elapsed) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    var milliseconds: Int { Int(nanoseconds / 1_000_000) }
    var description: String { "\(Double(nanoseconds) / 1_000_000) ms" }
}

/// Two queues feeding each other (subjects, arrays): `sends[i]` is called
/// `perThread` times on thread `i`, and the result counts the producers' waits
/// (`ThrottleWaits`) that ran into their time limit meanwhile. That count, not
/// the time taken, is the throughput check: a wait runs out only when its owner
/// does not finish its turn, which is what happened to every wait when two
/// threads each waited for the other (about a hundred events a second). Once
/// `stallLimit` waits ran out, `stop` is called (it should end the feeding, e.g.
/// by disposing the observers) and the threads stop sending, so such a
/// regression fails in seconds rather than after half an hour.
func stalledWaitsWhileFeedingEachOther(
    perThread: Int, stallLimit: Int, stop: @escaping @Sendable () -> Void, _ sends: [@Sendable () -> Void]
) -> (finished: Bool, stalledWaits: Int) {
    let before = AtomicCell.load(&ThrottleWaits.stalledWaits, ordering: .relaxed)
    let stalled: @Sendable () -> Bool = { AtomicCell.load(&ThrottleWaits.stalledWaits, ordering: .relaxed) - before > stallLimit }
    let group = DispatchGroup()
    for send in sends {
        DispatchQueue.global().async(group: group) {
            for _ in 0..<perThread where !stalled() { send() }
        }
    }
    var finished = false
    while !finished && !stalled() {
        finished = group.wait(timeout: .now() + 0.05) == .success
    }
    if !finished {
        stop()
        finished = group.wait(timeout: .now() + 120) == .success
    }
    return (finished, AtomicCell.load(&ThrottleWaits.stalledWaits, ordering: .relaxed) - before)
}

/// Four threads call `call(thread, index)` in tight loops for `duration`; the
/// observers under test call ``count()`` for every event they receive. The
/// result is the most observer calls that ran inside one single call, on its
/// thread: how much of other threads' work one caller was made to deliver. A
/// count, not a time, so that it does not depend on the machine's load.
final class DeliveriesPerCall: @unchecked Sendable {
    private let threads = 4
    // One slot per thread, each written only by its thread (`identities`
    // before the start signal, `counts` by the observers it runs).
    private let identities: UnsafeMutablePointer<pthread_t?>
    private let counts: UnsafeMutablePointer<Int>

    init() {
        identities = .allocate(capacity: threads)
        identities.initialize(repeating: nil, count: threads)
        counts = .allocate(capacity: threads)
        counts.initialize(repeating: 0, count: threads)
    }

    deinit {
        identities.deallocate()
        counts.deallocate()
    }

    /// Counts one observer call on the calling thread (nothing on other threads).
    func count() {
        let me = pthread_self()
        for index in 0..<threads where identities[index].map({ pthread_equal($0, me) != 0 }) == true {
            counts[index] += 1
            return
        }
    }

    func run(for duration: DispatchTimeInterval, _ call: @escaping @Sendable (_ thread: Int, _ index: Int) -> Void) -> Int {
        let most = Atomic<Int>(0)
        let ready = DispatchGroup()
        let finished = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        for thread in 0..<threads {
            ready.enter()
            finished.enter()
            Thread { [self] in
                identities[thread] = pthread_self()
                ready.leave()
                go.wait()
                let stop = DispatchTime.now() + duration
                var index = 0
                var mostHere = 0
                while DispatchTime.now() < stop {
                    let before = counts[thread]
                    call(thread, index)
                    mostHere = max(mostHere, counts[thread] - before)
                    index += 1
                }
                _ = most.max(mostHere, ordering: .relaxed)
                finished.leave()
            }.start()
        }
        ready.wait()
        for _ in 0..<threads { go.signal() }
        finished.wait()
        return most.load(ordering: .relaxed)
    }
}

/// What an observer sees when it schedules work on `CurrentThreadScheduler`
/// while it receives the first event `source` sends during `subscribe`:
/// `["scheduled", "handler", "returned"]` when the subscription did not start
/// the trampoline (the work runs at once), `["handler", "scheduled",
/// "returned"]` when it did. Asserts that `subscribe(onNext:...)` and an
/// observer agree, and returns what they saw.
func trampolineOrder<Element>(
    _ source: Observable<Element>, file: StaticString = #filePath, line: UInt = #line
) -> [String] {
    func run(_ subscribe: (@escaping () -> Void) -> Disposable) -> [String] {
        var log: [String] = []
        let subscription = subscribe {
            guard log.isEmpty else { return }
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                log.append("scheduled")
                return Disposables.create()
            }
            log.append("handler")
        }
        log.append("returned")
        subscription.dispose()
        return log
    }
    let withHandlers = run { handler in
        source.subscribe(onNext: { _ in handler() }, onError: { _ in handler() }, onCompleted: { handler() })
    }
    let withObserver = run { handler in source.subscribe(AnyObserver { _ in handler() }) }
    XCTAssertEqual(withObserver, withHandlers, "observer and handlers disagree", file: file, line: line)
    return withHandlers
}

/// A value that runs `action` when it goes away: a `deinit` is user code, and
/// may use the stream or the list that held the value.
final class RunsOnDeinit: @unchecked Sendable {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    deinit { action() }
}

/// Runs `body` on another thread and fails if it has not returned within
/// `seconds`, so that a deadlock fails the test instead of hanging it (the
/// thread stays blocked). Returns whether `body` finished.
@discardableResult
func assertFinishes(
    within seconds: Double = 5, _ what: @autoclosure () -> String = "deadlocked",
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @Sendable () -> Void
) -> Bool {
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        finished.signal()
    }
    let result = finished.wait(timeout: .now() + seconds)
    XCTAssertEqual(result, .success, what(), file: file, line: line)
    return result == .success
}

/// For the operators that hold a pending element behind a timer (`debounce`,
/// `throttle`): through `apply`, sends `nil`, then an element whose `deinit`
/// sends `nil` again through the same `create` observer, then `nil`, which
/// replaces it; runs `scheduler` and checks what arrived when. Under the
/// operator's lock, that `deinit` deadlocked.
func assertAReplacedElementWhoseDeinitSendsToTheSourceDoesNotDeadlock(
    _ apply: @escaping @Sendable (Observable<RunsOnDeinit?>, TestScheduler) -> Observable<RunsOnDeinit?>,
    expected: [String], file: StaticString = #filePath, line: UInt = #line
) {
    let log = Recorder<String>()
    assertFinishes({ "deadlocked after \(log.values)" }(), file: file, line: line) {
        let scheduler = TestScheduler(initialClock: 0)
        nonisolated(unsafe) var send: (RunsOnDeinit?) -> Void = { _ in }
        let source = Observable<RunsOnDeinit?>.create { observer in
            send = { observer.onNext($0) }
            return Disposables.create()
        }
        let subscription = apply(source, scheduler)
            .subscribe(onNext: { log.append($0 == nil ? "nil at \(scheduler.clock)" : "value at \(scheduler.clock)") })
        send(nil)
        send(RunsOnDeinit { send(nil) })
        send(nil)  // replaces the pending element, whose deinit sends nil
        scheduler.start()
        subscription.dispose()
    }
    XCTAssertEqual(log.values, expected, file: file, line: line)
}
