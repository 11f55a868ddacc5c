// swift-tools-version:6.0
import PackageDescription

// Ripple's root package has no external dependencies: an app that wants an
// Observable never downloads a web server, a database driver or a benchmark kit.
// The demo apps live in `Examples/`, the measurements in `Benchmarks/`.
let package = Package(
    name: "Ripple",
    platforms: [
        // `Synchronization` (Mutex, Atomic) needs these releases on Apple platforms.
        .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
    ],
    products: [
        .library(name: "Ripple", targets: ["Ripple"]),
        .library(name: "RippleTest", targets: ["RippleTest"]),
        // Typed, reactive networking on Foundation (FoundationNetworking on Linux).
        .library(name: "RippleHTTP", targets: ["RippleHTTP"]),
        // Test doubles for RippleHTTP (a stub `HTTPClient`), for apps' test targets.
        .library(name: "RippleHTTPTesting", targets: ["RippleHTTPTesting"]),
    ],
    targets: [
        .target(name: "Ripple"),
        .target(name: "RippleTest", dependencies: ["Ripple"]),
        .target(name: "RippleHTTP", dependencies: ["Ripple"]),
        .target(name: "RippleHTTPTesting", dependencies: ["Ripple", "RippleHTTP"]),
        .testTarget(name: "RippleTests", dependencies: ["Ripple", "RippleTest"]),
        .testTarget(name: "RippleTestTests", dependencies: ["Ripple", "RippleTest"]),
        .testTarget(name: "RippleHTTPTests", dependencies: ["Ripple", "RippleTest", "RippleHTTP", "RippleHTTPTesting"]),
        // User code, not Ripple's tests: each target compiles the way an app would
        // write it, and a warning is a build failure (`-warnings-as-errors` is fine
        // on test targets, which no other package builds).
        // Swift 6 language mode: Sendable hand-offs, actors, tasks, main-actor code.
        .testTarget(
            name: "RippleSwift6UsageTests", dependencies: ["Ripple", "RippleTest"],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        ),
        // Swift 5 language mode: RxSwift-style code must keep compiling, warning-free.
        .testTarget(
            name: "RippleSwift5UsageTests", dependencies: ["Ripple", "RippleTest"],
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-warnings-as-errors"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
