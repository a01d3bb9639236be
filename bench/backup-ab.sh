#!/usr/bin/env bash
# Two builds of `yarn` side by side, on the library bench/backup.sh made (not a test):
#
#   bash bench/backup-ab.sh WORK_DIR BEFORE_BIN AFTER_BIN [RUNS]
#
# WORK_DIR is a work folder of bench/backup.sh (its `library` and `restore-me.zip` are
# reused). Times `backup create` and `backup restore` of each build in one hyperfine run each
# (1 warm-up, RUNS runs, default 5, `sync` before each), so that a busy machine slows both
# alike, and prints the peak RSS of one run of each.
set -euo pipefail
work=$(cd "$1" && pwd)
before=$2
after=$3
runs=${4:-5}
[ -d "$work/library" ] && [ -f "$work/restore-me.zip" ] || {
  echo "bench/backup-ab.sh: run bench/backup.sh $work first" >&2
  exit 1
}
hyperfine --warmup 1 --runs "$runs" --export-json "$work/ab-create.json" \
  --prepare "rm -f $work/ab-before.zip $work/ab-after.zip; sync" \
  -n "create before" "$before --library $work/library -q backup create $work/ab-before.zip" \
  -n "create after" "$after --library $work/library -q backup create $work/ab-after.zip"
hyperfine --warmup 1 --runs "$runs" --export-json "$work/ab-restore.json" \
  --prepare "rm -rf $work/ab-restored-before $work/ab-restored-after; sync" \
  -n "restore before" "$before --library $work/ab-restored-before -q backup restore $work/restore-me.zip" \
  -n "restore after" "$after --library $work/ab-restored-after -q backup restore $work/restore-me.zip"
rss() {  # peak RSS in MB of one run of "$@"
  /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ { printf "%.1f", $2 / 1024 }'
}
rm -rf "$work/ab-before.zip" "$work/ab-after.zip" "$work/ab-restored-before" "$work/ab-restored-after"
echo "peak RSS (MB): create before $(rss "$before" --library "$work/library" -q backup create "$work/ab-before.zip")," \
  "after $(rss "$after" --library "$work/library" -q backup create "$work/ab-after.zip");" \
  "restore before $(rss "$before" --library "$work/ab-restored-before" -q backup restore "$work/restore-me.zip")," \
  "after $(rss "$after" --library "$work/ab-restored-after" -q backup restore "$work/restore-me.zip")"
cmp "$work/ab-before.zip" "$work/ab-after.zip" >/dev/null 2>&1 && echo "the two archives are identical" ||
  echo "the two archives differ (times in the manifest and zip headers differ between runs)"
rm -rf "$work/ab-before.zip" "$work/ab-after.zip" "$work/ab-restored-before" "$work/ab-restored-after"
