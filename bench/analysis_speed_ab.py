"""Analysis time of two builds of ave-rewrite, measured alternately in one run
(so that the machine's load falls on both alike): `check --format json` per
kernel, the analysis_ms each kernel reports (interpretation + solving, the
front end excluded), ROUNDS rounds of one run per binary and kernel.
Medians, and each median's ratio to the first binary's. Writes a JSON result.

Usage: python3 bench/analysis_speed_ab.py OLD_BINARY NEW_BINARY
           [--kernels a,b] [--rounds 15] [-o bench/results/analysis-speed-ab.json]
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess

DEFAULT_KERNELS = "double_buffered_gemm,attention_fwd,tiled_gemm,transpose_lds"


def analysis_ms(binary, path):
    """The summed analysis_ms of every kernel in the file, or None."""
    proc = subprocess.run([binary, "check", path, "--format", "json"], capture_output=True,
                          text=True)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None
    return sum(k.get("analysis_ms", 0.0) for k in report.get("kernels", []))


def commit_of(binary):
    root = os.path.dirname(os.path.dirname(os.path.abspath(binary)))
    proc = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return proc.stdout.strip() or binary


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--kernels", default=DEFAULT_KERNELS)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("-o", "--output", default="bench/results/analysis-speed-ab.json")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    names = {"old": commit_of(args.old), "new": commit_of(args.new)}
    rows = []
    for kernel in args.kernels.split(","):
        path = os.path.join(root, "testdata", kernel + ".hip")
        times = {"old": [], "new": []}
        for _ in range(args.rounds):
            for which, binary in (("old", args.old), ("new", args.new)):
                ms = analysis_ms(binary, path)
                if ms is not None:
                    times[which].append(ms)
        medians = {w: round(statistics.median(t), 1) for w, t in times.items() if t}
        row = {"kernel": kernel,
               "median_analysis_ms": {names[w]: m for w, m in medians.items()},
               "ratio_new_to_old": round(medians["new"] / medians["old"], 2)
               if "old" in medians and "new" in medians and medians["old"] else None,
               "min_max_new": [round(min(times["new"]), 1), round(max(times["new"]), 1)]
               if times["new"] else None}
        rows.append(row)
        print(f"{kernel:22s} {names['old']}: {medians.get('old')} ms  "
              f"{names['new']}: {medians.get('new')} ms  ratio {row['ratio_new_to_old']}")
    result = {"command": "python3 bench/analysis_speed_ab.py " + " ".join(
                  [args.old, args.new, "--kernels", args.kernels, "--rounds", str(args.rounds)]),
              "what": "analysis_ms of `check --format json`, the two builds alternately",
              "machine": platform.machine() + " " + str(os.cpu_count()) + " cores",
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
              "kernels": rows}
    with open(args.output, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
