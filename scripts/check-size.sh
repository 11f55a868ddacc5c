#!/usr/bin/env bash
# The app-size gate (issue 37): measures each program of Benchmarks/SizePrograms as
# the Benchmarks package builds it in release against this checkout of Ripple (its
# executables size-operators, size-view-model, size-networking, size-screens), strips it, and
# fails when a program's stripped size is more than 2 % above
# Benchmarks/size-baseline.json. Bytes do not depend on the machine's load, so the
# gate is exact; they do depend on the compiler and the platform (the baseline
# records its `swift --version`).
#
# scripts/test-all.sh runs the same check right after it builds the Benchmarks
# package (the programs are part of that build: a few seconds of compiling, no
# release build of Ripple of their own). This script is for running it alone.
#
# After a change that moves the sizes on purpose, regenerate the baseline
# (`ripple-compare --write-size-baseline Benchmarks/size-baseline.json`) and commit
# it on its own, with the figures before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/generate-screens-program.py --check   # the screens program is the generator's 10
for product in ripple-compare size-operators size-view-model size-networking size-screens; do
    swift build -c release --package-path Benchmarks --product "$product"
done
swift run -c release --skip-build --package-path Benchmarks ripple-compare \
    --check-size Benchmarks/size-baseline.json
