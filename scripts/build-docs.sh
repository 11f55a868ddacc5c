#!/usr/bin/env bash
# Builds the API reference of every library product with DocC and fails on any
# DocC warning (an unresolved or ambiguous link, an undocumented parameter), or
# if a catalog article no longer matches its guide in docs/.
#
# The DocC plugin is declared only when RIPPLE_DOCS is set (see Package.swift),
# so this script sets it. The archives land in
# .build/plugins/Swift-DocC/outputs/<Module>.doccarchive; to browse one, run
#   RIPPLE_DOCS=1 swift package --disable-sandbox preview-documentation --target Ripple
#
# `--scratch-path DIR` builds in DIR instead of .build (the archives land in
# DIR/plugins/...): scripts/test-all.sh passes Examples/.build, where it has built
# the root package with the trait.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=()
case "${1:-}" in
"") ;;
--scratch-path) [ -n "${2:-}" ] || { echo "usage: $0 [--scratch-path DIR]" >&2; exit 2; }; scratch=(--scratch-path "$2") ;;
*) echo "usage: $0 [--scratch-path DIR]" >&2; exit 2 ;;
esac

echo "==> DocC articles match their guides"
python3 scripts/docc-articles.py --check

echo "==> DocC: Ripple, RippleTest, RippleCollections, RippleDebugExport, RippleHTTP, RippleHTTPStreaming, RippleHTTPTesting, RippleRepository, RippleCocoa"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
# With the trait, so that the reference documents AsyncHTTPClientTransport (a
# build with the trait is reused: test-all.sh's in Examples/.build). RippleCocoa is
# documented as it compiles here, against the Linux interface targets (docs/UIKit.md).
RIPPLE_DOCS=1 swift package ${scratch[@]+"${scratch[@]}"} --traits AsyncHTTPClient generate-documentation \
    --target Ripple --target RippleTest --target RippleCollections --target RippleDebugExport --target RippleHTTP --target RippleHTTPStreaming --target RippleHTTPTesting \
    --target RippleRepository \
    --target RippleCocoa --warnings-as-errors >"$log" 2>&1 || status=$?
# A dependency's own package warnings (swift-distributed-tracing, pulled in by the
# trait, ships a file it does not declare) are not this package's to fix.
root="$(basename "$PWD")"
problems="$(grep -E '(warning|error):' "$log" \
    | grep -vE "^warning: '[^']+': found [0-9]+ file\(s\) which are unhandled" \
    | grep -c . || true)"
if grep -qE "^warning: '$root': found [0-9]+ file\(s\) which are unhandled" "$log"; then
    problems=$((problems + 1))
fi
if [ "$status" -ne 0 ] || [ "$problems" -ne 0 ]; then
    cat "$log"
    echo "DocC: $problems warnings or errors (exit status $status)" >&2
    exit 1
fi
grep -E '^Generated documentation archive|^Finished building documentation' "$log" || true
echo "DocC: no warnings"
