#!/usr/bin/env bash
# Renders the year-in-review card and the export's index.html of the sample library
# (samples/demo) in headless Chromium, to PNGs for a person to look at:
#   OUT/card.png   the card (yarn summary --year 2026 --card), 1080x1350
#   OUT/index.png  the first screen of index.html (yarn export), 1080x1350
#   OUT/index-full.png  a taller shot of the page, 1080x4000
# Usage: scripts/render-check.sh [OUT]   (default: a new temporary directory)
# Needs chromium (Debian: apt-get install chromium); CI does not run this script.
set -euo pipefail
cd "$(dirname "$0")/.."
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [ -z "$browser" ]; then
  echo "render-check: no chromium found; install it (Debian: apt-get install chromium)" >&2
  exit 69
fi
source scripts/env.sh
swift build --product yarn >&2
yarn="$(swift build --show-bin-path)/yarn"

out="${1:-$(mktemp -d "${TMPDIR:-/tmp}/yarn-render.XXXXXX")}"
out="$(cd "$(mkdir -p "$out" && echo "$out")" && pwd)"
library="$out/library"
rm -rf "$library" "$out/export"
"$yarn" --library "$library" backup restore samples/demo >/dev/null
TZ=America/New_York "$yarn" --library "$library" summary --year 2026 --card "$out/card.svg" --force >/dev/null
"$yarn" --library "$library" export "$out/export.zip" --force >/dev/null
mkdir -p "$out/export"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$out/export.zip" "$out/export"

shot() { # shot FILE.png WIDTH,HEIGHT URL
  "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files \
    --screenshot="$1" --window-size="$2" "$3" >/dev/null 2>&1
}
shot "$out/card.png" 1080,1350 "file://$out/card.svg"
shot "$out/index.png" 1080,1350 "file://$out/export/index.html"
shot "$out/index-full.png" 1080,4000 "file://$out/export/index.html"
echo "render-check: $out/card.png, $out/index.png and $out/index-full.png" >&2
