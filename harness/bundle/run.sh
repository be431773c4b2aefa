#!/usr/bin/env bash
# Builds the bench if needed, then checks and times the kernel; writes
# result.json in the bundle (or --out FILE, relative to where run.sh was
# called). Other arguments go to ./bench:
#   --runs N (>= 10, default 20) --warmup N --trials N --seed S --tolerance T --skip-timing
# Attention bundles then time PyTorch SDPA on the same shape with
# sdpa_anchor.py, when `python3 -c 'import torch'` works, and add it to the
# same JSON as the anchor. Grouped-GEMM bundles (MoE: a routed reference)
# time one PyTorch GEMM per group with grouped_anchor.py the same way.
# Exit code: 0 pass, 1 rejected, 2 could not run.
set -uo pipefail
caller=$(pwd)
out=result.json
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = --out ] && [ $# -ge 2 ]; then
    case $2 in
      /*) out=$2 ;;
      *) out=$caller/$2 ;;
    esac
    shift 2
    continue
  fi
  args+=("$1")
  shift
done
cd "$(dirname "$0")"
if [ ! -x bench ]; then
  ./build.sh || exit 2
fi
./bench --out "$out" "${args[@]}"
status=$?
if [ -f sdpa_anchor.py ] && [ "$status" = 0 ]; then
  if python3 -c 'import torch' >/dev/null 2>&1; then
    python3 sdpa_anchor.py "$out" || echo "run.sh: sdpa_anchor.py failed: no SDPA anchor in $out" >&2
  else
    echo "run.sh: python3 cannot import torch: no SDPA anchor in $out (it says so)" >&2
  fi
fi
if [ -f grouped_anchor.py ] && [ "$status" = 0 ]; then
  if python3 -c 'import torch' >/dev/null 2>&1; then
    python3 grouped_anchor.py "$out" grouped_gemm.json ||
      echo "run.sh: grouped_anchor.py failed: no grouped anchor in $out" >&2
  else
    echo "run.sh: python3 cannot import torch: no grouped anchor in $out (it says so)" >&2
  fi
fi
exit "$status"
