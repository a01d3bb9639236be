#!/usr/bin/env bash
# Benchmark (not a test, not run in CI): issue 13's targets in one sweep, against the current
# build. One library per size N holds N yarns, 1,000 projects (3 usages each) and N time
# sessions; each command is run RUNS times and measured by wait4's rusage (CPU time = user +
# system, peak RSS = ru_maxrss, the figure `/usr/bin/time -f %M` prints), side by side with
# sqlite3 doing the equivalent work on the same file.
#
#   bash bench/targets.sh                  sizes 1000 10000 100000, sweep 100 5000 projects
#   SIZES="1000 10000" SWEEP="" RUNS=5 bash bench/targets.sh
#   BIG=1000000 bash bench/targets.sh      also 1,000,000 items (BIG_RUNS runs, default 1;
#                                          BIG_COMMANDS, default "list export log report show summary")
#   YARN_BIN=path/to/yarn                  a ready build of scripts/build-release.sh
#   WHOLE=0                                leave out the whole-library commands
#   WHOLE_RUNS=2                           runs of each whole-library command (default 2)
#   RESULTS=file                           keep the raw measurements (JSON lines)
#
# Needs: sqlite3, python3. At the largest of SIZES it also measures the commands that read or
# write the whole library (stash import of a CSV of N rows against `sqlite3 .import`, backup
# create / verify / restore, weft export, export of the people zip).
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a sizes <<<"${SIZES:-1000 10000 100000}"
read -r -a sweep <<<"${SWEEP-100 5000}"
runs=${RUNS:-3}
big=${BIG:-}
big_runs=${BIG_RUNS:-1}
read -r -a big_commands <<<"${BIG_COMMANDS:-list export log report show summary}"
for tool in sqlite3 python3; do
  command -v "$tool" >/dev/null || { echo "bench/targets.sh: $tool is missing" >&2; exit 1; }
done
yarn=${YARN_BIN:-$(bash scripts/build-release.sh 2>/dev/null)}
work=$(mktemp -d "${TMPDIR:-/tmp}/yarn-bench-targets.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TZ=UTC
results="$work/results.jsonl"

# run.py LABEL N P WHO RUNS PREP COMMAND: runs COMMAND (split like a shell) RUNS times with
# standard output and error to /dev/null, PREP (a shell line) before each, and appends one
# JSON line per run: wall seconds, CPU seconds (user + system) and peak RSS in KB.
cat >"$work/run.py" <<'PY'
import json, os, shlex, subprocess, sys, time
label, n, p, who, runs, prep, command = sys.argv[1:8]
out = open(sys.argv[8], 'a')
for _ in range(int(runs)):
    if prep:
        subprocess.run(prep, shell=True, check=True)
    start = time.perf_counter()
    child = subprocess.Popen(shlex.split(command), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"bench/targets.sh: {command} exited with {code}")
    out.write(json.dumps({'label': label, 'n': int(n), 'p': int(p), 'who': who, 'wall': wall,
                          'cpu': usage.ru_utime + usage.ru_stime, 'user': usage.ru_utime,
                          'rss': usage.ru_maxrss}) + '\n')
PY

# A library of N yarns (as bench/costs.sh), P projects (half finished, a quarter in progress,
# a quarter planned; 3 usages each) and S sessions: the year 2025 holds the same min(S, 1,000)
# sessions at every size (one every 8 h 46 min, 30 to 90 minutes, on projects 1-5; projects
# 1-3 finished in 2025), the other S - 1,000 go back from 2025, one an hour, 45 minutes each,
# on projects 6-20. The schema comes from yarn itself; the undo history is paused.
make_library() {
  local n=$1 p=$2 s=$3 dir=$4
  "$yarn" --library "$dir" stash add seed -q
  "$yarn" --library "$dir" stash rm seed -q
  local y0=1735689600
  sqlite3 "$dir/library.sqlite" <<SQL
INSERT INTO history_pause VALUES (1);
BEGIN;
WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < $n)
INSERT INTO yarn (id, name, brand, colorway, color_family, dye_lot, weight, fiber,
  length_per_skein_value, length_per_skein_unit, net_weight_per_skein_value,
  net_weight_per_skein_unit, quantity_value, quantity_unit, remaining_value, remaining_unit,
  purchase_location, date_added)
SELECT printf('%08x-0000-4000-8000-%012x', n, n * 7919),
  CASE n % 10 WHEN 0 THEN 'Cascade 220 "Superwash", DK ' || n ELSE 'Yarn number ' || n END,
  'Brand ' || (n % 50), 'Colorway ' || (n % 300), CASE n % 3 WHEN 0 THEN NULL ELSE 'red' END,
  CASE n % 2 WHEN 0 THEN NULL ELSE 'lot ' || n END, n % 8, '100% Peruvian highland wool',
  220, 'yd', 100, 'g', (n % 12) + 0.5, 'skein',
  CASE n % 7 WHEN 0 THEN 1.25 ELSE NULL END, CASE n % 7 WHEN 0 THEN 'skein' ELSE NULL END,
  'Knit Happens, Main St', printf('20%02d-%02d-%02d', n % 26, (n % 12) + 1, (n % 28) + 1)
FROM i;
WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < $p)
INSERT INTO project (id, name, craft, status, has_pattern, finished)
SELECT printf('%08x-1111-4000-8000-%012x', n, n), 'Project ' || n, 'knitting',
  CASE WHEN n <= 3 THEN 'finished' WHEN n IN (4, 5) THEN 'in-progress'
    ELSE CASE n % 4 WHEN 0 THEN 'in-progress' WHEN 1 THEN 'planned' ELSE 'finished' END END, 0,
  CASE WHEN n <= 3 THEN printf('2025-%02d-15', n * 3)
    WHEN n > 5 AND n % 4 IN (2, 3) THEN printf('%04d-06-30', 2024 - n % 30) END
FROM i;
WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < $p),
  k(pos) AS (VALUES (0), (1), (2)),
  u(n, pos, m) AS (SELECT n, pos, ((n * 37 + pos * 1013) % $n) + 1 FROM i, k)
INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
SELECT printf('%08x-1111-4000-8000-%012x', n, n), pos,
  printf('%08x-0000-4000-8000-%012x', m, m * 7919),
  CASE pos WHEN 1 THEN 110 ELSE 50 END, CASE pos WHEN 1 THEN 'yd' ELSE 'g' END
FROM u;
WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < min($s, 1000) - 1)
INSERT INTO time_session (id, project_id, start_time, end_time, note)
SELECT printf('a%07x-0000-4000-8000-%012x', i, i),
  printf('%08x-1111-4000-8000-%012x', 1 + i % 5, 1 + i % 5),
  $y0 + i * 31536, $y0 + i * 31536 + 1800 + (i % 3) * 1800, NULL FROM c;
WITH RECURSIVE c(i) AS (SELECT 1 WHERE $s > 1000 UNION ALL SELECT i + 1 FROM c WHERE i < $s - 1000)
INSERT INTO time_session (id, project_id, start_time, end_time, note)
SELECT printf('b%07x-0000-4000-8000-%012x', i, i),
  printf('%08x-1111-4000-8000-%012x', 6 + i % 15, 6 + i % 15),
  $y0 - i * 3600, $y0 - i * 3600 + 2700, CASE WHEN i % 7 = 0 THEN 'rows 1-20' END FROM c;
UPDATE yarn SET name_key = lower(name);
UPDATE project SET name_key = lower(name);
COMMIT;
DELETE FROM history_pause;
SQL
}

# sqlite3's equivalents (as bench/costs.sh and bench/time-costs.sh).
counted="(SELECT total(u.amount_value) FROM yarn_usage u JOIN project p ON p.id = u.project_id
  WHERE u.yarn_id = y.id AND p.status = 'finished')"
show_name="Yarn number 777"
cat >"$work/list.sql" <<SQL
SELECT substr(y.id, 1, 8), y.name, y.colorway, y.weight, y.quantity_value, y.quantity_unit,
  $counted FROM yarn y ORDER BY y.seq;
SQL
cat >"$work/json.sql" <<SQL
SELECT y.*, $counted AS used FROM yarn y ORDER BY y.seq;
SQL
cat >"$work/show.sql" <<SQL
SELECT * FROM yarn WHERE name_key = lower('$show_name');
SELECT p.name, p.status, u.amount_value, u.amount_unit FROM yarn_usage u
  JOIN project p ON p.id = u.project_id
  WHERE u.yarn_id = (SELECT id FROM yarn WHERE name_key = lower('$show_name'))
  ORDER BY p.seq, u.position;
SQL
cat >"$work/export.sql" <<SQL
SELECT y.name, y.brand, y.colorway, y.color_family, y.dye_lot, y.weight, y.fiber,
  y.length_per_skein_value, y.length_per_skein_unit, y.net_weight_per_skein_value,
  y.net_weight_per_skein_unit, y.quantity_value, y.quantity_unit, $counted, y.remaining_unit,
  y.purchase_location, y.date_added, y.status, y.price_minor, y.stored_in, y.tags, y.id
  FROM yarn y ORDER BY y.seq;
SQL
cat >"$work/log.sql" <<'SQL'
SELECT s.id, strftime('%Y-%m-%d %H:%M', s.start_time, 'unixepoch'),
  strftime('%Y-%m-%d %H:%M', s.end_time, 'unixepoch'), s.end_time - s.start_time, p.name, s.note
  FROM time_session s JOIN project p ON p.id = s.project_id ORDER BY s.start_time, s.seq;
SQL
cat >"$work/report.sql" <<'SQL'
SELECT strftime('%Y-%m', start_time, 'unixepoch') AS m, sum(end_time - start_time)
  FROM time_session GROUP BY m ORDER BY m;
SQL
cat >"$work/summary.sql" <<'SQL'
SELECT project_id, sum(min(end_time, 1767225600) - max(start_time, 1735689600))
  FROM time_session WHERE start_time < 1767225600 AND end_time > 1735689600
  AND start_time >= 1735689600 - (SELECT max(end_time - start_time) FROM time_session)
  GROUP BY project_id;
SELECT s.project_id, sum(s.end_time - s.start_time) FROM project p JOIN time_session s
  ON s.project_id = p.id WHERE p.status = 'finished' AND p.finished BETWEEN '2025-01-01' AND
  '2025-12-31' GROUP BY s.project_id;
SQL

run() {  # run LABEL N P WHO RUNS PREP COMMAND
  python3 "$work/run.py" "$@" "$results"
}

# The everyday commands, each with its sqlite3 equivalent: KEY "yarn arguments" sqlite3-mode
commands() {
  cat <<'EOF'
list|stash list|-column|list
json|--json stash list|-json|json
show|stash show "Yarn number 777"|-list|show
export|stash export|-csv -header|export
log|time log|-list|log
report|time report --by month|-list|report
summary|summary --year 2025|-list|summary
EOF
}

measure() {  # measure N P LIBRARY RUNS [KEY...]
  local n=$1 p=$2 lib=$3 r=$4; shift 4
  local keys=" $* "
  while IFS='|' read -r key args mode sql; do
    [ "$keys" = "  " ] || [[ $keys == *" $key "* ]] || continue
    echo "  $n yarns, $p projects: $key" >&2
    run "$key" "$n" "$p" yarn "$r" "" "$yarn --library $lib $args"
    run "$key" "$n" "$p" sqlite3 "$r" "" "sqlite3 $mode $lib/library.sqlite '.read $work/$sql.sql'"
  done < <(commands)
}

for n in "${sizes[@]}"; do
  lib="$work/lib-$n"
  echo "library of $n yarns and sessions…" >&2
  make_library "$n" 1000 "$n" "$lib"
  # Any upgrade happens here, not timed; the library holds what it should.
  got=$("$yarn" --library "$lib" time log --format csv | wc -l)
  [ "$got" = $((n + 1)) ] || { echo "bench/targets.sh: $((got - 1)) sessions, not $n" >&2; exit 1; }
  got=$("$yarn" --library "$lib" stash export --columns ID | wc -l)
  [ "$got" = $((n + 1)) ] || { echo "bench/targets.sh: $((got - 1)) yarns, not $n" >&2; exit 1; }
  measure "$n" 1000 "$lib" "$runs"
  if [ "$n" != "${sizes[${#sizes[@]}-1]}" ] || [ "${WHOLE:-1}" = 0 ]; then rm -rf "$lib"; continue; fi

  # The whole-library commands, at the largest size.
  echo "  $n: whole-library commands…" >&2
  python3 - "$n" "$work/stash.csv" <<'PY'
import csv, sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, 'w', newline='') as f:  # bench/import.sh's file
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
  w=$work/out
  mkdir -p "$w"
  wr=${WHOLE_RUNS:-2}
  run import "$n" 0 yarn "$wr" "rm -rf $w/imported" "$yarn --library $w/imported stash import $work/stash.csv -q"
  run import "$n" 0 sqlite3 "$wr" "rm -f $w/plain.sqlite" "sqlite3 $w/plain.sqlite '.import --csv $work/stash.csv stash'"
  rm -rf "$w/imported" "$w/plain.sqlite"
  run "summary (no period)" "$n" 1000 yarn "$wr" "" "$yarn --library $lib summary"
  run "backup create" "$n" 1000 yarn "$wr" "" "$yarn --library $lib backup create $w/b.zip --force"
  run "backup verify" "$n" 1000 yarn "$wr" "" "$yarn --library $lib backup verify $w/b.zip"
  run "backup restore" "$n" 1000 yarn "$wr" "rm -rf $w/restored" "$yarn --library $w/restored backup restore $w/b.zip"
  rm -rf "$w/restored"
  run "weft export" "$n" 1000 yarn "$wr" "" "$yarn --library $lib weft export $w/weft --force"
  run "export (people zip)" "$n" 1000 yarn "$wr" "" "$yarn --library $lib export $w/people.zip --force"
  rm -rf "$w" "$lib"
done

largest=${sizes[${#sizes[@]}-1]}
for p in "${sweep[@]}"; do
  lib="$work/lib-$largest-$p"
  echo "library of $largest yarns, $p projects…" >&2
  make_library "$largest" "$p" 1000 "$lib"
  measure "$largest" "$p" "$lib" "$runs" list export show
  rm -rf "$lib"
done

if [ -n "$big" ]; then
  lib="$work/lib-$big"
  echo "library of $big yarns and sessions…" >&2
  make_library "$big" 1000 "$big" "$lib"
  "$yarn" --library "$lib" time log --format csv >/dev/null
  measure "$big" 1000 "$lib" "$big_runs" "${big_commands[@]}"
  rm -rf "$lib"
fi

cp "$results" "${RESULTS:-/dev/null}" 2>/dev/null || true
python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
groups = {}
for r in rows:
    groups.setdefault((r['label'], r['n'], r['p'], r['who']), []).append(r)
def fig(key):
    g = groups.get(key)
    if not g: return None
    return (statistics.median(x['cpu'] for x in g), min(x['cpu'] for x in g),
            statistics.median(x['wall'] for x in g), max(x['rss'] for x in g) / 1024, len(g))
print("| items | projects | command | yarn CPU median (min) | yarn wall | yarn peak RSS | runs | sqlite3 CPU | yarn/sqlite3 CPU |")
print("|---:|---:|---|---:|---:|---:|---:|---:|---:|")
for (label, n, p, who) in groups:
    if who != 'yarn': continue
    y = fig((label, n, p, 'yarn')); s = fig((label, n, p, 'sqlite3'))
    cells = [f"{n:,}", f"{p:,}", label, f"{y[0]*1000:.1f} ms ({y[1]*1000:.1f})",
             f"{y[2]*1000:.1f} ms", f"{y[3]:.1f} MB", str(y[4]),
             f"{s[0]*1000:.1f} ms" if s else "", f"{y[0]/s[0]:.2f}×" if s and s[0] > 0 else ""]
    print("| " + " | ".join(cells) + " |")
print("\ngrowth of yarn's median CPU time (same projects):")
labels = sorted({k[0] for k in groups})
for label in labels:
    pts = sorted((n, fig((label, n, p, 'yarn'))[0]) for (l, n, p, w) in groups
                 if l == label and w == 'yarn' and p == 1000)
    if len(pts) > 1:
        print(f"  {label}: " + "; ".join(f"{a[0]:,} -> {b[0]:,}: {b[1]/a[1]:.2f}×"
                                         for a, b in zip(pts, pts[1:])))
ns = sorted({k[1] for k in groups if k[2] != 1000 and k[2] != 0})
for label in labels:
    for n in ns:
        ps = sorted(p for (l, m, p, w) in groups if l == label and m == n and w == 'yarn' and p not in (0,))
        sweep = [p for p in ps if p != 1000]
        if len(sweep) > 1:
            a, b = fig((label, n, sweep[0], 'yarn'))[0], fig((label, n, sweep[-1], 'yarn'))[0]
            print(f"  {label}: {sweep[0]:,} -> {sweep[-1]:,} projects at {n:,} yarns: {b/a:.2f}×")
PY
