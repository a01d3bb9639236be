#!/usr/bin/env bash
# The main job on the sample library: restore samples/demo into a fresh temporary library,
# export the stash as CSV, make a zip backup, and print the time log.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh
swift build --product yarn >&2
yarn="$(swift build --show-bin-path)/yarn"

out="${1:-$(mktemp -d "${TMPDIR:-/tmp}/yarn-demo.XXXXXX")}"
mkdir -p "$out"
library="$out/library"

set -x
"$yarn" --library "$library" backup restore samples/demo
"$yarn" --library "$library" stash list
"$yarn" --library "$library" stash export --output "$out/stash.csv"
"$yarn" --library "$library" backup create "$out/backup.zip"
"$yarn" --library "$library" time log
set +x
echo "demo: library in $library; stash.csv and backup.zip in $out" >&2
