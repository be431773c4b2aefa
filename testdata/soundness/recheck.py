#!/usr/bin/env python3
"""Replays a fuzz journal's mutants through another build's `check`.

A long fuzz run (fuzz.py --journal) classifies thousands of mutants with one
build of ave-rewrite and runs each on the CPU executor. When the analysis
changes afterwards, its counts hold for the new build only where the new
build gives the same verdicts. This writes every mutant of the journal again
(mutate.py, from the journal's seed and order), checks it with --ave, and
compares the verdict and the first not-proven obligations with the
journal's record. Execution does not depend on the analysis, so the
journal's execution verdicts and the new build's checks make the run's
check x execution table for the new build (a mutant invalid for the
journal's build, never executed, stays invalid: the front end is the same).
A mutant the new build proves that the journal has as wrong on execution is
a soundness regression: the exit status is 1. A mutant violated now that is
correct at the bundle's shapes is listed under unconfirmed_violations, in
fuzz.py's form: `reproduce.py --results OUT` runs it at its counterexample
(use fuzz.py's --work here, whose kernel folders hold the bundles).

    recheck.py --ave build/ave-rewrite --journal J.jsonl --work DIR
               [--jobs N] [--kernels a,b] [--out diff.json]

Exit: 0 every verdict the same or stronger without a wrong one proven (the
differences are listed), 1 a mutant that is wrong on execution is proven
now, 2 setup failure.
"""
import argparse
import concurrent.futures
import functools
import json
import pathlib
import sys
import time

import fuzz
import mutate


def parse_args():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ave", required=True)
    p.add_argument("--journal", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--kernels", default="", help="comma-separated stems (default: all)")
    p.add_argument("--time-limit-ms", type=int, default=10000)
    p.add_argument("--out", default="")
    return p.parse_args()


def read_journal(path):
    lines = pathlib.Path(path).read_text().splitlines()
    if not lines:
        sys.exit(f"recheck: {path} is empty")
    header = json.loads(lines[0])
    # One record per mutant; should one appear twice (two runs appending to
    # one journal), the last counts.
    final = {}
    for line in lines[1:]:
        record = json.loads(line)
        final[(record["kernel"], record["index"])] = record
    return header, list(final.values())


def mutant_texts(stems, order, seed):
    texts = {}
    for stem in stems:
        source = (fuzz.ROOT / "testdata" / f"{stem}.hip").read_text()
        texts[stem] = [m.text for m in mutate.mutants(source, order, seed)]
    return texts


@functools.cache
def kernel_name(stem):
    return fuzz.spec(stem)["kernel"]


def recheck(args, work, texts, record):
    path = work / record["kernel"] / "mutants" / f'{record["index"]:05d}.hip'
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(texts[record["kernel"]][record["index"]])
    status, shown = fuzz.check_verdict(args.ave, path, kernel_name(record["kernel"]),
                                       args.time_limit_ms)
    return record, status, shown


def mutant_key(entry):
    return entry["kernel"], entry["index"]


def main():
    args = parse_args()
    header, records = read_journal(args.journal)
    if args.kernels:
        wanted = set(args.kernels.split(","))
        records = [r for r in records if r["kernel"] in wanted]
    invalid = [r for r in records if r["check"] == "invalid"]
    records = [r for r in records if r["check"] != "invalid"]
    texts = mutant_texts(sorted({r["kernel"] for r in records}), header["order"], header["seed"])
    work = pathlib.Path(args.work)
    for stem in texts:  # one spec lookup per kernel, before the threads
        kernel_name(stem)
    start = time.time()
    same, changed, now = 0, [], list(invalid)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(recheck, args, work, texts, r) for r in records]
        for job in concurrent.futures.as_completed(jobs):
            record, status, shown = job.result()
            # The record as this build classifies it, at the file it checked.
            now.append(dict(record, check=status, not_proven=shown,
                            file=str(work / record["kernel"] / "mutants" /
                                     f'{record["index"]:05d}.hip')))
            if status == record["check"] and shown == record["not_proven"]:
                same += 1
                continue
            changed.append({"kernel": record["kernel"], "index": record["index"],
                            "change": record["change"], "execution": record.get("execution"),
                            "journal": [record["check"]] + record["not_proven"],
                            "now": [status] + shown})
            print(f'recheck: {record["kernel"]}#{record["index"]} ({record["change"]}): '
                  f'{record["check"]} -> {status}, execution {record.get("execution")}', flush=True)
    table, regressions, unconfirmed, share = fuzz.summarise(now, [])
    summary = {"journal": str(args.journal), "journal_header": header, "ave": args.ave,
               "ave_sha256": fuzz.binary_digest(args.ave), "commit": fuzz.source_commit(),
               "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "seconds": round(time.time() - start, 1), "mutants": len(records), "same": same,
               "seed": header["seed"], "order": header["order"], "check_x_execution": table,
               "wrong_reported_violated": share,
               "unconfirmed_violations": sorted(unconfirmed, key=mutant_key),
               "changed": sorted(changed, key=mutant_key),
               "proven_now_but_wrong": sorted(regressions, key=mutant_key)}
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(summary, indent=1) + "\n")
    print(f"recheck: {len(records)} mutants, {same} the same, {len(changed)} changed, "
          f"{len(regressions)} proven now but wrong on execution; check x execution: "
          f"{json.dumps(table)}; wrong mutants violated: {share or 0:.1%}; "
          f"{len(unconfirmed)} violated but correct at the bundle's shapes")
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
