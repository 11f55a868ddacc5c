#!/usr/bin/env bash
# Runs every test of the project: the root package's tests, its stress tests under
# ThreadSanitizer, the Examples package's tests, and a smoke run of every benchmark
# workload (so the Benchmarks package keeps compiling; timings are not judged), then
# Ripple's instruction counts under valgrind against Benchmarks/instructions-baseline.json
# (counts, unlike timings, do not depend on the machine's load).
# `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> swift test (root package)"
swift test

echo "==> ThreadSanitizer: concurrency and scheduler tests"
swift test --sanitize=thread --scratch-path .build-tsan \
    --filter 'Concurrency|Subject|Relay|SchedulingOperatorTests|DispatchSchedulerTests|BlockingTests|FastPath|Serializing|FlatMap|ObserveOn'

echo "==> Examples package: mock GitHub API, demo apps"
swift test --package-path Examples

echo "==> Benchmarks: build and smoke-run every workload"
swift build -c release --package-path Benchmarks
swift run -c release --skip-build --package-path Benchmarks ripple-compare --smoke

echo "==> Benchmarks: Ripple's instructions per operation against the baseline (valgrind)"
swift run -c release --skip-build --package-path Benchmarks ripple-compare \
    --check Benchmarks/instructions-baseline.json
