#!/usr/bin/env bash
# The grouped MoE bundles of issue 19 (from the repo root): the
# register-tiled testdata/moe/moe_grouped.hip at R=T=8192, E=8, K=N=4096
# (fp32, 128-row blocks of one expert), alone and after each verified
# rewrite, the rewritten ones with the original as --reference (timed
# interleaved in one process). Run them with
# `BUNDLES=build/bundles-moeg OUT=... bash bench/gpu/attention_run.sh`; each
# run.sh adds the grouped-GEMM anchor (torch.mm per expert, groups drawn in
# runs of 128 rows as the bench draws them).
set -eu
ave=${AVE:-build/ave-rewrite}
dir=${DIR:-build/bundles-moeg}
src=$dir.src
file=testdata/moe/moe_grouped.hip
shape=R=8192,T=8192,E=8,K=4096,N=4096
routes=(--route 't=tok[r]' --route 'x=ex[r]')
rm -rf "$dir" "$src"
mkdir -p "$dir" "$src"
"$ave" harness "$file" --kernel moe_grouped --shape $shape "${routes[@]}" -o "$dir/moe_grouped"
variant() { # name rewrites
  "$ave" rewrite "$file" --apply "$2" -o "$src/$1.hip" >"$src/$1.report" 2>&1
  "$ave" harness "$src/$1.hip" --kernel moe_grouped --shape $shape "${routes[@]}" \
    --reference "$file" --reference-kernel moe_grouped -o "$dir/$1"
}
variant moe_grouped_vec 'vectorize:where=all:width=4'
variant moe_grouped_pipe 'pipeline:stages=2'
variant moe_grouped_pad 'lds-pad:pad=auto'
variant moe_grouped_vec_pad 'vectorize:where=all:width=4,lds-pad:pad=auto'
