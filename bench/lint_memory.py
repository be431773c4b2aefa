#!/usr/bin/env python3
"""Peak memory of `ave-rewrite lint` over one generated file of N kernels
(issue 12: lint kept about 20 MB per kernel and never freed it; 400 kernels
took more than 7.6 GB). Each kernel is testdata/transpose_lds.hip's, renamed:
annotated, proven, with shared memory, so every ave-* check analyses it.
Goal: peak RSS flat, at 2,000 kernels at most 1.5x the 10-kernel file's.

  bench/lint_memory.py [BUILD_DIR] [--kernels 10,100,500,2000] [--out FILE]
                       [--max-ratio 1.5]

Writes bench/results/lint-memory.json (peak RSS from the child's rusage) and
exits 1 when the largest file's peak is over --max-ratio times the
smallest's. CI runs it small (4 and 40 kernels) as a regression test.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KERNEL = """
__global__ void transpose_%(n)d(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                              float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R %% 32 == 0 && C %% 32 == 0 && R >= 32 && C >= 32 && R <= 32768 && C <= 32768
  __shared__ float tile[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * 32 + ty;
  int c = blockIdx.x * 32 + tx;
  tile[ty][tx] = in[r * C + c];
  __syncthreads();
  int out_c = blockIdx.x * 32 + ty;
  int out_r = blockIdx.y * 32 + tx;
  float v = tile[tx][ty];
#pragma ave assert tag(v) == X(out_r, out_c)
  out[out_c * R + out_r] = v;
}
"""


def generate(path, count):
    with open(path, "w") as f:
        f.write("#include <ave/annotations.h>\n#include <hip/hip_runtime.h>\n")
        for n in range(count):
            f.write(KERNEL % {"n": n})


def measure(ave, path):
    """Runs lint on path alone in a fresh child; returns (seconds, peak MiB, summary)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    proc = subprocess.run([ave, "--color=never", "lint", "--checks=-*,ave-*", path],
                          capture_output=True, text=True)
    seconds = time.monotonic() - start
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if proc.returncode != 0:
        sys.exit("lint failed (%d):\n%s" % (proc.returncode, proc.stderr[-2000:]))
    if peak_kib < before:
        sys.exit("rusage went backwards")
    summary = proc.stderr.strip().splitlines()[-1]
    return seconds, peak_kib / 1024.0, summary


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    parser.add_argument("--kernels", default="10,100,500,2000")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "lint-memory.json"))
    parser.add_argument("--max-ratio", type=float, default=1.5)
    args = parser.parse_args()
    ave = os.path.join(args.build, "ave-rewrite")
    counts = sorted(int(c) for c in args.kernels.split(","))

    rows = []
    with tempfile.TemporaryDirectory(prefix="ave-lint-memory") as tmp:
        for count in counts:
            path = os.path.join(tmp, "kernels_%d.hip" % count)
            generate(path, count)
            # RUSAGE_CHILDREN's maxrss is the largest child so far: runs go
            # from the smallest file up, so each reading is that run's peak.
            seconds, peak, summary = measure(ave, path)
            rows.append({"kernels": count, "file_bytes": os.path.getsize(path),
                         "peak_rss_mib": round(peak, 1), "seconds": round(seconds, 2),
                         "summary": summary})
            print("%5d kernels: %8.1f MiB peak, %7.2f s  (%s)" % (count, peak, seconds, summary))
    ratio = rows[-1]["peak_rss_mib"] / rows[0]["peak_rss_mib"]
    doc = {"command": "bench/lint_memory.py --kernels " + args.kernels,
           "lint": "ave-rewrite lint --checks=-*,ave-* FILE (one file of N kernels)",
           "cores": os.cpu_count(), "runs": rows,
           "largest_over_smallest": round(ratio, 3), "goal": "<= %g" % args.max_ratio}
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("peak RSS, %d over %d kernels: %.2fx (goal <= %gx)"
          % (counts[-1], counts[0], ratio, args.max_ratio))
    return 0 if ratio <= args.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
