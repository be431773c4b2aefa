#!/usr/bin/env bash
# Fresh machine to green tests: set up, build, run every test through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
