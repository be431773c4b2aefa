"""Prints a `--format json` document without its timings (keys `millis`
and `*_ms`) and its solver work (`solver_work`: a check that reaches its
wall-clock backstop on a loaded machine is asked again, which adds work),
sorted, so that two runs of the same analysis compare equal."""
import json
import sys


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in ("millis", "solver_work") and not k.endswith("_ms")}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


print(json.dumps(strip(json.load(open(sys.argv[1]))), indent=1, sort_keys=True))
