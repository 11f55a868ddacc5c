// swift-tools-version:6.1
import PackageDescription

// Ripple's benchmarks live in their own package so that library users never
// download benchmark dependencies.
//
// - `Workloads`: every workload, implemented for Ripple, OpenCombine, AsyncStream
//   and as a hand-written loop (the floor); and for RxSwift, when the environment
//   variable RIPPLE_RXSWIFT_PATH names a checkout of RxSwift 6.10.2 as the manifest
//   is read (see `rxSwiftPath` below).
// - `RippleBenchmarks`: the same workloads as ordo-one/benchmark benchmarks
//   (`swift package benchmark`), for detailed statistics and regression checks.
// - `ripple-compare`: one command that prints the side-by-side table and writes
//   `.results/compare.json`; `ripple-compare --instructions` adds an RxSwift column
//   when the package was built with RIPPLE_RXSWIFT_PATH. `ripple-compare --size` builds the programs of
//   `SizePrograms/` in throwaway packages of their own, from clean and timed, against
//   Ripple and, when RIPPLE_RXSWIFT_PATH names a checkout, against RxSwift.
// - `size-operators`, `size-view-model`, `size-networking`, `size-screens`: the same programs built
//   with this package against Ripple, for the size gate (`ripple-compare
//   --check-size`, a CI step): they cost the gate no release build of its own.
//
// - `ripple-http-stream`: Server-Sent Events per second through `Session.events(for:)`
//   against each transport's own streaming API, from a loopback server. The
//   AsyncHTTPClient half needs this package's trait `AsyncHTTPClient` (which enables
//   Ripple's): `swift run -c release --package-path Benchmarks --traits AsyncHTTPClient
//   ripple-http-stream`. Without it, nothing of SwiftNIO is resolved or built.

/// A checkout of RxSwift 6.10.2, opt-in: with `RIPPLE_RXSWIFT_PATH=/path/to/RxSwift`
/// in the environment of `swift build` / `swift run`, the package depends on it by
/// path and `Workloads` gets its `RxSwift` library (the RxSwift implementations, in
/// `RxSwiftWorkloads.swift`, are compiled under `#if canImport(RxSwift)`). Without
/// the variable nothing of RxSwift is resolved or built, as in CI. Build with it in
/// a scratch path of its own (`--scratch-path Benchmarks/.build-rx`): switching the
/// variable changes the package graph.
let rxSwiftPath = Context.environment["RIPPLE_RXSWIFT_PATH"].flatMap { $0.isEmpty ? nil : $0 }

let package = Package(
    name: "RippleBenchmarks",
    platforms: [.macOS(.v15)],
    traits: [
        .trait(name: "AsyncHTTPClient", description: "Measures AsyncHTTPClientTransport in ripple-http-stream."),
        .trait(name: "CompactPipelines", description: "Measures Ripple built with its CompactPipelines trait."),
    ],
    dependencies: [
        .package(
            name: "Ripple", path: "..",
            traits: [
                .trait(name: "AsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"])),
                .trait(name: "CompactPipelines", condition: .when(traits: ["CompactPipelines"])),
            ]),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.5.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ] + (rxSwiftPath.map { [.package(name: "RxSwift", path: $0)] } ?? []),
    targets: [
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleCollections", package: "Ripple"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ] + (rxSwiftPath == nil ? [] : [.product(name: "RxSwift", package: "RxSwift")])
        ),
        .executableTarget(
            name: "ripple-compare",
            dependencies: [
                "Workloads",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        // Swift 5 mode, as the throwaway packages of `--size` build them: the same
        // bytes (ripple-compare --check-size measures these executables).
        .executableTarget(
            name: "size-operators", dependencies: [.product(name: "Ripple", package: "Ripple")],
            path: "SizePrograms/operators", swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "size-view-model", dependencies: [.product(name: "Ripple", package: "Ripple")],
            path: "SizePrograms/view-model", swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "size-networking",
            dependencies: [.product(name: "Ripple", package: "Ripple"), .product(name: "RippleHTTP", package: "Ripple")],
            path: "SizePrograms/networking", swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "size-screens", dependencies: [.product(name: "Ripple", package: "Ripple")],
            path: "SizePrograms/screens", swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "ripple-http-stream",
            dependencies: [
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "RippleHTTPStreaming", package: "Ripple"),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
            ]
        ),
        .executableTarget(
            name: "RippleBenchmarks",
            dependencies: [
                "Workloads",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/RippleBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
