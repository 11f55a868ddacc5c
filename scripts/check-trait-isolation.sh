#!/usr/bin/env bash
# Proves that Ripple's only external dependency is opt-in.
#
# 1. A fresh package, `plain`, depends on this checkout by path and uses RippleHTTP
#    without the `AsyncHTTPClient` trait. Its dependency resolution must list no
#    package at all: no async-http-client, no SwiftNIO (`swift package
#    show-dependencies`; no Package.resolved is written, or one without them).
# 2. The trait is the switch: with `--traits AsyncHTTPClient`, this package's own
#    resolution lists async-http-client and swift-nio (seconds once `swift test`
#    has resolved the package: its checkouts hold them, trait or not).
#
# With --full, a second fresh package, `nio`, enables the trait where it depends on
# Ripple, resolves, builds, and sends a request with AsyncHTTPClientTransport to a
# local HTTP server (python3 -m http.server), checking the answer. On a loaded
# 2-core machine its resolution took 6 minutes and its build compiles SwiftNIO and
# BoringSSL from scratch, so CI runs 1 and 2 only; CI's Examples package enables the
# same trait where it depends on Ripple, and its integration tests send every
# request through AsyncHTTPClientTransport.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
full=0
[ "${1:-}" = "--full" ] && full=1
work="$(mktemp -d)"
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

# make_package NAME TRAITS: a package whose executable sends one request.
make_package() {
    local name=$1 traits=$2 client
    mkdir -p "$work/$name/Sources/$name"
    if [ -n "$traits" ]; then
        client="AsyncHTTPClientTransport()"
    else
        client="URLSessionHTTPClient()"
    fi
    cat >"$work/$name/Package.swift" <<EOF
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "$name",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Ripple", path: "$root"$traits)],
    targets: [.executableTarget(name: "$name", dependencies: [.product(name: "RippleHTTP", package: "Ripple")])]
)
EOF
    cat >"$work/$name/Sources/$name/main.swift" <<EOF
import Foundation
import RippleHTTP
let url = URL(string: CommandLine.arguments[1])!
let client = $client
let done = DispatchSemaphore(value: 0)
let subscription = client.get(url).subscribe(onSuccess: { response in
    print("\(response.statusCode) \(response.text)")
    done.signal()
}, onFailure: { error in
    print("failed: \(error)")
    done.signal()
})
_ = done.wait(timeout: .now() + 30)
subscription.dispose()
EOF
}

# Lines of `swift package show-dependencies` naming NIO or AsyncHTTPClient. A
# resolution that fails stops the script (an empty answer must mean "none", not
# "could not tell").
nio_dependencies() {
    local tree
    if ! tree="$(cd "$work/$1" && swift package show-dependencies 2>&1)"; then
        echo "error: swift package show-dependencies failed in $1:" >&2
        echo "$tree" >&2
        exit 1
    fi
    grep -Ei 'swift-nio|async-http-client' <<<"$tree" || true
}

echo "==> A package without the trait resolves no NIO"
make_package plain ""
found="$(nio_dependencies plain)"
if [ -n "$found" ]; then
    echo "error: without the trait, Ripple's dependencies include:" >&2
    echo "$found" >&2
    exit 1
fi
if [ -f "$work/plain/Package.resolved" ] && grep -Eqi 'swift-nio|async-http-client' "$work/plain/Package.resolved"; then
    echo "error: Package.resolved lists NIO without the trait:" >&2
    cat "$work/plain/Package.resolved" >&2
    exit 1
fi
echo "ok: no async-http-client, no swift-nio ($( [ -f "$work/plain/Package.resolved" ] && echo "Package.resolved without them" || echo "no Package.resolved at all"))"

echo "==> With the trait, AsyncHTTPClient and SwiftNIO are resolved"
tree="$(cd "$root" && swift package --traits AsyncHTTPClient show-dependencies 2>&1)" || { echo "$tree" >&2; exit 1; }
found="$(grep -Ei 'swift-nio|async-http-client' <<<"$tree" || true)"
for package in async-http-client swift-nio; do
    if ! grep -qi "$package" <<<"$found"; then
        echo "error: with the trait, $package is not resolved" >&2
        exit 1
    fi
done
echo "ok: $(grep -c . <<<"$found") lines name them"

if [ "$full" = 1 ]; then
    echo "==> A fresh package with the trait: resolve, build, send a request through AsyncHTTPClientTransport"
    make_package nio ', traits: ["AsyncHTTPClient"]'
    mkdir -p "$work/site" && echo "hello from the trait check" >"$work/site/hello.txt"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    (cd "$work/site" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
    server_pid=$!
    start=$(date +%s)
    found="$(nio_dependencies nio)"
    grep -qi async-http-client <<<"$found" || { echo "error: the fresh package does not resolve async-http-client" >&2; exit 1; }
    echo "resolved in $(( $(date +%s) - start )) s"
    start=$(date +%s)
    (cd "$work/nio" && swift build >/dev/null)
    echo "built in $(( $(date +%s) - start )) s"
    answer="$(cd "$work/nio" && swift run --skip-build nio "http://127.0.0.1:$port/hello.txt")"
    if [ "$answer" != "200 hello from the trait check" ]; then
        echo "error: the request answered: $answer" >&2
        exit 1
    fi
    echo "ok: $answer"
fi
