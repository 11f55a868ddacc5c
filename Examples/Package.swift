// swift-tools-version:6.1
import PackageDescription

// Ripple's demo applications live in their own package so that library users never
// download a web server, a database driver or a command-line parser.
//
// - `MockGitHubAPI`: an embeddable mock of the GitHub REST API (Hummingbird) serving
//   a bundled, generated fixture set, with injectable latency, 5xx failures, rate
//   limiting and malformed JSON.
// - `mock-github-api`: runs that server in the foreground.
// - `generate-fixtures`: regenerates the bundled fixture set from its seed.
// - `TerminalUI`: raw-mode terminal input, key decoding, a diffing ANSI renderer and
//   an in-memory screen for tests; the demo apps draw with it.
// - `DemoFeatures`: the counter, characters-left and sign-up view models and
//   screens; `counter`, `characters-left` and `signup` run them; `todo` runs the
//   to-do list (an `ObservableArray` drawn with `TerminalUI`'s `ListView`).
// - `GitHubKit`: Codable models, typed requests and the `GitHubAPI` client (RippleHTTP).
// - `GitHubStore`: a SQLite cache (GRDB) and the cached search repository.
// - `GitHubSearch`: the search view model and its terminal screen; `github-search`
//   runs it against the embedded mock server or another GitHub-compatible API.
// - `GitHubActivity`: a repository's live activity (Server-Sent Events from the mock
//   server) with its connection state; `activity` runs it.
let package = Package(
    name: "RippleExamples",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MockGitHubAPI", targets: ["MockGitHubAPI"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "DemoFeatures", targets: ["DemoFeatures"]),
        .library(name: "GitHubKit", targets: ["GitHubKit"]),
        .library(name: "GitHubStore", targets: ["GitHubStore"]),
        .library(name: "GitHubSearch", targets: ["GitHubSearch"]),
        .library(name: "GitHubActivity", targets: ["GitHubActivity"]),
        .executable(name: "activity", targets: ["activity"]),
        .executable(name: "github-search", targets: ["github-search"]),
        .executable(name: "counter", targets: ["counter"]),
        .executable(name: "characters-left", targets: ["characters-left"]),
        .executable(name: "signup", targets: ["signup"]),
        .executable(name: "todo", targets: ["todo"]),
        .executable(name: "mock-github-api", targets: ["mock-github-api"]),
    ],
    dependencies: [
        // Named explicitly: the root directory's name differs between clones. The
        // `AsyncHTTPClient` trait adds `AsyncHTTPClientTransport`, which the demos and
        // the integration tests use on Linux (FoundationNetworking can be crashed by a
        // server; AsyncHTTPClient cannot).
        .package(name: "Ripple", path: "..", traits: ["AsyncHTTPClient"]),
        // `ConfigurationSupport` (swift-configuration) is not needed here; leaving it
        // out shortens the first build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // Already in Hummingbird's graph; named for `ServiceGroup`, `Logger` and `HTTPField`.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Also in Hummingbird's graph; named for the mock server's connection handling
        // (a channel handler that bounds the time to read a request head).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .target(
            name: "MockGitHubAPI",
            dependencies: [
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "RippleHTTPStreaming", package: "Ripple"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.copy("Resources/fixtures.json")]
        ),
        .executableTarget(
            name: "mock-github-api",
            dependencies: [
                "MockGitHubAPI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "generate-fixtures",
            dependencies: [
                "MockGitHubAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "TerminalUI",
            dependencies: [.product(name: "Ripple", package: "Ripple"), .product(name: "RippleCollections", package: "Ripple")]
        ),
        .target(
            name: "DemoFeatures",
            dependencies: [
                "TerminalUI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleCollections", package: "Ripple"),
            ]
        ),
        .target(
            name: "GitHubKit",
            dependencies: [
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "RippleHTTPStreaming", package: "Ripple"),
            ]
        ),
        .target(
            name: "GitHubStore",
            dependencies: [
                "GitHubKit",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "RippleRepository", package: "Ripple"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "GitHubSearch",
            dependencies: [
                "GitHubKit", "GitHubStore", "TerminalUI", "DemoFeatures",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleCollections", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "RippleRepository", package: "Ripple"),
            ]
        ),
        .executableTarget(
            name: "github-search",
            dependencies: [
                "GitHubSearch", "GitHubKit", "GitHubStore", "MockGitHubAPI", "TerminalUI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleDebugExport", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "GitHubActivity",
            dependencies: [
                "GitHubKit", "TerminalUI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "RippleHTTPStreaming", package: "Ripple"),
            ]
        ),
        .executableTarget(
            name: "activity",
            dependencies: [
                "GitHubActivity", "GitHubKit", "MockGitHubAPI", "TerminalUI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "RippleHTTPStreaming", package: "Ripple"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "counter", dependencies: ["DemoFeatures", "TerminalUI"]),
        .executableTarget(name: "characters-left", dependencies: ["DemoFeatures", "TerminalUI"]),
        .executableTarget(name: "signup", dependencies: ["DemoFeatures", "TerminalUI"]),
        .executableTarget(
            name: "todo",
            dependencies: [
                "DemoFeatures", "TerminalUI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleCollections", package: "Ripple"),
            ]
        ),
        .testTarget(
            name: "DemoFeaturesTests",
            dependencies: [
                "DemoFeatures", "TerminalUI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleCollections", package: "Ripple"),
                .product(name: "RippleTest", package: "Ripple"),
            ]
        ),
        .testTarget(
            name: "GitHubKitTests",
            dependencies: [
                "GitHubKit",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleTest", package: "Ripple"),
                .product(name: "RippleHTTPTesting", package: "Ripple"),
            ]
        ),
        .testTarget(
            name: "GitHubStoreTests",
            dependencies: [
                "GitHubStore", "GitHubKit",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleTest", package: "Ripple"),
                .product(name: "RippleHTTPTesting", package: "Ripple"),
                .product(name: "RippleRepository", package: "Ripple"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "GitHubSearchTests",
            dependencies: [
                "GitHubSearch", "GitHubStore", "GitHubKit", "TerminalUI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleCollections", package: "Ripple"),
                .product(name: "RippleTest", package: "Ripple"),
                .product(name: "RippleHTTPTesting", package: "Ripple"),
            ]
        ),
        .testTarget(
            name: "GitHubIntegrationTests",
            dependencies: [
                "GitHubSearch", "GitHubStore", "GitHubKit", "GitHubActivity", "MockGitHubAPI", "TerminalUI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "RippleHTTPStreaming", package: "Ripple"),
                .product(name: "RippleTest", package: "Ripple"),
            ]
        ),
        .testTarget(
            name: "GitHubActivityTests",
            dependencies: [
                "GitHubActivity", "GitHubKit", "TerminalUI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "RippleHTTPStreaming", package: "Ripple"),
                .product(name: "RippleTest", package: "Ripple"),
                .product(name: "RippleHTTPTesting", package: "Ripple"),
            ]
        ),
        .testTarget(
            name: "TerminalUITests",
            dependencies: [
                "TerminalUI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleCollections", package: "Ripple"),
            ]
        ),
        .testTarget(
            name: "MockGitHubAPITests",
            dependencies: [
                "MockGitHubAPI",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleHTTP", package: "Ripple"),
                .product(name: "RippleHTTPStreaming", package: "Ripple"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
