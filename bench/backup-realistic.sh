#!/usr/bin/env bash
# Backup benchmark on a realistic library (issue 11; not a test, CI does not run it).
#
#   bash bench/backup-realistic.sh                  # 3,000 and 100,000 yarns, best of 3
#   bash bench/backup-realistic.sh 3000             # one size (the yarn count)
#   YARN_BIN=path/to/yarn RUNS=5 WORK=/tmp/yb KEEP=1 bash bench/backup-realistic.sh 3000
#
# For each size, bench/make-backup-library.py --realistic writes an unpacked backup (YARNS
# yarns, 800 projects, 4,000 notes, 30,000 sessions, 460 photos and pattern PDFs of about
# 1 GiB of random bytes), `yarn backup restore` makes the library from it, `yarn backup
# create` the archive (backup.zip), which is also unpacked into files/ for the other tools.
# Then hyperfine (no warm-up, RUNS runs, default 3; best = the fastest run) times, side by side:
#   create:  yarn backup create | Python zipfile, everything ZIP_STORED, then fsync
#            (bench/backup-zip.py --stored --fsync) | Info-ZIP zip -0 -r of files/
#   verify:  yarn backup verify backup.zip | unzip -t backup.zip
#   restore: yarn backup restore backup.zip into a new library | unzip into a new directory
# (`sync` before each create and restore run), then the peak RSS of one more run of each yarn
# command (/usr/bin/time -f %M), and prints the ratios yarn / peer against the targets:
# create <= 1.3x Python zipfile+fsync and <= 1.0x zip -0 -r; verify <= 1.0x unzip -t;
# restore <= 1.0x unzip; peak RSS < 100 MB each.
#
# Environment: YARN_BIN a ready build of scripts/build-release.sh (else it is built); RUNS;
# WORK a folder for the data (default: a new folder under /tmp, removed at the end); with
# WORK given, each size's library and backup.zip are kept there and reused by the next run
# (delete WORK/yN/library to regenerate). The table is also written to WORK/results.md.
# Disk: up to about 7 GiB free while a size runs (library, backup.zip, files/, three zips).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
[ $# -gt 0 ] || set -- 3000 100000
runs=${RUNS:-3}

# Tools: hyperfine, zip, unzip, GNU time (Debian packages of the same names), as
# scripts/setup.sh installs what yarn builds against.
missing=()
for pkg in hyperfine zip unzip; do command -v "$pkg" >/dev/null || missing+=("$pkg"); done
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || { echo "bench/backup-realistic.sh needs: ${missing[*]}" >&2; exit 1; }
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "installing ${missing[*]} with apt-get" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2
fi

# The release build as installed (static Swift runtime, non-PIE), the one every benchmark runs.
yarn=${YARN_BIN:-$(bash scripts/build-release.sh)}

if [ -n "${WORK:-}" ]; then
  mkdir -p "$WORK"; base=$(cd "$WORK" && pwd)
else
  base=$(mktemp -d "${TMPDIR:-/tmp}/yarn-bench-realistic.XXXXXX")
  trap 'rm -rf "$base"' EXIT
fi
echo "load before: $(uptime)" >"$base/load.txt"

for yarns in "$@"; do
  w=$base/y$yarns
  mkdir -p "$w"
  # The library (made once per WORK), yarn's archive of it, and the same files unpacked.
  if [ ! -d "$w/library" ]; then
    rm -rf "$w/source"
    python3 bench/make-backup-library.py --realistic "$w/source" "$yarns"
    "$yarn" --library "$w/library" -q backup restore "$w/source"
    rm -rf "$w/source"
  fi
  [ -f "$w/backup.zip" ] || "$yarn" --library "$w/library" -q backup create "$w/backup.zip" >/dev/null
  rm -rf "$w/files" && mkdir "$w/files"
  (cd "$w/files" && unzip -q "$w/backup.zip")
  echo "== $yarns yarns: $(du -sh "$w/files" | cut -f1) of files, backup.zip $(du -h "$w/backup.zip" | cut -f1)" >&2

  hyperfine --runs "$runs" --export-json "$w/create.json" \
    --prepare "rm -f $w/out-yarn.zip $w/out-py.zip $w/out-zip.zip; sync" \
    -n "yarn backup create" "$yarn --library $w/library -q backup create $w/out-yarn.zip" \
    -n "Python zipfile + fsync" "python3 $root/bench/backup-zip.py $w/files $w/out-py.zip --stored --fsync" \
    -n "zip -0 -r" "cd $w/files && zip -q -0 -r $w/out-zip.zip ."
  rm -f "$w/out-yarn.zip" "$w/out-py.zip" "$w/out-zip.zip"

  hyperfine --runs "$runs" --export-json "$w/verify.json" \
    -n "yarn backup verify" "$yarn -q backup verify $w/backup.zip" \
    -n "unzip -t" "unzip -tq $w/backup.zip"

  hyperfine --runs "$runs" --export-json "$w/restore.json" \
    --prepare "rm -rf $w/restored $w/unzipped; sync" \
    -n "yarn backup restore" "$yarn --library $w/restored -q backup restore $w/backup.zip" \
    -n "unzip" "unzip -q $w/backup.zip -d $w/unzipped"
  rm -rf "$w/restored" "$w/unzipped"

  # Peak RSS (kB) of one more run of each yarn command.
  sync
  /usr/bin/time -f %M -o "$w/rss-create" "$yarn" --library "$w/library" -q backup create "$w/out-yarn.zip" >/dev/null
  /usr/bin/time -f %M -o "$w/rss-verify" "$yarn" -q backup verify "$w/backup.zip" >/dev/null
  sync
  /usr/bin/time -f %M -o "$w/rss-restore" "$yarn" --library "$w/restored" -q backup restore "$w/backup.zip"
  rm -rf "$w/out-yarn.zip" "$w/restored" "$w/files"
  [ -n "${WORK:-}" ] || rm -rf "$w"/library "$w"/backup.zip  # the temporary folder: free the disk now
done
echo "load after: $(uptime)" >>"$base/load.txt"

# The table: best (fastest) and mean wall time, yarn's CPU (user + system, mean), the ratios.
python3 - "$base" "$@" <<'PY' | tee "$base/results.md"
import json, sys
base, sizes = sys.argv[1], sys.argv[2:]
pairs = [("create", "yarn backup create", ["Python zipfile + fsync", "zip -0 -r"], [1.3, 1.0]),
         ("verify", "yarn backup verify", ["unzip -t"], [1.0]),
         ("restore", "yarn backup restore", ["unzip"], [1.0])]
print(open(f"{base}/load.txt").read())
print("| yarns | task | tool | best | mean ± σ | CPU (user+sys) | yarn / tool (best) | target | peak RSS |")
print("|---:|---|---|---:|---:|---:|---:|---|---:|")
best, cpu = {}, {}
for n in sizes:
    for task, ours, peers, targets in pairs:
        results = {r["command"]: r for r in json.load(open(f"{base}/y{n}/{task}.json"))["results"]}
        rss = int(open(f"{base}/y{n}/rss-{task}").read().split()[-1]) / 1000
        y = results[ours]
        best[n, task] = y["min"]
        cpu[n, task] = y["user"] + y["system"]
        print(f"| {int(n):,} | {task} | `{ours}` | {y['min']:.2f} s | {y['mean']:.2f} s ± {y['stddev'] or 0:.2f}"
              f" | {cpu[n, task]:.2f} s | | | {rss:.1f} MB {'(met)' if rss < 100 else '(**missed**)'} |")
        for peer, target in zip(peers, targets):
            p = results[peer]
            ratio = y["min"] / p["min"]
            verdict = "met" if ratio <= target else "**missed**"
            print(f"| {int(n):,} | {task} | {peer} | {p['min']:.2f} s | {p['mean']:.2f} s ± {p['stddev'] or 0:.2f}"
                  f" | {p['user'] + p['system']:.2f} s | {ratio:.2f}× | ≤ {target}× ({verdict}) | |")
if len(sizes) > 1:
    lo, hi = sizes[0], sizes[-1]
    print()
    for task, *_ in pairs:
        print(f"{task}: {int(hi):,} yarns ({int(hi) / int(lo):.1f}× the yarns of {int(lo):,}) take "
              f"{best[hi, task] / best[lo, task]:.2f}× the time (best), "
              f"{cpu[hi, task] / cpu[lo, task]:.2f}× the CPU time (user + system)")
PY
