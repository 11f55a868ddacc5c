import Dispatch
import Foundation
import Workloads

// Runs every workload for every implementation side by side and prints the
// comparison table; writes the same figures to .results/compare.json.
//
//   swift run -c release --package-path Benchmarks ripple-compare          # full run
//   swift run -c release --package-path Benchmarks ripple-compare --smoke  # a quick pass (CI)
//   ... ripple-compare --filter hot-chain                                  # some workloads
//   ... ripple-compare --filter cold-range --implementation Ripple         # one implementation
//                                                                          # (for perf / callgrind)
//   ... ripple-compare --instructions                                      # instructions and allocations
//                                                                          # per op under callgrind
//   ... ripple-compare --checksums                                         # each implementation's checksum
//                                                                          # beside Ripple's (Checksums.swift)
//   ... ripple-compare --check Benchmarks/instructions-baseline.json       # Ripple against the baseline
//   ... ripple-compare --check-allocations Benchmarks/instructions-baseline.json  # allocations alone, no valgrind
//                                                                          # (CI: with the trait CompactPipelines)
//   ... ripple-compare --write-baseline Benchmarks/instructions-baseline.json
//   ... ripple-compare --filter collection --cpu-time                      # thread CPU time, not wall
//                                                                          # time (a loaded machine)
//   ... ripple-compare --memory                                            # bytes per live subscription
//   ... ripple-compare --size                                              # app size and clean build time
//                                                                          # (Size.swift; RxSwift column with
//                                                                          # RIPPLE_RXSWIFT_PATH)
//   ... ripple-compare --size --compact-pipelines                          # the same, Ripple built with its
//                                                                          # trait CompactPipelines
//   ... ripple-compare --size --internalize-at-link                        # the same, every release build with
//                                                                          # -internalize-at-link -function-sections
//   ... ripple-compare --size --screens 20                                 # what each further screen costs, and an edit of the app
//                                                                          # (ScreenCost.swift)
//   ... ripple-compare --size --library-builds                             # the core module alone, clean builds in
//                                                                          # release and debug (LibraryBuilds.swift)
//   ... ripple-compare --check-size Benchmarks/size-baseline.json          # Ripple's sizes against the baseline
//
// With RIPPLE_RXSWIFT_PATH naming a checkout of RxSwift 6.10.2 when the package is
// built (`RIPPLE_RXSWIFT_PATH=/path/to/RxSwift swift run -c release --package-path
// Benchmarks ripple-compare ...`), the workloads have RxSwift implementations too
// (Workloads/RxSwiftWorkloads.swift), and the tables an RxSwift column.

// Start a second thread before measuring anything. While a process has a single
// thread, glibc skips the atomic instructions of `pthread_mutex_lock`/`unlock`
// (they cost about 4 ns instead of 12 ns here), so the first workloads measured
// would run under different conditions from the later ones (the observe(on:) and
// AsyncStream workloads start threads). Every real application has several threads.
do {
    let started = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { started.signal() }
    started.wait()
}

let arguments = CommandLine.arguments.dropFirst()
let smoke = arguments.contains("--smoke")
/// The word after `flag` ("" when `flag` ends the command line), `nil` without `flag`.
func value(of flag: String) -> String? {
    guard let index = arguments.firstIndex(of: flag) else { return nil }
    let next = arguments.index(after: index)
    return next < arguments.endIndex ? arguments[next] : ""
}
let filter = value(of: "--filter").flatMap { $0.isEmpty ? nil : $0 }
let only: Implementation? = value(of: "--implementation").map { name in
    guard let implementation = Implementation.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
        let names = Implementation.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write("--implementation takes one of \(names), not '\(name)'\n".data(using: .utf8)!)
        exit(2)
    }
    if implementation == .rxSwift && !rxSwiftIsBuilt {
        FileHandle.standardError.write("this build has no RxSwift implementations: build with RIPPLE_RXSWIFT_PATH naming a checkout of RxSwift 6.10.2\n".data(using: .utf8)!)
        exit(2)
    }
    return implementation
}
let samples = smoke ? 1 : 7
/// `--cpu-time`: time the calling thread's CPU time instead of the wall clock. For
/// single-threaded workloads on a machine shared with other work, where the wall
/// clock counts the time the process waited for a CPU (a load average of 10 on 2
/// cores made the diff of 10 000 elements look 15× slower than its CPU time).
let cpuTime = arguments.contains("--cpu-time")

// Instructions and allocations per operation under callgrind (Instructions.swift).
if let index = arguments.firstIndex(of: "--run-once") {
    runOnce(Array(arguments[arguments.index(after: index)...].prefix(3)))
}
// Each implementation's checksum beside Ripple's (Checksums.swift).
if arguments.contains("--checksums") {
    runChecksumMode(filter: filter)
}
// Bytes per live subscription (Memory.swift).
if arguments.contains("--memory") {
    runMemoryMode(filter: filter)
}
// App size and clean build time (Size.swift).
if arguments.contains("--size") || arguments.contains("--library-builds") || value(of: "--screens") != nil
    || value(of: "--check-size") != nil || value(of: "--write-size-baseline") != nil {
    for flag in ["--check-size", "--write-size-baseline"] where value(of: flag) == "" {
        fail("\(flag) takes a file")
    }
    if arguments.contains("--compact-pipelines") {
        guard value(of: "--check-size") == nil, value(of: "--write-size-baseline") == nil else {
            fail("--compact-pipelines measures with --size only: the size gate measures the default build")
        }
        sizeRippleTraits = ["CompactPipelines"]
    }
    if arguments.contains("--internalize-at-link") {
        guard value(of: "--check-size") == nil, value(of: "--write-size-baseline") == nil, !arguments.contains("--library-builds") else {
            fail("--internalize-at-link measures with --size and --screens only: the size gate measures the default build")
        }
        sizeReleaseArguments = internalizeAtLinkArguments
    }
    let results = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".results")
    if let screens = value(of: "--screens") {
        guard let count = Int(screens), count > 0, value(of: "--check-size") == nil, value(of: "--write-size-baseline") == nil else {
            fail("--screens takes a number of screens above 0, with --size only (not with the size gate)")
        }
        runScreenCostMode(screens: count, resultsDirectory: results)
    }
    if arguments.contains("--library-builds") {
        guard value(of: "--check-size") == nil, value(of: "--write-size-baseline") == nil else {
            fail("--library-builds measures with --size only (not with the size gate)")
        }
        runLibraryBuildsMode(resultsDirectory: results)
    }
    runSizeMode(
        filter: filter,
        check: value(of: "--check-size"),
        writeBaseline: value(of: "--write-size-baseline"),
        resultsDirectory: results)
}
if let path = value(of: "--check-allocations") {
    guard !path.isEmpty else { fail("--check-allocations takes an instruction baseline's path") }
    runAllocationCheck(path, filter: filter)
}
if arguments.contains("--instructions") || value(of: "--check") != nil || value(of: "--write-baseline") != nil {
    let resultsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".results")
    runInstructionMode(
        filter: filter, only: only,
        check: value(of: "--check").flatMap { $0.isEmpty ? nil : $0 },
        writeBaseline: value(of: "--write-baseline").flatMap { $0.isEmpty ? nil : $0 },
        resultsDirectory: resultsDirectory)
}

struct Measurement: Codable {
    var nsPerOp: Double
    var mallocsPerOp: Double

    enum CodingKeys: String, CodingKey {
        case nsPerOp = "ns_per_op"
        case mallocsPerOp = "mallocs_per_op"
    }
}

func nanoseconds(_ body: () -> Void) -> UInt64 {
    if cpuTime {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
        body()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
        return UInt64((end.tv_sec - start.tv_sec) * 1_000_000_000 + (end.tv_nsec - start.tv_nsec))
    }
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return DispatchTime.now().uptimeNanoseconds - start
}

/// The median time per operation over `samples` runs, and the allocations per
/// operation of one run.
func measure(_ setup: Setup, operations: Int) -> Measurement {
    // Warm up (also lets lazily initialised state settle).
    consume(setup(Swift.max(1, operations / 10))())
    var times: [Double] = []
    for _ in 0..<samples {
        let run = setup(operations)
        let elapsed = nanoseconds { consume(run()) }
        times.append(Double(elapsed) / Double(operations))
    }
    times.sort()
    let mallocs = countMallocs(setup(operations))
    return Measurement(nsPerOp: times[times.count / 2], mallocsPerOp: mallocs / Double(operations))
}

func format(_ value: Double?) -> String {
    guard let value else { return "—" }
    if value >= 100 { return String(format: "%.0f", value) }
    if value >= 10 { return String(format: "%.1f", value) }
    return String(format: "%.2f", value)
}

func ratio(_ lhs: Double?, _ rhs: Double?) -> String {
    guard let lhs, let rhs, lhs > 0 else { return "—" }
    return String(format: "%.2f", rhs / lhs) + "×"
}

var results: [String: [String: Measurement]] = [:]
var rows: [[String]] = []
/// Workloads measured against a reference (collections), printed in a table of their own.
var referenceRows: [[String]] = []
let referenceHeader = ["workload", "unit", "Ripple", "reference", "reference÷Ripple", "Ripple allocs/op"]
/// RxSwift's columns, last: only in a build with RIPPLE_RXSWIFT_PATH.
let showsRxSwift = rxSwiftIsBuilt && (only.map { $0 == .rxSwift } ?? true)
let header = ["workload", "unit", "Ripple", "OpenCombine", "AsyncStream", "floor",
              "OpenCombine÷Ripple", "Ripple÷floor", "Ripple allocs/op", "OpenCombine allocs/op"]
    + (showsRxSwift ? ["RxSwift", "RxSwift÷Ripple", "RxSwift allocs/op"] : [])

for workload in allWorkloads where filter.map({ workload.id.contains($0) }) ?? true {
    let operations = smoke ? Swift.max(1, workload.operations / 100) : workload.operations
    var measured: [Implementation: Measurement] = [:]
    for implementation in Implementation.allCases where only.map({ $0 == implementation }) ?? true {
        guard let setup = workload.implementations[implementation] else { continue }
        measured[implementation] = measure(setup, operations: operations)
    }
    results[workload.id] = Dictionary(uniqueKeysWithValues: measured.map { ($0.key.rawValue, $0.value) })
    let ripple = measured[.ripple]?.nsPerOp
    if workload.implementations[.reference] != nil {
        referenceRows.append([
            workload.title, "ns/\(workload.unit)", format(ripple), format(measured[.reference]?.nsPerOp),
            ratio(ripple, measured[.reference]?.nsPerOp), format(measured[.ripple]?.mallocsPerOp),
        ])
        FileHandle.standardError.write("measured \(workload.id)\n".data(using: .utf8)!)
        continue
    }
    let openCombine = measured[.openCombine]?.nsPerOp
    let floor = measured[.floor]?.nsPerOp
    rows.append([
        workload.title, "ns/\(workload.unit)",
        format(ripple), format(openCombine), format(measured[.asyncStream]?.nsPerOp), format(floor),
        ratio(ripple, openCombine),
        floor.flatMap { floor in ripple.map { String(format: "%.2f×", $0 / floor) } } ?? "—",
        format(measured[.ripple]?.mallocsPerOp), format(measured[.openCombine]?.mallocsPerOp),
    ] + (showsRxSwift ? [
        format(measured[.rxSwift]?.nsPerOp), ratio(ripple, measured[.rxSwift]?.nsPerOp),
        format(measured[.rxSwift]?.mallocsPerOp),
    ] : []))
    FileHandle.standardError.write("measured \(workload.id)\n".data(using: .utf8)!)
}

// Markdown table, ready to paste into the README.
printTableHeader(header)
for row in rows {
    printTableRow(row)
}
if !referenceRows.isEmpty {
    print()
    printTableHeader(referenceHeader)
    for row in referenceRows {
        printTableRow(row)
    }
}
print()
print("Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.operatingSystemVersionString); median of \(samples) runs; release build\(cpuTime ? "; thread CPU time" : "").")

let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".results")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
try encoder.encode(results).write(to: directory.appendingPathComponent("compare.json"))
FileHandle.standardError.write("wrote \(directory.appendingPathComponent("compare.json").path)\n".data(using: .utf8)!)
