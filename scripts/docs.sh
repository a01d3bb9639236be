#!/usr/bin/env bash
# Builds YarnCore's API reference, a static web site, into OUT (default: .build/docs):
#   1. builds the YarnCore target (nothing to do after `swift build`);
#   2. extracts the public symbol graph of YarnCore with swift-symbolgraph-extract, YarnModel's
#      and YarnStore's symbols included, since YarnCore re-exports them: the reference is the
#      API that `import YarnCore` gives an app, under one module page;
#   3. fails, listing file:line, when a public symbol has no doc comment or throws without a
#      `- Throws:` (scripts/check-doc-comments.py; DocC itself has no such warning: its
#      --experimental-documentation-coverage only counts abstracts, without locations, and
#      never fails);
#   4. runs `docc convert` on Sources/YarnCore/YarnCore.docc (the overview and the topic groups)
#      with those symbol graphs, failing on any DocC warning (a broken link, a parameter that
#      is documented but does not exist or exists but is not documented).
# View it with `python3 -m http.server --directory OUT 8000` and http://localhost:8000/ (the
# root sends the browser to /documentation/yarncore/); a file:// URL does not work: the pages
# load their content (OUT/data/…) with JavaScript.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

OUT="${1:-.build/docs}"
if [ $# -gt 1 ]; then
  echo "usage: scripts/docs.sh [OUT]" >&2
  exit 64
fi
# DocC writes the whole OUT: refuse to replace a directory that is not an earlier reference.
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT" 2>/dev/null)" ] && [ ! -f "$OUT/metadata.json" ]; then
  echo "docs: $OUT exists and is not a documentation site built by this script; give another OUT" >&2
  exit 64
fi

# The toolchain's tools: next to `swift` (Linux toolchains), or through xcrun (Xcode).
tool() {
  local dir
  dir="$(dirname "$(command -v swift)")"
  if [ -x "$dir/$1" ]; then
    echo "$dir/$1"
  elif command -v "$1" >/dev/null 2>&1; then
    command -v "$1"
  elif command -v xcrun >/dev/null 2>&1 && xcrun --find "$1" >/dev/null 2>&1; then
    xcrun --find "$1"
  else
    echo "docs: $1 not found next to swift or on PATH (it comes with the Swift toolchain)" >&2
    exit 69
  fi
}
EXTRACT="$(tool swift-symbolgraph-extract)"
DOCC="$(tool docc)"

bash scripts/setup.sh
swift build --target YarnCore
BIN="$(swift build --show-bin-path)"
TRIPLE="$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"

# The C modules YarnStore and YarnCore import: a system library's module map under Sources/,
# and the module maps SwiftPM writes for the C targets.
CLANG_ARGS=()
for map in "$PWD"/Sources/*/module.modulemap "$BIN"/*.build/module.modulemap; do
  if [ -f "$map" ]; then CLANG_ARGS+=(-Xcc "-fmodule-map-file=$map"); fi
done
SDK_ARGS=()
if [ "$(uname)" = Darwin ]; then
  SDK_ARGS=(-sdk "$(xcrun --sdk macosx --show-sdk-path)")
fi

GRAPHS="$(mktemp -d "${TMPDIR:-/tmp}/yarn-symbol-graphs.XXXXXX")"
trap 'rm -rf "$GRAPHS"' EXIT
# (`${A[@]+"${A[@]}"}`: an empty array under `set -u` in macOS's bash 3.2.)
"$EXTRACT" -module-name YarnCore -target "$TRIPLE" ${SDK_ARGS[@]+"${SDK_ARGS[@]}"} \
  -I "$BIN/Modules" -I "$BIN" ${CLANG_ARGS[@]+"${CLANG_ARGS[@]}"} \
  -experimental-allowed-reexported-modules=YarnModel,YarnStore \
  -minimum-access-level public -skip-inherited-docs -emit-extension-block-symbols \
  -output-dir "$GRAPHS"

python3 scripts/check-doc-comments.py "$GRAPHS" Sources

rm -rf "$OUT"
"$DOCC" convert Sources/YarnCore/YarnCore.docc \
  --additional-symbol-graph-dir "$GRAPHS" \
  --output-path "$OUT" \
  --transform-for-static-hosting \
  --fallback-display-name YarnCore \
  --fallback-bundle-identifier org.yarn.YarnCore \
  --fallback-default-module-kind Framework \
  --warnings-as-errors
# The site's root has no page of its own: send it to the module's page.
cat >"$OUT/index.html" <<'HTML'
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>YarnCore</title>
<meta http-equiv="refresh" content="0; url=documentation/yarncore/"></head>
<body><a href="documentation/yarncore/">YarnCore</a></body></html>
HTML
echo "docs: the reference is in $OUT; view it with"
echo "  python3 -m http.server --directory $OUT 8000"
echo "and http://localhost:8000/"
