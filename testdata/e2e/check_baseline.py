"""Behaviour lock for the analysis: `check --format json` on every annotated
testdata kernel and mutant gives the same obligations with the same status
as the checked-in baseline (testdata/e2e/check_baseline.json).

An obligation is identified by (file, kernel, kind, line, column, summary).
Timings are ignored (and the per-kernel time limit lifted, so that a slow
machine gives the same statuses), and the numbers of fresh symbols (`k0'1`, `tx'17`) are
normalised to `'#`: they count creations and change whenever the analysis
creates one symbol more or less, which is not a change of behaviour.

  check_baseline.py AVE TESTDATA            compare (exit 1 on a difference)
  check_baseline.py AVE TESTDATA --write    rewrite the baseline
"""
import concurrent.futures
import glob
import json
import os
import re
import shlex
import subprocess
import sys

BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_baseline.json")
FRESH = re.compile(r"'[0-9]+")
# Obligations Z3 decides in about the first, short try (an eighth of
# --z3-timeout-ms): on a loaded machine that try runs out and a later one
# can end in Z3's "incomplete". A longer first try keeps their status about
# the analysis (helper_load.hip's transposed read, 1.1-1.8 s here).
SLOW_FIRST_TRY = {"e2e/Inputs/soundness/helper_load.hip": ["--z3-timeout-ms", "40000"]}


def kernel_files(testdata):
    files = glob.glob(os.path.join(testdata, "*.hip"))
    files += glob.glob(os.path.join(testdata, "moe", "*.hip"))
    files += glob.glob(os.path.join(testdata, "attention", "*.hip"))
    files += glob.glob(os.path.join(testdata, "mutants", "*", "*.hip"))
    files += glob.glob(os.path.join(testdata, "e2e", "Inputs", "**", "*.hip"), recursive=True)
    return sorted(f for f in files if "AVE_TAG" in open(f).read() or "ave." in open(f).read())


def obligations(ave, testdata, path):
    proc = subprocess.run(ave + ["--format", "json", "check", "--time-limit-ms", "600000"]
                          + SLOW_FIRST_TRY.get(os.path.relpath(path, testdata), []) + [path],
                          capture_output=True, text=True)
    rel = os.path.relpath(path, testdata)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return rel, [f"no JSON (exit {proc.returncode})"]
    out = []
    for k in doc.get("kernels", []):
        for o in k.get("obligations", []):
            loc = o.get("location") or {}
            out.append("%s|%s|%d:%d|%s|%s" % (k.get("kernel"), o.get("kind"), loc.get("line", 0),
                                                loc.get("column", 0), o.get("status"),
                                                FRESH.sub("'#", o.get("summary", ""))))
    return rel, sorted(out)


def main():
    ave, testdata = shlex.split(sys.argv[1]), sys.argv[2]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = dict(pool.map(lambda p: obligations(ave, testdata, p), kernel_files(testdata)))
    if "--write" in sys.argv:
        with open(BASELINE, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"wrote {len(results)} files to {BASELINE}")
        return 0
    with open(BASELINE) as f:
        expected = json.load(f)
    failures = 0
    for rel in sorted(set(expected) | set(results)):
        want, got = expected.get(rel), results.get(rel)
        if want == got:
            continue
        failures += 1
        print(f"DIFF {rel}")
        for line in sorted(set(want or []) - set(got or [])):
            print(f"  - {line}")
        for line in sorted(set(got or []) - set(want or [])):
            print(f"  + {line}")
    print(f"{len(results) - failures} same, {failures} different")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
