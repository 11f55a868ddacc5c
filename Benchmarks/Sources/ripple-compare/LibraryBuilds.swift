import Foundation

// `ripple-compare --size --library-builds`: the library's core module alone, built
// from clean, in release then in debug: Ripple's `Ripple` target (with its two C
// targets) and, when RIPPLE_RXSWIFT_PATH names a checkout, RxSwift's `RxSwift`
// target. A clean build of an app is this plus the app's own modules (`--size`
// measures those programs); the module alone is where the two libraries differ
// most, and the figure issue 37's "clean build" goal is about.
//
// Each build runs `swift build --target ... --scratch-path <new directory>` on the
// library's own package, so nothing of an earlier build is reused; the builds run
// one after the other, the libraries alternating, `LibraryBuilds.runs` times.

/// One library's clean builds of its core module.
struct LibraryBuilds: Codable {
    static let runs = 2
    var release: [BuildTime] = []
    var debug: [BuildTime] = []
    /// The one-minute load average before the first build and after the last.
    var loadBefore: Double?
    var loadAfter: Double?

    enum CodingKeys: String, CodingKey {
        case release, debug
        case loadBefore = "load_before"
        case loadAfter = "load_after"
    }

    /// The lowest user CPU seconds of `runs` (the least disturbed run), for ratios.
    static func lowestUser(_ runs: [BuildTime]) -> Double? {
        runs.map(\.userSeconds).min()
    }
}

/// `--size --library-builds`.
func runLibraryBuildsMode(resultsDirectory: URL) -> Never {
    let (rxSwiftPath, scratch) = startSizeRun()
    do {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    } catch {
        fail("could not create \(scratch.path): \(error)")
    }
    let libraries: [(library: SizeLibrary, package: String, target: String)] =
        [(.ripple, repositoryRoot.path, "Ripple")] + (rxSwiftPath.map { [(.rxSwift, $0, "RxSwift")] } ?? [])
    let traitArguments = sizeRippleTraits.isEmpty ? [] : ["--traits", sizeRippleTraits.joined(separator: ",")]
    var results: [String: LibraryBuilds] = [:]
    let log = scratch.appendingPathComponent("library-build.log")
    for run in 1...LibraryBuilds.runs {
        for configuration in ["release", "debug"] {
            for (library, package, target) in libraries {
                let name = sizeLibraryName(library)
                let buildDirectory = scratch.appendingPathComponent("\(library.rawValue.lowercased())-\(configuration)")
                try? FileManager.default.removeItem(at: buildDirectory)
                FileHandle.standardError.write(
                    "building \(name)'s \(target) module from clean in \(configuration) (run \(run) of \(LibraryBuilds.runs))\n".data(using: .utf8)!)
                var builds = results[name] ?? LibraryBuilds()
                if builds.loadBefore == nil { builds.loadBefore = loadAverage() }
                let time = timedBuild(
                    ["swift", "build", "-c", configuration, "--package-path", package, "--scratch-path", buildDirectory.path,
                     "--target", target] + (library == .ripple ? traitArguments : []),
                    in: scratch, log: log)
                if configuration == "release" { builds.release.append(time) } else { builds.debug.append(time) }
                builds.loadAfter = loadAverage()
                results[name] = builds
                try? FileManager.default.removeItem(at: buildDirectory)
            }
        }
    }
    removeSizeScratch(scratch)

    let rx = results[sizeLibraryName(.rxSwift)]
    func ratio(_ builds: LibraryBuilds, _ runs: KeyPath<LibraryBuilds, [BuildTime]>) -> String {
        guard let rx, let mine = LibraryBuilds.lowestUser(builds[keyPath: runs]),
              let theirs = LibraryBuilds.lowestUser(rx[keyPath: runs]), theirs > 0 else { return "—" }
        return String(format: "%.2f", mine / theirs)
    }
    printTableHeader([
        "library, module", "release user s", "release wall s", "debug user s", "debug wall s",
        "÷ RxSwift, release / debug (lowest user s)", "load before → after",
    ])
    for (library, _, target) in libraries {
        guard let builds = results[sizeLibraryName(library)] else { continue }
        let load = builds.loadBefore.flatMap { before in builds.loadAfter.map { String(format: "%.1f → %.1f", before, $0) } } ?? "—"
        printTableRow([
            "\(sizeLibraryName(library)), `\(target)`",
            BuildTime.range(builds.release, \.userSeconds), BuildTime.range(builds.release, \.wallSeconds),
            BuildTime.range(builds.debug, \.userSeconds), BuildTime.range(builds.debug, \.wallSeconds),
            library == .ripple ? "\(ratio(builds, \.release)) / \(ratio(builds, \.debug))" : "",
            load,
        ])
    }
    print()
    print("Each module built from clean in a build directory of its own (`swift build --target`), \(LibraryBuilds.runs) runs "
        + "of each, the libraries alternating; user CPU and wall-clock seconds of the whole `swift build` (C targets, "
        + "package resolution and the driver included); \(swiftVersion()); \(ProcessInfo.processInfo.activeProcessorCount) cores.")
    writeJSON(results, to: resultsDirectory.appendingPathComponent("library-builds.json"))
    FileHandle.standardError.write("wrote \(resultsDirectory.appendingPathComponent("library-builds.json").path)\n".data(using: .utf8)!)
    exit(0)
}
