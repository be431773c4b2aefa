"""Checks what issue 20 must show in an H200 run's results (h200_run.sh
calls it; it reads only the JSON the bundles wrote):

- gpu-register_tiled_gemm.json: the register-tiled candidate (block(256))
  and the 16x16 tiled reference (block(16, 16)) both pass with their own
  launches, both are timed, and speedup_vs_reference is the reference's
  median over the candidate's;
- gpu-faulting_reference.json: the reference's verdict is runtime-error at
  a shape, with its launch there, the candidate passes and its timing is in
  the JSON.

  check_issue20.py RESULTS_DIR      prints one line per claim; exit 1 if any fails
"""
import json
import os
import sys


def load(directory, name):
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def claims_pair(j):
    kernels = j["kernels"]
    cand, ref = kernels["candidate"], kernels["reference"]
    ratio = j["speedup_vs_reference"]
    expected = ref["median_ms"] / cand["median_ms"] if cand["median_ms"] and ref["median_ms"] else None
    return [
        ("candidate passes", cand["verdict"] == "pass"),
        ("reference passes", ref["verdict"] == "pass"),
        ("candidate launch is its own", cand["launch"] == "block(256) grid(N / 64, M / 64)"),
        ("reference launch is its own", ref["launch"] == "block(16, 16) grid(N / 16, M / 16)"),
        ("both timed", bool(cand["median_ms"]) and bool(ref["median_ms"])),
        ("speedup_vs_reference = reference_ms / candidate_ms (%s)" % ratio,
         expected is not None and ratio is not None and abs(ratio - expected) <= 1e-3 * expected),
    ]


def claims_fault(j):
    kernels = j["kernels"]
    cand, ref = kernels["candidate"], kernels["reference"]
    failed = ref.get("failed_at") or {}
    return [
        ("reference is a runtime error (%s)" % ref["reason"][:80], ref["verdict"] == "runtime-error"),
        ("the failure names a shape and the reference's launch",
         "shape" in failed and failed.get("launch", {}).get("block") == [16, 16, 1]),
        ("candidate passes", cand["verdict"] == "pass" and j["verdict"] == "pass"),
        ("candidate timing in the JSON", bool(cand["median_ms"]) and "candidate" in (j["timing"] or {})),
    ]


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else "."
    failures = 0
    for name, claims in (("gpu-register_tiled_gemm.json", claims_pair),
                         ("gpu-faulting_reference.json", claims_fault)):
        j = load(directory, name)
        if j is None:
            print("issue 20: %s: missing" % name)
            failures += 1
            continue
        try:
            results = claims(j)
        except (KeyError, TypeError) as e:
            results = [("the JSON has the fields (%s: %s)" % (type(e).__name__, e), False)]
        for what, ok in results:
            print("issue 20: %-28s %-4s %s" % (name, "ok" if ok else "FAIL", what))
            failures += 0 if ok else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
