#!/usr/bin/env python3
"""How many Z3 resource units a millisecond of solving is on this machine.

`check`'s budgets (--z3-timeout-ms, --time-limit-ms) are spent as Z3 work,
ObligationSolver::WorkPerMs units to the millisecond, so that verdicts do not
depend on the machine's load. This measures the ratio on the obligations of
testdata/ that take long enough for it to mean something, once idle and once
with every core kept busy by spinning processes, and checks that every
verdict is the same both times.

  bench/solver_work.py BUILD/ave-rewrite [--min-ms 20] [--out FILE]
"""
import argparse
import datetime
import glob
import json
import multiprocessing
import os
import platform
import statistics
import subprocess
import sys


def run_all(ave, files):
    verdicts, samples = {}, []
    for path in files:
        out = subprocess.run([ave, "--color=never", "check", "--format", "json", path],
                             capture_output=True, text=True, check=False)
        try:
            report = json.loads(out.stdout)
        except json.JSONDecodeError:
            continue
        for kernel in report.get("kernels", []):
            for o in kernel.get("obligations", []):
                loc = o["location"]
                key = f"{os.path.relpath(path)}|{kernel['kernel']}|{o['kind']}|{loc['line']}:{loc['column']}"
                verdicts[key] = o["status"]
                samples.append((o["millis"], o.get("solver_work", 0)))
    return verdicts, samples


def spin():
    while True:
        pass


def summary(samples, min_ms):
    ratios = sorted(w / ms for ms, w in samples if ms >= min_ms and w > 0)
    if not ratios:
        return {"obligations": 0}
    decile = max(1, len(ratios) // 10)
    return {"obligations": len(ratios), "units_per_ms_median": round(statistics.median(ratios)),
            "units_per_ms_p10": round(ratios[decile - 1]), "units_per_ms_p90": round(ratios[-decile]),
            "units_per_ms_min": round(ratios[0])}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ave")
    parser.add_argument("--min-ms", type=float, default=20.0)
    parser.add_argument("--out")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = sorted(glob.glob(f"{root}/testdata/*.hip") +
                   glob.glob(f"{root}/testdata/e2e/Inputs/soundness/*.hip"))
    idle, idle_samples = run_all(args.ave, files)
    spinners = [multiprocessing.Process(target=spin, daemon=True)
                for _ in range(2 * (os.cpu_count() or 1))]
    for p in spinners:
        p.start()
    try:
        loaded, loaded_samples = run_all(args.ave, files)
    finally:
        for p in spinners:
            p.terminate()
    differ = sorted(k for k in idle if loaded.get(k) != idle[k])
    result = {
        "command": " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:]),
        "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cores",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "files": len(files), "obligations": len(idle), "min_ms": args.min_ms,
        "idle": summary(idle_samples, args.min_ms),
        "loaded_2x_cores_spinning": summary(loaded_samples, args.min_ms),
        "verdicts_differing_idle_vs_loaded": differ,
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
