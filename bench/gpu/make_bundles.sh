#!/usr/bin/env bash
# Writes the bench bundles measured on the H200 (bench/RESULTS.md) into
# DIR (default build/bundles) with the ave-rewrite at AVE (default
# build/ave-rewrite). Run from the repository root.
set -euo pipefail
ave=${AVE:-build/ave-rewrite}
dir=${1:-build/bundles}
rm -rf "$dir"
mkdir -p "$dir"
gemm=M=4096,N=4096,K=4096
small=M=2048,N=2048,K=2048
h() { "$ave" harness "$@"; }
h testdata/tiled_gemm.hip --kernel sgemm --shape $gemm -o "$dir/tiled_gemm"
h testdata/naive_gemm.hip --kernel naive_gemm --shape $gemm -o "$dir/naive_gemm"
# The pipelined rewrite against its original: both checked, timed interleaved.
h testdata/double_buffered_gemm.hip --kernel double_buffered_gemm --shape $gemm \
  --reference testdata/tiled_gemm.hip --reference-kernel sgemm -o "$dir/double_buffered_gemm"
h testdata/transpose_lds.hip --kernel transpose_lds --shape R=8192,C=8192 -o "$dir/transpose_lds"
h testdata/transpose_swizzle.hip --kernel transpose_swizzle --shape R=8192,C=8192 \
  --reference testdata/transpose_lds.hip --reference-kernel transpose_lds \
  -o "$dir/transpose_swizzle"
h testdata/block_reduce.hip --kernel block_reduce --shape R=8192,C=16384 -o "$dir/block_reduce"
# Y = alpha * X: alpha = 1.5 is passed to the kernel and scales the reference.
h testdata/vector_scale.hip --kernel vector_scale --shape R=8192,C=16384 \
  --param alpha=1.5 --scales-output alpha -o "$dir/vector_scale"
# f16 inputs, f32 output through mma.sync: anchor cublasGemmEx f16->f32.
h testdata/mma_sync_tile.hip --kernel mma_sync_tile --shape $gemm -o "$dir/mma_sync_tile"
# softmax(scale * Q K^T) V, scale = 1/sqrt(64): anchor PyTorch SDPA (run.sh).
h testdata/attention_fwd.hip --kernel attention_fwd --shape B=4,H=16,N=2048 \
  --einsum attention --param scale=0.125 --score-scale scale -o "$dir/attention_fwd"
# Issue 20: a candidate whose launch differs from its reference's in block
# and grid (block(256), 64x64 tiles against block(16, 16), 16x16 tiles), and
# the same candidate against a reference that faults (an illegal address).
h testdata/register_tiled_gemm.hip --kernel sgemm_register_tiled --shape $gemm \
  --reference testdata/tiled_gemm.hip --reference-kernel sgemm -o "$dir/register_tiled_gemm"
h testdata/register_tiled_gemm.hip --kernel sgemm_register_tiled --shape $gemm \
  --reference bench/gpu/planted/faulting_reference.hip --reference-kernel sgemm \
  -o "$dir/faulting_reference"
for planted in returns_zeros writes_input caches_output; do
  h bench/gpu/planted/$planted.hip --kernel sgemm --shape $small -o "$dir/planted_$planted"
done
