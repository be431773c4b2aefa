"""Semantic mutations of an annotated HIP kernel, for the soundness fuzzer.

A mutant changes code, never annotations: the spec stays the original's, so
the original's harness bundle (its einsum reference, shapes and launch) is
the ground truth for every mutant. Each operator is one of the mistakes a
kernel author makes (issue 11's list): an index off by one, swapped thread
ids, a changed loop bound or stride, a dropped, duplicated or moved
statement, a removed or conditioned barrier, a changed integer type, an
extra store. Mutants are enumerated in a fixed order, so a seed picks the
same sample on every machine.
"""
import re
from dataclasses import dataclass

INT_TYPES = ["unsigned", "short", "unsigned short", "signed char", "long long"]
SWAPS = [("threadIdx.x", "threadIdx.y"), ("blockIdx.x", "blockIdx.y"), ("blockDim.x", "blockDim.y")]


@dataclass
class Mutant:
    operator: str
    line: int  # 1-based line of the change in the original
    description: str
    text: str


def kernel_region(lines):
    """Indices of the lines of code inside kernel bodies (the first `{` after
    `__global__` up to its matching `}`), without annotations or comments."""
    region, depth, inside, seen_global = [], 0, False, False
    for i, line in enumerate(lines):
        code = line.split("//")[0]
        if "__global__" in code:
            seen_global = True
        opened = False
        for ch in code:
            if ch == "{" and seen_global and not inside:
                inside, depth, opened = True, 0, True
            if inside and ch == "{":
                depth += 1
            elif inside and ch == "}":
                depth -= 1
                if depth == 0:
                    inside, seen_global = False, False
        stripped = code.strip()
        if (inside or depth > 0) and not opened and stripped and not stripped.startswith("#") \
                and "AVE_" not in code and not stripped.startswith("__shared__"):
            region.append(i)
    return region


def kernel_params(text):
    """Names of the non-const pointer parameters (outputs) of the kernels."""
    outputs = set()
    for m in re.finditer(r"__global__[^(]*\(([^{]*)\)\s*\{", text, re.S):
        for param in re.sub(r'AVE_TAG\("[^"]*"\)', "", m.group(1)).split(","):
            pm = re.search(r"\*\s*(?:__restrict__\s*)?(\w+)\s*$", param.strip())
            if pm and "const" not in param:
                outputs.add(pm.group(1))
    return outputs


def int_locals(lines, region):
    names = []
    for i in region:
        for m in re.finditer(r"\bint\s+([^;=()]+(?:=[^;,]+)?(?:,\s*\w+\s*=[^;,]+)*)", lines[i]):
            for decl in m.group(1).split(","):
                name = decl.split("=")[0].strip()
                if re.fullmatch(r"\w+", name) and name not in names:
                    names.append(name)
    return names


def replace_at(line, start, end, new):
    return line[:start] + new + line[end:]


def literal_mutants(lines, i):
    line = lines[i]
    for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", line.split("//")[0]):
        value = int(m.group(1))
        for delta in (1, -1):
            if value + delta < 0:
                continue
            yield "index-literal", f"{value} -> {value + delta}", \
                replace_at(line, m.start(), m.end(), str(value + delta))


def swap_mutants(lines, i, locals_):
    line = lines[i]
    code = line.split("//")[0]
    for a, b in SWAPS:
        for old, new in ((a, b), (b, a)):
            for m in re.finditer(re.escape(old), code):
                yield "thread-id", f"{old} -> {new}", replace_at(line, m.start(), m.end(), new)
    for m in re.finditer(r"\b(\w+)\b", code):
        name = m.group(1)
        if name not in locals_:
            continue
        # Only a use (not the declaration) is swapped, with a local declared before.
        if re.match(r"\s*=[^=]", code[m.end():]) and re.search(r"\bint\s+[\w\s,=+*/()-.]*$", code[:m.start()]):
            continue
        for other in locals_[:locals_.index(name)] + locals_[locals_.index(name) + 1:]:
            if abs(locals_.index(other) - locals_.index(name)) == 1:
                yield "swapped-local", f"{name} -> {other}", replace_at(line, m.start(), m.end(), other)


def operator_mutants(lines, i):
    line = lines[i]
    code = line.split("//")[0]
    if re.search(r"\b(for|if|while)\b", code):
        for m in re.finditer(r"(?<![<>=!])(<=|>=|<|>)(?![<>=])", code):
            flip = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[m.group(1)]
            yield "loop-bound", f"{m.group(1)} -> {flip}", replace_at(line, m.start(), m.end(), flip)
    for m in re.finditer(r"\[([^\[\]]*)\]", code):
        inner = m.group(1)
        for p in re.finditer(r"(?<![+])\+(?![+=])", inner):
            yield "index-operator", "+ -> - in a subscript", \
                replace_at(line, m.start(1) + p.start(), m.start(1) + p.end(), "-")


def statement_mutants(lines, i, outputs):
    line = lines[i]
    code = line.split("//")[0].strip()
    if not code.endswith(";") or code.startswith(("for", "if", "while", "return")):
        return
    indent = line[: len(line) - len(line.lstrip())]
    is_decl = re.match(r"(const\s+)?(int|float|double|unsigned|half|__half|auto|size_t)\b", code)
    if code == "__syncthreads();":
        yield "barrier-removed", "__syncthreads() removed", None
        yield "barrier-conditioned", "__syncthreads() under a thread-dependent condition", \
            f"{indent}if (threadIdx.x % 2 == 0) __syncthreads();"
        return
    if not is_decl:
        yield "statement-dropped", "statement dropped", None
        yield "statement-duplicated", "statement duplicated", line + "\n" + line
    store = re.match(r"(\w+)\s*\[(.*)\]\s*(\+?=)", code)
    if store and store.group(1) in outputs:
        subscript = store.group(2)
        extra = line.replace("[" + subscript + "]", "[" + subscript + " + 1]", 1)
        yield "extra-store", "an extra store one element further", line + "\n" + extra
    decl = re.match(r"(\s*)(int)\b", line)
    if decl:
        for t in INT_TYPES:
            yield "integer-type", f"int -> {t}", line[: decl.start(2)] + t + line[decl.end(2):]


def loop_type_mutants(lines, i):
    line = lines[i]
    m = re.search(r"\bfor\s*\(\s*(int)\b", line)
    if m:
        for t in INT_TYPES:
            yield "integer-type", f"loop counter int -> {t}", replace_at(line, m.start(1), m.end(1), t)


def move_mutants(lines, region, i):
    nxt = i + 1
    if nxt not in region:
        return
    a, b = lines[i].strip(), lines[nxt].strip()
    if a.endswith(";") and b.endswith(";") and not a.startswith(("for", "if")) \
            and not b.startswith(("for", "if")):
        yield "statement-moved", "statement moved below the next", (nxt, lines[nxt] + "\n" + lines[i])


def mutants(text):
    """Every mutant of `text`, in a fixed order."""
    lines = text.split("\n")
    region = kernel_region(lines)
    outputs = kernel_params(text)
    locals_ = int_locals(lines, region)
    out = []

    def emit(op, i, desc, new_line):
        copy = list(lines)
        copy[i] = new_line if new_line is not None else ""
        out.append(Mutant(op, i + 1, desc, "\n".join(copy)))

    for i in region:
        for gen in (literal_mutants(lines, i), swap_mutants(lines, i, locals_),
                    operator_mutants(lines, i), statement_mutants(lines, i, outputs),
                    loop_type_mutants(lines, i)):
            for op, desc, new in gen:
                emit(op, i, desc, new)
        for op, desc, (j, pair) in move_mutants(lines, region, i):
            copy = list(lines)
            copy[i] = ""
            copy[j] = pair
            out.append(Mutant(op, i + 1, desc, "\n".join(copy)))
    return out
