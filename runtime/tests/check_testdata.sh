#!/usr/bin/env bash
# Builds runtime/tests/testdata_check.hip once per testdata kernel and mutant
# (all but the AMD-only MFMA ones) with nvcc, then, with --run, runs each on
# the local NVIDIA GPU. A kernel must print MATCH; a tag-mismatch or
# reduction-coverage mutant must not (its bug changes the result). lds-race
# mutants are reported but not judged: a race may or may not show on a run.
#   runtime/tests/check_testdata.sh BUILD_DIR [--run]     (from the repo root)
set -u
build=${1:?usage: check_testdata.sh BUILD_DIR [--run]}
mode=${2:-build}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$build"

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
    "$nvcc" -x cu -arch=sm_90 -O2 -I runtime/include/ave/hip_on_cuda -I annotations/include -I . \
      -DKERNEL_FILE="\"$file\"" -DKERNEL="$kernel" -D"$shape" \
      runtime/tests/testdata_check.hip -o "$binary" || { echo "BUILD FAILED $file"; failures=$((failures + 1)); }
    continue
  fi
  expect=$(sed -n 's,^// EXPECT: \([a-z-]*\) line .*,\1,p' "$file")
  output=$("$binary" 2>&1)
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
