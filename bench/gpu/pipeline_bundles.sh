#!/usr/bin/env bash
# The pipeline rewrite's H200 measurements (bench/RESULTS.md, "The pipeline
# rewriter"): each kernel is rewritten (verified; a rejected rewrite stops
# the script) into build/pipelined/, and bundled against its unpipelined
# original as --reference, so that run.sh times both interleaved. Writes
# the bundles into DIR (default build/bundles-pipeline); AVE as in
# make_bundles.sh. Run from the repository root; on the GPU host:
#   ONLY= BUNDLES=build/bundles-pipeline bench/gpu/pipeline_run.sh
set -euo pipefail
dir=${1:-build/bundles-pipeline}
src=build/pipelined
source "$(dirname "$0")/rewrite_bundle.sh"
bundle tiled_reg2 testdata/tiled_gemm.hip sgemm pipeline:stages=2
bundle tiled_async2 testdata/tiled_gemm.hip sgemm pipeline:stages=2,async=1
bundle tiled_async3 testdata/tiled_gemm.hip sgemm pipeline:stages=3,async=1
# The pipelined register-tiled kernel has 42 obligations: past the default
# 10000 ms of solver work per kernel (2.5 s wall with 40000).
bundle regtiled_reg2 testdata/register_tiled_gemm.hip sgemm_register_tiled pipeline:stages=2 \
  --time-limit-ms 40000
bundle regtiled_async2 testdata/register_tiled_gemm.hip sgemm_register_tiled \
  pipeline:stages=2,async=1 --time-limit-ms 40000
bundle hgemm_reg2 testdata/tiled_hgemm.hip hgemm pipeline:stages=2
bundle hgemm_reg3 testdata/tiled_hgemm.hip hgemm pipeline:stages=3
