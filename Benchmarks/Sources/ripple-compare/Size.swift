import Foundation

// What an app pays besides run time: its size and its build time.
//
//   ripple-compare --size                        # the table: Ripple, and RxSwift when
//                                                # RIPPLE_RXSWIFT_PATH names a checkout
//   ripple-compare --size --filter operators     # some programs only
//   ripple-compare --check-size Benchmarks/size-baseline.json
//   ripple-compare --write-size-baseline Benchmarks/size-baseline.json
//
// Each program of Benchmarks/SizePrograms is built in release, in a throwaway package
// under a temporary directory, against this checkout of Ripple (by path) and, when the
// environment variable RIPPLE_RXSWIFT_PATH points at a checkout of RxSwift 6.10.2,
// against RxSwift (with RxRelay, and RxCocoa's Linux-buildable traits: Driver, Signal,
// ControlProperty, URLSession.rx, compiled from that checkout's own files). The builds
// run one after the other, each from clean, and the report gives for each:
// the stripped executable's bytes, the `text` column of size(1) (code and read-only
// data), the build's wall-clock and user CPU seconds (the library and the program),
// the same for a clean debug build of the package and for the debug build again
// after one line was added to the program's source (an app file edited), and the
// one-minute load average before and after the release build (timings on a busy
// machine are worth what its load lets them be; bytes do not depend on it).
//
// The check (`--check-size`) measures Ripple's programs as this package builds them
// (its executables `size-operators`, `size-view-model`, `size-networking`, `size-screens`, beside
// ripple-compare's own: `swift build -c release --package-path Benchmarks` first),
// so that it costs CI no release build of its own, and fails when a program's
// stripped size is more than 2 % above the baseline's figure.

/// The libraries a program is built against.
enum SizeLibrary: String, Codable {
    case ripple = "Ripple"
    case rxSwift = "RxSwift"
}

/// One program of Benchmarks/SizePrograms: the source built against each library.
/// Ripple's is also the source of this package's executable `size-<name>`.
struct SizeProgram {
    var name: String
    /// File in SizePrograms per library.
    var sources: [SizeLibrary: String]
    /// The products the program depends on, per library: only what it imports, since
    /// on Linux an executable keeps all of every module it links.
    var products: [SizeLibrary: [String]]
}

let sizePrograms: [SizeProgram] = [
    SizeProgram(
        name: "operators", sources: [.ripple: "operators/main.swift", .rxSwift: "operators/main.swift"],
        products: [.ripple: ["Ripple"], .rxSwift: ["RxSwift"]]),
    SizeProgram(
        name: "view-model", sources: [.ripple: "view-model/main.swift", .rxSwift: "view-model/main.swift"],
        products: [.ripple: ["Ripple"], .rxSwift: ["RxSwift", "RxRelay", "RxCocoa"]]),
    SizeProgram(
        name: "networking", sources: [.ripple: "networking/main.swift", .rxSwift: "networking-RxSwift/main.swift"],
        products: [.ripple: ["Ripple", "RippleHTTP"], .rxSwift: ["RxSwift", "RxRelay", "RxCocoa"]]),
    // Ten screens of an app with a model type each (scripts/generate-screens-program.py):
    // what each further screen costs, where the other programs mostly show what every
    // app pays once.
    SizeProgram(
        name: "screens", sources: [.ripple: "screens/main.swift", .rxSwift: "screens/main.swift"],
        products: [.ripple: ["Ripple"], .rxSwift: ["RxSwift"]]),
]

/// RxCocoa's files that build on Linux (its traits and URLSession.rx), relative to an
/// RxSwift checkout. RxSwift's package leaves RxCocoa out on Linux; the throwaway
/// package compiles these, unchanged, as its own `RxCocoa` target.
let rxCocoaLinuxFiles = [
    "RxCocoa/RxCocoa.swift",
    "RxCocoa/Common/Infallible+Bind.swift",
    "RxCocoa/Common/Observable+Bind.swift",
    "RxCocoa/Foundation/NotificationCenter+Rx.swift",
    "RxCocoa/Foundation/URLSession+Rx.swift",
    "RxCocoa/Traits/ControlEvent.swift",
    "RxCocoa/Traits/ControlProperty.swift",
    "RxCocoa/Traits/Driver/BehaviorRelay+Driver.swift",
    "RxCocoa/Traits/Driver/ControlEvent+Driver.swift",
    "RxCocoa/Traits/Driver/ControlProperty+Driver.swift",
    "RxCocoa/Traits/Driver/Driver+Subscription.swift",
    "RxCocoa/Traits/Driver/Driver.swift",
    "RxCocoa/Traits/Driver/Infallible+Driver.swift",
    "RxCocoa/Traits/Driver/ObservableConvertibleType+Driver.swift",
    "RxCocoa/Traits/SharedSequence/ObservableConvertibleType+SharedSequence.swift",
    "RxCocoa/Traits/SharedSequence/SchedulerType+SharedSequence.swift",
    "RxCocoa/Traits/SharedSequence/SharedSequence+Concurrency.swift",
    "RxCocoa/Traits/SharedSequence/SharedSequence+Operators+arity.swift",
    "RxCocoa/Traits/SharedSequence/SharedSequence+Operators.swift",
    "RxCocoa/Traits/SharedSequence/SharedSequence.swift",
    "RxCocoa/Traits/Signal/ControlEvent+Signal.swift",
    "RxCocoa/Traits/Signal/ObservableConvertibleType+Signal.swift",
    "RxCocoa/Traits/Signal/PublishRelay+Signal.swift",
    "RxCocoa/Traits/Signal/Signal+Subscription.swift",
    "RxCocoa/Traits/Signal/Signal.swift",
]

/// The figures of one build.
struct SizeMeasurement: Codable {
    var strippedBytes: Int
    var textBytes: Int
    var wallSeconds: Double?
    var userSeconds: Double?
    var loadBefore: Double?
    var loadAfter: Double?
    /// The clean debug build of the same package, after the release build.
    var debug: BuildTime?
    /// The debug build again after one line was added to the program's source (a
    /// comment): what an edit of one app file costs.
    var incremental: BuildTime?

    enum CodingKeys: String, CodingKey {
        case strippedBytes = "stripped_bytes"
        case textBytes = "text_bytes"
        case wallSeconds = "wall_seconds"
        case userSeconds = "user_seconds"
        case loadBefore = "load_before"
        case loadAfter = "load_after"
        case debug
        case incremental
    }
}

/// How long one build took: wall-clock and user CPU seconds (the compilers and the
/// linker included).
struct BuildTime: Codable {
    var wallSeconds: Double
    var userSeconds: Double

    enum CodingKeys: String, CodingKey {
        case wallSeconds = "wall_seconds"
        case userSeconds = "user_seconds"
    }

    /// The range of `runs`' `seconds` (user or wall), "1.3 to 1.7".
    static func range(_ runs: [BuildTime], _ seconds: KeyPath<BuildTime, Double>) -> String {
        let values = runs.map { $0[keyPath: seconds] }
        guard let low = values.min(), let high = values.max() else { return "—" }
        return String(format: "%.1f to %.1f", low, high)
    }
}

/// The baseline file: Ripple's stripped and text bytes per program.
struct SizeBaseline: Codable {
    var comment: String
    var swiftVersion: String
    /// Ripple's traits in the build that recorded it (absent: none), which the
    /// build that checks against it must have too (``builtRippleTraits``).
    var traits: [String]?
    var programs: [String: SizeMeasurement]

    enum CodingKeys: String, CodingKey {
        case comment
        case swiftVersion = "swift_version"
        case traits
        case programs
    }
}

/// The traits this package was built with that it passes on to Ripple and that
/// change what the size programs contain: the executables `--check-size` measures
/// are built with them (`swift build -c release --package-path Benchmarks
/// --traits CompactPipelines`).
let builtRippleTraits: [String] = {
    #if CompactPipelines
    return ["CompactPipelines"]
    #else
    return []
    #endif
}()

/// The baseline file's comment, for a build with `traits` (none: the default build).
func sizeBaselineComment(traits: [String]) -> String {
    let build = traits.isEmpty ? "" : " --traits " + traits.joined(separator: ",")
    let file = traits.isEmpty ? "Benchmarks/size-baseline.json" : "Benchmarks/size-baseline-compact.json"
    let what = traits.isEmpty ? "" : ", Ripple built with its trait\(traits.count == 1 ? "" : "s") \(traits.joined(separator: ", "))"
    return """
        Stripped bytes and size(1)'s text bytes of each Ripple program of Benchmarks/SizePrograms\(what), \
        built in release as the Benchmarks package's executables size-<program> (ripple-compare --check-size, \
        a step of scripts/test-all.sh), which fails when a program's stripped size is more than 2 % above \
        its figure here. The figures depend on the compiler (swift_version) and the platform, not on the \
        machine's load. Regenerate with `swift build -c release --package-path Benchmarks\(build)` then \
        `swift run -c release --skip-build --package-path Benchmarks ripple-compare --write-size-baseline \
        \(file)`, and commit it on its own, saying why the sizes moved.
        """
}

let sizeTolerance = 0.02

/// The repository's root (this file is Benchmarks/Sources/ripple-compare/Size.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let sizeProgramsDirectory = repositoryRoot.appendingPathComponent("Benchmarks/SizePrograms")

func loadAverage() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
    return text.split(separator: " ").first.flatMap { Double($0) }
}

/// The build running now (0: none), for the interrupt handler.
nonisolated(unsafe) var runningBuildPID: pid_t = 0
/// The temporary directory of this run, removed on exit and on an interrupt.
nonisolated(unsafe) var sizeScratchPath = ""

/// `--compact-pipelines`: the throwaway packages build Ripple with its trait
/// `CompactPipelines` (docs/Performance.md, "Compact pipelines"). Not for the gate,
/// which measures this package's own executables.
nonisolated(unsafe) var sizeRippleTraits: [String] = []

/// `--internalize-at-link`: the release builds of the throwaway packages (both
/// libraries, each program) pass the compiler `-internalize-at-link` and
/// `-function-sections`, which let the linker drop the functions a program does
/// not call, public ones included (by default the compiler keeps every public
/// function: docs/Performance.md, "What the linker may drop"). Not for the gate.
nonisolated(unsafe) var sizeReleaseArguments: [String] = []

/// The arguments `--internalize-at-link` adds to `swift build -c release`.
let internalizeAtLinkArguments = ["-internalize-at-link", "-function-sections"].flatMap {
    ["-Xswiftc", "-Xfrontend", "-Xswiftc", $0]
}

/// `swift build -c release`, with the arguments of `--internalize-at-link` if given.
var sizeReleaseBuild: [String] { ["swift", "build", "-c", "release"] + sizeReleaseArguments }

/// How the report and `size.json` name `library`: Ripple's traits, if any, with it,
/// and the release builds' compiler flags, if any.
func sizeLibraryName(_ library: SizeLibrary) -> String {
    var details = library == .ripple ? sizeRippleTraits : []
    if !sizeReleaseArguments.isEmpty { details.append("-internalize-at-link") }
    return details.isEmpty ? library.rawValue : "\(library.rawValue) (\(details.joined(separator: ", ")))"
}

/// The signal sources of `stopBuildsOnInterrupt()`, kept for the whole run.
nonisolated(unsafe) var sizeSignalSources: [DispatchSourceSignal] = []

/// On SIGINT or SIGTERM (a user's ^C, `timeout`): interrupts the running build, so
/// that no compiler outlives this process, removes the temporary packages and exits.
func stopBuildsOnInterrupt() -> [DispatchSourceSignal] {
    [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            let pid = runningBuildPID
            if pid > 0 {
                kill(pid, SIGINT)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
            }
            if !sizeScratchPath.isEmpty { removeSizeScratch(URL(fileURLWithPath: sizeScratchPath)) }
            FileHandle.standardError.write("interrupted: the build was stopped and \(sizeScratchPath) removed\n".data(using: .utf8)!)
            exit(130)
        }
        source.resume()
        return source
    }
}

/// Runs a command (through /usr/bin/env) in `directory`; its output goes to `log`.
/// Returns the exit status.
@discardableResult
func runCommand(_ arguments: [String], in directory: URL, log: URL) -> Int32 {
    if !FileManager.default.fileExists(atPath: log.path) {
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { fail("could not create \(log.path)") }
    }
    guard let handle = try? FileHandle(forWritingTo: log) else { fail("could not write \(log.path)") }
    defer { try? handle.close() }
    handle.seekToEndOfFile()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    do { try process.run() } catch { fail("could not run \(arguments.joined(separator: " ")): \(error)") }
    runningBuildPID = process.processIdentifier
    process.waitUntilExit()
    runningBuildPID = 0
    return process.terminationStatus
}

/// The standard output of a command, or `nil` when it fails.
func output(of arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
}

/// User CPU seconds of every child process waited for so far (the compilers and the
/// linker count: swift-build waits for them).
func childrenUserSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    #else
    getrusage(RUSAGE_CHILDREN, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1_000_000
}

/// An executable's stripped size and size(1)'s text column.
func measureExecutable(_ executable: URL, scratch: URL) -> (stripped: Int, text: Int) {
    let copy = scratch.appendingPathComponent(executable.lastPathComponent + ".stripped")
    try? FileManager.default.removeItem(at: copy)
    do { try FileManager.default.copyItem(at: executable, to: copy) } catch { fail("could not copy \(executable.path): \(error)") }
    guard output(of: ["strip", copy.path]) != nil else { fail("strip failed on \(copy.path) (binutils' strip is needed)") }
    let attributes = try? FileManager.default.attributesOfItem(atPath: copy.path)
    guard let stripped = (attributes?[.size] as? NSNumber)?.intValue else { fail("no size for \(copy.path)") }
    // Berkeley format: "   text    data     bss     dec     hex filename", then the figures.
    guard let sizeOutput = output(of: ["size", copy.path]),
          let figures = sizeOutput.split(separator: "\n").dropFirst().first,
          let text = figures.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap({ Int($0) })
    else { fail("size(1) failed on \(copy.path) (binutils' size is needed)") }
    return (stripped, text)
}

/// Writes a throwaway package building `programs` (target name → its source file)
/// against `library`, in `directory`.
func writeSizePackage(
    _ directory: URL, library: SizeLibrary, programs: [(target: String, source: URL, products: [String])],
    rxSwiftPath: String?
) {
    let manager = FileManager.default
    try? manager.removeItem(at: directory)
    var dependencies: String
    var targets: [String] = []
    switch library {
    case .ripple:
        let traits = sizeRippleTraits.isEmpty ? "" : ", traits: [\(sizeRippleTraits.map(quoted).joined(separator: ", "))]"
        dependencies = ".package(name: \"Ripple\", path: \(quoted(repositoryRoot.path))\(traits))"
        for program in programs {
            let products = program.products.map { ".product(name: \"\($0)\", package: \"Ripple\")" }
            targets.append(".executableTarget(name: \"\(program.target)\", dependencies: [\(products.joined(separator: ", "))], swiftSettings: [.swiftLanguageMode(.v5)])")
        }
    case .rxSwift:
        guard let rxSwiftPath else { fail("no RxSwift checkout") }
        dependencies = ".package(name: \"RxSwift\", path: \(quoted(rxSwiftPath)))"
        let rx = ".product(name: \"RxSwift\", package: \"RxSwift\"), .product(name: \"RxRelay\", package: \"RxSwift\")"
        // Only when a program imports it: `swift build` builds every target.
        if programs.contains(where: { $0.products.contains("RxCocoa") }) {
            targets.append(".target(name: \"RxCocoa\", dependencies: [\(rx)], swiftSettings: [.swiftLanguageMode(.v5)])")
            let cocoa = directory.appendingPathComponent("Sources/RxCocoa")
            do {
                try manager.createDirectory(at: cocoa, withIntermediateDirectories: true)
                for file in rxCocoaLinuxFiles {
                    let source = URL(fileURLWithPath: rxSwiftPath).appendingPathComponent(file)
                    guard manager.fileExists(atPath: source.path) else {
                        fail("\(source.path) is missing: RIPPLE_RXSWIFT_PATH should name a checkout of RxSwift 6.10.2")
                    }
                    try manager.createSymbolicLink(at: cocoa.appendingPathComponent(source.lastPathComponent), withDestinationURL: source)
                }
            } catch {
                fail("could not link RxCocoa's sources: \(error)")
            }
        }
        for program in programs {
            let products = program.products.map { $0 == "RxCocoa" ? "\"RxCocoa\"" : ".product(name: \"\($0)\", package: \"RxSwift\")" }
            targets.append(".executableTarget(name: \"\(program.target)\", dependencies: [\(products.joined(separator: ", "))], swiftSettings: [.swiftLanguageMode(.v5)])")
        }
    }
    let manifest = """
        // swift-tools-version:6.1
        // Written by ripple-compare --size; thrown away after the build.
        import PackageDescription
        let package = Package(
            name: "size-\(library.rawValue.lowercased())",
            dependencies: [\(dependencies)],
            targets: [
                \(targets.joined(separator: ",\n        "))
            ]
        )

        """
    do {
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        try manifest.write(to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        for program in programs {
            let target = directory.appendingPathComponent("Sources/\(program.target)")
            try manager.createDirectory(at: target, withIntermediateDirectories: true)
            try manager.copyItem(at: program.source, to: target.appendingPathComponent("main.swift"))
        }
    } catch {
        fail("could not write the package in \(directory.path): \(error)")
    }
}

/// Removes the temporary packages, and the lock files SwiftPM leaves beside them in
/// the temporary directory (named after each package's path).
func removeSizeScratch(_ scratch: URL) {
    let manager = FileManager.default
    try? manager.removeItem(at: scratch)
    let prefix = "_" + scratch.path.replacingOccurrences(of: "/", with: "_").drop(while: { $0 == "_" }) + "_"
    let temporary = manager.temporaryDirectory
    for name in (try? manager.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix) {
        try? manager.removeItem(at: temporary.appendingPathComponent(name))
    }
}

func quoted(_ path: String) -> String {
    "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

/// Resolves (untimed: path dependencies only, nothing is downloaded), then builds the
/// package in release from clean and measures every executable; then, unless
/// `releaseOnly`, builds it in debug from clean, and again after an edit of each
/// program's source.
func buildSizePackage(_ directory: URL, executables: [String], releaseOnly: Bool = false) -> [String: SizeMeasurement] {
    let log = directory.appendingPathComponent("build.log")
    guard runCommand(["swift", "package", "resolve"], in: directory, log: log) == 0 else {
        fail("swift package resolve failed in \(directory.path); see \(log.path)")
    }
    let loadBefore = loadAverage()
    let release = timedBuild(sizeReleaseBuild, in: directory, log: log)
    let loadAfter = loadAverage()
    var debug: BuildTime?
    var incremental: BuildTime?
    if !releaseOnly {
        debug = timedBuild(["swift", "build"], in: directory, log: log)
        incremental = timedBuild(["swift", "build"], in: directory, log: log, afterEditing: executables)
    }
    var results: [String: SizeMeasurement] = [:]
    for executable in executables {
        let (stripped, text) = measureExecutable(
            directory.appendingPathComponent(".build/release/\(executable)"), scratch: directory)
        results[executable] = SizeMeasurement(
            strippedBytes: stripped, textBytes: text,
            wallSeconds: release.wallSeconds, userSeconds: release.userSeconds,
            loadBefore: loadBefore, loadAfter: loadAfter,
            debug: debug, incremental: incremental)
    }
    return results
}

/// The stripped and text bytes of this package's `size-<name>` executables, found
/// beside ripple-compare's own (the same build configuration).
func measureBuiltSizePrograms(_ programs: [SizeProgram], scratch: URL) -> [String: SizeMeasurement] {
    guard let directory = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else {
        fail("could not find ripple-compare's own directory")
    }
    do {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    } catch {
        fail("could not create \(scratch.path): \(error)")
    }
    var measured: [String: SizeMeasurement] = [:]
    for program in programs {
        let executable = directory.appendingPathComponent("size-\(program.name)")
        guard FileManager.default.fileExists(atPath: executable.path) else {
            fail("\(executable.path) is missing: build the package first (swift build -c release --package-path Benchmarks)")
        }
        let (stripped, text) = measureExecutable(executable, scratch: scratch)
        measured[program.name] = SizeMeasurement(strippedBytes: stripped, textBytes: text)
    }
    return measured
}

/// Runs a build and measures it; a failed build stops the run. With
/// `afterEditing`, first adds a line (a comment) to each of those executables'
/// sources: what an edit of one app file costs.
func timedBuild(_ arguments: [String], in directory: URL, log: URL, afterEditing executables: [String] = []) -> BuildTime {
    for executable in executables {
        let source = directory.appendingPathComponent("Sources/\(executable)/main.swift")
        guard let handle = try? FileHandle(forWritingTo: source) else { fail("could not edit \(source.path)") }
        handle.seekToEndOfFile()
        handle.write("// edited by ripple-compare --size: the incremental build\n".data(using: .utf8)!)
        try? handle.close()
    }
    let userBefore = childrenUserSeconds()
    let start = Date()
    let status = runCommand(arguments, in: directory, log: log)
    let wall = Date().timeIntervalSince(start)
    guard status == 0 else {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        fail("\(arguments.joined(separator: " ")) failed in \(directory.path):\n" + text.split(separator: "\n").suffix(30).joined(separator: "\n"))
    }
    return BuildTime(wallSeconds: wall, userSeconds: childrenUserSeconds() - userBefore)
}

func swiftVersion() -> String {
    output(of: ["swift", "--version"])?.split(separator: "\n").first.map(String.init) ?? "unknown"
}

func formatBytes(_ value: Int?) -> String {
    guard let value else { return "—" }
    let digits = String(value)
    var grouped = ""
    for (index, character) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { grouped += " " }
        grouped.append(character)
    }
    return grouped
}

func formatSeconds(_ value: Double?) -> String {
    value.map { String(format: "%.0f", $0) } ?? "—"
}

func formatBuildTime(_ time: BuildTime?) -> String {
    guard let time else { return "—" }
    return "\(formatSeconds(time.wallSeconds)) / \(formatSeconds(time.userSeconds))"
}

func formatLoad(_ measurement: SizeMeasurement?) -> String {
    guard let measurement, let before = measurement.loadBefore, let after = measurement.loadAfter else { return "—" }
    return String(format: "%.1f → %.1f", before, after)
}

/// What every `--size` run starts with: RxSwift's checkout (`RIPPLE_RXSWIFT_PATH`,
/// `nil` when unset), and this run's temporary directory, which an interrupt
/// removes (as the caller does when it ends).
func startSizeRun() -> (rxSwiftPath: String?, scratch: URL) {
    let rxSwiftPath = ProcessInfo.processInfo.environment["RIPPLE_RXSWIFT_PATH"].flatMap { $0.isEmpty ? nil : $0 }
    let scratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("ripple-size-\(ProcessInfo.processInfo.processIdentifier)")
    sizeScratchPath = scratch.path
    sizeSignalSources = stopBuildsOnInterrupt()
    return (rxSwiftPath, scratch)
}

/// `--size`, `--check-size FILE`, `--write-size-baseline FILE`.
func runSizeMode(filter: String?, check: String?, writeBaseline: String?, resultsDirectory: URL) -> Never {
    let gate = check != nil || writeBaseline != nil
    let programs = sizePrograms.filter { program in gate || (filter.map { program.name.contains($0) } ?? true) }
    guard !programs.isEmpty else { fail("no size program matches --filter \(filter ?? "")") }
    let (rxSwiftPath, scratch) = startSizeRun()
    defer { removeSizeScratch(scratch) }
    let version = swiftVersion()

    if gate {
        // Ripple only: the executables this package built beside ripple-compare.
        let measured = measureBuiltSizePrograms(programs, scratch: scratch)
        removeSizeScratch(scratch)
        if let writeBaseline {
            let baseline = SizeBaseline(
                comment: sizeBaselineComment(traits: builtRippleTraits), swiftVersion: version,
                traits: builtRippleTraits.isEmpty ? nil : builtRippleTraits, programs: measured)
            writeJSON(baseline, to: URL(fileURLWithPath: writeBaseline))
            for program in programs {
                print("\(program.name): \(formatBytes(measured[program.name]?.strippedBytes)) B stripped, \(formatBytes(measured[program.name]?.textBytes)) B text")
            }
            FileHandle.standardError.write("wrote \(writeBaseline)\n".data(using: .utf8)!)
        }
        if let check {
            exit(checkSizes(against: check, measured, swiftVersion: version) ? 0 : 1)
        }
        exit(0)
    }

    if rxSwiftPath == nil {
        print("RxSwift column skipped: set RIPPLE_RXSWIFT_PATH to a checkout of RxSwift 6.10.2 to build the same programs against it.")
    }
    var results: [String: [String: SizeMeasurement]] = [:]
    for program in programs {
        for library in [SizeLibrary.ripple, .rxSwift] {
            if library == .rxSwift && rxSwiftPath == nil { continue }
            let directory = scratch.appendingPathComponent("\(library.rawValue.lowercased())-\(program.name)")
            writeSizePackage(
                directory, library: library,
                programs: [(target: "App", source: sizeProgramsDirectory.appendingPathComponent(program.sources[library]!),
                            products: program.products[library]!)],
                rxSwiftPath: rxSwiftPath)
            FileHandle.standardError.write("building \(program.name) against \(sizeLibraryName(library))\n".data(using: .utf8)!)
            let measured = buildSizePackage(directory, executables: ["App"])["App"]!
            results[program.name, default: [:]][sizeLibraryName(library)] = measured
            try? FileManager.default.removeItem(at: directory)
        }
    }

    let header = ["program", "library", "stripped bytes", "text bytes", "clean build wall s", "clean build user s",
                  "debug clean wall / user s", "debug after an edit wall / user s", "load before → after", "÷ RxSwift (stripped)"]
    printTableHeader(header)
    for program in programs {
        let rx = results[program.name]?[sizeLibraryName(.rxSwift)]
        for library in [SizeLibrary.ripple, .rxSwift] {
            guard let measured = results[program.name]?[sizeLibraryName(library)] else { continue }
            let versus = rx.map { String(format: "%.2f", Double(measured.strippedBytes) / Double($0.strippedBytes)) } ?? "—"
            printTableRow([
                program.name, sizeLibraryName(library), formatBytes(measured.strippedBytes), formatBytes(measured.textBytes),
                formatSeconds(measured.wallSeconds), formatSeconds(measured.userSeconds),
                formatBuildTime(measured.debug), formatBuildTime(measured.incremental), formatLoad(measured),
                library == .ripple ? versus : "",
            ])
        }
    }
    print()
    print("Release builds, each from clean in its own package (library and program), one after the other, then a clean "
        + "debug build of the same package, then the debug build again after one line was added to the program's source; "
        + "\(version); \(ProcessInfo.processInfo.activeProcessorCount) cores; load: /proc/loadavg's one-minute average "
        + "around the release build."
        + (sizeReleaseArguments.isEmpty ? "" : " The release builds with `\(sizeReleaseArguments.joined(separator: " "))`."))

    writeJSON(results, to: resultsDirectory.appendingPathComponent("size.json"))
    FileHandle.standardError.write("wrote \(resultsDirectory.appendingPathComponent("size.json").path)\n".data(using: .utf8)!)
    removeSizeScratch(scratch)
    exit(0)
}

/// Prints baseline / now / change per program; `false` when a program's stripped
/// size is more than 2 % above the baseline.
func checkSizes(against path: String, _ now: [String: SizeMeasurement], swiftVersion: String) -> Bool {
    let baseline: SizeBaseline
    do {
        baseline = try JSONDecoder().decode(SizeBaseline.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
        fail("could not read the baseline \(path): \(error)")
    }
    let recordedTraits = baseline.traits ?? []
    guard recordedTraits == builtRippleTraits else {
        func describe(_ traits: [String]) -> String {
            traits.isEmpty ? "no trait" : (traits.count == 1 ? "the trait " : "the traits ") + traits.joined(separator: ", ")
        }
        fail("\(path) was recorded with \(describe(recordedTraits)) and this build has \(describe(builtRippleTraits)): "
            + "check the default build against Benchmarks/size-baseline.json and the CompactPipelines build "
            + "(--traits CompactPipelines) against Benchmarks/size-baseline-compact.json")
    }
    if baseline.swiftVersion != swiftVersion {
        print("note: the baseline was recorded with \(baseline.swiftVersion), this is \(swiftVersion); sizes differ between compilers.")
    }
    printTableHeader(["program", "baseline stripped bytes", "now", "change", "now text bytes", "verdict"])
    var passed = true
    for program in sizePrograms {
        guard let current = now[program.name] else { continue }
        guard let reference = baseline.programs[program.name] else {
            printTableRow([program.name, "—", formatBytes(current.strippedBytes), "—", formatBytes(current.textBytes), "new (not in the baseline)"])
            continue
        }
        let change = Double(current.strippedBytes - reference.strippedBytes) / Double(reference.strippedBytes)
        let verdict: String
        if change > sizeTolerance {
            verdict = "**FAIL**: more than 2 % above the baseline"
            passed = false
        } else {
            verdict = "ok"
        }
        printTableRow([
            program.name, formatBytes(reference.strippedBytes), formatBytes(current.strippedBytes),
            String(format: "%+.1f %%", change * 100), formatBytes(current.textBytes), verdict,
        ])
    }
    print()
    print(passed
        ? "Stripped sizes within 2 % of \(path)."
        : "Sizes grew against \(path). If the growth is deliberate, regenerate the baseline with --write-size-baseline and commit it with the reason.")
    return passed
}
