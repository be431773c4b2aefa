"""Speed of one full rewrite + verification: `ave-rewrite rewrite FILE --apply R`
does parse + analysis of the original, the rewrite, re-parse + re-proof of the
patched text, the assumption re-proof, the lds-pairing proof, the LDS race
check, the footprint check, the gfx942 compile (and nvcc sm_90 when
installed), and the execution stage (original and patched kernel on the CPU
executor at two shapes), the last three side by side. Budget: <= 5 s wall per
kernel with the execution stage included.

The execution stage keeps one prepared bundle per original kernel in a cache
(AVE_REWRITE_CACHE_DIR): the first run of a kernel builds it (and, once per
cache, the executor's runtime object); later runs recompile only the patched
kernel's launcher. The first run in a fresh cache is reported as `cold_s`;
the medians are over the runs after it.

Usage: python3 bench/rewrite_speed.py build/ave-rewrite [--runs 5] [-o bench/results/rewrite-speed.json]
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import tempfile
import time

CASES = [("transpose_lds", "lds-pad"), ("transpose_lds", "lds-swizzle"),
         ("tiled_gemm", "lds-swizzle"), ("tiled_gemm", "lds-pad:pad=1"),
         ("tiled_gemm", "pipeline:stages=2"), ("tiled_gemm", "pipeline:stages=3"),
         ("tiled_gemm", "pipeline:stages=2,async=1"), ("tiled_hgemm", "pipeline:stages=2"),
         ("tiled_gemm", "unroll"), ("tiled_gemm", "unroll:factor=4"),
         ("tiled_gemm", "launch-bounds"), ("register_tiled_gemm", "unroll,launch-bounds"),
         ("tiled_gemm", "register-tile"), ("tiled_gemm", "register-tile,unroll,launch-bounds"),
         ("tiled_hgemm", "register-tile"), ("register_tiled_gemm", "vectorize"),
         ("tiled_gemm", "register-tile,vectorize,unroll,launch-bounds")]
BUDGET_S = 5.0


def run_once(cmd, env):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    return wall, json.loads(proc.stdout)


def run_case(binary, path, rewrite, nvcc, runs, env):
    cmd = [binary, "--format", "json", "rewrite", path, "--apply", rewrite]
    if not nvcc:
        cmd.append("--no-nvcc")
    cold, _ = run_once(cmd, env)
    walls, stages, result, execution = [], {}, None, None
    for _ in range(runs):
        wall, doc = run_once(cmd, env)
        walls.append(wall)
        result = doc["result"]
        for s in doc["stages"]:
            stages.setdefault(s["name"], []).append(s["ms"])
            if s["name"] == "execution":
                execution = s["status"] + ": " + s["message"]
    return {
        "result": result,
        "execution": execution,
        "cold_s": round(cold, 3),
        "wall_s_median": round(statistics.median(walls), 3),
        "wall_s_max": round(max(walls), 3),
        "within_budget": max(walls) <= BUDGET_S,
        "stage_ms_median": {k: round(statistics.median(v), 1) for k, v in stages.items()},
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("-o", "--output", default="bench/results/rewrite-speed.json")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    have_nvcc = shutil.which("nvcc") is not None or os.access("/usr/local/cuda/bin/nvcc", os.X_OK)
    cache = tempfile.mkdtemp(prefix="rewrite-speed-cache-")
    env = dict(os.environ, AVE_REWRITE_CACHE_DIR=cache)
    rows = []
    for kernel, rewrite in CASES:
        path = os.path.join(root, "testdata", kernel + ".hip")
        for nvcc in ([False, True] if have_nvcc else [False]):
            row = {"kernel": kernel, "rewrite": rewrite,
                   "targets": ["gfx942", "sm_90"] if nvcc else ["gfx942"]}
            row.update(run_case(args.binary, path, rewrite, nvcc, args.runs, env))
            rows.append(row)
            print(f"{kernel:14} {rewrite:26} {'+'.join(row['targets']):13} {row['result']:9} "
                  f"cold {row['cold_s']:.2f} s  median {row['wall_s_median']:.2f} s  "
                  f"max {row['wall_s_max']:.2f} s  execution "
                  f"{row['stage_ms_median'].get('execution', 0):.0f} ms", flush=True)
    shutil.rmtree(cache, ignore_errors=True)
    doc = {
        "what": "wall time of one `ave-rewrite rewrite` (rewrite + full verification, the "
                "execution stage included) per kernel; cold_s: the first run in a fresh cache",
        "command": "python3 bench/rewrite_speed.py build/ave-rewrite --runs " + str(args.runs),
        "budget_s": BUDGET_S,
        "all_within_budget": all(r["within_budget"] for r in rows),
        "runs": args.runs,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "load_avg_1m": round(os.getloadavg()[0], 2)},
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "cases": rows,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output + ".tmp", "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    os.replace(args.output + ".tmp", args.output)
    return 0 if doc["all_within_budget"] and all(r["result"] == "accepted" for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
