#!/usr/bin/env bash
# Runs every test of the project: the root package's tests (`swift test`, as a
# newcomer runs them), its HTTP transport tests again with the trait
# `AsyncHTTPClient` (so that both HTTP transports are tested), the API reference
# built with DocC (no warning allowed), the type-checking benchmark's gate, the
# proof that the trait's dependency is opt-in (scripts/check-trait-isolation.sh),
# the root package's stress tests under ThreadSanitizer (whose build also checks
# type-checking time), the Examples package's tests, a smoke run of every benchmark
# workload (so the Benchmarks package keeps compiling; timings are not judged),
# Ripple's instruction counts under valgrind against
# Benchmarks/instructions-baseline.json (counts, unlike timings, do not depend on
# the machine's load), and every shell command the documentation shows
# (scripts/check-doc-commands.sh), and the workloads' checksums and the programs'
# sizes (Benchmarks/size-baseline-compact.json) with Ripple built with its trait
# `CompactPipelines`, and the root package's tests again with that trait.
# `.ci/run` calls exactly this. For day-to-day work: scripts/test-quick.sh.
# The app-size gate runs after the Benchmarks build, which builds its programs
# (scripts/check-size.sh runs it alone).
#
# Build directories: `.build` holds the root package as `swift test` builds it
# (without the trait), so the documented commands reuse it. The root package with
# the trait is built in the Examples package's `Examples/.build`, whose
# dependencies are the same packages (SwiftNIO, BoringSSL, AsyncHTTPClient, Ripple
# with the trait): the Examples step then compiles only what the root package does
# not use (Hummingbird, GRDB, the demos), and the DocC step reuses that build.
# ThreadSanitizer's build has its own, `.build-tsan`, and the root package with
# the trait `CompactPipelines` its own, `.build-compact`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step prints the time since the start, and the script ends (passing or not)
# with every step's duration, so that a slow run says where its time went.
step_names=()
step_starts=()
step() {
    step_names+=("$1")
    step_starts+=("$SECONDS")
    printf '==> [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$1"
}
report_durations() {
    local status=$? i end count=${#step_names[@]}
    echo "==> Seconds per step"
    for ((i = 0; i < count; i++)); do
        end=$SECONDS
        ((i + 1 < count)) && end=${step_starts[i + 1]}
        printf '%6d  %s\n' $((end - step_starts[i])) "${step_names[i]}"
    done
    printf '%6d  in all (exit status %d)\n' "$SECONDS" "$status"
}
trap report_durations EXIT

# First, because it takes seconds (14 in a CI run): no Apple SDK here, so this is what checks that
# the root package uses nothing above its minimum deployment targets (macOS 10.15,
# iOS 13, ...) outside an `@available`-marked place. Its self-test first, so that a
# check that stopped finding anything fails too.
step "Availability: nothing above macOS 10.15 / iOS 13 / tvOS 13 / watchOS 6 / visionOS 1"
scripts/check-availability.py --self-test
scripts/check-availability.py

# One lock of Ripple's own on every platform (docs/Architecture.md, "The lock and
# the atomics"): `PlatformLock`/`LockedState`, never Foundation's locks.
step "One lock: no Foundation lock in Sources/"
# Code lines of Swift sources only: comments and the docs may name them.
if grep -rnP --include='*.swift' '^(?!\s*//).*\bNS(Recursive)?Lock\b' Sources; then
    echo "error: use PlatformLock or LockedState (Sources/Ripple/Core/Locking.swift), not a Foundation lock" >&2
    exit 1
fi

# The README's test command's suite, in the default build directory.
step "swift test (root package)"
swift test

# Every public declaration with one of RxSwift's names takes RxSwift 6.10.2's
# parameters, or is a documented deviation (seconds: symbol graphs of the debug
# build above).
step "API shapes: Ripple's declarations against RxSwift 6.10.2's"
scripts/check-api-shapes.py

# View-model code type-checked against the debug build above: fails when an
# expression needs more of the constraint solver's work (deterministic) or time
# (loose: the machine may be busy) than docs/Performance.md's "Compile time" allows.
step "Type-checking time of typical view-model code"
scripts/typecheck-benchmark.py --check

step "The AsyncHTTPClient trait: nothing resolved without it"
./scripts/check-trait-isolation.sh

# With the trait, AsyncHTTPClientTransport and its tests are built too: SwiftNIO,
# BoringSSL and AsyncHTTPClient, about 4 of this build's 6.5 minutes on 2 idle
# cores, in Examples/.build (see the top), where the Examples package reuses them.
# The tests that differ with the trait are the test classes of the files that
# test it (`#if AsyncHTTPClient`): the transport conformance suite, run on both
# transports, and AsyncHTTPClient's stress tests. test-quick.sh fails when the
# filter runs no test.
step "The AsyncHTTPClient trait: build, and the transport tests on both transports"
trait_tests="$(grep -rl --include='*.swift' '^[[:space:]]*#if AsyncHTTPClient' Tests \
    | xargs sed -nE 's/^(final )?class ([A-Za-z0-9_]+)[:<].*/\2/p' | sort -u | paste -sd'|')"
if [ -z "$trait_tests" ]; then
    echo "error: no test class in Tests/ is compiled only with the AsyncHTTPClient trait" >&2
    exit 1
fi
echo "Test classes: $trait_tests"
./scripts/test-quick.sh --traits AsyncHTTPClient --scratch-path Examples/.build \
    --filter "^[A-Za-z]+Tests\.($trait_tests)/"

step "ThreadSanitizer: concurrency and scheduler tests; type-checking time"
# This build also checks that no expression takes over 300 ms to type-check. A slow
# expression usually means an overload set that makes ordinary user code slow to
# compile (the `Recorded.events` variadic-over-arrays form did). The TSan build has
# its own scratch path, so a fresh clone type-checks every source and test file
# here (an incremental build would skip unchanged files and their warnings), and
# no extra build is needed.
mkdir -p .build-tsan
tsan_log=.build-tsan/test-all.log
tsan_status=0
swift test --sanitize=thread --scratch-path .build-tsan \
    -Xswiftc -Xfrontend -Xswiftc -warn-long-expression-type-checking=300 \
    --filter 'Concurrency|Subject|Relay|SchedulingOperatorTests|DispatchSchedulerTests|BlockingTests|FastPath|Serializing|FlatMap|ObserveOn|Catch|FlattenJust' \
    2>&1 | tee "$tsan_log" || tsan_status=$?
if [ "$tsan_status" -ne 0 ]; then
    # A race report sits wherever the racing test ran, often thousands of lines up;
    # repeat each report and the test that was running, so the end of the log names it.
    echo "error: the ThreadSanitizer run failed (exit code $tsan_status); its reports:" >&2
    awk '/^Test Case .* started/ { test = $0 }
         /WARNING: ThreadSanitizer/ { print "--- during: " test; show = 1 }
         show { print }
         /^SUMMARY: ThreadSanitizer/ { show = 0 }' "$tsan_log" >&2
    exit "$tsan_status"
fi
if grep -q "expression took" "$tsan_log"; then
    echo "error: expressions above took longer than 300 ms to type-check:" >&2
    grep "expression took" "$tsan_log" >&2
    exit 1
fi

# In Examples/.build, where the trait's step above built SwiftNIO and Ripple.
step "Examples package: mock GitHub API, demo apps"
swift test --package-path Examples

step "Benchmarks: build and smoke-run every workload"
swift build -c release --package-path Benchmarks
swift run -c release --skip-build --package-path Benchmarks ripple-compare --smoke
swift run -c release --skip-build --package-path Benchmarks ripple-http-stream --smoke

# Bytes, unlike timings, do not depend on the load: exact, 2 % tolerance.
step "App size: the programs of Benchmarks/SizePrograms against Benchmarks/size-baseline.json"
python3 scripts/generate-screens-program.py --check
swift run -c release --skip-build --package-path Benchmarks ripple-compare \
    --check-size Benchmarks/size-baseline.json

step "Benchmarks: Ripple's instructions per operation against the baseline (valgrind)"
swift run -c release --skip-build --package-path Benchmarks ripple-compare \
    --check Benchmarks/instructions-baseline.json

# Last, so that every package is built (the Benchmarks commands in README.md too)
# and the documented commands run incrementally.
step "Documentation: every command of the \`\`\`sh blocks, as written"
scripts/check-doc-commands.sh

# With the trait, so that the reference documents AsyncHTTPClientTransport: in
# Examples/.build, reusing the trait's build. After the documented commands, since
# the symbol graphs' compiler flags make the Examples package's next build
# recompile Ripple.
step "API reference (DocC)"
./scripts/build-docs.sh --scratch-path Examples/.build

# After the documented commands, which build the Benchmarks package without it:
# Ripple rebuilt with the trait CompactPipelines (its chains, subscribe and
# handlers, the flatMap family's and flatMapLatest's sinks compiled once in
# Ripple, docs/Architecture.md),
# in release, where specialisation is what the trait changes; every workload must
# still return OpenCombine's checksums, allocate no more than the default build
# (its instruction baseline's allocations; counted without valgrind, about a
# second), and the size programs built with it stay within 2 % of their own
# baseline.
step "The CompactPipelines trait: every workload's checksum and allocations, and the sizes (release)"
swift build -c release --package-path Benchmarks --traits CompactPipelines
swift run -c release --skip-build --package-path Benchmarks ripple-compare --checksums
swift run -c release --skip-build --package-path Benchmarks ripple-compare \
    --check-allocations Benchmarks/instructions-baseline.json
swift run -c release --skip-build --package-path Benchmarks ripple-compare \
    --check-size Benchmarks/size-baseline-compact.json

# The trait has paths of its own in the core (a stage alone runs an element
# without a StepResult, the flatMap family's and flatMapLatest's sinks are made
# in Ripple): the root package's suite again with it, in a build directory of
# its own (debug, as `swift test` builds).
step "The CompactPipelines trait: the root package's tests"
swift test --traits CompactPipelines --scratch-path .build-compact
