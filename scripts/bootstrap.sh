#!/usr/bin/env bash
# Installs what gpuvalue needs on Debian 12, idempotently and quietly when all is present:
# the Debian packages (Emscripten, Catch2, nlohmann/json, Chromium, CJK fonts, clang for fuzzing)
# and the npm packages from package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PACKAGES=(emscripten catch2 nlohmann-json3-dev chromium fonts-noto-cjk cmake g++ clang libclang-rt-14-dev)

missing=()
for p in "${DEB_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci only when node_modules does not match the lock file.
stamp=node_modules/.gpuvalue-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "bootstrap: npm ci"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  echo "$want" > "$stamp"
fi
