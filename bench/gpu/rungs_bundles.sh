#!/usr/bin/env bash
# Issue 15's ladder (bench/RESULTS.md, "Unroll and launch bounds"): each
# rung is the bundled kernel rewritten (verified; a rejected rewrite stops
# the script) and bundled against the unrewritten kernel as --reference;
# the bundle's cuBLAS anchor gives the share of cuBLAS FP32 in the same run.
# Writes the bundles into DIR (default build/bundles-rungs); AVE as in
# make_bundles.sh. On the GPU host:
#   BUNDLES=build/bundles-rungs PROFILE= PREFIX=gpu-rung bench/gpu/pipeline_run.sh
set -euo pipefail
dir=${1:-build/bundles-rungs}
src=build/rungs
source "$(dirname "$0")/rewrite_bundle.sh"
bundle tiled_unroll testdata/tiled_gemm.hip sgemm unroll
bundle tiled_bounds testdata/tiled_gemm.hip sgemm unroll,launch-bounds
bundle regtiled_bounds testdata/register_tiled_gemm.hip sgemm_register_tiled unroll,launch-bounds
bundle regtiled_pipe_bounds testdata/register_tiled_gemm.hip sgemm_register_tiled \
  unroll,pipeline,launch-bounds --time-limit-ms 40000
# The register-tile rungs: the 16x16 tiled SGEMM rewritten to 8x8 micro-tiles
# of a 128x128 block tile, then unrolled, bounded and pipelined.
bundle rt testdata/tiled_gemm.hip sgemm register-tile
bundle rt_unroll testdata/tiled_gemm.hip sgemm register-tile,unroll
bundle rt_bounds testdata/tiled_gemm.hip sgemm register-tile,unroll,launch-bounds
bundle rt_pipe testdata/tiled_gemm.hip sgemm register-tile,pipeline,unroll,launch-bounds \
  --time-limit-ms 40000
bundle rt_async testdata/tiled_gemm.hip sgemm \
  register-tile,pipeline:async=1,unroll,launch-bounds --time-limit-ms 40000
bundle rt_t_bounds testdata/tiled_gemm.hip sgemm register-tile:transpose-a=1,unroll,launch-bounds
# + vectorize: float4 LDS reads of the micro-tile's operands (proven), and
# every copy (staging and epilogue too; --no-verify: not yet proven, see
# bench/RESULTS.md "Vectorized access").
bundle rt_vl_bounds testdata/tiled_gemm.hip sgemm \
  register-tile,vectorize:where=loads,unroll,launch-bounds
bundle rt_t_vl_bounds testdata/tiled_gemm.hip sgemm \
  register-tile:transpose-a=1,vectorize:where=loads,unroll,launch-bounds
bundle rt_v_bounds testdata/tiled_gemm.hip sgemm register-tile,vectorize,unroll,launch-bounds \
  --no-verify
bundle rt_t_v_bounds testdata/tiled_gemm.hip sgemm \
  register-tile:transpose-a=1,vectorize,unroll,launch-bounds --no-verify
# Not a rung yet: register-tile:transpose-a=1,pipeline is not proven (the
# "does m change with loop k" question of the store runs out of time).
