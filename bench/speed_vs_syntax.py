"""ave-rewrite against the compiler's own syntax check, measured fairly.

Every comparison runs its commands paired and alternating (A B C, A B C,
...), each process on its own, and reports the median of the rounds and the
peak resident memory of each process (the largest of a parallel run's
processes). The syntax check gets the very flags of the tool's device parse
(`-x hip --cuda-device-only --offload-arch=gfx942 -nogpulib -w
-resource-dir=... -I annotations/include`).

 - per file, one process each: `lint FILE` and `check FILE` against
   `clang++-19 -fsyntax-only FILE`, with a warm preamble cache, a cold one
   (an empty cache directory every round: the PCH is built in the run) and
   none (--no-cache);
 - over testdata's kernels at the same parallelism (-j N): `lint -j N`
   against clang-tidy's own `run-clang-tidy-19 -j N` with one cheap check
   (misc-unused-using-decls) on the same device flags, and against
   `xargs -P N clang++-19 -fsyntax-only`; warm and cold.

Usage: python3 bench/speed_vs_syntax.py build/ave-rewrite [--rounds 5] [--jobs 2]
           [-o bench/results/speed-vs-syntax.json]
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PER_FILE = {"gemm": "tiled_gemm", "transpose": "transpose_lds", "mfma": "mfma_f16_tile",
            "attention": "attention_fwd"}


def run(cmd, env=None):
    """Wall seconds and peak RSS (MiB) of one command, its children included."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"failed ({code}): {' '.join(cmd)}")
    return wall, usage.ru_maxrss / 1024


def device_flags(resource):
    return ["-x", "hip", "--cuda-device-only", "--offload-arch=gfx942", "-nogpulib", "-w",
            f"-resource-dir={resource}", "-I" + os.path.join(ROOT, "annotations", "include")]


def paired(commands, rounds, setup=None):
    """commands: name -> (argv, env). Alternating rounds; medians and peaks."""
    walls = {name: [] for name in commands}
    peaks = {name: 0.0 for name in commands}
    for _ in range(rounds):
        for name, (argv, env) in commands.items():
            if setup:
                setup(name)
            wall, rss = run(argv, env)
            walls[name].append(wall)
            peaks[name] = max(peaks[name], rss)
    return {name: {"median_s": round(statistics.median(w), 3),
                   "runs_s": [round(x, 3) for x in w],
                   "peak_rss_mib": round(peaks[name], 1)} for name, w in walls.items()}


class Caches:
    """A warm cache (made once), and a fresh empty one per cold run."""

    def __init__(self):
        self.base = tempfile.mkdtemp(prefix="ave-speed-")
        self.warm = os.path.join(self.base, "warm")
        self.cold = os.path.join(self.base, "cold")

    def env(self, which):
        env = dict(os.environ)
        env["AVE_PCH_CACHE"] = {"warm": self.warm, "cold": self.cold, "off": "off"}[which]
        return env

    def reset_cold(self, name):
        if name.endswith("_cold"):
            shutil.rmtree(self.cold, ignore_errors=True)

    def close(self):
        shutil.rmtree(self.base, ignore_errors=True)


def per_file(ave, clang, resource, caches, rounds):
    rows = {}
    for label, stem in PER_FILE.items():
        path = os.path.join(ROOT, "testdata", stem + ".hip")
        for sub in ("lint", "check"):  # make the warm entries
            run([ave, sub, path], caches.env("warm"))
        cmds = {"syntax_only": ([clang] + device_flags(resource) + ["-fsyntax-only", path], None)}
        for sub in ("lint", "check"):
            for which in ("warm", "cold", "off"):
                cmds[f"{sub}_{which}"] = ([ave, sub, path], caches.env(which))
        r = paired(cmds, rounds, caches.reset_cold)
        base = r["syntax_only"]["median_s"]
        for name in list(r):
            r[name]["ratio_to_syntax_only"] = round(r[name]["median_s"] / base, 3)
        rows[label] = {"file": f"testdata/{stem}.hip", **r}
        print(f"{label:10s} syntax {base:.3f} s | " + " | ".join(
            f"{n} {r[n]['median_s']:.3f} s ({r[n]['ratio_to_syntax_only']:.2f}x)"
            for n in r if n != "syntax_only"), flush=True)
    return rows


def directory(ave, clang, resource, caches, rounds, jobs):
    files = sorted(os.path.join(ROOT, "testdata", f)
                   for f in os.listdir(os.path.join(ROOT, "testdata")) if f.endswith(".hip"))
    db_dir = os.path.join(caches.base, "db")
    os.makedirs(db_dir, exist_ok=True)
    with open(os.path.join(db_dir, "compile_commands.json"), "w") as out:
        json.dump([{"directory": ROOT, "file": f,
                    "arguments": [clang] + device_flags(resource) + ["-fsyntax-only", f]}
                   for f in files], out)
    run([ave, "lint", "-j", str(jobs)] + files, caches.env("warm"))
    xargs = ["sh", "-c", f"printf '%s\\n' \"$@\" | xargs -P {jobs} -n 1 {clang} "
             + " ".join(device_flags(resource)) + " -fsyntax-only", "sh"] + files
    tidy = ["run-clang-tidy-19", "-quiet", "-j", str(jobs), "-p", db_dir,
            "-checks=-*,misc-unused-using-decls"] + files
    cmds = {"xargs_syntax_only": (xargs, None),
            "run_clang_tidy": (tidy, None),
            "lint_warm": ([ave, "lint", "-j", str(jobs)] + files, caches.env("warm")),
            "lint_cold": ([ave, "lint", "-j", str(jobs)] + files, caches.env("cold")),
            "lint_off": ([ave, "lint", "-j", str(jobs)] + files, caches.env("off"))}
    r = paired(cmds, rounds, caches.reset_cold)
    base = r["xargs_syntax_only"]["median_s"]
    for name in r:
        r[name]["ratio_to_syntax_only"] = round(r[name]["median_s"] / base, 3)
    print(f"directory ({len(files)} files, -j {jobs}): " + " | ".join(
        f"{n} {r[n]['median_s']:.3f} s ({r[n]['ratio_to_syntax_only']:.2f}x)" for n in r),
        flush=True)
    return {"files": len(files), "jobs": jobs, **r}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-o", "--output", default="bench/results/speed-vs-syntax.json")
    args = ap.parse_args()
    ave = os.path.abspath(args.binary)
    clang = shutil.which("clang++-19")
    resource = subprocess.run(["clang-19", "-print-resource-dir"], capture_output=True,
                              text=True, check=True).stdout.strip()
    caches = Caches()
    try:
        rows = per_file(ave, clang, resource, caches, args.rounds)
        tree = directory(ave, clang, resource, caches, args.rounds, args.jobs)
    finally:
        caches.close()
    with open("/proc/cpuinfo") as info:
        cpu = next((l.split(":", 1)[1].strip() for l in info if l.startswith("model name")), "")
    result = {
        "command": "python3 bench/speed_vs_syntax.py " + " ".join(
            [args.binary, "--rounds", str(args.rounds), "--jobs", str(args.jobs)]),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "cpu": cpu, "system": platform.platform()},
        "method": "paired, alternating rounds, median; peak RSS per process (MiB); warm: the "
                  "preamble cache made before the rounds; cold: an empty cache every round; "
                  "off: --no-cache (AVE_PCH_CACHE=off)",
        "per_file": rows,
        "directory": tree,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as out:
        json.dump(result, out, indent=2)
        out.write("\n")
    print("wrote", args.output)


if __name__ == "__main__":
    main()
