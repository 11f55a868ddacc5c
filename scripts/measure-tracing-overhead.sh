#!/usr/bin/env bash
# Measures, in a release build, what `named(_:)` costs per event with tracing off
# and on, next to no operator and `map { $0 }`. Builds a throw-away package in a
# temporary directory (nothing is written to the repository) and prints ns/event.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/Bench"
cat > "$work/Package.swift" <<PACKAGE
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "Bench",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$repo")],
    targets: [.executableTarget(name: "Bench", dependencies: [.product(name: "Ripple", package: "$(basename "$repo")")])]
)
PACKAGE
cat > "$work/Sources/Bench/main.swift" <<'SWIFT'
import Dispatch
import Ripple

let count = 5_000_000
let source = Observable<Int>.create { observer in
    for value in 0..<count { observer.onNext(value) }
    observer.onCompleted()
    return Disposables.create()
}

func measure(_ name: String, _ make: (Observable<Int>) -> Observable<Int>) {
    var best = Double.infinity
    for _ in 0..<7 {
        var sum = 0
        let start = DispatchTime.now().uptimeNanoseconds
        _ = make(source).subscribe(onNext: { sum &+= $0 })
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        precondition(sum == (count - 1) * count / 2)
        best = min(best, Double(elapsed) / Double(count))
    }
    print(name.padding(toLength: 36, withPad: " ", startingAt: 0), String(format: "%6.1f ns/event", best))
}

measure("no operator", { $0 })
measure("map { $0 }", { $0.map { $0 } })
measure("named (tracing off)", { $0.named("measured") })
measure("map.map", { $0.map { $0 }.map { $0 } })
measure("map.named.map (tracing off)", { $0.map { $0 }.named("measured").map { $0 } })
let other = TraceRecorder(capacity: 100_000, filter: { $0 == "other" })
other.start()
measure("named (tracing on, other streams)", { $0.named("measured") })
other.stop()
let plain = TraceRecorder(capacity: 100_000, recordsValues: false)
plain.start()
measure("named (tracing on, no values)", { $0.named("measured") })
plain.stop()
let values = TraceRecorder(capacity: 100_000)
values.start()
measure("named (tracing on, with values)", { $0.named("measured") })
values.stop()
SWIFT
cd "$work"
swift build -c release 2>&1 | grep -E "error|warning:" || true
.build/release/Bench
