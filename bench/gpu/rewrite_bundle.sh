# Sourced by pipeline_bundles.sh and rungs_bundles.sh (not run on its own):
# with `dir` (the bundles) and `src` (the rewritten sources) set, empties
# both and defines `bundle NAME FILE KERNEL REWRITES [rewrite options...]`,
# which rewrites FILE (verified; a rejected rewrite stops the caller, which
# runs with set -e) into $src/NAME.hip and bundles it at 4096^3 against
# FILE's unrewritten kernel as --reference into $dir/NAME. AVE as in
# make_bundles.sh.
ave=${AVE:-build/ave-rewrite}
rm -rf "$dir" "$src"
mkdir -p "$dir" "$src"
gemm=M=4096,N=4096,K=4096
bundle() {
  local name=$1 file=$2 kernel=$3 apply=$4
  shift 4
  "$ave" rewrite "$file" --apply "$apply" "$@" -o "$src/$name.hip" 2>"$src/$name.report"
  "$ave" harness "$src/$name.hip" --kernel "$kernel" --shape $gemm \
    --reference "$file" --reference-kernel "$kernel" -o "$dir/$name"
}
