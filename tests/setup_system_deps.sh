#!/usr/bin/env bash
# Optional system packages for tests that skip without them (needs root and Debian's apt):
#   WordNet for METEOR (nltk), copied into nltk's data path; Chromium for the review-page browser test.
set -euo pipefail
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: needs root and apt-get; skipping (the tests that need these packages will skip)"
  exit 0
fi
PYTHON="${PYTHON:-.venv/bin/python}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  wordnet-base wordnet-sense-index chromium >/dev/null
echo "system-deps: installed wordnet-base wordnet-sense-index chromium"
if [ -x "$PYTHON" ]; then
  NLTK_DATA=/usr/local/share/nltk_data "$PYTHON" tests/setup_wordnet.py /usr/local/share/nltk_data
fi
