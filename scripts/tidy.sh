#!/usr/bin/env bash
# The project's own clang-tidy rules (.clang-tidy: one naming convention,
# functions under 100 lines) over every library folder and src/, warnings as
# errors. Needs a build (compile_commands.json and the plugin in tidy/):
#   scripts/tidy.sh [BUILD_DIR [I/N]]  (default: build, every file)
# I/N: the I-th of N shares of the files (0 <= I < N), by position in the
# sorted list. AVE_TIDY_JOBS: files at a time (default: every core). CTest
# runs it as the tests tidy_0 .. tidy_3, a share each on one core: a file
# takes about 2.6 s of parsing, and four shares let CTest spread them over
# the cores with the other tests.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shard=${2:-0/1}
root=$(pwd)
folders='support|frontend|annotations|model|invariants|rewriters|agent|harness|review|optimize|planner_llm|src|tidy'
mapfile -t files < <(python3 - "$build" "$root" "$folders" "$shard" <<'PY'
import json, re, sys
build, root, folders, shard = sys.argv[1:]
index, count = (int(part) for part in shard.split("/"))
if not 0 <= index < count:
    sys.exit(f"tidy: share {shard} is not I/N with 0 <= I < N")
pattern = re.compile(r"^%s/(%s)/" % (re.escape(root), folders))
paths = sorted({entry["file"] for entry in json.load(open(f"{build}/compile_commands.json"))
                if pattern.match(entry["file"]) and "/fuzz/" not in entry["file"]})
for position, path in enumerate(paths):
    if position % count == index:
        print(path)
PY
)
if [ "${#files[@]}" -eq 0 ]; then
  echo "tidy: no files in share $shard of $build/compile_commands.json" >&2
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# The plugin (tidy/) limits matching to declarations outside system headers.
plugin="$build/tidy/ave_tidy_scope.so"
if [ ! -f "$plugin" ]; then
  echo "tidy: $plugin is missing; build it first (cmake --build $build --target ave_tidy_scope)" >&2
  exit 1
fi
run-clang-tidy-19 -quiet -p "$build" -j "${AVE_TIDY_JOBS:-$(nproc)}" -header-filter="^${root}/(${folders})/" \
  -load "$plugin" -checks=-readability-identifier-naming,ave-project-scope,ave-naming -warnings-as-errors='*' "${files[@]}" >"$log" 2>&1 || status=1
grep -v -E '^\[[0-9]+/[0-9]+]\[|^[0-9]+ warnings? (and [0-9]+ errors? )?generated|^Suppressed|^Use -header-filter|^$|^clang-tidy-19 |^Running clang-tidy' "$log" || true
if [ "$status" -ne 0 ]; then
  echo "tidy: FAILED" >&2
  exit 1
fi
echo "tidy: clean (${#files[@]} files, share $shard)"
