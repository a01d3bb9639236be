#!/usr/bin/env bash
# Benchmark of `yarn backup create` and `yarn backup restore` (not a test; CI does not run it).
#
#   bash bench/backup.sh [WORK_DIR] [YARNS] [PHOTOS]
#   YARN_BIN=path/to/yarn bash bench/backup.sh ...   # a ready release build (scripts/build-release.sh)
#
# Makes a library of YARNS yarns (default 100,000) and PHOTOS incompressible 1 MiB photos
# (default 300), then times with hyperfine, side by side in one run:
#   create:  yarn backup create (release build) | Info-ZIP zip (photos stored, JSON deflated)
#            | Python zipfile (the same) | cp -r of the same files
#   restore: yarn backup restore into a new library | unzip of the same zip
# and prints the means, the ratios, and the peak RSS of one run of each (/usr/bin/time -v).
# Targets (issue 5): create at least as fast as Python's zipfile and within 1.5x of cp -r;
# restore at least as fast as unzip; peak RSS under 100 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
yarns=${2:-100000}
photos=${3:-300}
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/yarn-bench-backup.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
for tool in hyperfine zip unzip python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench/backup.sh needs $tool" >&2; exit 1; }
done

# The release build as installed (static Swift runtime, non-PIE), the one every benchmark runs.
yarn=${YARN_BIN:-$(bash scripts/build-release.sh)}

# The library, and the same files unpacked (what zip, Python and cp get).
if [ ! -d "$work/library" ]; then
  python3 bench/make-backup-library.py "$work/source" "$yarns" "$photos"
  "$yarn" --library "$work/library" -q backup restore "$work/source"
  rm -rf "$work/source"
fi
rm -rf "$work/files" && mkdir "$work/files"
"$yarn" --library "$work/library" -q backup create "$work/reference.zip" --force
(cd "$work/files" && unzip -q "$work/reference.zip")
du -sh "$work/files" >&2

cd "$work"
hyperfine --warmup 1 --runs 5 --export-json "$work/create.json" \
  --prepare "rm -rf $work/out.zip $work/zip.zip $work/py.zip $work/copy; sync" \
  -n "yarn backup create" "$yarn --library $work/library -q backup create $work/out.zip" \
  -n "Info-ZIP zip" "cd $work/files && zip -q -r -0 $work/zip.zip attachments && zip -q -6 $work/zip.zip manifest.json library.json" \
  -n "Python zipfile" "python3 $root/bench/backup-zip.py $work/files $work/py.zip" \
  -n "cp -r" "cp -r $work/files $work/copy"

"$yarn" --library "$work/library" -q backup create "$work/restore-me.zip" --force
hyperfine --warmup 1 --runs 5 --export-json "$work/restore.json" \
  --prepare "rm -rf $work/restored $work/unzipped; sync" \
  -n "yarn backup restore" "$yarn --library $work/restored -q backup restore $work/restore-me.zip" \
  -n "unzip" "unzip -q $work/restore-me.zip -d $work/unzipped"

rss() {  # peak RSS in MB of one run of "$@"
  /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ { printf "%.1f", $2 / 1024 }'
}
rm -rf "$work/out.zip" "$work/zip.zip" "$work/py.zip" "$work/copy" "$work/restored" "$work/unzipped"
rss_create=$(rss "$yarn" --library "$work/library" -q backup create "$work/out.zip")
rss_zip=$(cd "$work/files" && rss zip -q -r -0 "$work/zip.zip" attachments)
rss_py=$(rss python3 "$root/bench/backup-zip.py" "$work/files" "$work/py.zip")
rss_cp=$(rss cp -r "$work/files" "$work/copy")
rss_restore=$(rss "$yarn" --library "$work/restored" -q backup restore "$work/restore-me.zip")
rss_unzip=$(rss unzip -q "$work/restore-me.zip" -d "$work/unzipped")

python3 - "$work/create.json" "$work/restore.json" <<PY
import json, sys
create = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
restore = {r["command"]: r["mean"] for r in json.load(open(sys.argv[2]))["results"]}
rss = {"yarn backup create": "$rss_create", "Info-ZIP zip": "$rss_zip (zip -0 pass)",
       "Python zipfile": "$rss_py", "cp -r": "$rss_cp", "yarn backup restore": "$rss_restore",
       "unzip": "$rss_unzip"}
print()
print("| task | tool | mean | ratio | peak RSS (MB) |")
print("|---|---|---:|---:|---:|")
base = create["yarn backup create"]
for name, mean in create.items():
    print(f"| create | {name} | {mean:.3f} s | {mean / base:.2f}x of yarn | {rss[name]} |")
base = restore["yarn backup restore"]
for name, mean in restore.items():
    print(f"| restore | {name} | {mean:.3f} s | {mean / base:.2f}x of yarn | {rss[name]} |")
c = create["yarn backup create"]
print()
print(f"create / Python zipfile = {c / create['Python zipfile']:.2f} (target <= 1)")
print(f"create / Info-ZIP zip   = {c / create['Info-ZIP zip']:.2f}")
print(f"create / cp -r          = {c / create['cp -r']:.2f} (target <= 1.5)")
print(f"restore / unzip         = {restore['yarn backup restore'] / restore['unzip']:.2f} (target <= 1)")
PY
