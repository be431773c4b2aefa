"""Validates a SARIF log against what GitHub code scanning requires.

Usage: sarif_check.py LOG.sarif [--expect-rule ID] [--expect-related]
Checks (GitHub's "SARIF support for code scanning"): version 2.1.0 with
$schema; runs[].tool.driver.name and rules with string ids, short and full
descriptions and help text; each result's ruleId names a rule, ruleIndex
points at it, level is one of none/note/warning/error, message.text is set,
and it has one physicalLocation with a relative artifactLocation.uri (with a
uriBaseId declared in originalUriBaseIds), a region with startLine (>= 1),
startColumn, endLine, endColumn; partialFingerprints is a string map;
relatedLocations and codeFlows are well formed.
"""
import json
import sys


def fail(msg):
    print("sarif_check: " + msg, file=sys.stderr)
    sys.exit(1)


def check_physical(p, where):
    art = p.get("artifactLocation")
    if not isinstance(art, dict) or not isinstance(art.get("uri"), str) or not art["uri"]:
        fail(f"{where}: artifactLocation.uri missing")
    if art["uri"].startswith("/"):
        fail(f"{where}: uri {art['uri']} is not relative")
    region = p.get("region")
    if not isinstance(region, dict):
        fail(f"{where}: region missing")
    for key in ("startLine", "startColumn", "endLine", "endColumn"):
        if not isinstance(region.get(key), int) or region[key] < 1:
            fail(f"{where}: region.{key} missing or < 1")
    if (region["endLine"], region["endColumn"]) < (region["startLine"], region["startColumn"]):
        fail(f"{where}: region ends before it starts")
    return art


def main():
    args = sys.argv[1:]
    log = json.load(open(args[0]))
    expect_rule = args[args.index("--expect-rule") + 1] if "--expect-rule" in args else None
    expect_related = "--expect-related" in args
    if log.get("version") != "2.1.0" or "$schema" not in log:
        fail("version 2.1.0 and $schema required")
    runs = log.get("runs")
    if not isinstance(runs, list) or len(runs) != 1:
        fail("exactly one run expected")
    run = runs[0]
    driver = run["tool"]["driver"]
    if not driver.get("name"):
        fail("tool.driver.name missing")
    rules = driver.get("rules", [])
    ids = [r.get("id") for r in rules]
    if len(set(ids)) != len(ids):
        fail("duplicate rule ids")
    for r in rules:
        if not isinstance(r.get("id"), str):
            fail("rule without string id")
        for key in ("shortDescription", "fullDescription", "help"):
            if not isinstance(r.get(key, {}).get("text"), str) or not r[key]["text"]:
                fail(f"rule {r['id']}: {key}.text missing")
    bases = run.get("originalUriBaseIds", {})
    results = run.get("results")
    if not isinstance(results, list):
        fail("results missing")
    seen_rules, related = set(), 0
    for i, res in enumerate(results):
        where = f"results[{i}]"
        rid = res.get("ruleId")
        if rid not in ids:
            fail(f"{where}: ruleId {rid} is not a rule")
        if ids[res.get("ruleIndex", -1)] != rid:
            fail(f"{where}: ruleIndex does not point at {rid}")
        if res.get("level") not in ("none", "note", "warning", "error"):
            fail(f"{where}: bad level")
        if not res.get("message", {}).get("text"):
            fail(f"{where}: message.text missing")
        locs = res.get("locations")
        if not isinstance(locs, list) or len(locs) != 1:
            fail(f"{where}: one location expected")
        art = check_physical(locs[0]["physicalLocation"], where)
        if art.get("uriBaseId") and art["uriBaseId"] not in bases:
            fail(f"{where}: uriBaseId {art['uriBaseId']} not declared")
        fp = res.get("partialFingerprints")
        if not isinstance(fp, dict) or not fp or not all(isinstance(v, str) for v in fp.values()):
            fail(f"{where}: partialFingerprints missing")
        for j, rel in enumerate(res.get("relatedLocations", [])):
            check_physical(rel["physicalLocation"], f"{where}.relatedLocations[{j}]")
            if not isinstance(rel.get("id"), int) or not rel.get("message", {}).get("text"):
                fail(f"{where}.relatedLocations[{j}]: id and message required")
            related += 1
        for flow in res.get("codeFlows", []):
            for tf in flow["threadFlows"]:
                if not tf["locations"]:
                    fail(f"{where}: empty threadFlow")
                for step in tf["locations"]:
                    check_physical(step["location"]["physicalLocation"], f"{where}.codeFlows")
        seen_rules.add(rid)
    if expect_rule and expect_rule not in seen_rules:
        fail(f"no result for {expect_rule}")
    if expect_related and not related:
        fail("no relatedLocations")
    print(f"sarif_check: ok ({len(results)} results, {len(rules)} rules)")


if __name__ == "__main__":
    main()
