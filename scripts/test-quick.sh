#!/usr/bin/env bash
# The day-to-day test run: the root package's tests only (`swift test`), one
# build. Arguments go to `swift test` (`--filter TakeTests`). Before a pull
# request, run scripts/test-all.sh, which CI runs: it adds ThreadSanitizer,
# the Examples and Benchmarks packages, and the DocC build.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift test "$@"
