#!/usr/bin/env bash
# Optional system packages for tests that skip without them. Needs root and Debian's apt.
set -euo pipefail
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: needs root and apt-get; skipping (the tests that need these packages will skip)"
  exit 0
fi
PACKAGES="${SYSTEM_PACKAGES:-}"
[ -n "$PACKAGES" ] || { echo "system-deps: nothing to install"; exit 0; }
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
echo "system-deps: installed $PACKAGES"
