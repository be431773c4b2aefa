"""Random control flow, both directions.

Generates kernels whose body is a random nest of if/else, for, while, do,
switch (with fallthrough), break, continue, return and forward goto around a
value that always is X[i], then stores it to Y[i]. `check` must prove each
(no false alarm, nothing unproven, no crash); the same kernel with one path
loading the neighbour X[(i + 1) % N] must fail with a counterexample.
Usage: control_flow_fuzz.py 'AVE' OUTDIR FIRST_SEED COUNT
"""
import json
import os
import random
import shlex
import subprocess
import sys

def gen_stmt(d, r, loopdepth, labels):
    k = r.choice(['assign','assign','if','ifelse','for','while','do','switch','brk','cont','ret','gotof'] if d < 3 else ['assign','assign','brk','cont'])
    ind = '  ' * (d + 1)
    if k == 'assign':
        return ind + r.choice(['v = X[i];','v = v + 0.0f;','v = 1.0f * v;','j += 1;','j = j * 2 + mode;','v = fmaxf(v, X[i]);']) + '\n'
    if k == 'if':
        return ind + f'if ({r.choice(["mode > 2","j < 4","(mode & 1) && j > 0","mode == 3 || j == 1"])}) {{\n' + gen_block(d+1, r, loopdepth, labels) + ind + '}\n'
    if k == 'ifelse':
        return ind + f'if (mode > {r.randint(0,5)}) {{\n' + gen_block(d+1, r, loopdepth, labels) + ind + '} else {\n' + gen_block(d+1, r, loopdepth, labels) + ind + '}\n'
    if k == 'for':
        q = f'q{d}'
        return ind + f'for (int {q} = 0; {q} < {r.randint(1,5)}; ++{q}) {{\n' + gen_block(d+1, r, loopdepth+1, labels) + ind + '}\n'
    if k == 'while':
        return ind + 'while (j < 8) {\n' + ind + '  j += 1;\n' + gen_block(d+1, r, loopdepth+1, labels) + ind + '}\n'
    if k == 'do':
        return ind + 'do {\n' + ind + '  j += 1;\n' + gen_block(d+1, r, loopdepth+1, labels) + ind + '} while (j < 6);\n'
    if k == 'switch':
        s = ind + 'switch (mode % 3) {\n'
        for c in range(r.randint(1,3)):
            s += ind + f'case {c}:\n' + gen_block(d+1, r, loopdepth, labels)
            if r.random() < 0.7: s += ind + '  break;\n'
        if r.random() < 0.5: s += ind + 'default:\n' + gen_block(d+1, r, loopdepth, labels)
        return s + ind + '}\n'
    if k == 'brk':
        return (ind + 'if (mode == 7) break;\n') if loopdepth else ind + 'j += 2;\n'
    if k == 'cont':
        return (ind + 'if (mode == 6) continue;\n') if loopdepth else ind + 'j -= 1;\n'
    if k == 'ret':
        return ind + 'if (mode == 9) return;\n'
    if k == 'gotof':
        labels.append(len(labels))
        return ind + f'if (mode == 11) goto L{labels[-1]};\n'
def gen_block(d, r, loopdepth, labels):
    return ''.join(gen_stmt(d, r, loopdepth, labels) for _ in range(r.randint(1,3)))
def kernel(seed, bad):
    r = random.Random(seed)
    labels = []
    body = gen_block(0, r, 0, labels)
    lab = ''.join(f'L{l}:\n' for l in labels)
    load = 'X[(i + 1) % N]' if bad else 'X[i]'
    return f'''#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void k(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"), int N, int mode) {{
#pragma ave launch block(64)
#pragma ave assume N >= 64
  int i = blockIdx.x * 64 + threadIdx.x;
  if (i >= N) return;
  float v = X[i];
  int j = 0;
{body}{lab}  v = mode == 42 ? {load} : v;
  Y[i] = v;
}}
'''


def run(ave, path):
    # The kernels return early under `mode` (`if (mode == 9) return;`), so
    # for some modes they leave Y unwritten: output-written is not what this
    # walk test is about, and is left out of the counts (exit code included).
    proc = subprocess.run(ave + ["check", path, "--format", "json"], capture_output=True, text=True)
    try:
        kernels = json.loads(proc.stdout)["kernels"]
    except (json.JSONDecodeError, KeyError):
        return proc.returncode, None
    statuses = [o["status"] for k in kernels for o in k["obligations"]
                if o["kind"] != "output-written"]
    summary = {"violated": statuses.count("violated"),
               "unproven": len(statuses) - statuses.count("violated") - statuses.count("proven")}
    code = 1 if summary["violated"] else (0 if not summary["unproven"] else 1)
    return code, summary


def main():
    ave = shlex.split(sys.argv[1])
    out, first, count = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    os.makedirs(out, exist_ok=True)
    failures = []
    for seed in range(first, first + count):
        for bad in (False, True):
            path = os.path.join(out, f"{'bad' if bad else 'good'}_{seed}.hip")
            with open(path, "w") as f:
                f.write(kernel(seed, bad))
            code, summary = run(ave, path)
            if summary is None:
                failures.append(f"{path}: no result (exit {code})")
            elif not bad and (code != 0 or summary["violated"] or summary["unproven"]):
                failures.append(f"{path}: not proven (exit {code}, {summary})")
            elif bad and (code != 1 or not summary["violated"]):
                failures.append(f"{path}: not caught (exit {code}, {summary})")
    for f in failures:
        print("FAIL", f)
    print(f"{2 * count - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
