#!/usr/bin/env bash
# Issue 16's ldmatrix rung (bench/RESULTS.md, "Matrix cores: ldmatrix"):
# testdata/tiled_hgemm_32.hip rewritten by matrix-core, whose NVIDIA branch
# now reads the B fragment with ldmatrix.x2.trans and the A fragment once
# per instruction row, at the block tiles of the earlier rungs, each
# verified and bundled at 4096^3 against the scalar kernel as --reference
# (anchor: cublasGemmEx f16 -> f32 in the same run). OLD: a kernel the
# previous matrix-core wrote (scalar fragment reads in the (i, j) loop),
# bundled beside them as mc_128_mb2_scalar for the same-run comparison.
# On the GPU host:
#   BUNDLES=build/bundles-ldm PROFILE=mc_128_mb2 PREFIX=gpu-ldm bench/gpu/pipeline_run.sh
set -euo pipefail
dir=${1:-build/bundles-ldm}
src=build/ldm
source "$(dirname "$0")/rewrite_bundle.sh"
in=testdata/tiled_hgemm_32.hip
bundle mc_64 "$in" hgemm32 matrix-core
bundle mc_128 "$in" hgemm32 matrix-core:bm=128,bn=128,wm=64,wn=32
bundle mc_128_mb2 "$in" hgemm32 matrix-core:bm=128,bn=128,wm=64,wn=32,launch-bounds:min-blocks=2
if [ -n "${OLD:-}" ]; then
  "$ave" harness "$OLD" --kernel hgemm32 --shape $gemm --reference "$in" \
    --reference-kernel hgemm32 -o "$dir/mc_128_mb2_scalar"
fi
