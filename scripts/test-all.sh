#!/usr/bin/env bash
# Runs every test of the project: the root package's tests, the API reference built
# with DocC (no warning allowed), the root package's stress tests under
# ThreadSanitizer, the Examples package's tests, and a smoke run of every benchmark
# workload (so the Benchmarks package keeps compiling; timings are not judged).
# `.ci/run` calls exactly this. For day-to-day work: scripts/test-quick.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> swift test (root package)"
swift test

# Right after the root package's build, which the symbol graphs reuse.
echo "==> API reference (DocC)"
./scripts/build-docs.sh

echo "==> ThreadSanitizer: concurrency and scheduler tests"
swift test --sanitize=thread --scratch-path .build-tsan \
    --filter 'Concurrency|Subject|Relay|SchedulingOperatorTests|DispatchSchedulerTests|BlockingTests|FastPath|Serializing|FlatMap|ObserveOn'

echo "==> Examples package: mock GitHub API, demo apps"
swift test --package-path Examples

echo "==> Benchmarks: build and smoke-run every workload"
swift build -c release --package-path Benchmarks
swift run -c release --skip-build --package-path Benchmarks ripple-compare --smoke
