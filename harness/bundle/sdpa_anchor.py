#!/usr/bin/env python3
"""The PyTorch SDPA anchor of an ave-rewrite attention bench bundle.

run.sh runs this after ./bench when `python3 -c 'import torch'` works:

    python3 sdpa_anchor.py result.json

It reads the bench's result (the timed shape, the score scale, the number of
warm-up and timed runs), times torch.nn.functional.scaled_dot_product_attention
on the same shape and dtype the way the bench timed the kernel (warm-up, the L2
flushed before each run, CUDA events around each run, the median of at least 10
runs), checks SDPA's output on the first batch element against float64, and
writes the anchor fields into the same JSON. SDPA runs in this process after
the bench, so unlike the BLAS anchor it is not interleaved with the kernel.

Exit code: 0 the anchor was written (or the kernel was not timed, which the
JSON then says), 2 it could not run.
"""

import argparse
import json
import sys
import warnings

from anchor_common import (DTYPES, cuda_torch, record_anchor, seeded_generator, time_runs,
                           uniform, write)


def supported_backends(torch, functional, q, k, v, scale, causal):
    """The SDPA backends that accept these inputs (the default dispatch takes the
    first of flash, efficient, cudnn, math that does)."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return None
    names = []
    for backend in ("FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION", "MATH"):
        if not hasattr(SDPBackend, backend):
            continue
        # A refused backend warns why before it raises; the list says enough.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                with sdpa_kernel([getattr(SDPBackend, backend)]):
                    functional.scaled_dot_product_attention(
                        q[:1], k[:1], v[:1], scale=scale, is_causal=causal)
                torch.cuda.synchronize()
                names.append(backend.lower())
            except RuntimeError:
                continue
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", help="the bench's result.json, updated in place")
    args = parser.parse_args()
    with open(args.result) as f:
        result = json.load(f)
    attention = result.get("attention")
    if not attention:
        print("sdpa_anchor: %s describes no attention kernel" % args.result, file=sys.stderr)
        return 2
    torch, status = cuda_torch(args.result, result, "PyTorch SDPA")
    if torch is None:
        return status
    import torch.nn.functional as functional

    dtype = getattr(torch, DTYPES[result["dtype"]])
    batch = attention["batch"] or [1]
    scale = attention["scale"]
    causal = bool(attention.get("causal", False))
    generator = seeded_generator(torch, result)
    q = uniform(torch, (*batch, attention["queries"], attention["head_dim"]), dtype, generator)
    k = uniform(torch, (*batch, attention["keys"], attention["head_dim"]), dtype, generator)
    v = uniform(torch, (*batch, attention["keys"], attention["value_dim"]), dtype, generator)

    def sdpa():
        return functional.scaled_dot_product_attention(q, k, v, scale=scale, is_causal=causal)

    # The anchor must compute the same function: first batch element in float64.
    got = sdpa()
    first = (0,) * len(batch)
    q64, k64, v64 = (t[first].double() for t in (q, k, v))
    scores = (q64 @ k64.transpose(-1, -2)) * scale
    if causal:  # query i sees keys j <= i (top-left aligned, as is_causal)
        keep = torch.ones(scores.shape[-2:], dtype=torch.bool, device=scores.device).tril()
        scores = scores.masked_fill(~keep, float("-inf"))
    want = torch.softmax(scores, dim=-1) @ v64
    error = (got[first].double() - want).norm() / want.norm()
    del got, q64, k64, v64, want

    what = "torch.nn.functional.scaled_dot_product_attention (torch %s)" % torch.__version__
    stats = time_runs(torch, result, what, sdpa)
    median, runs = stats["median_ms"], stats["runs"]
    record_anchor(result, stats, {
        "anchor_check": {
            "compared": "first batch element against float64 softmax(Q K^T * scale"
            + (", keys j <= query i" if causal else "") + ") V",
            "norm_rel_error": float(error),
        },
        "anchor_backends_supported": supported_backends(torch, functional, q, k, v, scale, causal),
    })
    write(args.result, result)
    print(
        "sdpa_anchor: %s median %.4f ms (IQR/median %.3f, %d runs); kernel at %.1f %% of SDPA; "
        "SDPA error vs float64 %.3g"
        % (what, median, stats["iqr_over_median"], runs, 100.0 * result["anchor_ratio"], error)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
