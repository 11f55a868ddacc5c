import Foundation
import MallocInterposerSwift
import Workloads

// The load-immune mode: instructions and allocations per operation.
//
//   ripple-compare --instructions [--filter ID] [--implementation NAME]
//   ripple-compare --instructions --check Benchmarks/instructions-baseline.json
//   ripple-compare --instructions --write-baseline Benchmarks/instructions-baseline.json
//
// Built with RIPPLE_RXSWIFT_PATH naming a checkout of RxSwift 6.10.2 (Package.swift:
// `RIPPLE_RXSWIFT_PATH=/path/to/RxSwift swift run -c release --package-path Benchmarks
// ripple-compare --instructions`), the table has RxSwift's columns too; a check or a
// baseline counts Ripple alone either way.
//
// Each workload runs in a child process (`--run-once ID IMPLEMENTATION N`) under
// `valgrind --tool=callgrind`, collecting only inside `callgrindMeasuredRegion`,
// at two sizes; the difference of the two counts divided by the difference of the
// sizes is the cost of one operation, with the one-time costs (setup, lazy
// initialisation, the first call of a specialisation) cancelled out. Allocations
// are counted natively with the malloc interposer, the same way. Both are
// deterministic for single-threaded workloads, whatever else the machine runs.

/// The two sizes every workload runs at (multiples of 8: the search workload's
/// typing pattern repeats every eight keystrokes).
let instructionSizes = (small: 200, large: 1_000)

/// Workloads whose counts are not gated: they hand work to other threads, and
/// callgrind only counts the thread that enters the measured region (the
/// consumer's side is missing and depends on scheduling), so their figures move
/// from run to run (observe-on: 1 364 to 5 854 instructions per event). A new
/// workload that hands work to another thread belongs here: run `--instructions`
/// twice, and list it if its counts differ by more than 1 %.
let ungatedWorkloads: Set<String> = ["observe-on"]

/// The measured part of a `--run-once` child; callgrind collects only inside it.
/// Its name is what `--toggle-collect` matches against the mangled symbol: do not
/// rename it on its own, and keep the words "ripple" and "compare" out of it (the
/// mangler abbreviates words of the module's name, and the pattern stops matching).
@inline(never)
func callgrindMeasuredRegion(_ run: () -> Int) -> Int {
    run()
}

/// `--run-once ID IMPLEMENTATION N`: one warm-up run, then `setup(N)` and the measured
/// closure inside `callgrindMeasuredRegion`. Exits with 2 on bad arguments.
func runOnce(_ words: [String]) -> Never {
    guard words.count == 3, let size = Int(words[2]), size > 0,
          let workload = allWorkloads.first(where: { $0.id == words[0] }),
          let implementation = Implementation(rawValue: words[1]),
          let setup = workload.implementations[implementation]
    else {
        fail("--run-once takes a workload id, an implementation it has and a positive size, not \(words)")
    }
    consume(setup(1)())
    let run = setup(size)
    consume(callgrindMeasuredRegion(run))
    exit(0)
}

/// Instructions and allocations per operation of one workload and implementation.
struct InstructionMeasurement: Codable {
    var instructionsPerOp: Double
    var mallocsPerOp: Double

    enum CodingKeys: String, CodingKey {
        case instructionsPerOp = "instructions_per_op"
        case mallocsPerOp = "mallocs_per_op"
    }
}

/// The baseline file: Ripple's counts per workload id.
struct InstructionBaseline: Codable {
    var comment: String
    var sizes: [Int]
    var workloads: [String: InstructionMeasurement]
}

let baselineComment = """
    Ripple's instructions and allocations per operation (ripple-compare --instructions), \
    checked by scripts/test-all.sh: a gated workload more than 5 % above its figure fails. \
    Regenerate with `swift run -c release --package-path Benchmarks ripple-compare --write-baseline \
    Benchmarks/instructions-baseline.json` and commit it on its own, saying why the counts moved.
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write((message + "\n").data(using: .utf8)!)
    exit(2)
}

/// Writes `value` as JSON (indented, keys sorted) to `file`, creating its
/// directory; a failure stops the run.
func writeJSON<Value: Encodable>(_ value: Value, to file: URL) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(value).write(to: file)
    } catch {
        fail("could not write \(file.path): \(error)")
    }
}

/// The path of this executable, for the children.
func executablePath() -> String {
    if let path = Bundle.main.executablePath { return path }
    return CommandLine.arguments[0]
}

/// The executable valgrind runs: a copy of this one without its debugging
/// information (`objcopy --strip-debug`; the symbol table stays, which is all
/// `--toggle-collect` needs). Valgrind 3.19 (Debian 12) gives up on the DWARF 5
/// that clang writes for the package's C targets ("unhandled dwarf2 abbrev form
/// code 0x25 ... Possibly corrupted debuginfo file"), and debugging information
/// plays no part in the counts. The original when `objcopy` is missing or fails.
let measuredExecutable: String = {
    let original = executablePath()
    // Beside the original: the executable finds its shared libraries (the
    // malloc interposer) through an `$ORIGIN`-relative run path.
    let copy = original + ".measured-\(ProcessInfo.processInfo.processIdentifier)"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["objcopy", "--strip-debug", original, copy]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return original }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return original }
    measuredCopy = copy
    atexit {
        if let copy = measuredCopy { unlink(copy) }
    }
    return copy
}()

/// The copy `measuredExecutable` made, removed when the process exits.
nonisolated(unsafe) private var measuredCopy: String?

/// Instructions counted by callgrind in the measured region of one child run.
func callgrindInstructions(workload: String, implementation: Implementation, size: Int) -> Double {
    let outFile = FileManager.default.temporaryDirectory
        .appendingPathComponent("ripple-compare-\(ProcessInfo.processInfo.processIdentifier)-\(workload)-\(implementation.rawValue)-\(size).callgrind")
    defer { try? FileManager.default.removeItem(at: outFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "valgrind", "--tool=callgrind", "--collect-atstart=no",
        "--toggle-collect=*callgrindMeasuredRegion*",
        "--callgrind-out-file=\(outFile.path)",
        measuredExecutable, "--run-once", workload, implementation.rawValue, String(size),
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    do { try process.run() } catch { fail("could not start valgrind: \(error)") }
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        fail("valgrind failed for \(workload)/\(implementation.rawValue) at \(size):\n" + String(decoding: stderr, as: UTF8.self))
    }
    guard let text = try? String(contentsOf: outFile, encoding: .utf8),
          let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") || $0.hasPrefix("totals:") }),
          let count = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else {
        fail("no instruction total in callgrind's output for \(workload)/\(implementation.rawValue)")
    }
    return count
}

/// The allocations `run` makes (counted by the malloc interposer).
func countMallocs(_ run: () -> Int) -> Double {
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.hook()
    consume(run())
    MallocInterposerSwift.unhook()
    return Double(MallocInterposerSwift.getStatistics().mallocCount)
}

/// Allocations of one native run of `size` operations (after a warm-up run).
func mallocs(_ setup: Setup, size: Int) -> Double {
    consume(setup(1)())
    return countMallocs(setup(size))
}

/// The sizes of a workload's two runs, whose difference is divided by their span.
func instructionRunSizes(_ workload: Workload) -> (small: Int, large: Int) {
    (instructionSizes.small * workload.instructionScale, instructionSizes.large * workload.instructionScale)
}

/// Allocations per operation: those of the large run less those of the small one.
func mallocsPerOp(_ workload: Workload, _ setup: Setup) -> Double {
    let (small, large) = instructionRunSizes(workload)
    return (mallocs(setup, size: large) - mallocs(setup, size: small)) / Double(large - small)
}

func measureInstructions(_ workload: Workload, _ implementation: Implementation, _ setup: Setup) -> InstructionMeasurement {
    let (small, large) = instructionRunSizes(workload)
    let instructions = callgrindInstructions(workload: workload.id, implementation: implementation, size: large)
        - callgrindInstructions(workload: workload.id, implementation: implementation, size: small)
    return InstructionMeasurement(
        instructionsPerOp: instructions / Double(large - small), mallocsPerOp: mallocsPerOp(workload, setup))
}

func formatCount(_ value: Double?) -> String {
    guard let value else { return "—" }
    if abs(value) >= 100 { return String(format: "%.0f", value) }
    return String(format: "%.2f", value)
}

/// `--instructions`: measures, prints the table, writes `.results/instructions.json`,
/// then checks against or writes a baseline if asked to. Exits with 1 when the
/// check fails.
func runInstructionMode(
    filter: String?, only: Implementation?, check: String?, writeBaseline: String?, resultsDirectory: URL
) -> Never {
    // A baseline is Ripple's alone. AsyncStream is left out: its work runs in tasks
    // on other threads, which callgrind does not count (it measured ~0 per op).
    // RxSwift is measured when this build has it (RIPPLE_RXSWIFT_PATH, Package.swift).
    let implementations = (check != nil || writeBaseline != nil) ? [.ripple] : Implementation.allCases.filter { implementation in
        implementation != .asyncStream && (only.map { $0 == implementation } ?? true)
    }
    // RxSwift's columns: only in a build with RIPPLE_RXSWIFT_PATH, and not in a
    // check or baseline run (Ripple's alone), whose table stays as it was.
    let showsRxSwift = rxSwiftIsBuilt && implementations.contains(.rxSwift)
    var results: [String: [String: InstructionMeasurement]] = [:]
    var rows: [[String]] = []
    for workload in allWorkloads where filter.map({ workload.id.contains($0) }) ?? true {
        var measured: [Implementation: InstructionMeasurement] = [:]
        for implementation in implementations {
            guard let setup = workload.implementations[implementation] else { continue }
            measured[implementation] = measureInstructions(workload, implementation, setup)
        }
        results[workload.id] = Dictionary(uniqueKeysWithValues: measured.map { ($0.key.rawValue, $0.value) })
        let ripple = measured[.ripple]?.instructionsPerOp
        // The collection rows compare with the standard library's diff, not OpenCombine.
        let peer = measured[.openCombine] ?? measured[.reference]
        let openCombine = peer?.instructionsPerOp
        rows.append([
            workload.title + (ungatedWorkloads.contains(workload.id) ? " (threads: not gated)" : ""),
            "instructions/\(workload.unit)",
            formatCount(ripple), formatCount(openCombine), formatCount(measured[.floor]?.instructionsPerOp),
            ratio(ripple, openCombine),
            formatCount(measured[.ripple]?.mallocsPerOp), formatCount(peer?.mallocsPerOp),
        ] + (showsRxSwift ? [
            formatCount(measured[.rxSwift]?.instructionsPerOp), ratio(ripple, measured[.rxSwift]?.instructionsPerOp),
            formatCount(measured[.rxSwift]?.mallocsPerOp),
        ] : []))
        FileHandle.standardError.write("counted \(workload.id)\n".data(using: .utf8)!)
    }
    let header = ["workload", "unit", "Ripple", "OpenCombine (or reference)", "floor",
                  "OpenCombine (or reference) ÷ Ripple", "Ripple allocs/op", "OpenCombine (or reference) allocs/op"]
        + (showsRxSwift ? ["RxSwift", "RxSwift ÷ Ripple", "RxSwift allocs/op"] : [])
    printTableHeader(header)
    for row in rows { printTableRow(row) }
    print()
    print("valgrind --tool=callgrind, sizes \(instructionSizes.small) and \(instructionSizes.large), (count(large) − count(small)) / \(instructionSizes.large - instructionSizes.small); sizes × 100 for the diff, which works in batches of 10 000 elements; release build.")

    writeJSON(results, to: resultsDirectory.appendingPathComponent("instructions.json"))

    let rippleResults = results.compactMapValues { $0[Implementation.ripple.rawValue] }
    if let writeBaseline {
        let baseline = InstructionBaseline(
            comment: baselineComment, sizes: [instructionSizes.small, instructionSizes.large],
            workloads: rippleResults)
        writeJSON(baseline, to: URL(fileURLWithPath: writeBaseline))
        FileHandle.standardError.write("wrote \(writeBaseline)\n".data(using: .utf8)!)
    }
    if let check {
        exit(checkAgainstBaseline(check, rippleResults) ? 0 : 1)
    }
    exit(0)
}

/// Prints baseline / now / change for every measured workload; `false` when a gated
/// workload's instructions per operation rose more than 5 % above the baseline, or
/// its allocations per operation rose at all (by more than 0.01).
func checkAgainstBaseline(_ path: String, _ now: [String: InstructionMeasurement]) -> Bool {
    let baseline = readInstructionBaseline(path)
    print()
    printTableHeader(["workload", "baseline instr/op", "now", "change", "baseline allocs/op", "now", "verdict"])
    var passed = true
    for workload in allWorkloads {
        guard let current = now[workload.id] else { continue }
        guard let reference = baseline.workloads[workload.id] else {
            printTableRow([workload.id, "—", formatCount(current.instructionsPerOp), "—", "—", formatCount(current.mallocsPerOp), "new (not in the baseline)"])
            continue
        }
        let change = (current.instructionsPerOp - reference.instructionsPerOp) / reference.instructionsPerOp
        let verdict: String
        if ungatedWorkloads.contains(workload.id) {
            verdict = "not gated (threads)"
        } else if change > 0.05 {
            verdict = "**FAIL**: more than 5 % above the baseline"
            passed = false
        } else if allocationsRose(current.mallocsPerOp, above: reference.mallocsPerOp) {
            verdict = "**FAIL**: more allocations"
            passed = false
        } else {
            verdict = "ok"
        }
        printTableRow([
            workload.id, formatCount(reference.instructionsPerOp), formatCount(current.instructionsPerOp),
            String(format: "%+.1f %%", change * 100), formatCount(reference.mallocsPerOp), formatCount(current.mallocsPerOp), verdict,
        ])
    }
    print()
    print(passed
        ? "Instruction counts within 5 % of \(path)."
        : "Instruction counts regressed against \(path). If the change is deliberate, regenerate the baseline with --write-baseline and commit it with the reason.")
    return passed
}

/// Whether `now` allocations per operation are more than `reference` (by more
/// than 0.01, the counts' noise across runs): the rule of `--check` and
/// `--check-allocations` alike.
func allocationsRose(_ now: Double, above reference: Double) -> Bool {
    now > reference + 0.01
}

func readInstructionBaseline(_ path: String) -> InstructionBaseline {
    do {
        return try JSONDecoder().decode(InstructionBaseline.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
        fail("could not read the baseline \(path): \(error)")
    }
}

/// `--check-allocations PATH`: Ripple's allocations per operation of every gated
/// workload against PATH's (an instruction baseline), counted without valgrind.
/// scripts/test-all.sh runs it on the build with the trait `CompactPipelines`
/// against the default build's baseline: the trait may cost instructions, but no
/// workload may allocate more than the default build (a stage's functions made
/// per stage once cost six allocations per operator, docs/Performance.md).
/// Exits with 1 when one does.
func runAllocationCheck(_ path: String, filter: String?) -> Never {
    let baseline = readInstructionBaseline(path)
    printTableHeader(["workload", "baseline allocs/op", "now", "verdict"])
    var passed = true
    for workload in allWorkloads where filter.map({ workload.id.contains($0) }) ?? true {
        guard let setup = workload.implementations[.ripple], let reference = baseline.workloads[workload.id] else { continue }
        let now = mallocsPerOp(workload, setup)
        let verdict: String
        if ungatedWorkloads.contains(workload.id) {
            verdict = "not gated (threads)"
        } else if allocationsRose(now, above: reference.mallocsPerOp) {
            verdict = "**FAIL**: more allocations"
            passed = false
        } else {
            verdict = "ok"
        }
        printTableRow([workload.id, formatCount(reference.mallocsPerOp), formatCount(now), verdict])
    }
    print()
    print(passed
        ? "No workload allocates more than in \(path)."
        : "A workload allocates more than in \(path) (see the table).")
    exit(passed ? 0 : 1)
}
