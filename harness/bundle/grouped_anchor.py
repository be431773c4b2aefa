#!/usr/bin/env python3
"""The grouped-GEMM anchor of an ave-rewrite bench bundle (a MoE expert GEMM).

run.sh runs this after ./bench when `python3 -c 'import torch'` works:

    python3 grouped_anchor.py result.json grouped_gemm.json

grouped_gemm.json (written by `ave-rewrite harness`) gives the timed shape's
routed rows, groups (experts), k and n. The anchor is the usual way to run
such a layer without a fused kernel: the rows already gathered and sorted by
group, one library GEMM per group (torch.mm, cuBLAS on NVIDIA), group sizes
drawn as the bench draws them (uniform group ids, sorted; in runs of `run`
rows where the router pads each group to whole blocks). Gathering the rows
and scattering the results are not timed, which favours the anchor. It is
timed the way the bench timed the kernel (anchor_common.py), its output is
checked against float64 on the largest group, and the fields are added to
the same JSON.

Exit code: 0 the anchor was written (or the kernel was not timed, which the
JSON then says), 2 it could not run.
"""

import argparse
import json
import sys

from anchor_common import (DTYPES, cuda_torch, record_anchor, seeded_generator, time_runs,
                           uniform, write)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", help="the bench's result.json, updated in place")
    parser.add_argument("problem", help="grouped_gemm.json of the bundle")
    args = parser.parse_args()
    with open(args.result) as f:
        result = json.load(f)
    with open(args.problem) as f:
        problem = json.load(f)
    torch, status = cuda_torch(args.result, result, "grouped GEMM anchor")
    if torch is None:
        return status

    rows, groups, k, n = (int(problem[key]) for key in ("rows", "groups", "k", "n"))
    run = int(problem.get("run", 1))
    dtype = getattr(torch, DTYPES[problem["dtype"]])
    generator = seeded_generator(torch, result)
    runs = (rows + run - 1) // run
    ids = torch.randint(0, groups, (runs,), device="cuda", generator=generator)
    ids = ids.repeat_interleave(run)[:rows]
    counts = torch.bincount(ids, minlength=groups).tolist()
    offsets = [0]
    for count in counts:
        offsets.append(offsets[-1] + count)
    a = uniform(torch, (rows, k), dtype, generator)
    b = uniform(torch, (groups, k, n), dtype, generator)
    c = torch.empty((rows, n), dtype=dtype, device="cuda")
    segments = [(g, offsets[g], offsets[g + 1]) for g in range(groups) if counts[g] > 0]

    def grouped():
        for g, first, last in segments:
            torch.mm(a[first:last], b[g], out=c[first:last])

    grouped()
    largest = max(range(groups), key=lambda g: counts[g])
    first, last = offsets[largest], offsets[largest + 1]
    want = a[first:last].double() @ b[largest].double()
    error = float((c[first:last].double() - want).norm() / want.norm())

    what = "torch.mm per group, %d groups (torch %s)" % (len(segments), torch.__version__)
    stats = time_runs(torch, result, what, grouped)
    record_anchor(result, stats, {
        "anchor_check": {
            "compared": "the largest group (%d rows) against float64" % counts[largest],
            "norm_rel_error": error,
        },
        "anchor_groups": {"rows": rows, "groups": groups, "k": k, "n": n,
                          "largest": counts[largest], "smallest": min(counts)},
    })
    write(args.result, result)
    print(
        "grouped_anchor: %s median %.4f ms (IQR/median %.3f, %d runs); kernel at %.1f %% of the "
        "grouped GEMM; anchor error vs float64 %.3g"
        % (what, stats["median_ms"], stats["iqr_over_median"], stats["runs"],
           100.0 * result["anchor_ratio"], error)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
