"""Asserts facts about JSON read from stdin, for end-to-end tests.

Usage: ave-rewrite ... --format json | jsoncheck.py 'EXPR' ['EXPR' ...]
Each EXPR is a Python expression over `j` (the parsed document) that must be
true; the first false one is printed with the document and exits 1.
"""
import json
import sys


def main():
    text = sys.stdin.read()
    try:
        j = json.loads(text)
    except json.JSONDecodeError as e:
        print(f"jsoncheck: not JSON: {e}\n{text[:2000]}", file=sys.stderr)
        return 1
    for expr in sys.argv[1:]:
        try:
            ok = eval(expr, {"j": j, "any": any, "all": all, "len": len})
        except Exception as e:  # a failed lookup is a failed assertion
            ok = False
            expr = f"{expr}  ({type(e).__name__}: {e})"
        if not ok:
            print(f"jsoncheck: false: {expr}\n{json.dumps(j, indent=1)[:4000]}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
