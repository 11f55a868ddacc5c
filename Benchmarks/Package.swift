// swift-tools-version:6.1
import PackageDescription

// Ripple's benchmarks live in their own package so that library users never
// download benchmark dependencies.
//
// - `Workloads`: every workload, implemented for Ripple, OpenCombine, AsyncStream
//   and as a hand-written loop (the floor).
// - `RippleBenchmarks`: the same workloads as ordo-one/benchmark benchmarks
//   (`swift package benchmark`), for detailed statistics and regression checks.
// - `ripple-compare`: one command that prints the side-by-side table and writes
//   `.results/compare.json`. `ripple-compare --size` builds the programs of
//   `SizePrograms/` (not a target: each is built in a throwaway package of its own)
//   against Ripple, and against RxSwift when RIPPLE_RXSWIFT_PATH names a checkout.
//
// - `ripple-http-stream`: Server-Sent Events per second through `Session.events(for:)`
//   against each transport's own streaming API, from a loopback server. The
//   AsyncHTTPClient half needs this package's trait `AsyncHTTPClient` (which enables
//   Ripple's): `swift run -c release --package-path Benchmarks --traits AsyncHTTPClient
//   ripple-http-stream`. Without it, nothing of SwiftNIO is resolved or built.
let package = Package(
    name: "RippleBenchmarks",
    platforms: [.macOS(.v15)],
    traits: [
        .trait(name: "AsyncHTTPClient", description: "Measures AsyncHTTPClientTransport in ripple-http-stream."),
    ],
    dependencies: [
        .package(
            name: "Ripple", path: "..",
            traits: [.trait(name: "AsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"]))]),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.5.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleCollections", package: "Ripple"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ]
        ),
        .executableTarget(
            name: "ripple-compare",
            dependencies: [
                "Workloads",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        .executableTarget(
            name: "ripple-http-stream",
            dependencies: [
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
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
