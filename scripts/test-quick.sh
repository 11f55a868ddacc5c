#!/usr/bin/env bash
# The day-to-day test run: the root package's tests only (`swift test`), one
# build. Arguments go to `swift test`:
#
#   ./scripts/test-quick.sh --filter TakeLastTests
#
# A --filter that runs no test fails (swift test itself exits 0 then) and names
# the test classes closest to it. Before a pull request, run scripts/test-all.sh,
# which CI runs: it adds ThreadSanitizer, the Examples and Benchmarks packages,
# and the DocC build.
set -euo pipefail
cd "$(dirname "$0")/.."

filter=""
arguments=("$@")
for ((index = 0; index < ${#arguments[@]}; index++)); do
    case "${arguments[index]}" in
    --filter) filter="${arguments[index + 1]:-}" ;;
    --filter=*) filter="${arguments[index]#--filter=}" ;;
    esac
done
[ -n "$filter" ] || exec swift test "$@"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
[ "$status" = 0 ] || exit "$status"

# XCTest's total ("Executed 12 tests") and Swift Testing's ("Test run with 3 tests").
xctest=$( (grep -oE 'Executed [0-9]+ tests?' "$log" || true) | awk '{ if ($2 > n) n = $2 } END { print n + 0 }')
testing=$( (grep -oE 'Test run with [0-9]+ tests?' "$log" || true) | awk '{ if ($4 > n) n = $4 } END { print n + 0 }')
[ "$((xctest + testing))" -eq 0 ] || exit 0

# No test ran: name the test classes and suites nearest to the filter (the tests
# were just built, so listing them costs no build).
names=$(swift test list --skip-build 2>/dev/null | sed -nE 's/^[A-Za-z0-9_]+\.([A-Za-z0-9_]+)[/.].*/\1/p' | sort -u)
near=$(FILTER="$filter" NAMES="$names" python3 - <<'EOF' 2>/dev/null || true
import difflib, os
wanted = os.environ["FILTER"]
names = [n for n in os.environ["NAMES"].split() if n]
lower = wanted.lower().removesuffix("tests")
# Names that contain the filter's stem (or that it contains), then the closest spellings.
close = [n for n in names if lower and (lower in n.lower() or n.lower().removesuffix("tests") in lower)]
close += [n for n in difflib.get_close_matches(wanted, names, n=8, cutoff=0.5) if n not in close]
print(", ".join(close[:8]))
EOF
)
echo >&2
echo "test-quick.sh: --filter '$filter' matched no test (swift test ran 0 tests and exited 0)." >&2
if [ -n "$near" ]; then
    echo "Test classes with a near name: $near" >&2
else
    echo "No test class has a name near it; 'swift test list --skip-build' lists every test." >&2
fi
exit 1
