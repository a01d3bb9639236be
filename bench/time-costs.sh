#!/usr/bin/env bash
# Benchmark (not a test, not run in CI): what `yarn time log`, `time log --format json`,
# `time report --by month` and `summary --year Y` cost as the number of recorded sessions
# grows (issue 13), side by side with sqlite3 doing the equivalent query on the same file.
#
#   bash bench/time-costs.sh [SIZES...]             default sizes: 1000 10000 100000
#   YARN_BIN=path/to/yarn bash bench/time-costs.sh  a ready build of scripts/build-release.sh
#   BASE_BIN=path/to/old/yarn bash bench/time-costs.sh   also time an older build ("before")
#   RUNS=5 bash bench/time-costs.sh                 hyperfine runs per command (1 warm-up)
#
# Needs: hyperfine, sqlite3; /usr/bin/time (GNU time) for the peak RSS column.
#
# The library of each size N (SQL prefill with the undo history paused, as bench/time.sh):
# 20 projects, 2 yarns; the year 2025 holds the same 1,000 sessions at every size (about one
# every 8 h 46 min, 30 to 90 minutes long, on projects 1–5, three of which were finished in
# 2025 with yarn usages); the other N − 1,000 sessions go back from 2024-12-31, one every 3
# hours, 45 minutes each, on projects 6–20 (finished in earlier years). So `time log` and
# `time report` read all N sessions, and `summary --year 2025` should cost the same at every
# size.
#
# sqlite3's equivalents (its plain text output, one process, the same file):
#   log:     the sessions with their project's name, start and end formatted, ordered by start;
#   json:    the same rows with `sqlite3 -json`;
#   month:   the seconds per month (strftime), grouped in SQL;
#   summary: the year's seconds per project (clipped to the year) and the all-time seconds of
#            the projects finished in the year, two grouped queries.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1000 10000 100000)
runs=${RUNS:-5}
year=2025

for tool in hyperfine sqlite3; do
  command -v "$tool" >/dev/null || { echo "bench/time-costs.sh: $tool is needed" >&2; exit 1; }
done
have_time=1; [ -x /usr/bin/time ] || { have_time=0; echo "note: /usr/bin/time not found; no RSS column" >&2; }

if [ -n "${YARN_BIN:-}" ]; then
  yarn="$YARN_BIN"
else
  echo "building yarn (release: scripts/build-release.sh)…" >&2
  yarn="$(bash scripts/build-release.sh)"
fi
base="${BASE_BIN:-}"

work="$(mktemp -d "${TMPDIR:-/tmp}/yarn-time-costs.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export TZ=UTC

prefill() {  # prefill BINARY SIZE DIR
  local bin=$1 n=$2 dir=$3
  "$bin" --library "$dir" project add Seed -q
  # Year bounds in UTC (TZ=UTC): 2025-01-01 and 2026-01-01.
  local y0=1735689600 y1=1767225600
  sqlite3 "$dir/library.sqlite" "
    INSERT INTO history_pause VALUES (1);
    DELETE FROM project;
    INSERT INTO yarn (id, name, weight, net_weight_per_skein_value, net_weight_per_skein_unit)
      VALUES ('y1', 'Cascade 220', 4, 100, 'g'), ('y2', 'Mystery', NULL, NULL, NULL);
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20)
    INSERT INTO project (id, name, status, has_pattern, finished)
    SELECT printf('p%02d', i), printf('Project %02d', i),
           CASE WHEN i IN (4, 5) THEN 'in-progress' ELSE 'finished' END, 0,
           CASE WHEN i <= 3 THEN printf('$year-%02d-15', i * 3)
                WHEN i IN (4, 5) THEN NULL
                ELSE printf('%04d-06-30', $year - 1 - (i - 6) * 2) END FROM c;
    INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
      VALUES ('p01', 0, 'y1', 2, 'skein'), ('p02', 0, 'y1', 150, 'g'), ('p03', 0, 'y2', 3, 'skein');
    WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < min($n, 1000) - 1)
    INSERT INTO time_session (id, project_id, start_time, end_time, note)
    SELECT printf('a%07x-0000-4000-8000-%012x', i, i), printf('p%02d', 1 + i % 5),
           $y0 + i * 31536, $y0 + i * 31536 + 1800 + (i % 3) * 1800, NULL FROM c;
    WITH RECURSIVE c(i) AS (SELECT 1 WHERE $n > 1000 UNION ALL SELECT i + 1 FROM c WHERE i < $n - 1000)
    INSERT INTO time_session (id, project_id, start_time, end_time, note)
    SELECT printf('b%07x-0000-4000-8000-%012x', i, i), printf('p%02d', 6 + i % 15),
           $y0 - i * 10800, $y0 - i * 10800 + 2700, CASE WHEN i % 7 = 0 THEN 'rows 1-20' END FROM c;
    DELETE FROM history_pause;"
}

sql_log="SELECT s.id, strftime('%Y-%m-%d %H:%M', s.start_time, 'unixepoch'),
  strftime('%Y-%m-%d %H:%M', s.end_time, 'unixepoch'), s.end_time - s.start_time, p.name, s.note
  FROM time_session s JOIN project p ON p.id = s.project_id ORDER BY s.start_time, s.seq"
sql_month="SELECT strftime('%Y-%m', start_time, 'unixepoch') AS m, sum(end_time - start_time)
  FROM time_session GROUP BY m ORDER BY m"
sql_summary="SELECT project_id, sum(min(end_time, 1767225600) - max(start_time, 1735689600))
  FROM time_session WHERE start_time < 1767225600 AND end_time > 1735689600
  AND start_time >= 1735689600 - (SELECT max(end_time - start_time) FROM time_session)
  GROUP BY project_id;
  SELECT s.project_id, sum(s.end_time - s.start_time) FROM project p JOIN time_session s
  ON s.project_id = p.id WHERE p.status = 'finished' AND p.finished BETWEEN '$year-01-01' AND
  '$year-12-31' GROUP BY s.project_id"
echo "$sql_log;" >"$work/log.sql"
echo "$sql_month;" >"$work/month.sql"
echo "$sql_summary;" >"$work/summary.sql"

rss() {  # rss COMMAND... : peak RSS of one run, in MB
  if [ $have_time = 1 ]; then
    /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1 / 1024}'
  else
    echo "-"
  fi
}

results="$work/results.txt"
: >"$results"
for n in "${sizes[@]}"; do
  dir="$work/n$n"
  echo "prefilling $n sessions…" >&2
  prefill "$yarn" "$n" "$dir/new"
  [ -n "$base" ] && prefill "$base" "$n" "$dir/base"
  db="$dir/new/library.sqlite"
  # The first command upgrades the schema if needed; it is not timed.
  got=$("$yarn" --library "$dir/new" time log --format csv | wc -l)
  [ "$got" = $((n + 1)) ] || { echo "bench/time-costs.sh: expected $n sessions, yarn lists $((got - 1))" >&2; exit 1; }
  [ -n "$base" ] && "$base" --library "$dir/base" time log --format csv >/dev/null

  for op in log json month summary; do
    case $op in
      log) args=(time log); sql=(sqlite3 "$db" ".read $work/log.sql") ;;
      json) args=(time log --format json); sql=(sqlite3 -json "$db" ".read $work/log.sql") ;;
      month) args=(time report --by month); sql=(sqlite3 "$db" ".read $work/month.sql") ;;
      summary) args=(summary --year $year); sql=(sqlite3 "$db" ".read $work/summary.sql") ;;
    esac
    cmds=(--command-name "yarn" "$yarn --library $dir/new ${args[*]}")
    [ -n "$base" ] && cmds+=(--command-name "before" "$base --library $dir/base ${args[*]}")
    cmds+=(--command-name "sqlite3" "${sql[0]} ${sql[*]:1:$((${#sql[@]} - 2))} \"${sql[-1]}\"")
    hyperfine -N --warmup 1 --runs "$runs" --export-json "$dir/$op.json" --output=null "${cmds[@]}" >&2
    r_yarn=$(rss "$yarn" --library "$dir/new" "${args[@]}")
    r_base="-"; [ -n "$base" ] && r_base=$(rss "$base" --library "$dir/base" "${args[@]}")
    r_sql=$(rss "${sql[@]}")
    python3 - "$n" "$op" "$dir/$op.json" "$r_yarn" "$r_base" "$r_sql" >>"$results" <<'PY'
import json, sys
n, op, path, r_yarn, r_base, r_sql = sys.argv[1:]
res = {r["command"]: r for r in json.load(open(path))["results"]}
wall = {k: r["mean"] * 1000 for k, r in res.items()}
cpu = {k: (r["user"] + r["system"]) * 1000 for k, r in res.items()}
cells = [f"{int(n):,}", op,
         f"{wall['yarn']:.1f}", f"{cpu['yarn']:.1f}", r_yarn,
         f"{wall['sqlite3']:.1f}", f"{cpu['sqlite3']:.1f}", r_sql,
         f"{wall['yarn'] / wall['sqlite3']:.2f}×", f"{cpu['yarn'] / cpu['sqlite3']:.2f}×"]
if "before" in wall:
    cells += [f"{wall['before']:.1f}", f"{cpu['before']:.1f}", r_base,
              f"{wall['before'] / wall['sqlite3']:.2f}×"]
print("| " + " | ".join(cells) + " |")
PY
  done
done
echo
echo "hyperfine, $runs runs after 1 warm-up, TZ=UTC; ms: mean wall time and mean CPU time (user +"
echo "system); MB: peak RSS of one run; ratios to sqlite3 doing the equivalent query:"
head="| sessions | command | yarn wall | yarn CPU | yarn MB | sqlite3 wall | sqlite3 CPU | sqlite3 MB | yarn/sqlite3 wall | yarn/sqlite3 CPU |"
rule="|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
[ -n "$base" ] && { head+=" before wall | before CPU | before MB | before/sqlite3 wall |"; rule+="---:|---:|---:|---:|"; }
echo "$head"; echo "$rule"
cat "$results"
python3 - "$results" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    rows.setdefault(cells[1], []).append((int(cells[0].replace(",", "")), float(cells[2]), float(cells[3])))
print("\ngrowth of yarn's time from one size to the next (items ×: wall ×, CPU ×):")
for op, points in rows.items():
    steps = [f"{b[0] // a[0]}×: {b[1] / a[1]:.2f}×, {b[2] / a[2]:.2f}×" for a, b in zip(points, points[1:])]
    print(f"  {op:<8} " + "; ".join(steps))
PY
