#!/usr/bin/env bash
# Builds runtime/tests/testdata_check.hip once per testdata kernel and mutant
# (all but the AMD-only MFMA ones) with nvcc, then, with --run, runs each on
# the local NVIDIA GPU. A kernel must print MATCH; a tag-mismatch or
# reduction-coverage mutant must not (its bug changes the result). lds-race
# mutants are reported but not judged: a race may or may not show on a run.
# With --cpu the same programs are built for the CPU executor
# (runtime/include/ave/hip_on_cpu, host compiler, no GPU) and run there; a
# mutant whose bug faults (an index past its buffer) fails its launch, which
# counts as a difference.
#   runtime/tests/check_testdata.sh BUILD_DIR [--run] [--cpu]   (from the repo root)
set -u
build=${1:?usage: check_testdata.sh BUILD_DIR [--run] [--cpu]}
shift
mode=build cpu=0
for option in "$@"; do
  case $option in
    --run) mode=--run ;;
    --cpu) cpu=1 ;;
    *) echo "check_testdata.sh: unknown option '$option'" >&2; exit 2 ;;
  esac
done
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
cpucxx=runtime/include/ave/hip_on_cpu/ave-cpu-c++
mkdir -p "$build"
# The CPU executor's implementation, compiled once for every program.
if [ "$cpu" = 1 ] && [ "$mode" != --run ]; then
  "$cpucxx" -O1 -c runtime/include/ave/hip_on_cpu/ave_cpu_runtime.cpp -o "$build/ave_cpu_runtime.o" ||
    { echo "BUILD FAILED the CPU executor"; exit 1; }
fi

kernel_of() { # stem -> "kernel-function SHAPE"
  case $1 in
    naive_gemm) echo "naive_gemm SHAPE_GEMM" ;;
    tiled_gemm) echo "sgemm SHAPE_GEMM" ;;
    double_buffered_gemm) echo "double_buffered_gemm SHAPE_GEMM" ;;
    transpose_lds) echo "transpose_lds SHAPE_TRANSPOSE" ;;
    transpose_swizzle) echo "transpose_swizzle SHAPE_TRANSPOSE" ;;
    block_reduce) echo "block_reduce SHAPE_ROW_SUM" ;;
    *) echo "" ;;
  esac
}

failures=0
for file in testdata/*.hip testdata/mutants/*/*.hip; do
  case $file in
    testdata/mutants/*) stem=$(basename "$(dirname "$file")") ;;
    *) stem=$(basename "$file" .hip) ;;
  esac
  read -r kernel shape <<<"$(kernel_of "$stem")"
  [ -n "${kernel:-}" ] || continue
  binary=$build/$(echo "${file#testdata/}" | tr / _ | sed 's/\.hip$//')
  if [ "$mode" != --run ]; then
    if [ "$cpu" = 1 ]; then
      "$cpucxx" -O1 -DAVE_CPU_DECLARATIONS_ONLY -I annotations/include -I . \
        -DKERNEL_FILE="\"$file\"" -DKERNEL="$kernel" -D"$shape" \
        runtime/tests/testdata_check.hip "$build/ave_cpu_runtime.o" -o "$binary"
    else
      "$nvcc" -x cu -arch=sm_90 -O2 -I runtime/include/ave/hip_on_cuda -I annotations/include -I . \
        -DKERNEL_FILE="\"$file\"" -DKERNEL="$kernel" -D"$shape" \
        runtime/tests/testdata_check.hip -o "$binary"
    fi || { echo "BUILD FAILED $file"; failures=$((failures + 1)); }
    continue
  fi
  expect=$(sed -n 's,^// EXPECT: \([a-z-]*\) line .*,\1,p' "$file")
  output=$(AVE_CPU_QUIET=1 "$binary" 2>&1)
  rc=$?
  case "${expect:-kernel}:$rc" in
    kernel:0 | tag-mismatch:1 | reduction-coverage:1) verdict=ok ;;
    lds-race:0 | lds-race:1) verdict="ok (race: not judged)" ;;
    *) verdict=FAIL; failures=$((failures + 1)) ;;
  esac
  printf '%-60s %-20s rc=%d %-22s %s\n' "$file" "${expect:-kernel}" "$rc" "$verdict" "$output"
done
echo "failures: $failures"
[ "$failures" -eq 0 ]
