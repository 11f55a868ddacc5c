import Foundation

// What each further screen of an app costs: the screens program with no screen and
// with N screens (scripts/generate-screens-program.py), built in release from clean,
// each in its own throwaway package, against each library, one after the other.
//
//   ripple-compare --size --screens 20                       # Ripple (and RxSwift with
//                                                            # RIPPLE_RXSWIFT_PATH)
//   ripple-compare --size --screens 20 --compact-pipelines   # Ripple with its trait
//
// Per screen = (N screens − 0 screens) ÷ N, for the stripped bytes and for the
// release build's user CPU seconds (the library's build is in both and cancels out,
// up to the machine's noise: bytes do not move with the load, seconds do). The same
// measurement docs/Performance.md ("What each screen costs") describes by hand.
// That average includes what the first screen instantiates for every later one (a
// sink for `String`, say); what each further screen costs is measured between N/2
// and N screens (a third build, when N is 2 or more).
//
// Then what an edit of the app costs: the N-screen package is built again after a
// line was added to its source, three times in release, then (after a clean debug
// build) three times in debug. Only the app's module is compiled again; its one
// file holds every screen, so the debug rebuild compiles all N of them too.

/// The figures of one library: the builds.
struct ScreenCost: Codable {
    var screens: Int
    var empty: SizeMeasurement
    var full: SizeMeasurement
    /// The program with half the screens, ``halfScreens(of:)`` (`nil` for 1 screen).
    var half: SizeMeasurement?
    /// The N-screen package built again after an edit of the app's source.
    var edits: EditRebuilds

    var bytesPerScreen: Double { Double(full.strippedBytes - empty.strippedBytes) / Double(screens) }

    static func halfScreens(of screens: Int) -> Int { screens / 2 }

    /// The bytes of each screen after the first N/2: what one more screen costs,
    /// without what the first ones instantiate for all.
    var bytesPerFurtherScreen: Double? {
        guard let half else { return nil }
        return Double(full.strippedBytes - half.strippedBytes) / Double(screens - ScreenCost.halfScreens(of: screens))
    }

    var userSecondsPerScreen: Double? {
        guard let full = full.userSeconds, let empty = empty.userSeconds else { return nil }
        return (full - empty) / Double(screens)
    }

    enum CodingKeys: String, CodingKey {
        case screens
        case empty = "no_screen"
        case full = "with_screens"
        case half = "with_half_the_screens"
        case edits = "after_an_edit"
    }
}

/// The builds of a package after an edit of its app's source, each after a line
/// was added: in release, then in debug (after a clean debug build).
struct EditRebuilds: Codable {
    static let runs = 3
    var release: [BuildTime]
    var debug: [BuildTime]
}

/// Writes the screens program with `count` screens to `file`, with the script that
/// writes the gated one (so that both measure the same screen).
func writeScreensProgram(count: Int, to file: URL) {
    let script = repositoryRoot.appendingPathComponent("scripts/generate-screens-program.py")
    let log = file.deletingLastPathComponent().appendingPathComponent("generate.log")
    guard runCommand(["python3", script.path, String(count), "--output", file.path],
                     in: file.deletingLastPathComponent(), log: log) == 0 else {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        fail("scripts/generate-screens-program.py \(count) failed (python3 is needed):\n\(text)")
    }
}

/// Builds a package of the screens program with `count` screens against `library`
/// in release from clean and measures it; then runs `afterBuild` on the package's
/// directory, before it is removed.
func measureScreens<Extra>(
    count: Int, library: SizeLibrary, scratch: URL, rxSwiftPath: String?, afterBuild: (URL) -> Extra
) -> (SizeMeasurement, Extra) {
    let directory = scratch.appendingPathComponent("\(library.rawValue.lowercased())-screens-\(count)")
    let source = scratch.appendingPathComponent("screens-\(count).swift")
    do {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    } catch {
        fail("could not create \(scratch.path): \(error)")
    }
    if !FileManager.default.fileExists(atPath: source.path) {
        writeScreensProgram(count: count, to: source)
    }
    let products = sizePrograms.first { $0.name == "screens" }!.products[library]!
    writeSizePackage(directory, library: library, programs: [(target: "App", source: source, products: products)], rxSwiftPath: rxSwiftPath)
    FileHandle.standardError.write("building \(count) screens against \(sizeLibraryName(library))\n".data(using: .utf8)!)
    let measured = buildSizePackage(directory, executables: ["App"], releaseOnly: true)["App"]!
    let extra = afterBuild(directory)
    try? FileManager.default.removeItem(at: directory)
    return (measured, extra)
}

/// Builds the package in `directory` (built in release already) again after edits
/// of its app's source: ``EditRebuilds/runs`` times in release, then, after a clean
/// debug build, as many times in debug.
func measureEditRebuilds(in directory: URL) -> EditRebuilds {
    FileHandle.standardError.write("building it again after edits, in release and debug\n".data(using: .utf8)!)
    let log = directory.appendingPathComponent("build.log")
    let release = (0..<EditRebuilds.runs).map { _ in
        timedBuild(sizeReleaseBuild, in: directory, log: log, afterEditing: ["App"])
    }
    _ = timedBuild(["swift", "build"], in: directory, log: log)
    let debug = (0..<EditRebuilds.runs).map { _ in
        timedBuild(["swift", "build"], in: directory, log: log, afterEditing: ["App"])
    }
    return EditRebuilds(release: release, debug: debug)
}

/// `--size --screens N`.
func runScreenCostMode(screens: Int, resultsDirectory: URL) -> Never {
    guard screens > 0 else { fail("--screens takes a number of screens above 0") }
    let (rxSwiftPath, scratch) = startSizeRun()
    defer { removeSizeScratch(scratch) }
    if rxSwiftPath == nil {
        print("RxSwift row skipped: set RIPPLE_RXSWIFT_PATH to a checkout of RxSwift 6.10.2 to build the same programs against it.")
    }
    let half = ScreenCost.halfScreens(of: screens)
    var results: [String: ScreenCost] = [:]
    for library in [SizeLibrary.ripple, .rxSwift] {
        if library == .rxSwift && rxSwiftPath == nil { continue }
        let (empty, _) = measureScreens(count: 0, library: library, scratch: scratch, rxSwiftPath: rxSwiftPath) { _ in () }
        let halfBuild = half == 0 ? nil
            : measureScreens(count: half, library: library, scratch: scratch, rxSwiftPath: rxSwiftPath) { _ in () }.0
        let (full, edits) = measureScreens(
            count: screens, library: library, scratch: scratch, rxSwiftPath: rxSwiftPath, afterBuild: measureEditRebuilds(in:))
        results[sizeLibraryName(library)] = ScreenCost(screens: screens, empty: empty, full: full, half: halfBuild, edits: edits)
    }

    let header = ["library", "0 screens, stripped bytes", "\(screens) screens", "bytes per screen"]
        + (half > 0 ? ["bytes per further screen (\(half) → \(screens))"] : [])
        + ["release user s, 0 → \(screens) screens", "user s per screen", "load before → after (\(screens) screens)"]
    printTableHeader(header)
    for library in [SizeLibrary.ripple, .rxSwift] {
        guard let cost = results[sizeLibraryName(library)] else { continue }
        printTableRow(
            [sizeLibraryName(library), formatBytes(cost.empty.strippedBytes), formatBytes(cost.full.strippedBytes),
             formatBytes(Int(cost.bytesPerScreen.rounded()))]
            + (cost.bytesPerFurtherScreen.map { [formatBytes(Int($0.rounded()))] } ?? [])
            + ["\(formatSeconds(cost.empty.userSeconds)) → \(formatSeconds(cost.full.userSeconds))",
               cost.userSecondsPerScreen.map { String(format: "%.2f", $0) } ?? "—", formatLoad(cost.full)])
    }
    if let ripple = results[sizeLibraryName(.ripple)], let rx = results[sizeLibraryName(.rxSwift)], rx.bytesPerScreen > 0 {
        print()
        print(String(format: "Each screen costs %@ %.1f times the bytes it costs RxSwift", sizeLibraryName(.ripple), ripple.bytesPerScreen / rx.bytesPerScreen)
            + (ripple.bytesPerFurtherScreen.flatMap { mine in rx.bytesPerFurtherScreen.map { String(format: "; each further screen %.2f times", mine / $0) } } ?? "")
            + ".")
    }
    print()
    let editHeader = ["library", "\(screens)-screen app rebuilt after an edit: release, user s (\(EditRebuilds.runs) runs)",
                      "debug, user s (\(EditRebuilds.runs) runs)"]
    printTableHeader(editHeader)
    for library in [SizeLibrary.ripple, .rxSwift] {
        guard let cost = results[sizeLibraryName(library)] else { continue }
        printTableRow([
            sizeLibraryName(library), BuildTime.range(cost.edits.release, \.userSeconds), BuildTime.range(cost.edits.debug, \.userSeconds),
        ])
    }
    print()
    let builds = half > 0 ? "0, \(half) and \(screens)" : "0 and \(screens)"
    let furtherScreen = half > 0 ? ", per further screen = (\(screens) − \(half) screens) ÷ \(screens - half)" : ""
    print("The screens program (scripts/generate-screens-program.py) with \(builds) screens, each built in release "
        + "from clean in its own package (library and program), one after the other; per screen = the difference ÷ \(screens)"
        + "\(furtherScreen). "
        + "Then the \(screens)-screen package built again after a line was added to its source, in release, then in debug "
        + "(only the app's module is compiled again). "
        + "\(swiftVersion()); \(ProcessInfo.processInfo.activeProcessorCount) cores; user seconds move with the machine's load, bytes do not.")

    writeJSON(results, to: resultsDirectory.appendingPathComponent("size-per-screen.json"))
    FileHandle.standardError.write("wrote \(resultsDirectory.appendingPathComponent("size-per-screen.json").path)\n".data(using: .utf8)!)
    removeSizeScratch(scratch)
    exit(0)
}
