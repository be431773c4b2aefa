#!/usr/bin/env bash
# Builds the bench if needed, then checks and times the kernel; writes
# result.json (or --out FILE). Arguments go to ./bench:
#   --runs N (>= 10, default 20) --warmup N --trials N --seed S --tolerance T --skip-timing
# Exit code: 0 pass, 1 rejected, 2 could not run.
set -uo pipefail
cd "$(dirname "$0")"
if [ ! -x bench ]; then
  ./build.sh || exit 2
fi
exec ./bench "$@"
