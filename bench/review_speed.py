#!/usr/bin/env python3
"""Review speed against lint (issue 18): `ave-rewrite review` of a 10-file
change must finish within 2x the time of `ave-rewrite lint` on the same
files.

The change: a scratch git repository holds the ten kernels of testdata/
(every GEMM, transpose, reduction, matrix-core and attention kernel) as its
base; the head commit edits each of them (a comment block after the
includes, which moves every line, and a renamed local), so review analyses
all ten files in both versions and matches every result through the line
mapping. Both commands run in one process (lint without -j, review has no
-j), on the same files, alternately, --runs times; medians are compared.
`review --no-pch` (every parse from scratch) is timed too, to show what the
shared precompiled include prefix buys.

Usage: bench/review_speed.py [BUILD_DIR] [--runs N]
Writes bench/results/review-speed.json.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.com",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.com")
    subprocess.run(["git", "-C", repo, "-c", "init.defaultBranch=main", *args], check=True,
                   env=env, stdout=subprocess.DEVNULL)


def edit(text):
    """A change that keeps the kernel's meaning: a comment block after the
    leading includes, and the first `int tx` renamed where there is one."""
    lines = text.split("\n")
    at = 0
    for i, line in enumerate(lines):
        if line.startswith("#include"):
            at = i + 1
    lines[at:at] = ["", "// Reviewed change: this block moves every line below it,", "// and a local is renamed."]
    out = "\n".join(lines)
    if re.search(r"\bint tx\b", out):
        out = re.sub(r"\btx\b", "tx_", out)
    return out


def make_repo(path):
    kernels = sorted(f for f in os.listdir(os.path.join(ROOT, "testdata")) if f.endswith(".hip"))
    os.makedirs(os.path.join(path, "kernels"))
    git(path, "init", "-q")
    for k in kernels:
        shutil.copy(os.path.join(ROOT, "testdata", k), os.path.join(path, "kernels", k))
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "base")
    for k in kernels:
        p = os.path.join(path, "kernels", k)
        with open(p) as f:
            text = f.read()
        with open(p, "w") as f:
            f.write(edit(text))
    git(path, "commit", "-q", "-a", "-m", "head")
    return ["kernels/" + k for k in kernels]


def timed(cmd, cwd):
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return time.monotonic() - start, proc


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ave = os.path.join(os.path.abspath(args.build), "ave-rewrite")
    work = tempfile.mkdtemp(prefix="ave-review-speed-")
    try:
        repo = os.path.join(work, "repo")
        files = make_repo(repo)
        lint_cmd = [ave, "lint", *files]
        review_cmd = [ave, "review", "--base", "HEAD~1", "--head", "HEAD", "--format", "json"]
        nopch_cmd = review_cmd + ["--no-pch"]
        load_before = os.getloadavg()
        times = {"lint": [], "review": [], "review_no_pch": []}
        summaries = {}
        for _ in range(args.runs):
            for name, cmd in (("lint", lint_cmd), ("review", review_cmd), ("review_no_pch", nopch_cmd)):
                seconds, proc = timed(cmd, repo)
                if proc.returncode == 2:
                    raise SystemExit(f"{name} failed:\n{proc.stderr}")
                times[name].append(seconds)
                summaries[name] = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
                if name == "review":
                    report = json.loads(proc.stdout)
        load_after = os.getloadavg()
        med = {k: statistics.median(v) for k, v in times.items()}
        doc = {
            "files": len(files),
            "change": "each file: a comment block after the includes (every line moves), a local renamed",
            "runs": args.runs,
            "cores": os.cpu_count(),
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in load_after],
            "commands": {
                "lint": "ave-rewrite lint " + " ".join(files),
                "review": "ave-rewrite review --base HEAD~1 --head HEAD --format json",
                "review_no_pch": "ave-rewrite review --base HEAD~1 --head HEAD --format json --no-pch",
            },
            "seconds": {k: [round(x, 3) for x in v] for k, v in times.items()},
            "median_s": {k: round(v, 3) for k, v in med.items()},
            "ratio_review_to_lint": round(med["review"] / med["lint"], 3),
            "ratio_review_no_pch_to_lint": round(med["review_no_pch"] / med["lint"], 3),
            "goal_ratio": 2.0,
            "meets_goal": med["review"] <= 2.0 * med["lint"],
            "review_summary": summaries["review"],
            "review_findings": report["summary"],
            "lint_summary": summaries["lint"],
        }
        out = os.path.join(ROOT, "bench", "results", "review-speed.json")
        with open(out + ".tmp", "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(out + ".tmp", out)
        print(json.dumps(doc, indent=1))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
