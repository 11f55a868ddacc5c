// swift-tools-version:6.1
import Foundation
import PackageDescription

// Ripple's root package has no external dependencies: an app that wants an
// Observable never downloads a web server, a database driver or a benchmark kit.
// The demo apps live in `Examples/`, the measurements in `Benchmarks/`.
//
// One dependency is opt-in: the trait `AsyncHTTPClient` adds
// `AsyncHTTPClientTransport` to RippleHTTP (networking on SwiftNIO, what Linux
// servers use). A package that does not enable the trait does not resolve
// async-http-client or SwiftNIO at all (SwiftPM 6.1+ leaves a dependency used only
// under a disabled trait out of resolution; `scripts/check-trait-isolation.sh`
// proves it with a fresh package each way).
// The other trait, `CompactPipelines`, adds no dependency: it compiles chains once
// in Ripple instead of in the app (docs/Architecture.md, "Compact pipelines").
// RippleCocoa and its tests see UIKit/AppKit on Apple platforms and the
// interface targets on Linux: `#if RIPPLE_COCOA_INTERFACE` picks the import.
let cocoaInterfaceSettings: [SwiftSetting] = [.define("RIPPLE_COCOA_INTERFACE", .when(platforms: [.linux]))]

let package = Package(
    name: "Ripple",
    platforms: [
        // Swift concurrency's back-deployment floor, what the libraries apps
        // already use declare (GRDB, Kingfisher: iOS 13 / macOS 10.15). Anything
        // newer is marked `@available` (Observation interop: macOS 14 / iOS 17);
        // `scripts/check-availability.py` checks it. Ripple's lock and atomics
        // are its own (`PlatformLock`, `AtomicCell` on `CRippleAtomics`), not
        // `Synchronization`'s, which needs macOS 15 / iOS 18.
        .macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1),
    ],
    products: [
        .library(name: "Ripple", targets: ["Ripple"]),
        .library(name: "RippleTest", targets: ["RippleTest"]),
        // Observable arrays and sections for list screens (`ObservableArray`,
        // `ObservableSections`, their change events and diffs): a product of its
        // own so that an app without lists does not link them (docs/Performance.md).
        .library(name: "RippleCollections", targets: ["RippleCollections"]),
        // The subscription graph (its snapshot, the text tree, DOT, Mermaid, JSON
        // and an HTML page) and the trace recorder (traces in Chrome's format): a
        // product of its own, like the collections, so that an app links them only
        // where it imports them (recording and named streams stay in Ripple).
        .library(name: "RippleDebugExport", targets: ["RippleDebugExport"]),
        // Typed, reactive networking on Foundation (FoundationNetworking on Linux).
        .library(name: "RippleHTTP", targets: ["RippleHTTP"]),
        // Streamed responses on a RippleHTTP `Session` (Server-Sent Events, JSON
        // lines): a product of its own so that an app that only sends requests
        // does not link the parser, the reconnection machine and their formats.
        .library(name: "RippleHTTPStreaming", targets: ["RippleHTTPStreaming"]),
        // Cached-then-fresh values (`CachedRepository`, `ValueCache`, `InMemoryCache`):
        // a product of its own, since it needs no HTTP (any `Single` fetches) and an
        // app that only sends requests need not carry it.
        .library(name: "RippleRepository", targets: ["RippleRepository"]),
        // Test doubles for RippleHTTP (a stub `HTTPClient`), for apps' test targets.
        .library(name: "RippleHTTPTesting", targets: ["RippleHTTPTesting"]),
        // RxCocoa's UIKit and AppKit layer (`button.rx.tap`, `tableView.rx.items`,
        // observable arrays on table and collection views). On Apple platforms it
        // imports UIKit or AppKit; on Linux it is compiled against the interface
        // targets below, so that its tests run (it is not for Linux apps).
        .library(name: "RippleCocoa", targets: ["RippleCocoa"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "AsyncHTTPClientTransport: RippleHTTP's HTTPClient on AsyncHTTPClient (SwiftNIO), recommended on Linux."
        ),
        .trait(
            name: "CompactPipelines",
            description: "Compiles a chain's synchronous operators (map, filter, take, ...) and the flatMap family's sinks once, in Ripple, instead of for each chain in the app: less code and release compile time per chain, more instructions per event (docs/Performance.md, \"Compact pipelines\")."
        ),
    ],
    dependencies: [
        // Resolved only when the `AsyncHTTPClient` trait is enabled (SwiftNIO and
        // swift-nio-ssl come with it; named for the types the transport maps).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
    ],
    targets: [
        // C11 atomics in `static inline` functions, which the Swift compiler
        // inlines into `AtomicCell`'s callers (internal: no product).
        .target(name: "CRippleAtomics"),
        // C: the calling thread's return addresses and the image an address is
        // in, for operator sites on Linux (see docs/Architecture.md).
        .target(name: "CRippleStacks"),
        .target(name: "Ripple", dependencies: ["CRippleAtomics", "CRippleStacks"]),
        // Uses Ripple's `package` declarations (ChangeStore, LockedState): the
        // delivery machinery stays in Ripple, beside the subjects it shares with.
        .target(name: "RippleCollections", dependencies: ["Ripple"]),
        // The subscription graph and the trace recorder (fed by Ripple's recorder
        // and named streams through `package` declarations), and their exports:
        // what only a debugging session needs (see RippleCollections).
        .target(name: "RippleDebugExport", dependencies: ["Ripple"]),
        .target(name: "RippleTest", dependencies: ["Ripple", "RippleDebugExport"]),
        .target(name: "RippleHTTP", dependencies: [
            "Ripple",
            .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
            .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
            .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
            .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["AsyncHTTPClient"])),
        ]),
        .target(name: "RippleHTTPStreaming", dependencies: ["Ripple", "RippleHTTP"]),
        .target(name: "RippleRepository", dependencies: ["Ripple"]),
        .target(name: "RippleHTTPTesting", dependencies: ["Ripple", "RippleHTTP", "RippleHTTPStreaming"]),
        .target(
            name: "RippleCocoa",
            dependencies: [
                "Ripple", "RippleCollections",
                .target(name: "RippleUIKitInterface", condition: .when(platforms: [.linux])),
                .target(name: "RippleAppKitInterface", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: cocoaInterfaceSettings
        ),
        // Linux only, test-only (no product): the UIKit and AppKit API that
        // RippleCocoa uses, declared as Apple documents it (each declaration cites
        // its page), with simple simulated behaviour, and the parts of the
        // Objective-C runtime both rely on. See docs/UIKit.md.
        .target(name: "RippleObjCInterface", path: "Tests/CocoaInterfaces/RippleObjCInterface"),
        .target(name: "RippleUIKitInterface", dependencies: ["RippleObjCInterface"], path: "Tests/CocoaInterfaces/RippleUIKitInterface"),
        .target(name: "RippleAppKitInterface", dependencies: ["RippleObjCInterface"], path: "Tests/CocoaInterfaces/RippleAppKitInterface"),
        // Collections/ tests RippleCollections and Debugging/ RippleDebugExport too
        // (they share the suite's helpers).
        .testTarget(name: "RippleTests", dependencies: ["Ripple", "RippleCollections", "RippleDebugExport", "RippleTest"]),
        .testTarget(name: "RippleTestTests", dependencies: ["Ripple", "RippleTest", "RippleDebugExport"]),
        // Streaming/ tests RippleHTTPStreaming too (it shares the loopback server); it needs
        // RippleRepository for RepositoryTests and the networking guide's example.
        .testTarget(
            name: "RippleHTTPTests",
            dependencies: ["Ripple", "RippleTest", "RippleHTTP", "RippleHTTPStreaming", "RippleHTTPTesting", "RippleRepository"]
        ),
        // Test-only: a module declaring `OptionalType` and `filterNil()` as RxOptional
        // and RxSwiftExt do, and the tests that import it next to Ripple (in a target
        // of their own, so the rest of the tests see Ripple's declarations only).
        .target(name: "RippleCompatFixture", dependencies: ["Ripple"], path: "Tests/RippleCompatFixture"),
        .testTarget(name: "RippleCompatTests", dependencies: ["Ripple", "RippleCompatFixture"]),
        // Test-only: helpers in the shapes community libraries (RxSwiftExt,
        // RxOptional, RxSwiftUtilities) and apps declare beside the operators, and
        // calls written for RxSwift next to them, each checked to reach the
        // declaration RxSwift's would (issue 34). Swift 5 mode, warnings as errors.
        .target(
            name: "RippleCallShapeFixture", dependencies: ["Ripple"], path: "Tests/RippleCallShapeFixture",
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-warnings-as-errors"])]
        ),
        .testTarget(
            name: "RippleCallShapeTests", dependencies: ["Ripple", "RippleTest", "RippleCallShapeFixture"],
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-warnings-as-errors"])]
        ),
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
        // A program subscribing from main-actor code to events that arrive elsewhere,
        // in Swift 6 mode and (the same file, linked) in Swift 5 mode, run as child
        // processes by `IsolationProbeTests`: a debug stop is only visible from outside.
        // Executables of the root package only: no product, so no dependent builds them.
        .executableTarget(name: "ripple-isolation-probe", dependencies: ["Ripple"], path: "Tests/IsolationProbe"),
        .executableTarget(
            name: "ripple-isolation-probe-swift5", dependencies: ["Ripple"], path: "Tests/IsolationProbeSwift5",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "IsolationProbeTests",
            dependencies: ["Ripple", "RippleTest", "ripple-isolation-probe", "ripple-isolation-probe-swift5"]
        ),
        // An app's reactive layer and its tests written for RxSwift 6 (RxSwift,
        // RxRelay, RxCocoa's non-UI parts, RxTest, RxBlocking), moved over by
        // changing the imports: every name of the public surface a migrating app
        // uses, so that removing or renaming one fails the build. Swift 5 mode,
        // like most RxSwift code; deprecated spellings are called from code
        // marked deprecated, as an app silences them.
        .testTarget(
            name: "RippleMigrationTests", dependencies: ["Ripple", "RippleTest", "RippleHTTP"],
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-warnings-as-errors"])]
        ),
        // RippleCocoa's behaviour, driving the interface's simulated controls (Linux;
        // on Apple platforms the target compiles to nothing). Warnings are errors:
        // its Swift 6 view controllers bind Drivers to labels without escape hatches.
        .testTarget(
            name: "RippleCocoaTests",
            dependencies: [
                "RippleCocoa", "RippleTest",
                .target(name: "RippleUIKitInterface", condition: .when(platforms: [.linux])),
                .target(name: "RippleAppKitInterface", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: cocoaInterfaceSettings + [.unsafeFlags(["-warnings-as-errors"])]
        ),
        // An RxSwift view controller written against RxCocoa (text fields, a button,
        // a table bound with `rx.items(cellIdentifier:cellType:)`, `modelSelected`),
        // moved over by changing its imports. Swift 5 mode, warnings as errors; it
        // imports UIKit on iOS and the interface on Linux.
        .testTarget(
            name: "RippleCocoaMigrationTests",
            dependencies: [
                "RippleCocoa", "RippleTest",
                .target(name: "RippleUIKitInterface", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: cocoaInterfaceSettings + [.swiftLanguageMode(.v5), .unsafeFlags(["-warnings-as-errors"])]
        ),
        // View-model expressions that must type-check within a budget of the
        // constraint solver's work: an expression that needs more than 2 500
        // scopes fails to compile (see the target's ViewModels.swift).
        .testTarget(
            name: "RippleTypeCheckingTests", dependencies: ["Ripple", "RippleTest"],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors", "-Xfrontend", "-solver-scope-threshold=2500"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The DocC plugin (`swift package generate-documentation`, `preview-documentation`)
// is declared only when RIPPLE_DOCS is set, as `scripts/build-docs.sh` does: the
// packages that depend on Ripple never set it, so they resolve no dependency at all.
// A condition here, rather than a separate documentation package, lets the docs
// reuse this package's own build (CI has just built it for `swift test`).
if ProcessInfo.processInfo.environment["RIPPLE_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
