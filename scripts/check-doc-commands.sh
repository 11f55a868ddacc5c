#!/usr/bin/env bash
# Runs every shell command that the documentation shows, exactly as written: each
# line of each ```sh block in README.md, Examples/README.md, docs/*.md and
# docs/operators/*.md (comment lines and blank lines aside), from the repository
# root, in order. A `cd` line applies to the rest of its block.
#
# How each command is run, and what counts as passing:
# - Most commands: as written, standard input from /dev/null (the demo apps then
#   run without a terminal: they print their screen and exit), at most 10 minutes
#   each; they must exit 0.
# - `mock-github-api` (a server, unless the line has --help): started in the
#   background; it must print "Mock GitHub API listening on" within 2 minutes.
#   It keeps running through the next block (the curl examples run against it),
#   then gets SIGINT and must exit 0 within 10 s. When port 8080 is already taken
#   on this machine, the port-8080 server and the curl lines that need it are
#   reported as skipped, not run.
# - `ripple-compare` without --smoke or --filter (the full benchmark table, about
#   a minute): run for 20 s; it passes when it has not failed by then (it is then
#   stopped). This checks that it starts, not its table.
# - A test command (`swift test`, `scripts/test-quick.sh`) must also run at least
#   one test: a `--filter` that matches nothing exits 0, and fails here.
# - A line marked `# skip-check: REASON` is not run, and REASON is printed. Lines
#   whose purpose is to overwrite a committed file (`--write-baseline`, a generator
#   rewriting its output) carry it: CI must never rewrite what is committed. A
#   line that writes a baseline without the mark fails, and so does the whole
#   check if the commands changed any file git tracks.
# - `./scripts/test-all.sh`: not run here, since it is the script that runs this one.
# - `./scripts/test-quick.sh` without arguments (the whole root suite): not run
#   here, since test-all.sh's `swift test` step runs that suite; with arguments
#   (`--filter ...`) it is run.
# - A command that is a line of scripts/test-all.sh (`swift test --package-path
#   Examples`): not run again here; test-all.sh ran it just before.
#
# It expects the packages to be built already (test-all.sh builds and tests them
# first), so every `swift run` / `swift build` / `swift test` is incremental.
# Exits 1 if any command failed, after running all of them. With file arguments it
# checks those files instead.
set -uo pipefail
cd "$(dirname "$0")/.."

# Arguments: other files to check instead (for a quick look at one page).
if [ "$#" -gt 0 ]; then files=("$@"); else files=(README.md Examples/README.md docs/*.md docs/operators/*.md); fi
work=$(mktemp -d)
trap 'for pid in "${servers[@]:-}"; do [ -n "$pid" ] && kill -INT "$pid" 2>/dev/null; done; rm -rf "$work"' EXIT

failures=0
passed=0
skipped=0
servers=()
server_blocks_left=0
port_8080_taken=0

# A command's result ends with its seconds (run_command's start), to see where the step's time goes.
command_started=$SECONDS
fail() { echo "FAIL: $1 [$((SECONDS - command_started)) s]"; failures=$((failures + 1)); }
pass() { echo "ok:   $1 [$((SECONDS - command_started)) s]"; passed=$((passed + 1)); }
skip() { echo "skip: $1"; skipped=$((skipped + 1)); }

stop_servers() {
    for pid in "${servers[@]:-}"; do
        [ -n "$pid" ] || continue
        kill -INT "$pid" 2>/dev/null
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then
            fail "mock-github-api (pid $pid) still running 10 s after SIGINT"
            kill -KILL "$pid" 2>/dev/null
        elif ! wait "$pid"; then
            fail "mock-github-api (pid $pid) exited with an error after SIGINT"
        fi
    done
    servers=()
}

# Prints one record per command: "file<TAB>block number<TAB>command".
extract() {
    for file in "${files[@]}"; do
        awk -v file="$file" '
            /^```sh[[:space:]]*$/ { inside = 1; block += 1; next }
            /^```/ { inside = 0; next }
            inside && $0 !~ /^[[:space:]]*(#|$)/ { print file "\t" block "\t" $0 }
        ' "$file"
    done
}

# The command without its trailing comment: from the first `#` that starts a word
# outside quotes (so `--filter 'A#B'` keeps its argument, and a comment with an
# apostrophe goes), trailing blanks removed.
without_comment() {
    awk '{
        line = $0; quote = ""; end = length(line)
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (quote != "") { if (c == quote) quote = ""; continue }
            if (c == "\047" || c == "\"") { quote = c; continue }
            if (c == "#" && (i == 1 || substr(line, i - 1, 1) ~ /[[:space:]]/)) { end = i - 1; break }
        }
        line = substr(line, 1, end); sub(/[[:space:]]+$/, "", line); print line
    }' <<<"$1"
}

run_command() {
    local where=$1 prefix=$2 command=$3
    local log="$work/out"
    # Without its comment, to compare with the lines of test-all.sh.
    local bare
    bare=$(without_comment "$command")
    case "$command" in
    *"# skip-check:"*)
        local reason=${command##*# skip-check:}
        reason=$(sed -E 's/^[[:space:]]+|[[:space:]]+$//g' <<<"$reason")
        if [ -z "$reason" ]; then
            fail "$where: $command (# skip-check: needs a reason)"
        else
            skip "$where: ${command%%#*}(not run: $reason)"
        fi
        return
        ;;
    *--write-baseline*)
        fail "$where: $command (it overwrites a committed file: mark it '# skip-check: REASON')"
        return
        ;;
    ./scripts/test-all.sh*)
        skip "$where: $command (the script that runs this one)"
        return
        ;;
    *)
        # The whole root suite (the script without arguments, a comment aside):
        # test-all.sh's `swift test` step ran it in the same build (1 780 tests,
        # over 2 minutes).
        if [[ "$bare" =~ ^(\./)?scripts/test-quick\.sh$ ]]; then
            skip "$where: $command (test-all.sh's swift test step runs the whole suite)"
            return
        fi
        if grep -Fxq "$bare" scripts/test-all.sh; then
            skip "$where: $command (scripts/test-all.sh runs exactly this before this script)"
            return
        fi
        ;;
    esac
    case "$command" in
    *mock-github-api*--help*)
        if timeout 600 bash -c "$prefix$command" </dev/null >"$log" 2>&1; then pass "$where: $command"; else fail "$where: $command"; cat "$log"; fi
        ;;
    *mock-github-api*)
        if [[ "$command" != *"--port"* ]] && curl -s -o /dev/null --max-time 2 http://127.0.0.1:8080/; then
            port_8080_taken=1
            skip "$where: $command (port 8080 is in use on this machine)"
            return
        fi
        local output="$work/server-$RANDOM"
        bash -c "$prefix exec $command" </dev/null >"$output" 2>&1 &
        local pid=$!
        for _ in $(seq 1 1200); do
            grep -q "Mock GitHub API listening on" "$output" && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if grep -q "Mock GitHub API listening on" "$output"; then
            pass "$where: $command (started: $(grep -m1 "Mock GitHub API listening on" "$output"))"
            servers+=("$pid")
            server_blocks_left=2
        else
            fail "$where: $command (did not start)"
            cat "$output"
            kill -KILL "$pid" 2>/dev/null
        fi
        ;;
    curl*127.0.0.1:8080*)
        if [ "$port_8080_taken" = 1 ]; then
            skip "$where: $command (no server of ours on port 8080)"
        elif timeout 600 bash -c "$prefix$command" </dev/null >"$log" 2>&1; then
            pass "$where: $command"
        else
            fail "$where: $command"; cat "$log"
        fi
        ;;
    *ripple-compare*--smoke* | *ripple-compare*--filter*)
        if timeout 600 bash -c "$prefix$command" </dev/null >"$log" 2>&1; then pass "$where: $command"; else fail "$where: $command"; tail -20 "$log"; fi
        ;;
    *ripple-compare*)
        timeout 600 bash -c "$prefix$command" </dev/null >"$log" 2>&1 &
        local pid=$!
        for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then
            kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null   # timeout passes the signal on
            pass "$where: $command (started; stopped after 20 s)"
        elif wait "$pid"; then
            pass "$where: $command"
        else
            fail "$where: $command"; tail -20 "$log"
        fi
        ;;
    "swift test"* | ./scripts/test-quick.sh* | scripts/test-quick.sh*)
        local status=0
        timeout 600 bash -c "$prefix$command" </dev/null >"$log" 2>&1 || status=$?
        if [ "$status" != 0 ]; then
            fail "$where: $command (exit $status$([ "$status" = 124 ] && echo ": timed out after 600 s"))"
            failure_lines "$log"; tail -30 "$log"
        elif ran_tests "$log" >/dev/null; then
            pass "$where: $command ($(ran_tests "$log"))"
        else
            fail "$where: $command (exit 0, but it ran no test: does its --filter match a test?)"; tail -5 "$log"
        fi
        ;;
    *)
        if timeout 600 bash -c "$prefix$command" </dev/null >"$log" 2>&1; then
            pass "$where: $command"
        else
            fail "$where: $command"; tail -30 "$log"
        fi
        ;;
    esac
}

# Prints what failed in a `swift test` log, with the lines around it, before
# its tail: a failure early in a long run is otherwise out of sight.
failure_lines() {
    grep -n -B 3 -A 8 -E "error: |failed \(|Fatal error|Test Case .* crashed|did not finish|✘" "$1" | head -120
    echo "[… the last 30 lines:]"
}

# Prints how many tests a `swift test` log shows run, and fails when none: XCTest's
# total ("Executed 12 tests") and Swift Testing's ("Test run with 3 tests").
ran_tests() {
    local xctest testing
    xctest=$(grep -oE 'Executed [0-9]+ tests?' "$1" | awk '{ if ($2 > n) n = $2 } END { print n + 0 }')
    testing=$(grep -oE 'Test run with [0-9]+ tests?' "$1" | awk '{ if ($4 > n) n = $4 } END { print n + 0 }')
    [ "$((xctest + testing))" -gt 0 ] || return 1
    echo "$xctest XCTest and $testing Swift Testing tests"
}

# What git tracks, before: the commands must leave it as it was.
tracked_before=$(git status --porcelain --untracked-files=no 2>/dev/null; git diff 2>/dev/null | cksum)

previous_block=""
prefix=""
while IFS=$'\t' read -r file block command; do
    if [ "$file#$block" != "$previous_block" ]; then
        # A server lives through its own block and the next one.
        if [ "$server_blocks_left" -gt 0 ]; then
            server_blocks_left=$((server_blocks_left - 1))
            [ "$server_blocks_left" = 0 ] && stop_servers
        fi
        previous_block="$file#$block"
        prefix=""
    fi
    if [[ "$command" =~ ^cd[[:space:]] ]]; then
        prefix="$prefix${command%%#*} && "
        continue
    fi
    command_started=$SECONDS
    run_command "$file (block $block)" "$prefix" "$command"
done < <(extract)
stop_servers

tracked_after=$(git status --porcelain --untracked-files=no 2>/dev/null; git diff 2>/dev/null | cksum)
if [ "$tracked_before" != "$tracked_after" ]; then
    fail "the documented commands changed files that git tracks (mark such lines '# skip-check: REASON'):"
    git status --porcelain --untracked-files=no
fi

echo "documentation: $passed passed, $failures failed, $skipped skipped"
[ "$failures" = 0 ]
