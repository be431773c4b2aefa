#!/usr/bin/env python3
"""Exit 0 when two optimize lineage folders hold the same search: the same
members (id, parent, action, score) and the same attempts (parent, action,
status, stage), member texts and final patch. Timings may differ."""
import json
import os
import sys


def summary(folder):
    with open(os.path.join(folder, "lineage.json")) as f:
        index = json.load(f)
    members = [(m["id"], m["parent"], json.dumps(m["action"], sort_keys=True), m["score"])
               for m in index["members"]]
    attempts = [(a["parent"], json.dumps(a["action"], sort_keys=True), a["status"], a["stage"])
                for a in index["attempts"]]
    texts = {}
    for m in index["members"]:
        for name in os.listdir(os.path.join(folder, m["id"])):
            if name.endswith(".hip"):
                with open(os.path.join(folder, m["id"], name)) as f:
                    texts[m["id"]] = f.read()
    with open(os.path.join(folder, "final.patch")) as f:
        patch = f.read()
    return members, attempts, texts, patch


a, b = summary(sys.argv[1]), summary(sys.argv[2])
for what, x, y in zip(("members", "attempts", "texts", "final patch"), a, b):
    if x != y:
        print(f"the lineages differ in their {what}:\n{x}\n{y}")
        sys.exit(1)
print(f"same lineage: {len(a[0])} members, {len(a[1])} attempts")
