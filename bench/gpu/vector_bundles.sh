#!/usr/bin/env bash
# Issue 15's vectorized rungs, every one verified (bench/RESULTS.md,
# "Vectorized access, verified"): register-tile now bounds the kernel to its
# 256 threads itself, and the transposed A tile's float4 staging stores its
# lanes in one loop, which the checker proves. Each rung is the bundled
# tiled SGEMM rewritten and bundled against the unrewritten kernel as
# --reference; the bundle's cuBLAS anchor gives the share of cuBLAS FP32 in
# the same run. Writes the bundles into DIR (default build/bundles-vec2);
# AVE as in make_bundles.sh. On the GPU host:
#   BUNDLES=build/bundles-vec2 PROFILE= PREFIX=gpu-vec2 bench/gpu/pipeline_run.sh
set -euo pipefail
dir=${1:-build/bundles-vec2}
src=build/vec2
source "$(dirname "$0")/rewrite_bundle.sh"
bundle rt_u testdata/tiled_gemm.hip sgemm register-tile,unroll
bundle rt_v testdata/tiled_gemm.hip sgemm register-tile,vectorize,unroll
bundle rt_t_u testdata/tiled_gemm.hip sgemm register-tile:transpose-a=1,unroll
bundle rt_t_vl testdata/tiled_gemm.hip sgemm register-tile:transpose-a=1,vectorize:where=loads,unroll
bundle rt_t_v testdata/tiled_gemm.hip sgemm register-tile:transpose-a=1,vectorize,unroll
# A third block per SM: min-blocks widens register-tile's bound (the
# compiler then keeps a thread within 65536 / 768 registers on sm_90).
bundle rt_t_v_mb3 testdata/tiled_gemm.hip sgemm \
  register-tile:transpose-a=1,vectorize,unroll,launch-bounds:min-blocks=3
