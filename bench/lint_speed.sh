#!/usr/bin/env bash
# Lint and check speed against the compiler's own syntax check, measured
# fairly (issue 21): one process per file for both, paired and alternating,
# medians, peak memory, warm / cold / no preamble cache, and over testdata at
# the same parallelism against xargs -P and run-clang-tidy. The earlier
# version of this script compared `lint -j 2` with a serial syntax check,
# which hid a factor of two. See bench/speed_vs_syntax.py.
# Usage: bench/lint_speed.sh [BUILD_DIR] [--rounds N]
#        (writes bench/results/speed-vs-syntax.json)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
shift || true
cd "$ROOT"
exec python3 bench/speed_vs_syntax.py "$BUILD/ave-rewrite" "$@"
