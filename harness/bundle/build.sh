#!/usr/bin/env bash
# Builds ./bench from this bundle with nvcc (NVIDIA, through the HIP-on-CUDA
# headers in include/hip_on_cuda) or hipcc (AMD, the real HIP headers).
#   ./build.sh [nvcc|hipcc]       default: nvcc if found, else hipcc
#   ARCH=sm_90 / ARCH=gfx942      target (defaults: sm_90, gfx942)
#   NVCC=/path/nvcc HIPCC=/path/hipcc
set -euo pipefail
cd "$(dirname "$0")"
compiler=${1:-}
if [ -z "$compiler" ]; then
  if command -v "${NVCC:-nvcc}" >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    compiler=nvcc
  elif command -v "${HIPCC:-hipcc}" >/dev/null 2>&1; then
    compiler=hipcc
  else
    echo "build.sh: neither nvcc nor hipcc found" >&2
    exit 2
  fi
fi
sources=(driver_main.hip ground_truth.hip launch_candidate.hip anchor_blas.cpp)
[ -f launch_reference.hip ] && sources+=(launch_reference.hip)
case $compiler in
  nvcc)
    nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    # -x cu: .hip and .cpp alike are CUDA sources here.
    "$nvcc" -std=c++17 -O3 -arch="${ARCH:-sm_90}" -x cu -I include/hip_on_cuda -I include -I . \
      "${sources[@]}" -lcublas -o bench
    ;;
  hipcc)
    "${HIPCC:-hipcc}" -std=c++17 -O3 --offload-arch="${ARCH:-gfx942}" -x hip -I include -I . \
      "${sources[@]}" -lhipblas -o bench
    ;;
  *)
    echo "build.sh: unknown compiler '$compiler' (nvcc or hipcc)" >&2
    exit 2
    ;;
esac
echo "built $(pwd)/bench with $compiler"
