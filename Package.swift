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
        // Test-only: a module declaring `OptionalType` and `filterNil()` as RxOptional
        // and RxSwiftExt do, and the tests that import it next to Ripple (in a target
        // of their own, so the rest of the tests see Ripple's declarations only).
        .target(name: "RippleCompatFixture", dependencies: ["Ripple"], path: "Tests/RippleCompatFixture"),
        .testTarget(name: "RippleCompatTests", dependencies: ["Ripple", "RippleCompatFixture"]),
    ],
    swiftLanguageModes: [.v6]
)
