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
    ],
    targets: [
        .target(name: "Ripple"),
        .target(name: "RippleTest", dependencies: ["Ripple"]),
        .testTarget(name: "RippleTests", dependencies: ["Ripple", "RippleTest"]),
        .testTarget(name: "RippleTestTests", dependencies: ["Ripple", "RippleTest"]),
    ],
    swiftLanguageModes: [.v6]
)
