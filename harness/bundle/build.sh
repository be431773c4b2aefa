#!/usr/bin/env bash
# Builds ./bench from this bundle with nvcc (NVIDIA, through the HIP-on-CUDA
# headers in include/hip_on_cuda), hipcc (AMD, the real HIP headers), or for
# the CPU executor (include/hip_on_cpu: host C++, no GPU needed).
#   ./build.sh [nvcc|hipcc|--cpu]  default: nvcc if found, else hipcc
#   ARCH=sm_90 / ARCH=gfx942       target (defaults: sm_90, gfx942); with
#                                  --cpu, ARCH=gfx942 builds the AMD device
#                                  personality (__AMDGCN__, MFMA builtins)
#   NVCC=/path/nvcc HIPCC=/path/hipcc CXX=host-compiler (--cpu)
# A --cpu build checks the kernel against the reference on the host; it has
# no vendor BLAS anchor and makes no timing claims (./bench implies
# --skip-timing). Its run-time settings (wave size 32 or 64, block order,
# watchdog) are the executor's environment variables (runtime/README.md).
set -euo pipefail
cd "$(dirname "$0")"
compiler=${1:-}
if [ -z "$compiler" ]; then
  if command -v "${NVCC:-nvcc}" >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    compiler=nvcc
  elif command -v "${HIPCC:-hipcc}" >/dev/null 2>&1; then
    compiler=hipcc
  else
    echo "build.sh: neither nvcc nor hipcc found (./build.sh --cpu builds for the CPU executor)" >&2
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
  cpu | --cpu)
    # ave-cpu-c++ adds the executor's headers and handles extern __shared__.
    # The executor's implementation is one translation unit of its own; the
    # others parse only its light headers. Objects go to cpu-obj/.
    cxx=include/hip_on_cpu/ave-cpu-c++
    flags=(-fno-strict-aliasing -I include -I .)
    [ "${ARCH:-}" = gfx942 ] && flags+=(-DAVE_CPU_ARCH_GFX942)
    mkdir -p cpu-obj
    units=(include/hip_on_cpu/ave_cpu_runtime.cpp driver_main.hip ground_truth.hip
      launch_candidate.hip anchor_none.cpp)
    [ -f launch_reference.hip ] && units+=(launch_reference.hip)
    pids=()
    for unit in "${units[@]}"; do
      stem=$(basename "${unit%.*}")
      # Kernels and the executor at -O1; the host-side glue needs no speed.
      extra=(-O1)
      case $stem in driver_main | anchor_none) extra=(-O0) ;; esac
      [ "$stem" = ave_cpu_runtime ] || extra+=(-DAVE_CPU_DECLARATIONS_ONLY)
      "$cxx" "${flags[@]}" "${extra[@]}" -c "$unit" -o "cpu-obj/$stem.o" &
      pids+=($!)
    done
    status=0
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    [ "$status" = 0 ] || exit 1
    objects=()
    for unit in "${units[@]}"; do objects+=("cpu-obj/$(basename "${unit%.*}").o"); done
    "$cxx" "${objects[@]}" -o bench
    ;;
  *)
    echo "build.sh: unknown compiler '$compiler' (nvcc, hipcc or --cpu)" >&2
    exit 2
    ;;
esac
echo "built $(pwd)/bench with $compiler"
