"""Runs `ave-rewrite check` on each mutant and asserts it is caught.

A mutant is caught when the checker exits 1 and reports at least one
violated obligation with a counterexample (the checker re-evaluates every
counterexample under C semantics before reporting it as violated).
"""
import glob
import json
import os
import shlex
import subprocess
import sys

# Kinds this checker owns, and kernels whose models are still to come.
CHECKED_KINDS = ("tag-mismatch", "reduction-coverage")
PENDING = ()


def expected_kind(path):
    with open(path) as f:
        for line in f:
            if line.startswith("// EXPECT:"):
                return line.split()[2]
    return None


def main():
    ave = shlex.split(sys.argv[1])
    root = sys.argv[2]
    failures, checked = [], 0
    for path in sorted(glob.glob(os.path.join(root, "*", "*.hip"))):
        kernel = os.path.basename(os.path.dirname(path))
        if expected_kind(path) not in CHECKED_KINDS or kernel in PENDING:
            continue
        checked += 1
        proc = subprocess.run(ave + ["check", path, "--format", "json", "--z3-timeout-ms", "500"], capture_output=True, text=True)
        try:
            doc = json.loads(proc.stdout)
        except json.JSONDecodeError:
            failures.append(f"{path}: no JSON (exit {proc.returncode}): {proc.stderr[:300]}")
            continue
        violated = [o for k in doc["kernels"] for o in k["obligations"] if o["status"] == "violated"]
        if proc.returncode != 1 or not violated:
            failures.append(f"{path}: not caught (exit {proc.returncode}, {len(violated)} violated)")
        elif not all(o.get("counterexample", {}).get("notes") for o in violated):
            failures.append(f"{path}: violation without a counterexample")
    for f in failures:
        print("FAIL", f)
    print(f"{checked - len(failures)} passed, {len(failures)} failed")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
