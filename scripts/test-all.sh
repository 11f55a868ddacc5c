#!/usr/bin/env bash
# Runs every test of the project: the root package's tests, then its stress tests
# under ThreadSanitizer. (`.ci/run` calls exactly this.)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> swift test (root package)"
swift test

echo "==> ThreadSanitizer: concurrency and scheduler tests"
swift test --sanitize=thread --scratch-path .build-tsan \
    --filter 'Concurrency|Subject|Relay|SchedulingOperatorTests|DispatchSchedulerTests|BlockingTests'
