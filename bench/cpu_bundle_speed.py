"""Speed of the CPU executor's bench bundles: for every testdata kernel, the
time to write its bundle (`ave-rewrite harness`), to build it with
`./build.sh --cpu` from nothing, to rebuild it after its kernel source
changed (what a rewrite or a mutant costs: only the launcher recompiles), and
to run `./bench` (both shapes, --trials 2, ground truth included). Wall and
CPU seconds (user + system of the whole process tree); the machine's load
average is recorded, since other work on it stretches wall times. The shapes
and settings are those of the CI tests (runtime/tests/cpu_bundles.sh spec).

Usage: python3 bench/cpu_bundle_speed.py build/ave-rewrite [--runs 3] [-o bench/results/cpu-bundle-speed.json]
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


def timed(cmd, cwd=None, env=None):
    """(wall s, cpu s) of one run; raises if it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {code}: {err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("-o", "--output", default="bench/results/cpu-bundle-speed.json")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = os.path.join(root, "runtime", "tests", "cpu_bundles.sh")
    stems = subprocess.run(["bash", script, "list", root], capture_output=True, text=True,
                           check=True).stdout.split()
    work = tempfile.mkdtemp(prefix="cpu-bundle-speed-")
    rows = []
    for stem in stems:
        spec = subprocess.run(["bash", script, "spec", stem], capture_output=True, text=True,
                              check=True).stdout.splitlines()
        kernel, wave, arch, harness_args = spec[0], spec[1], spec[2], spec[3:]
        env = dict(os.environ, AVE_CPU_WAVE_SIZE=wave, ARCH=arch, AVE_CPU_QUIET="1")
        bundle = os.path.join(work, stem)
        harness = timed([args.binary, "harness", os.path.join(root, "testdata", stem + ".hip"),
                         "--kernel", kernel, *harness_args, "-o", bundle])
        cold = timed(["./build.sh", "--cpu"], cwd=bundle, env=env)
        source = os.path.join(bundle, "kernel", "candidate", stem + ".hip")
        rebuild, run = [], []
        for _ in range(args.runs):
            os.utime(source)
            rebuild.append(timed(["./build.sh", "--cpu"], cwd=bundle, env=env))
            run.append(timed(["./bench", "--seed", "20261130", "--trials", "2"], cwd=bundle,
                             env=env))
        row = {
            "kernel": stem,
            "shape": harness_args[harness_args.index("--shape") + 1],
            "wave_size": int(wave),
            "harness_wall_s": round(harness[0], 2),
            "build_cold_wall_s": round(cold[0], 2),
            "build_cold_cpu_s": round(cold[1], 2),
            "rebuild_after_kernel_change_wall_s_median": round(statistics.median(r[0] for r in rebuild), 2),
            "rebuild_after_kernel_change_cpu_s_median": round(statistics.median(r[1] for r in rebuild), 2),
            "run_wall_s_median": round(statistics.median(r[0] for r in run), 3),
            "run_cpu_s_median": round(statistics.median(r[1] for r in run), 3),
        }
        rows.append(row)
        print(f"{stem:22s} harness {row['harness_wall_s']:5.2f} s  build {row['build_cold_wall_s']:5.2f} s "
              f"({row['build_cold_cpu_s']:5.2f} cpu)  rebuild {row['rebuild_after_kernel_change_wall_s_median']:4.2f} s "
              f"({row['rebuild_after_kernel_change_cpu_s_median']:4.2f} cpu)  run {row['run_wall_s_median']:.3f} s")
    shutil.rmtree(work, ignore_errors=True)
    result = {
        "what": "CPU executor bench bundles: write, build --cpu (cold), rebuild after a kernel change, run",
        "command": "python3 bench/cpu_bundle_speed.py build/ave-rewrite --runs " + str(args.runs),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "compiler": subprocess.run(["clang++-19", "--version"], capture_output=True,
                                   text=True).stdout.splitlines()[0],
        "load_average_after": [round(x, 1) for x in os.getloadavg()],
        "runs": args.runs,
        "kernels": rows,
    }
    tmp = args.output + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    os.replace(tmp, args.output)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
