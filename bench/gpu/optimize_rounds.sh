#!/usr/bin/env bash
# On the GPU host, from the repository root: runs the bench bundles that
# `ave-rewrite optimize --evaluate bench --emit-bundle DIR` wrote, for every
# DIR given (each DIR/run_all.sh builds its bundles in parallel, then checks
# and times each candidate against its parent), and copies each DIR's
# results/ to OUT/<basename DIR>/ (OUT default ./optimize-out), with the GPU's
# clocks. RUNS: timed runs per bundle (default 20).
set -uo pipefail
out=${OUT:-./optimize-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv >"$out/nvidia-smi.txt" 2>&1
for dir in "$@"; do
  start=$(date +%s)
  COMPILER=nvcc RUNS=${RUNS:-20} "$dir/run_all.sh"
  mkdir -p "$out/$(basename "$dir")"
  cp -r "$dir/results/." "$out/$(basename "$dir")/"
  echo "$(basename "$dir"): $(($(date +%s) - start)) s"
done
