#!/usr/bin/env bash
# On the GPU host, from the repository root: builds every bundle that
# pipeline_bundles.sh wrote (BUNDLES, default build/bundles-pipeline) with
# nvcc in parallel, times each pipelined kernel against its unpipelined
# original (run.sh: both checked, interleaved, median of RUNS runs, default
# 30; results named PREFIX-NAME.json, default gpu-pipeline), then profiles
# both kernels of PROFILE bundles (empty: none) with Nsight Compute
# (stall reasons, memory throughput). Everything lands in OUT (default
# ./pipeline-out) and, packed, in OUT/pipeline-results.tar.gz.
set -uo pipefail
bundles=${BUNDLES:-build/bundles-pipeline}
out=${OUT:-./pipeline-out}
runs=${RUNS:-30}
prefix=${PREFIX:-gpu-pipeline}
profile=${PROFILE-tiled_reg2 tiled_async2 regtiled_reg2 regtiled_async2 hgemm_reg2}
mkdir -p "$out/results"
out=$(cd "$out" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv >"$out/results/nvidia-smi.txt"
start=$(date +%s)
for b in "$bundles"/*/; do
  name=$(basename "$b")
  ("$b/build.sh" nvcc >"$out/results/build-$name.log" 2>&1 || echo "BUILD FAILED $name") &
done
wait
echo "builds: $(($(date +%s) - start)) s"
for b in "$bundles"/*/; do
  name=$(basename "$b")
  "$b/run.sh" --out "$out/results/$prefix-$name.json" --runs "$runs" \
    >"$out/results/run-$name.log" 2>&1
  echo "$name: exit $? $(grep -E '^bench: ' "$out/results/run-$name.log" | tail -1)"
done
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
for stall in long_scoreboard short_scoreboard barrier mio_throttle lg_throttle wait math_pipe_throttle not_selected selected; do
  metrics+=,smsp__average_warps_issue_stalled_${stall}_per_issue_active.ratio
done
for name in $profile; do
  for which in candidate reference; do
    (cd "$bundles/$name" && timeout 240 ncu --clock-control none --target-processes all -k "regex:ave_${which}_" -c 1 \
      --metrics "$metrics" --csv ./bench --runs 10 --skip-timing) \
      >"$out/results/ncu-$name-$which.csv" 2>"$out/results/ncu-$name-$which.log"
    echo "ncu $name $which: exit $?"
  done
done
echo "total: $(($(date +%s) - start)) s"
tar -czf "$out/pipeline-results.tar.gz" -C "$out" results
