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
# watchdog) are the executor's environment variables (runtime/README.md);
# AVE_CPU_RACES=1 at build time (--cpu, clang) makes a data race on shared
# memory fail the launch.
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
    # others parse only its light headers, after a header precompiled once
    # (with clang). Objects go to cpu-obj/ with the files each was built from
    # (cpu-obj/*.d): a unit none of whose files changed is not compiled again.
    cxx=include/hip_on_cpu/ave-cpu-c++
    flags=(-O1 -fno-strict-aliasing -I include -I .)
    [ "${ARCH:-}" = gfx942 ] && flags+=(-DAVE_CPU_ARCH_GFX942)
    mkdir -p cpu-obj
    # Objects built with other flags (another ARCH, or with or without
    # AVE_CPU_RACES=1: the race check on shared memory) are not reused.
    record="${flags[*]} races=${AVE_CPU_RACES:-0}"
    if [ "$(cat cpu-obj/flags 2>/dev/null)" != "$record" ]; then
      rm -f cpu-obj/*.o cpu-obj/*.d cpu-obj/*.pch
      echo "$record" >cpu-obj/flags
    fi
    # A precompiled header names the files it was built from by absolute
    # path: one made before the bundle moved is made again.
    if [ "$(cat cpu-obj/pch-dir 2>/dev/null)" != "$(pwd)" ]; then
      rm -f cpu-obj/common.h.pch cpu-obj/common.h.pch.d
      pwd >cpu-obj/pch-dir
    fi
    light=(-DAVE_CPU_DECLARATIONS_ONLY)
    # What the driver, ground truth and launchers all parse first.
    printf '%s\n' '#include <hip/hip_runtime.h>' '#include "ave_check.h"' '#include "ave_anchor.h"' \
      '#include <algorithm>' '#include <functional>' '#include <memory>' '#include <sstream>' \
      >cpu-obj/common.h.new
    cmp -s cpu-obj/common.h.new cpu-obj/common.h || mv cpu-obj/common.h.new cpu-obj/common.h
    rm -f cpu-obj/common.h.new
    "$cxx" "${flags[@]}" "${light[@]}" --make-pch cpu-obj/common.h
    units=(include/hip_on_cpu/ave_cpu_runtime.cpp driver_main.hip ground_truth.hip
      launch_candidate.hip anchor_none.cpp)
    [ -f launch_reference.hip ] && units+=(launch_reference.hip)
    pids=()
    for unit in "${units[@]}"; do
      stem=$(basename "${unit%.*}")
      extra=("${light[@]}" --pch cpu-obj/common.h)
      [ "$stem" = ave_cpu_runtime ] && extra=()
      "$cxx" "${flags[@]}" ${extra[@]+"${extra[@]}"} --incremental -MMD -MF "cpu-obj/$stem.d" \
        -c "$unit" -o "cpu-obj/$stem.o" &
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
