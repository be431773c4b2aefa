"""Speed of the tool itself: wall time of `kernels` (parse + kernel model) and
of `check` (parse + analysis + solving) per testdata kernel, and the
analysis-only time `check` reports. Medians of N runs. Writes a JSON result.

Usage: python3 bench/tool_speed.py build/ave-rewrite [--runs 5] [--only a,b] [-o bench/results/tool-speed.json]
(a file of several kernels: analysis_ms is per kernel, the largest of them)
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import time

KERNELS = ["naive_gemm", "tiled_gemm", "double_buffered_gemm", "transpose_lds",
           "transpose_swizzle", "block_reduce", "mfma_f16_tile", "vector_scale",
           "mma_sync_tile", "attention_fwd", "moe/moe_top1", "moe/moe_topk", "moe/moe_grouped",
           "attention/flash_fwd_f16"]


def wall(cmd):
    """Wall seconds, standard output and peak resident memory (MiB) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, out, usage.ru_maxrss / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated KERNELS entries")
    ap.add_argument("-o", "--output", default="bench/results/tool-speed.json")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rows = []
    for k in KERNELS:
        if args.only and k not in args.only.split(","):
            continue
        path = os.path.join(root, "testdata", k + ".hip")
        kernels_s, check_s, analysis_ms, peak_mib = [], [], [], []
        for _ in range(args.runs):
            t, _, _ = wall([args.binary, "kernels", path, "--format", "json"])
            kernels_s.append(t)
            t, out, rss = wall([args.binary, "check", path, "--format", "json"])
            check_s.append(t)
            peak_mib.append(rss)
            doc = json.loads(out)
            analysis_ms.append(max(x["analysis_ms"] for x in doc["kernels"]))
        rows.append({
            "kernel": k,
            "kernels_wall_s_median": round(statistics.median(kernels_s), 3),
            "check_wall_s_median": round(statistics.median(check_s), 3),
            "analysis_ms_median": round(statistics.median(analysis_ms), 1),
            "check_peak_rss_mib": round(max(peak_mib), 1),
        })
        print(f"{k:22s} kernels {rows[-1]['kernels_wall_s_median']:.3f} s  "
              f"check {rows[-1]['check_wall_s_median']:.3f} s  "
              f"analysis {rows[-1]['analysis_ms_median']:.1f} ms  "
              f"peak {rows[-1]['check_peak_rss_mib']:.0f} MiB")
    result = {
        "command": f"python3 bench/tool_speed.py {args.binary} --runs {args.runs}"
                   + (f" --only {args.only}" if args.only else ""),
        "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cores",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "runs": args.runs,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "kernels": rows,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
