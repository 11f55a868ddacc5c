import Foundation
import RippleTest
import XCTest

/// Runs `ripple-isolation-probe` (Swift 6 language mode) and
/// `ripple-isolation-probe-swift5` (the same file in Swift 5 mode) as child
/// processes: each subscribes from main-actor code (top-level code, a `@MainActor`
/// view model) with a plain handler, a handler with a nested closure, and a
/// `Single`'s `onSuccess`, to events that arrive on a dispatch queue or on the main
/// queue. See `Tests/IsolationProbe/main.swift`.
final class IsolationProbeTests: RippleTestCase {
    private static let contexts = ["top-level", "view-model"]
    /// `observer`: `subscribe(AnyObserver { ... })`, whose closure belongs to the
    /// main actor as much as a handler does (issue 33.6: it stopped the program
    /// with no message).
    private static let cases = ["plain", "nested", "single", "observer"]

    /// The handlers never run off the main actor: a debug build stops with a
    /// message naming the subscription, the thread and the fix (without Ripple's
    /// check, the plain handler ran on a background thread and the nested closure
    /// trapped with no message).
    func testSwift6HandlersOfMainActorCodeStopADebugBuildWhenAnEventArrivesElsewhere() throws {
        for context in Self.contexts {
            for scenario in Self.cases {
                let run = try Probe.run(.swift6, context, scenario, "background")
                let method = switch scenario {
                case "single": "subscribe(onSuccess:onFailure:onDisposed:)"
                case "observer": "AnyObserver.init(eventHandler:)"
                default: "subscribe(onNext:onError:onCompleted:onDisposed:)"
                }
                let fix = scenario == "observer"
                    ? "Fix: add .observe(on: MainScheduler.instance) before the subscription or binding that uses this observer"
                    : "Fix: add .observe(on: MainScheduler.instance) before \(method)"
                XCTAssertNotEqual(run.status, 0, run.description)
                // The place of the subscribing call, from its captured stack:
                // top-level code compiles to the C symbol `main`, so its module
                // is not known and the file is named alone.
                XCTAssertTrue(
                    run.output.contains("Ripple: \(method) at ripple_isolation_probe/main.swift:")
                        || context == "top-level" && run.output.contains("Ripple: \(method) at main.swift:"),
                    run.description)
                XCTAssertTrue(run.output.contains("an event arrived off the main actor, on thread"), run.description)
                XCTAssertTrue(run.output.contains(fix), run.description)
                XCTAssertFalse(run.output.contains("handled"), "a handler ran off the main actor: \(run.description)")
            }
        }
    }

    /// What a release build does: the violation is reported once and the events
    /// are delivered on the main queue, which `dispatchMain()` drains on another
    /// thread on Linux; the nested closures' own isolation checks pass there.
    func testSwift6HandlersOfMainActorCodeAreReportedAndDeliveredOnTheMainQueue() throws {
        for context in Self.contexts {
            for scenario in Self.cases {
                let run = try Probe.run(.swift6, context, scenario, "report")
                XCTAssertEqual(run.status, 0, run.description)
                XCTAssertEqual(run.lines.filter { $0.hasPrefix("reported: Ripple: ") }.count, 1, run.description)
                XCTAssertEqual(
                    run.lines.filter { $0.hasPrefix("handled") },
                    ["handled \(context) \(scenario) 1 mainQueue=true mainThread=false"], run.description)
                XCTAssertEqual(run.lines.last, "end", run.description)
            }
        }
    }

    /// The report names the subscribing call's place while the main thread
    /// leaves through `dispatchMain()` (`pthread_exit`, which frees that
    /// thread's resources): the place must be found without reading memory
    /// another thread may unmap meanwhile. With the `Runtime` module's image
    /// map, 17 runs of 200 crashed (SIGSEGV in `ImageMap.capture`, while the
    /// exiting main thread's symbolication cache unmapped a file); 40 runs
    /// here would miss that rate 3 times in 100.
    func testTheReportFindsItsPlaceWhileTheMainThreadExits() throws {
        for _ in 0..<40 {
            let run = try Probe.run(.swift6, "top-level", "plain", "report")
            XCTAssertEqual(run.status, 0, run.description)
            XCTAssertEqual(run.lines.last, "end", run.description)
            XCTAssertTrue(
                run.output.contains("subscribe(onNext:onError:onCompleted:onDisposed:) at main.swift:"), run.description)
            if run.status != 0 { break }
        }
    }

    /// Events that arrive on the main queue are delivered at once, as before,
    /// with no report: on the main thread, and on the main queue drained by
    /// `dispatchMain()`. The same in Swift 5 mode.
    func testHandlersOfMainActorCodeFedOnTheMainQueueRunAtOnceWithoutReport() throws {
        for mode in [Probe.Mode.swift6, .swift5] {
            for context in Self.contexts {
                for scenario in Self.cases {
                    let run = try Probe.run(mode, context, scenario, "main")
                    let second = scenario == "single"
                        ? []  // a `Single` has one element
                        : ["handled \(context) \(scenario) 2 mainQueue=true mainThread=false"]
                    XCTAssertEqual(run.status, 0, run.description)
                    XCTAssertEqual(
                        run.lines,
                        [mode.banner, "sending 1 on the main thread",
                         "handled \(context) \(scenario) 1 mainQueue=true mainThread=true",
                         "sent 1", "sending 2 on the main queue"] + second + ["sent 2"],
                        run.description)
                }
            }
        }
    }

    /// `drive` called on the main queue drained by `dispatchMain()` (by a worker
    /// thread, not the main thread) is called "on the main thread": the queue is
    /// checked, not `Thread.isMainThread`.
    func testDriveOnTheMainQueueAfterDispatchMainIsNotReported() throws {
        for mode in [Probe.Mode.swift6, .swift5] {
            let run = try Probe.run(mode, "dispatch-main", "drive", "main")
            XCTAssertEqual(run.status, 0, run.description)
            XCTAssertEqual(run.lines.filter { $0.hasPrefix("reported") }, [], run.description)
            XCTAssertEqual(run.lines.last, "handled dispatch-main drive 1 mainQueue=true mainThread=false", run.description)
        }
    }

    /// Swift 5 code is not checked: the handlers run where the events arrive, as
    /// in RxSwift, in top-level code and in a `@MainActor` class alike.
    func testSwift5HandlersRunWhereTheEventsArriveAsInRxSwift() throws {
        for feed in ["background", "report"] {
            for context in Self.contexts {
                for scenario in Self.cases {
                    let run = try Probe.run(.swift5, context, scenario, feed)
                    XCTAssertEqual(run.status, 0, run.description)
                    XCTAssertEqual(
                        run.lines,
                        [Probe.Mode.swift5.banner, "handled \(context) \(scenario) 1 mainQueue=false mainThread=false", "end"],
                        run.description)
                }
            }
        }
    }
}

/// One run of a probe.
private struct Probe: CustomStringConvertible {
    enum Mode {
        case swift6, swift5

        var executable: String {
            self == .swift6 ? "ripple-isolation-probe" : "ripple-isolation-probe-swift5"
        }

        /// The first line the probe prints.
        var banner: String {
            self == .swift6 ? "language mode 6" : "language mode 5"
        }
    }

    var arguments: [String]
    var status: Int32
    /// Standard output, then standard error (a stop's message).
    var output: String

    var lines: [String] {
        output.split(separator: "\n").map(String.init)
    }

    var description: String {
        "\(arguments.joined(separator: " ")) exited with \(status):\n\(output)"
    }

    static func run(_ mode: Mode, _ arguments: String...) throws -> Probe {
        let process = Process()
        process.executableURL = try executable(mode.executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        // A stop prints its message; the backtrace would only slow the test down.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes are drained while it runs (a full pipe would block it).
        let errors = UncheckedBox<Data>()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errors.value = stderr.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return Probe(
            arguments: [mode.executable] + arguments,
            status: process.terminationStatus,
            output: String(decoding: output, as: UTF8.self) + String(decoding: errors.value ?? Data(), as: UTF8.self))
    }

    /// The probe built next to this test bundle.
    private static func executable(_ name: String) throws -> URL {
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL {
            directories.append(executable.deletingLastPathComponent())  // Linux: the test runner
        }
        #if canImport(Darwin)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        #endif
        guard let url = directories.map({ $0.appendingPathComponent(name) })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else {
            throw NSError(domain: "IsolationProbeTests", code: 1, userInfo: [
                NSLocalizedDescriptionKey: "\(name) is not built next to the tests (swift build --build-tests builds it)",
            ])
        }
        return url
    }
}

/// A value written by one thread and read after a semaphore.
private final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value?
}
