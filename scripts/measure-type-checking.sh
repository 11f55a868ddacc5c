#!/usr/bin/env bash
# Type-checks scripts/type-checking/Chains.swift (typical view-model chains)
# against the Ripple module of a debug build and prints the total time the
# compiler reports for its function bodies (`-debug-time-function-bodies`: with
# the 6.3 toolchain `-debug-time-expression-type-checking` prints nothing), best
# of N runs.
#
#   scripts/measure-type-checking.sh [build directory (.build/debug)] [runs (5)]
#
# Compare two builds (before and after a change to the operators' signatures)
# by running it against each one's build directory. It also prints the
# constraint solver's counters, which, unlike the times, do not move with load.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-.build/debug}"
runs="${2:-5}"
# Ripple imports the package's C targets: their module maps, from the build.
c_modules=()
for map in "$build"/*.build/module.modulemap; do
    [ -e "$map" ] && c_modules+=(-Xcc "-fmodule-map-file=$map")
done
best=""
for _ in $(seq "$runs"); do
    total=$(swiftc -typecheck -I "$build/Modules" -I "$build" "${c_modules[@]}" \
        -Xfrontend -debug-time-function-bodies \
        scripts/type-checking/Chains.swift 2>&1 \
        | awk -F'ms' '/ms\t/ { sum += $1 } END { printf "%.1f", sum }')
    if [ -z "$best" ] || awk "BEGIN { exit !($total < $best) }"; then best=$total; fi
done
echo "type-checking of the corpus's function bodies: ${best} ms (best of ${runs})"

# Timings move with the machine's load; the constraint solver's work does not.
stats=$(mktemp -d)
swiftc -typecheck -I "$build/Modules" -I "$build" "${c_modules[@]}" -Xfrontend -stats-output-dir -Xfrontend "$stats" \
    scripts/type-checking/Chains.swift 2>/dev/null
python3 - "$stats" <<'PY'
import glob, json, sys
stats = json.load(open(glob.glob(sys.argv[1] + "/*.json")[0]))
for key in ("Sema.NumConstraintScopes", "Sema.NumLeafScopes"):
    print(f"{key}: {stats.get(key)}")
PY
rm -rf "$stats"
