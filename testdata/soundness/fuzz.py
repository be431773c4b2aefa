#!/usr/bin/env python3
"""Soundness fuzzer: `check`'s verdicts against execution on the CPU executor.

Every testdata kernel is mutated (mutate.py); each mutant is classified by
`ave-rewrite check` (proven / violated / unproven, or invalid when it does
not compile) and run through its original's harness bundle built for the CPU
executor (runtime/include/ave/hip_on_cpu), which compares the outputs with
the tags' einsum at the bundle's shapes; with clang the bundles are built
with the executor's race check (AVE_CPU_RACES=1), so a data race on shared
memory fails the run too. A mutant that is proven but wrong on execution is
a soundness bug: the run fails and names it. A violated
mutant that passes execution there is run again at its counterexample's own
sizes (reproduce.py), and listed with the outcome.

    fuzz.py --ave build/ave-rewrite --work DIR [--count N] [--budget-s S]
            [--seed S] [--kernels a,b] [--execute proven|needed|all]
            [--jobs J] [--bundles DIR] [--order 1|2] [--out results.json]
            [--journal FILE]

--execute proven runs only the proven mutants (the soundness claim: CI);
needed adds the violated ones (their counterexamples); all runs every valid
mutant, for the counts table in bench/. --bundles reuses the bundles that
runtime/tests/cpu_bundles.sh built (DIR/STEM/bundle) instead of building
them again. --order 2 adds mutants with two changes on different lines. Mutants are drawn in a
seeded order, and a time budget stops drawing (CI: a bounded sample).
--journal appends each classified mutant to FILE as it completes (one JSON
line each, after a header naming the seed, order and the SHA-256 of the
ave-rewrite binary and of mutate.py); a later run with the same journal skips the mutants already there
and counts them in its summary, so a long run survives an interruption and
can be continued. A journal made with another binary, mutator, seed or
order is refused.
Exit: 0 no soundness bug, 1 a bug or fewer mutants than --min-mutants, 2
setup failure.
"""
import argparse
import hashlib
import concurrent.futures
import functools
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import threading
import time

import mutate

ROOT = pathlib.Path(__file__).resolve().parents[2]
CPU_BUNDLES = ROOT / "runtime" / "tests" / "cpu_bundles.sh"


def spec(stem):
    out = subprocess.run(["bash", str(CPU_BUNDLES), "spec", stem], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    kernel, wave, arch, *args = out.stdout.split("\n")[:-1]
    return {"kernel": kernel, "wave": wave, "arch": arch, "args": args}


@functools.cache
def clang_builds():
    """Whether bundles build with clang, which the race check needs."""
    cxx = os.environ.get("CXX") or shutil.which("clang++-19") or "clang++"
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True)
    except OSError:
        return False
    return "clang" in out.stdout


def bundle_env(kernel_spec):
    """The executor's settings for a kernel's bundle: its wave size and ARCH,
    and (with clang) the race check on shared memory, so that a race fails
    the run whether or not it changes the output."""
    env = dict(os.environ, AVE_CPU_WAVE_SIZE=kernel_spec["wave"], AVE_CPU_QUIET="1",
               ARCH=kernel_spec["arch"])
    env.setdefault("AVE_CPU_RACES", "1" if clang_builds() else "0")
    return env


def run_bench(bundle, env, timeout):
    """0 pass, 1 rejected, 'hang', or ('error', text)."""
    build = subprocess.run(["./build.sh", "--cpu"], cwd=bundle, env=env, capture_output=True,
                           text=True, timeout=600)
    if build.returncode != 0:
        return ("build-failed", build.stdout[-2000:] + build.stderr[-2000:])
    try:
        run = subprocess.run(["./bench", "--seed", "20261130", "--trials", "1", "--out",
                              "result.json"], cwd=bundle, env=env, capture_output=True,
                             text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ("hang", f"no result after {timeout} s (a deadlock or an endless loop)")
    reason = ""
    try:
        reason = json.loads((pathlib.Path(bundle) / "result.json").read_text()).get("reason") or ""
    except (OSError, ValueError):
        pass
    if run.returncode == 0:
        return ("correct", "")
    if run.returncode == 1:
        return ("wrong", reason or run.stdout[-400:])
    return ("run-failed", (run.stdout + run.stderr)[-2000:])


class Kernel:
    """One testdata kernel: its spec, its base bundle and one copy per worker."""

    def __init__(self, stem, ave, work, jobs):
        self.stem, self.ave, self.jobs = stem, ave, jobs
        self.spec = spec(stem)
        self.dir = pathlib.Path(work) / stem
        self.source = ROOT / "testdata" / f"{stem}.hip"
        self.lock = threading.Lock()  # one bundle per kernel: one run at a time

    def prepare(self, bundles):
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        self.bundle = self.dir / "bundle"
        built = pathlib.Path(bundles) / self.stem.replace("/", "_") / "bundle" if bundles else None
        if built and (built / "bench").exists():
            shutil.copytree(built, self.bundle, symlinks=True)
        else:
            cmd = [self.ave, "harness", str(self.source), "--kernel", self.spec["kernel"],
                   *self.spec["args"], "-o", str(self.bundle)]
            made = subprocess.run(cmd, capture_output=True, text=True)
            if made.returncode != 0:
                return f"harness failed: {made.stderr[-1000:]}"
        self.candidate = next((self.bundle / "kernel" / "candidate").glob("*.hip")).name
        (self.bundle / "kernel" / "candidate" / self.candidate).write_text(self.source.read_text())
        verdict, detail = run_bench(self.bundle, bundle_env(self.spec), 120)
        if verdict != "correct":
            return f"the original does not pass on the CPU executor: {verdict} {detail}"
        return None

    def execute(self, text, timeout):
        with self.lock:
            (self.bundle / "kernel" / "candidate" / self.candidate).write_text(text)
            return run_bench(self.bundle, bundle_env(self.spec), timeout)


def check_verdict(ave, path, kernel, time_limit_ms):
    out = subprocess.run([ave, "check", str(path), "--format", "json", "--time-limit-ms",
                          str(time_limit_ms)], capture_output=True, text=True, timeout=600)
    try:
        report = json.loads(out.stdout)
    except ValueError:
        return "invalid", []
    entries = [k for k in report.get("kernels", []) if k.get("kernel") == kernel]
    if out.returncode == 2 or not entries:
        return "invalid", []
    obligations = entries[0].get("obligations", [])
    statuses = [o.get("status") for o in obligations]
    shown = [f'{o.get("kind")} line {(o.get("location") or {}).get("line")}: {o.get("status")}'
             for o in obligations if o.get("status") != "proven"][:4]
    if "violated" in statuses:
        return "violated", shown
    if statuses and all(s == "proven" for s in statuses):
        return "proven", shown
    return "unproven", shown


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ave", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--kernels", default="", help="comma-separated stems (default: all with a spec)")
    p.add_argument("--count", type=int, default=0, help="mutants to draw (0: all)")
    p.add_argument("--budget-s", type=float, default=0, help="stop drawing after this many seconds")
    p.add_argument("--min-mutants", type=int, default=0)
    p.add_argument("--seed", type=int, default=20261130)
    p.add_argument("--execute", choices=["proven", "needed", "all"], default="needed")
    p.add_argument("--bundles", default="", help="built bundles to reuse (cpu_bundles.sh WORK)")
    p.add_argument("--order", type=int, choices=[1, 2], default=1)
    p.add_argument("--known-gap", action="append", default=[], choices=["unwritten-output"],
                   help="count proven mutants that fail this way apart, without failing the run "
                        "(unwritten-output: output coverage is not checked yet, README)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--time-limit-ms", type=int, default=10000)
    p.add_argument("--run-timeout-s", type=int, default=30)
    p.add_argument("--max-product", type=int, default=1 << 24,
                   help="largest product of sizes a violated mutant is rerun at (reproduce.py)")
    p.add_argument("--out", default="")
    p.add_argument("--journal", default="", help="append records here; resume from it")
    p.add_argument("--ave-commit", default="",
                   help="the clean commit --ave was built from: a journal made by another build "
                        "of the same commit resumes (a long run over several machines)")
    return p.parse_args()


def binary_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def source_commit():
    out = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                         capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


class Journal:
    """Records appended as they complete, after a header that names what
    they were made with; reopening it returns the records already made."""

    def __init__(self, path, header):
        self.path, self.header, self.lock = pathlib.Path(path), header, threading.Lock()

    def load(self):
        """The records already in the journal, or an error text."""
        if not self.path.exists():
            with self.path.open("w") as f:
                f.write(json.dumps(self.header) + "\n")
            return [], None
        text = self.path.read_text()
        if text and not text.endswith("\n"):
            # A record cut short by an interruption: drop it, so that the
            # next one starts on a line of its own (that mutant runs again).
            text = text[:text.rfind("\n") + 1]
            self.path.write_text(text)
        lines = text.splitlines()
        header = json.loads(lines[0]) if lines else {}
        # The mutator's digest decides which mutant an index is (a journal
        # from before it was recorded is taken as made with this one).
        # Another binary is another analysis, unless both say they were
        # built from the same clean commit (a rebuild on another machine).
        rebuilt = bool(self.header.get("ave_commit")) and \
            header.get("ave_commit") == self.header.get("ave_commit") and \
            not self.header["ave_commit"].endswith("-dirty")
        keys = ("seed", "order") + (() if rebuilt else ("ave_sha256",)) + (
            ("mutate_sha256",) if "mutate_sha256" in header else ())
        if any(header.get(k) != self.header.get(k) for k in keys):
            return [], (f"journal {self.path} was made with " +
                        ", ".join(f"{k}={header.get(k)}" for k in keys) + "; this run has " +
                        ", ".join(f"{k}={self.header.get(k)}" for k in keys))
        records = []
        for line in lines[1:]:
            records.append(json.loads(line))
        return records, None

    def append(self, record):
        with self.lock, self.path.open("a") as f:
            f.write(json.dumps(record) + "\n")


def restore_mutant(record, text):
    """Writes a record's mutant again where its file is gone: a record from
    the journal, whose kernel folder prepare() emptied."""
    path = pathlib.Path(record["file"])
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def mutant_text(stem, index, order, seed):
    """The text of mutant `index` of testdata/STEM.hip for an order and seed."""
    source = (ROOT / "testdata" / f"{stem}.hip").read_text()
    for i, m in enumerate(mutate.mutants(source, order, seed)):
        if i == index:
            return m.text
    raise KeyError(f"{stem} has no mutant {index} at order {order}, seed {seed}")


def classify(args, kernel, index, m):
    path = kernel.dir / "mutants" / f"{index:05d}.hip"
    path.parent.mkdir(exist_ok=True)
    path.write_text(m.text)
    status, shown = check_verdict(args.ave, path, kernel.spec["kernel"], args.time_limit_ms)
    record = {"kernel": kernel.stem, "index": index, "operator": m.operator, "line": m.line,
              "change": m.description, "check": status, "not_proven": shown, "file": str(path)}
    skip = {"proven": {"violated", "unproven"}, "needed": {"unproven"}, "all": set()}[args.execute]
    if status == "invalid" or status in skip:
        record["execution"] = "not-run"
        return record
    verdict, detail = kernel.execute(m.text, args.run_timeout_s)
    record["execution"] = {"hang": "wrong"}.get(verdict, verdict)
    record["execution_detail"] = detail[:400]
    return record


GAPS = {"unwritten-output": "unwritten outputs stay NaN"}


def known_gap(record, gaps):
    detail = record.get("execution_detail", "")
    return any(GAPS[g] in detail for g in gaps)


def summarise(records, gaps):
    table = {}
    for r in records:
        row = table.setdefault(r["check"], {})
        row[r["execution"]] = row.get(r["execution"], 0) + 1
    bugs = [r for r in records if r["check"] == "proven" and r["execution"] == "wrong"
            and not known_gap(r, gaps)]
    unconfirmed = [r for r in records if r["check"] == "violated" and r["execution"] == "correct"]
    wrong = [r for r in records if r["execution"] == "wrong"]
    violated_share = (sum(r["check"] == "violated" for r in wrong) / len(wrong)) if wrong else None
    return table, bugs, unconfirmed, violated_share


def main():
    args = parse_args()
    commit = source_commit()  # now: later commits may land while bundles build
    args.ave = str(pathlib.Path(args.ave).resolve())
    stems = [s for s in args.kernels.split(",") if s] or sorted(
        p.stem for p in (ROOT / "testdata").glob("*.hip"))
    kernels = {}
    for stem in stems:
        k = Kernel(stem, args.ave, args.work, args.jobs)
        if k.spec is None:
            print(f"fuzz: no CPU bundle spec for {stem}; skipped", file=sys.stderr)
            continue
        error = k.prepare(args.bundles)
        if error:
            print(f"fuzz: {stem}: {error}", file=sys.stderr)
            return 2
        kernels[stem] = k
    pool = [(stem, i, m) for stem, k in kernels.items()
            for i, m in enumerate(mutate.mutants(k.source.read_text(), args.order, args.seed))]
    texts = {(stem, i): m.text for stem, i, m in pool}
    random.Random(args.seed).shuffle(pool)
    if args.count:
        pool = pool[:args.count]
    start, records, journal = time.monotonic(), [], None
    if args.journal:
        journal = Journal(args.journal, {"seed": args.seed, "order": args.order,
                                         "ave_sha256": binary_digest(args.ave),
                                         "mutate_sha256": binary_digest(mutate.__file__),
                                         "commit": commit, "ave_commit": args.ave_commit})
        records, error = journal.load()
        if error:
            print(f"fuzz: {error}", file=sys.stderr)
            return 2
        done_keys = {(r["kernel"], r["index"]) for r in records}
        records = [r for r in records if r["kernel"] in kernels]
        pool = [item for item in pool if (item[0], item[1]) not in done_keys]
        print(f"fuzz: {len(records)} mutants from {args.journal}; {len(pool)} to draw", flush=True)
    resumed = len(records)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        pending = set()
        items = iter(pool)
        while True:
            while len(pending) < args.jobs * 2:
                if args.budget_s and time.monotonic() - start > args.budget_s:
                    break
                item = next(items, None)
                if item is None:
                    break
                stem, i, m = item
                pending.add(ex.submit(classify, args, kernels[stem], i, m))
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending, return_when="FIRST_COMPLETED")
            for f in done:
                r = f.result()
                records.append(r)
                if journal:
                    journal.append(r)
                mark = "BUG " if r["check"] == "proven" and r["execution"] == "wrong" \
                    and not known_gap(r, args.known_gap) else ""
                print(f'{mark}{r["kernel"]}#{r["index"]} {r["operator"]} line {r["line"]} '
                      f'({r["change"]}): check {r["check"]}, execution {r["execution"]}', flush=True)
    table, bugs, unconfirmed, share = summarise(records, args.known_gap)
    if args.execute != "proven":
        # Each violated mutant that passes at the bundle's shapes, at its
        # counterexample's own sizes (reproduce.py).
        import reproduce
        for r in unconfirmed:
            k = kernels[r["kernel"]]
            restore_mutant(r, texts[(r["kernel"], r["index"])])
            r["reproduced"] = reproduce.reproduce(
                args.ave, k.spec, k.bundle, r["file"], k.spec["kernel"],
                k.dir / "reproduce" / str(r["index"]), args.max_product)
    gap_records = [r for r in records if r["check"] == "proven" and r["execution"] == "wrong"
                   and known_gap(r, args.known_gap)]
    seconds = time.monotonic() - start
    print(f"\n{len(records)} mutants ({resumed} from the journal, {len(records) - resumed} in "
          f"{seconds:.0f} s); check x execution: {json.dumps(table)}")
    if share is not None:
        print(f"wrong mutants reported violated (not unproven): {share:.0%}")
    for r in unconfirmed:
        again = r.get("reproduced", {})
        where = f'wrong at its counterexample\'s {again["shape"]}' \
            if again.get("execution") == "wrong" else \
            f'passes at {again["shape"]} too' if "shape" in again else again.get("why", "not rerun")
        print(f'violated but passes at the bundle\'s shapes: {r["kernel"]}#{r["index"]} '
              f'{r["change"]} line {r["line"]}: {where} ({r["file"]})')
    for r in gap_records:
        print(f'known gap (not counted as a failure): {r["kernel"]}#{r["index"]} {r["change"]} '
              f'line {r["line"]} is proven but leaves outputs unwritten ({r["file"]})')
    for r in bugs:
        print(f'SOUNDNESS BUG: {r["kernel"]}#{r["index"]} {r["operator"]} line {r["line"]} '
              f'({r["change"]}) is proven but wrong: {r["execution_detail"]} ({r["file"]})')
    if args.out:
        result = {"command": " ".join(sys.argv), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                  "machine": f"{os.cpu_count()} cores", "seconds": round(seconds, 1),
                  "commit": commit, "ave_sha256": binary_digest(args.ave),
                  "seed": args.seed, "order": args.order,
                  "mutants": len(records), "from_journal": resumed,
                  "check_x_execution": table,
                  "wrong_reported_violated": share, "soundness_bugs": bugs,
                  "known_gaps": gap_records,
                  "unconfirmed_violations": unconfirmed,
                  "violated_wrong_at_own_parameters": sum(
                      r.get("reproduced", {}).get("execution") == "wrong" for r in unconfirmed)}
        tmp = pathlib.Path(args.out + ".tmp")
        tmp.write_text(json.dumps(result, indent=1) + "\n")
        tmp.replace(args.out)
    if bugs or len(records) < args.min_mutants:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
