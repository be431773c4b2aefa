#!/usr/bin/env bash
# Builds every bundle in build/gpu-atomic with nvcc in parallel, runs each
# (3 trials, timing skipped) and writes a summary into $OUT.
export PATH=/usr/local/cuda/bin:$PATH
cd build/gpu-atomic
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
for b in */; do (cd $b && ./build.sh nvcc > build.log 2>&1 || echo "BUILD FAILED $b") & done; wait
for b in */; do n=${b%/}; (cd $b && timeout 120 ./bench --trials 3 --seed 7 --skip-timing --out $OUT/$n.json > run.log 2>&1; echo "$n rc=$? $(grep -E '^bench: .* (pass|rejected)' run.log | head -1 | cut -c1-160)"); done | tee $OUT/summary.txt
tar czf $OUT/logs.tgz */build.log */run.log 2>/dev/null
