#!/usr/bin/env bash
# Runs the whole test suite (unit and end-to-end) after installing what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
