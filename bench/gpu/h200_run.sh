#!/usr/bin/env bash
# The H200 session of bench/RESULTS.md, in one command (from the repo root):
# builds every bundle in BUNDLES (default build/bundles, see make_bundles.sh)
# and the hand-written SGEMM driver with nvcc in parallel, runs them, and
# packs every JSON and log into OUT/results.tar.gz (OUT default: ./h200-out).
# ONLY=name1,name2 runs just those bundles (no hand-written driver, no
# repeat), for a session that measures new kernels only.
set -uo pipefail
bundles=${BUNDLES:-build/bundles}
out=${OUT:-./h200-out}
mkdir -p "$out/results"
# Absolute: run.sh changes into the bundle before it runs the bench.
out=$(cd "$out" && pwd)
only=${ONLY:-}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv | tee "$out/results/nvidia-smi.txt"
start=$(date +%s)
selected() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
for b in "$bundles"/*/; do
  name=$(basename "$b")
  selected "$name" || continue
  ("$b/build.sh" nvcc >"$out/results/build-$name.log" 2>&1 || echo "BUILD FAILED $name") &
done
if [ -z "$only" ]; then
  nvcc -x cu -std=c++17 -O3 -arch=sm_90 -I runtime/include/ave/hip_on_cuda -I annotations/include \
    -I . bench/gpu/handwritten_sgemm.cu -o "$out/handwritten_sgemm" >"$out/results/build-handwritten.log" 2>&1 ||
    echo "BUILD FAILED handwritten"
fi
wait
echo "builds: $(($(date +%s) - start)) s"
summary=$out/results/summary.txt
: >"$summary"
run() { # label bundle expected-exit args...
  local name=$1 bundle=$2 expect=$3
  shift 3
  selected "$bundle" || return 0
  local t0=$(date +%s)
  # run.sh: the bench, then (attention bundles) the PyTorch SDPA anchor.
  "$bundles/$bundle/run.sh" --out "$out/results/gpu-$name.json" "$@" >"$out/results/run-$name.log" 2>&1
  local rc=$?
  local verdict=ok
  [ "$rc" = "$expect" ] || verdict=UNEXPECTED
  printf '%-34s exit %s (expected %s) %-10s %3ss  %s\n' "$name" "$rc" "$expect" "$verdict" \
    "$(($(date +%s) - t0))" "$(grep -E '^bench: .* (pass|rejected);|^sdpa_anchor:' "$out/results/run-$name.log" | tail -2 | tr '\n' ' ')" |
    tee -a "$summary"
}
handwritten() { [ -n "$only" ] || "$out/handwritten_sgemm" 4096 20 | tee "$out/results/handwritten-sgemm-$1.json"; }
handwritten 1
run tiled_gemm tiled_gemm 0
handwritten 2
run naive_gemm naive_gemm 0
run double_buffered_gemm double_buffered_gemm 0
run transpose_lds transpose_lds 0
run transpose_swizzle transpose_swizzle 0
run block_reduce block_reduce 0
run vector_scale vector_scale 0
run mma_sync_tile mma_sync_tile 0
run attention_fwd attention_fwd 0
# Issue 20: both kernels pass with their own launches; a faulting reference
# leaves the candidate's verdict (exit 0) and timing intact.
run register_tiled_gemm register_tiled_gemm 0
run faulting_reference faulting_reference 0
run planted_returns_zeros planted_returns_zeros 1
run planted_writes_input planted_writes_input 1
run planted_caches_output planted_caches_output 1
# The same bundle again: run-to-run spread of the whole measurement.
[ -n "$only" ] || run tiled_gemm-repeat tiled_gemm 0
handwritten 3
if [ -f "$out/results/gpu-register_tiled_gemm.json" ] || [ -f "$out/results/gpu-faulting_reference.json" ]; then
  python3 "$(dirname "$0")/check_issue20.py" "$out/results" | tee -a "$summary"
fi
echo "total: $(($(date +%s) - start)) s"
tar -czf "$out/results.tar.gz" -C "$out" results
cat "$summary"
