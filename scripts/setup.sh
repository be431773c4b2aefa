#!/usr/bin/env bash
# Installs every Debian bookworm package that building, testing and the HIP
# front end need. Idempotent: skips apt entirely when everything is present.
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ python3 git
  clang-19 libclang-19-dev llvm-19-dev llvm-19-tools clang-tools-19 clang-tidy-19
  libclang-rt-19-dev
  libz3-dev nlohmann-json3-dev libcli11-dev libgtest-dev libcurl4-openssl-dev
  libamdhip64-dev rocm-device-libs
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
