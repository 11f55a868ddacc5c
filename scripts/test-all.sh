#!/usr/bin/env bash
# Runs every test of the project: the root package's tests, its stress tests under
# ThreadSanitizer, the Examples package's tests, and a smoke run of every benchmark
# workload (so the Benchmarks package keeps compiling; timings are not judged).
# `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> swift test (root package)"
swift test

echo "==> Type-checking time: no expression may take over 300 ms"
# A slow expression usually means an overload set that makes ordinary user code
# slow to compile (the `Recorded.events` variadic-over-arrays form did). Sources and
# tests are built from scratch in their own scratch path, so that every file is
# type-checked (an incremental build would skip unchanged files and their warnings)
# and the main build above stays untouched.
rm -rf .build-typecheck
mkdir -p .build-typecheck
typecheck_log=.build-typecheck/typecheck.log
swift build --build-tests --scratch-path .build-typecheck \
    -Xswiftc -Xfrontend -Xswiftc -warn-long-expression-type-checking=300 2>&1 | tee "$typecheck_log"
if grep -q "expression took" "$typecheck_log"; then
    echo "error: expressions above took longer than 300 ms to type-check:" >&2
    grep "expression took" "$typecheck_log" >&2
    exit 1
fi

echo "==> ThreadSanitizer: concurrency and scheduler tests"
swift test --sanitize=thread --scratch-path .build-tsan \
    --filter 'Concurrency|Subject|Relay|SchedulingOperatorTests|DispatchSchedulerTests|BlockingTests|FastPath|Serializing|FlatMap|ObserveOn'

echo "==> Examples package: mock GitHub API, demo apps"
swift test --package-path Examples

echo "==> Benchmarks: build and smoke-run every workload"
swift build -c release --package-path Benchmarks
swift run -c release --skip-build --package-path Benchmarks ripple-compare --smoke
