#!/usr/bin/env python3
"""Runs a violated mutant at its counterexample's parameters.

A violated verdict's counterexample is at its own sizes (`K=25264`), and a
mutant may pass at the bundle's small shapes and still be wrong there. This
takes the sizes of each violated obligation's counterexample (the kernel's
`--shape` names; one the model leaves free is the bundle's), smallest first, builds a harness bundle of the mutant at
the first that the harness accepts (its assumptions hold; the product of
the sizes at most --max-product), and runs it on the CPU executor. When
every counterexample is too large (Z3 may pick N = 32768), the mutant is
checked again with each size bounded (`#pragma ave assume N <= 255`, the
product then under --max-product) and run at that counterexample; failing
that, with one size at a time left large and the others at most 64 (a
`signed char` count of K / 16 wraps only from K = 2048 on).

    reproduce.py --ave build/ave-rewrite --results fuzz.json [--work DIR]
                 [--max-product N] [--out reproduced.json]

reads the unconfirmed violations of a fuzz.py run (their mutant files are
still in its --work directory) and writes each with `reproduced`: the shape
and the execution's verdict there, or why it was not run. fuzz.py calls
`reproduce` for its own unconfirmed violations.
"""
import argparse
import json
import math
import pathlib
import shutil
import subprocess
import sys

import fuzz

# Obligations execution does not judge: the executor runs blocks one after
# another, so a race between blocks on global memory never shows.
UNJUDGED = {"global-race-free"}
# Judged at any shape (the bundle's too): a race on shared memory, with the
# executor's race check (AVE_CPU_RACES=1); a read of shared memory no thread
# wrote, with its strict reads (AVE_CPU_UNWRITTEN_READS=1); and a divergent
# barrier, which the executor always reports.
ANY_SHAPE = {"lds-race-free": {"AVE_CPU_RACES": "1"},
             "lds-read-written": {"AVE_CPU_RACES": "1", "AVE_CPU_UNWRITTEN_READS": "1"},
             "barrier-uniform": {}}


def bundle_shape(spec):
    """The sizes of the kernel's bundle, {name: value} in --shape order."""
    args = spec["args"]
    shape = args[args.index("--shape") + 1] if "--shape" in args else ""
    return {part.split("=")[0]: int(part.split("=")[1]) for part in shape.split(",") if "=" in part}


def counterexample_shapes(ave, path, kernel, defaults):
    """The violated obligations' sizes, smallest product first (a size the
    model leaves free is the bundle's; the bundle's own shape for a race or
    a divergent barrier), whether every violated obligation is one execution
    does not judge, and the settings the build and run need."""
    out = subprocess.run([ave, "check", str(path), "--format", "json"], capture_output=True,
                         text=True, timeout=600)
    try:
        report = json.loads(out.stdout)
    except ValueError:
        return [], False, {}
    violated = [o for k in report.get("kernels", []) if k.get("kernel") == kernel
                for o in k.get("obligations", []) if o.get("status") == "violated"]
    shapes = []
    for o in violated:
        values = (o.get("counterexample") or {}).get("values") or {}
        shape = {n: int(values.get(n, v)) for n, v in defaults.items()}
        if any(n in values for n in defaults) and shape not in shapes:
            shapes.append(shape)
        if o.get("kind") in ANY_SHAPE and defaults not in shapes:
            shapes.append(dict(defaults))
    shapes.sort(key=lambda s: math.prod(s.values()))
    unjudged = bool(violated) and all(o.get("kind") in UNJUDGED for o in violated)
    settings = {}
    for o in violated:
        settings.update(ANY_SHAPE.get(o.get("kind"), {}))
    return [(s, math.prod(s.values())) for s in shapes], unjudged, settings


def bounded_copy(path, names, bound, work):
    """A copy of the mutant with `#pragma ave assume NAME <= bound` for every
    size after its first assumption (`bound`: one for all, or a bound per
    name), or None. A counterexample under more assumptions is one under the
    mutant's own, at sizes small enough to run."""
    bounds = bound if isinstance(bound, dict) else {n: bound for n in names}
    lines = pathlib.Path(path).read_text().splitlines(keepends=True)
    for i, line in enumerate(lines):
        if "#pragma ave assume" not in line and "AVE_ASSUME(" not in line:
            continue
        while lines[i].rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
        extra = "#pragma ave assume " + " && ".join(f"{n} <= {b}" for n, b in bounds.items()) + "\n"
        copy = pathlib.Path(work).parent / ("bounded-" + pathlib.Path(path).name)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text("".join(lines[:i + 1] + [extra] + lines[i + 1:]))
        return copy
    return None


def run_first(ave, kernel_spec, base_bundle, path, kernel, work, shapes, max_product, timeout,
              settings):
    """Runs the mutant at the first of shapes the harness accepts, built and
    run with the executor's settings; None if none."""
    for shape, product in shapes:
        if product > max_product or min(shape.values()) < 1:
            continue
        text = ",".join(f"{n}={v}" for n, v in shape.items())
        args = list(kernel_spec["args"])
        args[args.index("--shape") + 1] = text
        bundle = pathlib.Path(work)
        shutil.rmtree(bundle, ignore_errors=True)
        made = subprocess.run([ave, "harness", str(path), "--kernel", kernel, *args, "-o",
                               str(bundle)], capture_output=True, text=True)
        if made.returncode != 0:
            continue  # outside the kernel's assumptions: the next shape
        # The executor's own objects only (the kernel's must be rebuilt).
        objects = pathlib.Path(base_bundle) / "cpu-obj"
        (bundle / "cpu-obj").mkdir(parents=True, exist_ok=True)
        for name in ("ave_cpu_runtime.o", "ave_cpu_runtime.d", "anchor_none.o", "anchor_none.d",
                     "flags"):
            if (objects / name).exists():
                shutil.copy2(objects / name, bundle / "cpu-obj" / name)
                (bundle / "cpu-obj" / name).touch()
        env = dict(fuzz.bundle_env(kernel_spec), **settings)
        verdict, detail = fuzz.run_bench(bundle, env, timeout)
        ran = {"shape": text, "execution": {"hang": "wrong"}.get(verdict, verdict),
               "detail": detail[:300]}
        if settings:
            ran["settings"] = settings
        return ran
    return None


def reproduce(ave, kernel_spec, base_bundle, path, kernel, work, max_product, timeout=300):
    defaults = bundle_shape(kernel_spec)
    if not pathlib.Path(path).exists():
        return {"execution": "not-run", "why": f"the mutant {path} is gone"}
    shapes, unjudged, settings = counterexample_shapes(ave, path, kernel, defaults)
    if unjudged:
        return {"execution": "not-run", "why": "a race on global memory: not judged"}
    ran = run_first(ave, kernel_spec, base_bundle, path, kernel, work, shapes, max_product,
                    timeout, settings)
    if ran:
        return ran
    # Z3 may pick N = 32768 where N = 64 would do: ask again with every size
    # bounded so that their product stays under max_product, and run the
    # mutant itself at the smaller counterexample.
    bound = max(16, int(max_product ** (1.0 / max(1, len(defaults)))))
    bounded = bounded_copy(path, defaults, bound, work) if shapes else None
    if bounded:
        small, _, settings = counterexample_shapes(ave, bounded, kernel, defaults)
        ran = run_first(ave, kernel_spec, base_bundle, path, kernel, work, small, max_product,
                        timeout, settings)
        if ran:
            ran["bounded"] = f"counterexample asked again with every size <= {bound}"
            return ran
    # One size may have to be large where the others need not be (`signed
    # char nt = K / 16` wraps from K = 2048 on): each in turn gets what the
    # product leaves when the others are at most 64.
    for name in defaults if shapes and len(defaults) > 1 else []:
        small = 64
        bounds = {n: max_product // small ** (len(defaults) - 1) if n == name else small
                  for n in defaults}
        bounded = bounded_copy(path, defaults, bounds, work)
        if not bounded:
            break
        lopsided, _, settings = counterexample_shapes(ave, bounded, kernel, defaults)
        ran = run_first(ave, kernel_spec, base_bundle, path, kernel, work, lopsided,
                        max_product, timeout, settings)
        if ran:
            ran["bounded"] = "counterexample asked again with " + ", ".join(
                f"{n} <= {b}" for n, b in bounds.items())
            return ran
    why = "no counterexample gives any of the sizes " + ",".join(defaults) if not shapes else \
        f"every counterexample shape is past {max_product} or outside the assumptions"
    return {"execution": "not-run", "why": why}


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ave", required=True)
    p.add_argument("--results", required=True)
    p.add_argument("--work", default="/tmp/ave-reproduce")
    p.add_argument("--max-product", type=int, default=1 << 24)
    p.add_argument("--out", default="")
    p.add_argument("--seed", type=int, default=None,
                   help="the run's seed, to write a mutant whose file is gone (default: the "
                   "results' own)")
    p.add_argument("--order", type=int, default=None, help="the run's order, as --seed")
    args = p.parse_args()
    ave = str(pathlib.Path(args.ave).resolve())
    results = json.loads(pathlib.Path(args.results).read_text())
    specs = {}
    out = []
    seed = args.seed if args.seed is not None else results.get("seed")
    order = args.order if args.order is not None else results.get("order", 1)
    for r in results.get("unconfirmed_violations", []):
        spec = specs.setdefault(r["kernel"], fuzz.spec(r["kernel"]))
        base = pathlib.Path(r["file"]).parents[1] / "bundle"
        if not pathlib.Path(r["file"]).exists() and seed is not None:
            fuzz.restore_mutant(r, fuzz.mutant_text(r["kernel"], r["index"], order, seed))
        r["reproduced"] = reproduce(ave, spec, base, r["file"], spec["kernel"],
                                    pathlib.Path(args.work) / f'{r["kernel"]}-{r["index"]}',
                                    args.max_product)
        print(f'{r["kernel"]}#{r["index"]} {r["change"]}: {json.dumps(r["reproduced"])}',
              flush=True)
        out.append(r)
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
