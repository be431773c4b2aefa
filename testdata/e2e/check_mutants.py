"""Runs `ave-rewrite check` on each mutant and asserts it is caught where
its `// EXPECT: KIND line N` says.

A mutant is caught when the checker exits 1 and reports a violated
obligation on line N with a counterexample (the checker re-evaluates every
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


def expectation(path):
    """(kind, line) from the mutant's `// EXPECT: KIND line N`."""
    with open(path) as f:
        for line in f:
            if line.startswith("// EXPECT:"):
                words = line.split()
                return words[2], int(words[4]) if len(words) > 4 and words[3] == "line" else None
    return None, None


def main():
    ave = shlex.split(sys.argv[1])
    root = sys.argv[2]
    failures, checked = [], 0
    for path in sorted(glob.glob(os.path.join(root, "*", "*.hip"))):
        kernel = os.path.basename(os.path.dirname(path))
        kind, line = expectation(path)
        if kind not in CHECKED_KINDS or kernel in PENDING:
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
        elif line is None:
            failures.append(f"{path}: its EXPECT line names no source line")
        elif not any((o.get("location") or {}).get("line") == line for o in violated):
            lines = sorted({(o.get("location") or {}).get("line") for o in violated})
            failures.append(f"{path}: caught on line(s) {lines}, expected line {line}")
    for f in failures:
        print("FAIL", f)
    print(f"{checked - len(failures)} passed, {len(failures)} failed")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
