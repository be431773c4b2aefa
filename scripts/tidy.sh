#!/usr/bin/env bash
# The project's own clang-tidy rules (.clang-tidy: one naming convention,
# functions under 100 lines) over every library folder and src/, warnings as
# errors. Needs a build (compile_commands.json and the plugin in tidy/):
#   scripts/tidy.sh [BUILD_DIR]        (default: build)
# AVE_TIDY_JOBS: files at a time (default: every core). CTest runs it as the
# test `tidy`, on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
root=$(pwd)
folders='support|frontend|annotations|model|invariants|rewriters|agent|harness|review|src|tidy'
mapfile -t files < <(python3 - "$build" "$root" "$folders" <<'PY'
import json, re, sys
build, root, folders = sys.argv[1:]
pattern = re.compile(r"^%s/(%s)/" % (re.escape(root), folders))
for entry in json.load(open(f"{build}/compile_commands.json")):
    path = entry["file"]
    if pattern.match(path) and "/fuzz/" not in path:
        print(path)
PY
)
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
grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated|^Suppressed|^Use -header-filter|^$|^clang-tidy-19 |^Running clang-tidy' "$log" || true
if [ "$status" -ne 0 ]; then
  echo "tidy: FAILED" >&2
  exit 1
fi
echo "tidy: clean (${#files[@]} files)"
