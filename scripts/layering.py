#!/usr/bin/env python3
"""Folder-level layering: every library folder may include the public
headers (`ave/<lib>/...`) of other folders, but the graph must have no
cycle. Prints the graph and exits 1 naming a cycle if there is one.
A library nested in a top-level folder (src/lint, beside the CLI in src/)
is a node of its own: its files belong to it, not to the folder."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Public-header directory name -> the folder that owns it.
OWNERS = {"lint": "src/lint", "hip_on_cuda": "runtime", "hip_on_cpu": "runtime"}
SKIP = {"build", "testdata", "unittests", "bench", "docs", "scripts", "cmake", ".git"}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]ave/([A-Za-z_]+)/', re.M)


def folders():
    tops = sorted(p.name for p in ROOT.iterdir()
                  if p.is_dir() and p.name not in SKIP and not p.name.startswith("."))
    nested = sorted(set(OWNERS.values()) - set(tops))
    return tops + nested


def node_of(path, names):
    rel = str(path.relative_to(ROOT))
    return max((n for n in names if rel.startswith(n + "/")), key=len)


def edges(names):
    graph = {name: set() for name in names}
    for name in names:
        for path in (ROOT / name).rglob("*"):
            if path.suffix not in (".cpp", ".h", ".hip") or "build" in path.parts:
                continue
            if node_of(path, names) != name:
                continue
            for lib in INCLUDE.findall(path.read_text(errors="replace")):
                owner = OWNERS.get(lib, lib)
                if owner in graph and owner != name:
                    graph[name].add((owner, str(path.relative_to(ROOT))))
    return graph


def find_cycle(graph):
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for dep, _ in sorted(graph[node]):
            if state.get(dep) == "open":
                return stack[stack.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in graph:
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def main():
    graph = edges(folders())
    for name in sorted(graph):
        print(f"{name}: {', '.join(sorted({d for d, _ in graph[name]})) or '-'}")
    cycle = find_cycle(graph)
    if cycle:
        print("cycle between folders: " + " -> ".join(cycle), file=sys.stderr)
        for a, b in zip(cycle, cycle[1:]):
            where = sorted(f for d, f in graph[a] if d == b)
            print(f"  {a} -> {b}: {where[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
