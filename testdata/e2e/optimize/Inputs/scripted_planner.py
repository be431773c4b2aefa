#!/usr/bin/env python3
"""A fake external planner for `optimize --planner-cmd` (docs/planner-protocol.md).

It answers each `propose` with the next answer of a script (a JSON list;
each item is either an object to send as is, or the string "garbage" for a
malformed line) and appends every message it receives to --log (one JSON
object per line), so a test can check what the optimizer told it.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", required=True)
    ap.add_argument("--log", required=True)
    args = ap.parse_args()
    with open(args.script) as f:
        answers = json.load(f)
    log = open(args.log, "a")
    for line in sys.stdin:
        message = json.loads(line)
        log.write(json.dumps(message) + "\n")
        log.flush()
        if message.get("type") not in ("propose", "error"):
            continue
        answer = answers.pop(0) if answers else {"type": "stop", "reason": "script done"}
        sys.stdout.write(("garbage" if answer == "garbage" else json.dumps(answer)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
