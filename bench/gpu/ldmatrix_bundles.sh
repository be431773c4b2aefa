#!/usr/bin/env bash
# Issue 16's ldmatrix rung (bench/RESULTS.md, "ldmatrix"): the matrix-core
# rewrite of testdata/tiled_hgemm_32.hip as committed (2-byte fragment
# reads) beside the ldmatrix variants measured against it (B through
# ave_ldmatrix_x2_trans, A once per instruction row; written by that
# session's matrix-core, kept as sources in bench/results/
# issue16-ldmatrix-h200/), each bundled at 4096^3 against the scalar
# kernel as --reference (anchor: cublasGemmEx f16 -> f32 in the same run).
# On the GPU host:
#   BUNDLES=build/bundles-ldm PROFILE="" PREFIX=gpu-ldm bench/gpu/pipeline_run.sh
set -euo pipefail
dir=${1:-build/bundles-ldm}
src=build/ldm
source "$(dirname "$0")/rewrite_bundle.sh"
in=testdata/tiled_hgemm_32.hip
kept=bench/results/issue16-ldmatrix-h200
bundle mc_128_mb2_scalar "$in" hgemm32 matrix-core:bm=128,bn=128,wm=64,wn=32,launch-bounds:min-blocks=2
for name in mc_64 mc_128 mc_128_mb2; do
  "$ave" check "$kept/${name}_ldmatrix.hip" --time-limit-ms 30000 >/dev/null # as rewrite verifies
  "$ave" harness "$kept/${name}_ldmatrix.hip" --kernel hgemm32 --shape $gemm --reference "$in" \
    --reference-kernel hgemm32 -o "$dir/$name"
done
