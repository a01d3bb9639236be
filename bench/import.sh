#!/usr/bin/env bash
# Benchmark of `yarn stash import` (release build) into a new library, side by side with
# `sqlite3 .import` of the same file into a plain table, at 1,000, 10,000 and 100,000 rows.
# Not a test; CI does not run it.
#
# Needs: swift, sqlite3, python3, hyperfine; GNU time (/usr/bin/time) for the peak memory, else
# Python's resource module measures it.
# Usage: bash bench/import.sh [SIZES...]   (default: 1000 10000 100000)
#        RUNS=3 bash bench/import.sh       (hyperfine runs per command; default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1000 10000 100000)
runs=${RUNS:-3}
for tool in sqlite3 python3 hyperfine; do
  command -v "$tool" >/dev/null || { echo "bench/import.sh: $tool is missing" >&2; exit 1; }
done

yarn="$(bash "$root/scripts/build-release.sh" 2>/dev/null)"
work=$(mktemp -d "${TMPDIR:-/tmp}/yarn-bench-import.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A stash CSV of N rows with every column of `yarn stash export --columns all`: half the rows
# with an ID (a new yarn with that ID), half without (matched by name, brand, colorway and dye
# lot: none is in the new library); quotes and commas in every tenth name, a note on every
# fourth row, a Remaining override on every seventh, empty cells here and there.
cat >"$work/make.py" <<'PY'
import csv, sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, 'w', newline='') as f:
    out = csv.writer(f, lineterminator='\r\n')
    out.writerow(['Name', 'Brand', 'Colorway', 'Color Family', 'Dye Lot', 'Weight', 'Fiber',
        'Length per Skein', 'Length Unit', 'Net Weight per Skein', 'Net Weight Unit', 'Quantity',
        'Quantity Unit', 'Remaining', 'Remaining Unit', 'Remaining Source', 'Purchase Location',
        'Date Added', 'Stashed', 'Notes', 'ID'])
    for i in range(1, n + 1):
        override = i % 7 == 0
        out.writerow([
            'Cascade 220 "Superwash", DK %d' % i if i % 10 == 0 else 'Yarn number %d' % i,
            'Brand %d' % (i % 50), 'Colorway %d' % (i % 300), '' if i % 3 == 0 else 'red',
            '' if i % 2 == 0 else 'lot %d' % i, str(i % 8), '100% Peruvian highland wool',
            '220', 'yd', '100', 'g', '%g' % ((i % 12) + 0.5), 'skeins',
            '1.25' if override else '%g' % ((i % 12) + 0.5), 'skeins',
            'override' if override else 'estimate', 'Knit Happens, Main St',
            '20%02d-%02d-%02d' % (i % 26, (i % 12) + 1, (i % 28) + 1), 'yes',
            'Bought for the cardigan, row %d' % i if i % 4 == 0 else '',
            '%08x-0000-4000-8000-%012x' % (i, i * 7919) if i % 2 else ''])
PY

# Peak resident memory of a command, in KB.
rss() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
  else
    python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
  fi
}

printf '\n%-8s %-18s %10s %10s %10s %12s\n' rows importer "mean (s)" "µs/row" "vs sqlite3" "peak RSS"
for n in "${sizes[@]}"; do
  csv="$work/stash-$n.csv"
  python3 "$work/make.py" "$n" "$csv"
  # Each run imports into a library (or database) that does not exist yet.
  cat >"$work/yarn-$n.sh" <<SH
rm -rf "$work/lib-$n" && exec "$yarn" --library "$work/lib-$n" stash import "$csv" -q
SH
  cat >"$work/sqlite-$n.sh" <<SH
rm -f "$work/plain-$n.sqlite" && exec sqlite3 "$work/plain-$n.sqlite" ".import --csv $csv stash"
SH
  hyperfine --warmup 1 --runs "$runs" --export-json "$work/h-$n.json" \
    -n "yarn stash import" "bash $work/yarn-$n.sh" \
    -n "sqlite3 .import" "bash $work/sqlite-$n.sh" >"$work/h-$n.txt" 2>&1 \
    || { cat "$work/h-$n.txt"; exit 1; }
  # The import did it all: N yarns in the library.
  count=$(sqlite3 "$work/lib-$n/library.sqlite" "SELECT count(*) FROM yarn")
  [ "$count" = "$n" ] || { echo "bench/import.sh: $count yarns imported, not $n" >&2; exit 1; }
  rm -rf "$work/lib-$n" "$work/plain-$n.sqlite"
  rss_yarn=$(rss "$yarn" --library "$work/lib-$n" stash import "$csv" -q)
  rss_sqlite=$(rss sqlite3 "$work/plain-$n.sqlite" ".import --csv $csv stash")
  rm -rf "$work/lib-$n" "$work/plain-$n.sqlite"
  python3 - "$work/h-$n.json" "$n" "$rss_yarn" "$rss_sqlite" "$(wc -c <"$csv")" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))['results']
n, rss, size = int(sys.argv[2]), sys.argv[3:5], int(sys.argv[5])
mean = {r['command']: r['mean'] for r in results}
base = mean['sqlite3 .import']
for (name, value), kb in zip(mean.items(), rss):
    print(f"{n:<8} {name:<18} {value:10.4f} {value / n * 1e6:10.1f} {value / base:9.2f}x "
          f"{int(kb) / 1024:9.1f} MB")
print(f"{n:<8} CSV: {size / 1e6:.1f} MB")
PY
done
