#!/usr/bin/env bash
# Runs a testdata kernel and its mutants through bench bundles built for the
# CPU executor (`ave-rewrite harness`, then ./build.sh --cpu and ./bench):
# the kernel must pass against its tags' einsum (or attention) at two small
# shapes, and every tag-mismatch and reduction-coverage mutant of it
# (testdata/README.md) must be rejected. The bundles are built with the
# executor's race check (AVE_CPU_RACES=1, ave_cpu/race_check.h; the default
# when the compiler is clang): the kernel must run without a data race on
# shared memory, and each lds-race mutant must fail with one. With
# AVE_CPU_RACES=0 (or g++) lds-race mutants are not judged: a race need not
# change the output of one run.
#
#   cpu_bundles.sh list SRC                 the kernel stems of SRC/testdata
#   cpu_bundles.sh spec STEM                kernel, wave size, ARCH, harness
#                                           arguments, one per line
#   cpu_bundles.sh family STEM SRC AVE WORK one kernel and its mutants
#
# A mutant is one line of code changed, never its annotations, so it runs in
# its kernel's bundle with the kernel source replaced: build.sh --cpu then
# recompiles only the launcher (cpu-obj/*.d). The executor's own objects
# depend only on the static bundle files, identical in every bundle, and are
# built once per WORK and ARCH and shared. CPU_BUNDLES_KEEP=1 keeps WORK/STEM.
set -uo pipefail

# stem -> kernel name, harness arguments, wave size, ARCH. The shapes give
# every grid dimension a different size, and more than one tile along each
# dimension a tile is over, so that swapped block ids and a mis-stepped tile
# origin change the output (the bundle checks an odd-multiple shape too).
spec() {
  wave=64 arch="" file=$1
  case $1 in
    naive_gemm) kernel=naive_gemm args=(--shape M=32,N=48,K=24) ;;
    tiled_gemm) kernel=sgemm args=(--shape M=32,N=48,K=64) ;;
    tiled_hgemm) kernel=hgemm args=(--shape M=32,N=48,K=64) ;;
    tiled_hgemm_32) kernel=hgemm32 args=(--shape M=128,N=256,K=64) ;; # sizes: multiples of 128
    double_buffered_gemm) kernel=double_buffered_gemm args=(--shape M=32,N=48,K=64) ;;
    register_tiled_gemm) kernel=sgemm_register_tiled args=(--shape M=192,N=128,K=32) ;; # 3 row tiles
    transpose_lds) kernel=transpose_lds args=(--shape R=64,C=96) ;;
    transpose_swizzle) kernel=transpose_swizzle args=(--shape R=64,C=96) ;;
    block_reduce) kernel=block_reduce args=(--shape R=4,C=1024) ;;
    vector_scale)
      kernel=vector_scale args=(--shape R=4,C=512 --param alpha=1.5 --scales-output alpha) ;;
    mma_sync_tile) kernel=mma_sync_tile args=(--shape M=48,N=16,K=32) wave=32 ;; # NVIDIA warp
    ldmatrix_tile) kernel=ldmatrix_tile args=(--shape M=48,N=16,K=32) wave=32 ;; # ldmatrix
    attention_fwd)
      kernel=attention_fwd
      args=(--shape B=2,H=2,N=192 --einsum attention --param scale=0.125 --score-scale scale) ;;
    splitk_gemm) kernel=splitk_gemm args=(--shape M=32,N=48,K=64) ;; # C zeroed: assume tag(C) == 0
    mfma_f16_tile) kernel=mfma_f16_tile args=(--shape M=48,N=32,K=32) arch=gfx942 ;; # AMD wave
    # Routed: the reference reads the kernel's index arrays (--route).
    moe/moe_top1)
      kernel=moe_top1
      args=(--shape R=64,T=64,E=4,K=32,N=48 --route 't=tok[r]' --route 'x=ex[r]') ;;
    moe/moe_topk)
      kernel=moe_topk_gemm
      args=(--shape S=64,T=32,E=4,K=32,N=48 --route 's=sid[r]' --route 't=sid[r] / 2'
            --route 'x=ex[r]') ;;
    moe/moe_topk_combine) file=moe/moe_topk kernel=moe_topk_combine args=(--shape T=6,N=128) ;;
    moe/moe_grouped) # 128-row blocks, one expert each (blockwise): three row blocks
      kernel=moe_grouped
      args=(--shape R=384,T=384,E=4,K=16,N=256 --route 't=tok[r]' --route 'x=ex[r]') ;;
    *) return 1 ;;
  esac
}

if [ "${1:-}" = list ]; then
  for path in "${2:?usage: cpu_bundles.sh list SRC}"/testdata/*.hip; do basename "$path" .hip; done
  exit 0
fi
if [ "${1:-}" = spec ]; then
  spec "${2:?usage: cpu_bundles.sh spec STEM}" || { echo "no spec for $2" >&2; exit 1; }
  printf '%s\n' "$kernel" "$wave" "$arch" "${args[@]}"
  exit 0
fi
[ "${1:-}" = family ] && [ $# -eq 5 ] || {
  echo "usage: cpu_bundles.sh list SRC | spec STEM | family STEM SRC AVE WORK" >&2
  exit 2
}
stem=$2 src=$3 ave=$4 work=$5
if ! spec "$stem"; then
  echo "cpu_bundles.sh: no CPU bundle spec for testdata/$stem.hip: add one to spec()" >&2
  exit 1
fi
export AVE_CPU_WAVE_SIZE=$wave AVE_CPU_QUIET=1 ARCH=$arch
if [ -z "${AVE_CPU_RACES:-}" ]; then
  AVE_CPU_RACES=0
  "${CXX:-clang++-19}" --version 2>/dev/null | grep -q clang && AVE_CPU_RACES=1
fi
export AVE_CPU_RACES
dir=$work/${stem//\//_}
rm -rf "$dir"
mkdir -p "$dir" "$work/shared"
bundle=$dir/bundle
"$ave" harness "$src/testdata/$file.hip" --kernel "$kernel" "${args[@]}" -o "$bundle" >/dev/null ||
  { echo "FAIL $stem: ave-rewrite harness"; exit 1; }

# The executor's objects: reuse the shared ones, or build them here and share.
shared=$work/shared/${arch:-generic}
build() { # bundle-dir log
  (cd "$1" && ./build.sh --cpu >"$2" 2>&1) || { echo "build failed:"; tail -30 "$2"; return 1; }
}
{
  flock 9
  if [ -f "$shared/ave_cpu_runtime.o" ]; then
    mkdir -p "$bundle/cpu-obj"
    cp "$shared"/* "$bundle/cpu-obj/"
    touch "$bundle"/cpu-obj/*.o
    build "$bundle" "$dir/build.log" || exit 1
  else
    build "$bundle" "$dir/build.log" || exit 1
    mkdir -p "$shared"
    cp "$bundle"/cpu-obj/{ave_cpu_runtime,anchor_none}.{o,d} "$bundle/cpu-obj/flags" "$shared/"
  fi
} 9>"$work/shared/${arch:-generic}.lock"

failures=0
run() { # bundle-dir label expected-exit
  local out rc verdict
  out=$(cd "$1" && ./bench --seed 20261130 --trials 1 --out result.json 2>&1)
  rc=$?
  verdict=$(printf '%s\n' "$out" | grep '^bench: .* \(pass\|rejected\)' | head -1)
  if [ "$rc" = "$3" ]; then
    printf 'ok    %-58s rc=%d %s\n' "$2" "$rc" "$verdict"
  else
    printf 'FAIL  %-58s rc=%d (expected %s) %s\n' "$2" "$rc" "$3" "$verdict"
    printf '%s\n' "$out" | tail -8
    failures=$((failures + 1))
  fi
}
run "$bundle" "$stem" 0

# Each mutant replaces the kernel source in place (build.sh --cpu then
# recompiles only the launcher); the original comes back at the end.
candidate=$(ls "$bundle"/kernel/candidate/*.hip | head -1)
cp -p "$candidate" "$dir/original.hip"
for mutant in "$src/testdata/mutants/${file##*/}"/*.hip; do
  [ -f "$mutant" ] || continue
  name=${file##*/}/$(basename "$mutant" .hip)
  expect=$(sed -n 's,^// EXPECT: \([a-z-]*\) line .*,\1,p' "$mutant")
  # A file of several kernels: the mutant's line is in the kernel whose
  # definition starts last before it; another stem's bundle runs that one.
  line=$(sed -n 's,^// EXPECT: [a-z-]* line \([0-9]*\).*,\1,p' "$mutant")
  owner=$(head -n "${line:-1}" "$mutant" | grep -o '__global__ void [A-Za-z_0-9]*' | tail -1)
  if [ -n "$owner" ] && [ "${owner##* }" != "$kernel" ]; then
    printf 'other %-58s (in %s)\n' "$name" "${owner##* }"
    continue
  fi
  case $expect in
    tag-mismatch | reduction-coverage) expected=1 ;;
    lds-race)
      [ "$AVE_CPU_RACES" = 1 ] || { printf 'skip  %-58s (lds-race: not judged)\n' "$name"; continue; }
      expected=1 ;;
    *) echo "FAIL $name: no EXPECT line"; failures=$((failures + 1)); continue ;;
  esac
  cp "$mutant" "$candidate"
  if build "$bundle" "$dir/mutant-build.log"; then
    run "$bundle" "$name ($expect)" "$expected"
  else
    echo "FAIL $name: build"
    failures=$((failures + 1))
  fi
done
cp "$dir/original.hip" "$candidate"
echo "$stem: $failures failure(s)"
[ "$failures" -eq 0 ]
