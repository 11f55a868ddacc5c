#!/usr/bin/env bash
# Runs every test of the project: the root package's tests, its stress tests under
# ThreadSanitizer, the Examples package's tests, and a smoke run of every benchmark
# workload (so the Benchmarks package keeps compiling; timings are not judged), and
# every shell command the documentation shows (scripts/check-doc-commands.sh).
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

# Last, so that every package is built (the Benchmarks commands in README.md too)
# and the documented commands run incrementally.
echo "==> Documentation: every command of the \`\`\`sh blocks, as written"
scripts/check-doc-commands.sh
