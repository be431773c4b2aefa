"""Prints a block of docs/ci.md for the CI test to run as written.

ci_docs.py DOCS NAME: the lines between `# >>> NAME` and `# <<< NAME`,
dedented. A block that is one `entry: COMMAND` line (a pre-commit hook)
prints COMMAND. Exits 1 when the block is missing, so that the docs and the
test cannot drift apart silently.
"""
import sys
import textwrap


def main():
    docs, name = sys.argv[1], sys.argv[2]
    lines = open(docs, encoding="utf-8").read().splitlines()
    start = end = None
    for i, line in enumerate(lines):
        if line.strip() == f"# >>> {name}":
            start = i + 1
        elif line.strip() == f"# <<< {name}" and start is not None:
            end = i
            break
    if start is None or end is None:
        print(f"ci_docs: no block '{name}' in {docs}", file=sys.stderr)
        return 1
    block = textwrap.dedent("\n".join(lines[start:end])).strip("\n")
    if block.startswith("entry:") and "\n" not in block:
        block = block[len("entry:"):].strip()
    print(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
