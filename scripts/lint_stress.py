#!/usr/bin/env python3
"""lint over many files in one process must give the same findings every
time, equal to the single-file runs (issue 12: the per-file state was keyed
by the Preprocessor's address, which the next file reuses, and `lint
testdata/*.hip` gave 17, 8 and 14 findings in three runs).

  lint_stress.py AVE_REWRITE [--runs N] [--max-seconds S] [--min-runs M] FILE...

Lints each FILE alone (two at a time), then all FILEs in one process (-j 1)
up to N times, stopping early once S seconds have passed and at least M runs
are done (the time bound for CI). Prints one line per run and exits 1 on
the first difference, with the findings that differ.
"""
import argparse
import concurrent.futures
import json
import subprocess
import sys
import time

# Generous: a solver timeout under load must not pass for a difference
# (CI's 2-core machine runs other tests beside this one). The kernel's time
# limit too: with the per-query budget cut to what it leaves, the budget, and
# with it Z3's model (a counterexample's K=64 or K=32), varied run to run.
Z3_TIMEOUT_MS = "60000"
TIME_LIMIT_MS = "600000"


def lint(ave, files):
    cmd = [ave, "--color=never", "lint", "-j", "1", "--format", "json",
           "--z3-timeout-ms", Z3_TIMEOUT_MS, "--time-limit-ms", TIME_LIMIT_MS, "--checks=-*,ave-*"] + files
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        sys.exit("lint_stress: %s exited %d:\n%s" % (" ".join(cmd), proc.returncode, proc.stderr))
    return json.loads(proc.stdout)


def where(loc):
    return (loc["file"], loc["line"], loc["column"]) if loc else None


def findings(report):
    out = set()
    for d in report["diagnostics"]:
        notes = tuple((n["message"], where(n["location"])) for n in d["notes"])
        out.add((d["check"], d["level"], d["message"], where(d["location"]), notes))
    return out


def kernels(report):
    return {(k["file"], k["name"], k["annotated"]) for k in report["kernels"]}


def describe(label, items):
    return "".join("  %s %s\n" % (label, item) for item in sorted(items, key=repr))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ave")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--max-seconds", type=float, default=float("inf"))
    parser.add_argument("--min-runs", type=int, default=2)
    args = parser.parse_args()

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        singles = list(pool.map(lambda f: lint(args.ave, [f]), args.files))
    expected = set().union(*(findings(r) for r in singles))
    expected_kernels = set().union(*(kernels(r) for r in singles))
    print("single-file runs: %d files, %d kernels, %d findings"
          % (len(args.files), len(expected_kernels), len(expected)))

    start = time.monotonic()
    for run in range(1, args.runs + 1):
        report = lint(args.ave, args.files)
        got, got_kernels = findings(report), kernels(report)
        print("run %d: %d kernels, %d findings" % (run, len(got_kernels), len(got)))
        if got != expected or got_kernels != expected_kernels:
            sys.stdout.write("lint_stress: run %d differs from the single-file runs\n" % run)
            sys.stdout.write(describe("extra:", got - expected))
            sys.stdout.write(describe("missing:", expected - got))
            sys.stdout.write(describe("kernel extra:", got_kernels - expected_kernels))
            sys.stdout.write(describe("kernel missing:", expected_kernels - got_kernels))
            return 1
        if run >= args.min_runs and time.monotonic() - start > args.max_seconds:
            break
    print("lint_stress: %d runs identical to the single-file runs" % run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
