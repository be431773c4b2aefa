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
bundle tiled_unroll4 testdata/tiled_gemm.hip sgemm unroll:factor=4
bundle tiled_bounds testdata/tiled_gemm.hip sgemm unroll,launch-bounds
bundle regtiled_unroll testdata/register_tiled_gemm.hip sgemm_register_tiled unroll
bundle regtiled_bounds testdata/register_tiled_gemm.hip sgemm_register_tiled unroll,launch-bounds
bundle regtiled_pipe_bounds testdata/register_tiled_gemm.hip sgemm_register_tiled \
  unroll,pipeline,launch-bounds --time-limit-ms 40000
