#!/usr/bin/env bash
# The app-size gate (issue 37): builds each program of Benchmarks/SizePrograms in
# release against this checkout of Ripple, strips it, and fails when a program's
# stripped size is more than 2 % above Benchmarks/size-baseline.json. Bytes do not
# depend on the machine's load, so the gate is exact; they do depend on the compiler
# and the platform (the baseline records its `swift --version`).
#
# Not part of scripts/test-all.sh: the programs need a release build of Ripple of
# their own, in a throwaway package (4 to 8.5 minutes on the shared 2-core machine,
# about 3 minutes of CPU time), more than test-all.sh should grow by; see
# CONTRIBUTING.md.
#
# After a change that moves the sizes on purpose, regenerate the baseline
# (`ripple-compare --write-size-baseline Benchmarks/size-baseline.json`) and commit
# it on its own, with the figures before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --package-path Benchmarks --product ripple-compare
swift run -c release --skip-build --package-path Benchmarks ripple-compare \
    --check-size Benchmarks/size-baseline.json
