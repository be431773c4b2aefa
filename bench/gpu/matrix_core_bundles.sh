#!/usr/bin/env bash
# Issue 16's rungs (bench/RESULTS.md, "Matrix cores"): the scalar fp16 GEMM
# with 32x32 tiles (testdata/tiled_hgemm_32.hip) rewritten by matrix-core at
# three block tiles (64x64 of 32x32 warp tiles, 128x128 of 64x32 and of
# 32x32), each verified (both branches proven, compiled for
# gfx942 and sm_90, the same values on the CPU executor) and bundled at
# 4096^3 against the scalar kernel as --reference; the bundle's anchor is
# cublasGemmEx f16 -> f32 in the same run. Writes the bundles into DIR
# (default build/bundles-mc); AVE as in make_bundles.sh. On the GPU host:
#   BUNDLES=build/bundles-mc PROFILE="mc_128" PREFIX=gpu-mc bench/gpu/pipeline_run.sh
set -euo pipefail
dir=${1:-build/bundles-mc}
src=build/mc
source "$(dirname "$0")/rewrite_bundle.sh"
in=testdata/tiled_hgemm_32.hip
bundle mc_64 "$in" hgemm32 matrix-core
bundle mc_128 "$in" hgemm32 matrix-core:bm=128,bn=128,wm=64,wn=32
bundle mc_128w "$in" hgemm32 matrix-core:bm=128,bn=128,wm=32,wn=32
# More warps per SM: min-blocks widens matrix-core's __launch_bounds__ (the
# compiler then keeps a thread within 65536 / (threads * N) registers).
bundle mc_64_mb4 "$in" hgemm32 matrix-core,launch-bounds:min-blocks=4
bundle mc_128_mb2 "$in" hgemm32 matrix-core:bm=128,bn=128,wm=64,wn=32,launch-bounds:min-blocks=2
