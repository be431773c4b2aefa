#!/usr/bin/env bash
# The fp16 FlashAttention-style bundles of issue 19 on the device (from the
# repo root): builds every bundle in BUNDLES (default build/bundles-attn,
# written by `ave-rewrite harness testdata/attention/flash_fwd_f16{,_d128}.hip
# --kernel flash_fwd --shape B=4,H=32,N=4096 --einsum attention --score-scale
# scale --param scale=0.125 -o build/bundles-attn/flash_d{64,128}`) in
# parallel, then runs each (its run.sh adds PyTorch SDPA on the same shape as
# the anchor) and writes OUT/gpu-NAME.json.
set -u
bundles=${BUNDLES:-build/bundles-attn}
out=${OUT:?set OUT}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/nvidia-smi.txt"
for b in "$bundles"/*/; do
  (cd "$b" && ./build.sh nvcc >"$out/build-$(basename "$b").log" 2>&1) &
done
wait
for b in "$bundles"/*/; do
  n=$(basename "$b")
  timeout 240 "$b/run.sh" --runs ${RUNS:-20} --out "$out/gpu-$n.json" >"$out/run-$n.log" 2>&1
  echo "$n rc=$?"
done
