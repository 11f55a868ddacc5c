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

/// The figures of one library: the two builds.
struct ScreenCost: Codable {
    var screens: Int
    var empty: SizeMeasurement
    var full: SizeMeasurement

    var bytesPerScreen: Double { Double(full.strippedBytes - empty.strippedBytes) / Double(screens) }

    var userSecondsPerScreen: Double? {
        guard let full = full.userSeconds, let empty = empty.userSeconds else { return nil }
        return (full - empty) / Double(screens)
    }

    enum CodingKeys: String, CodingKey {
        case screens
        case empty = "no_screen"
        case full = "with_screens"
    }
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
/// in release from clean and measures it.
func measureScreens(count: Int, library: SizeLibrary, scratch: URL, rxSwiftPath: String?) -> SizeMeasurement {
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
    try? FileManager.default.removeItem(at: directory)
    return measured
}

/// `--size --screens N`.
func runScreenCostMode(screens: Int, resultsDirectory: URL) -> Never {
    guard screens > 0 else { fail("--screens takes a number of screens above 0") }
    let (rxSwiftPath, scratch) = startSizeRun()
    defer { removeSizeScratch(scratch) }
    if rxSwiftPath == nil {
        print("RxSwift row skipped: set RIPPLE_RXSWIFT_PATH to a checkout of RxSwift 6.10.2 to build the same programs against it.")
    }
    var results: [String: ScreenCost] = [:]
    for library in [SizeLibrary.ripple, .rxSwift] {
        if library == .rxSwift && rxSwiftPath == nil { continue }
        let empty = measureScreens(count: 0, library: library, scratch: scratch, rxSwiftPath: rxSwiftPath)
        let full = measureScreens(count: screens, library: library, scratch: scratch, rxSwiftPath: rxSwiftPath)
        results[sizeLibraryName(library)] = ScreenCost(screens: screens, empty: empty, full: full)
    }

    let header = ["library", "0 screens, stripped bytes", "\(screens) screens", "bytes per screen",
                  "release user s, 0 → \(screens) screens", "user s per screen", "load before → after (\(screens) screens)"]
    print("| " + header.joined(separator: " | ") + " |")
    print("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
    for library in [SizeLibrary.ripple, .rxSwift] {
        guard let cost = results[sizeLibraryName(library)] else { continue }
        print("| \(sizeLibraryName(library)) | \(formatBytes(cost.empty.strippedBytes)) | \(formatBytes(cost.full.strippedBytes)) | "
            + "\(formatBytes(Int(cost.bytesPerScreen.rounded()))) | "
            + "\(formatSeconds(cost.empty.userSeconds)) → \(formatSeconds(cost.full.userSeconds)) | "
            + "\(cost.userSecondsPerScreen.map { String(format: "%.2f", $0) } ?? "—") | \(formatLoad(cost.full)) |")
    }
    if let ripple = results[sizeLibraryName(.ripple)], let rx = results[sizeLibraryName(.rxSwift)], rx.bytesPerScreen > 0 {
        print()
        print(String(format: "Each screen costs %@ %.1f times the bytes it costs RxSwift.", sizeLibraryName(.ripple), ripple.bytesPerScreen / rx.bytesPerScreen))
    }
    print()
    print("The screens program (scripts/generate-screens-program.py) with 0 and \(screens) screens, each built in release "
        + "from clean in its own package (library and program), one after the other; per screen = the difference ÷ \(screens). "
        + "\(swiftVersion()); \(ProcessInfo.processInfo.activeProcessorCount) cores; user seconds move with the machine's load, bytes do not.")

    writeJSON(results, to: resultsDirectory.appendingPathComponent("size-per-screen.json"))
    FileHandle.standardError.write("wrote \(resultsDirectory.appendingPathComponent("size-per-screen.json").path)\n".data(using: .utf8)!)
    removeSizeScratch(scratch)
    exit(0)
}
