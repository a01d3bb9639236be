#!/usr/bin/env bash
# Benchmark (not a test, not run in CI): `yarn time start` and `yarn time stop` (release
# build, Swift runtime linked statically) against Timewarrior's `timew start`/`stop` and
# Watson's `watson start`/`stop`, side by side with hyperfine, with 1,000 and 100,000 sessions
# already recorded in each tool. Prints each tool's mean and the ratios.
#
#   bash bench/time.sh [SIZES...]        default sizes: 1000 100000
#   YARN_BIN=path/to/yarn RUNS=30 SLOW_RUNS=10 bash bench/time.sh   (skip the build; run counts)
#
# Needs: hyperfine, sqlite3, python3; timewarrior (apt-get install timewarrior) and Watson
# (pip install td-watson) — a missing one is left out of the comparison.
#
# What is measured, for every tool alike:
#   start: the state before each run is "no timer running, N sessions recorded"; the
#          prepare step cancels the timer the previous run started.
#   stop:  the state before each run is "a timer running, N sessions recorded"; the prepare
#          step starts it (Timewarrior: "2min ago ... :adjust", because it refuses an
#          interval that starts and ends in the same second; the adjust replaces the interval
#          the previous run recorded, so the count stays N).
# Prefill is direct: yarn through SQL into its SQLite file, Timewarrior by writing its
# data/YYYY-MM.data files, Watson by writing its frames JSON. Sessions are 30 minutes, one an
# hour, ending before now.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1000 100000)
runs=${RUNS:-30}
slow_runs=${SLOW_RUNS:-10}

for tool in hyperfine sqlite3 python3; do
  command -v "$tool" >/dev/null || { echo "bench/time.sh: $tool is needed" >&2; exit 1; }
done
have_timew=1; command -v timew >/dev/null || { have_timew=0; echo "note: timew not found (apt-get install timewarrior); left out" >&2; }
have_watson=1; command -v watson >/dev/null || { have_watson=0; echo "note: watson not found (pip install td-watson); left out" >&2; }

if [ -n "${YARN_BIN:-}" ]; then
  yarn="$YARN_BIN"  # a release build made by scripts/build-release.sh
else
  echo "building yarn (release: scripts/build-release.sh)…" >&2
  yarn="$(bash scripts/build-release.sh)"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/yarn-time-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export TZ=${TZ:-UTC}

prefill() {  # prefill SIZE DIR
  local n=$1 dir=$2 now
  now=$(date +%s)
  # yarn: a project, then N sessions in one SQL statement.
  "$yarn" --library "$dir/yarn" project add Flax -q
  local project
  project=$(sqlite3 "$dir/yarn/library.sqlite" "SELECT id FROM project LIMIT 1")
  # With the undo history paused (a row in history_pause), as a prefill is not a change.
  sqlite3 "$dir/yarn/library.sqlite" "
    INSERT INTO history_pause VALUES (1);
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $n)
    INSERT INTO time_session (id, project_id, start_time, end_time, note)
    SELECT printf('%08x-0000-4000-8000-%012x', i, i), '$project',
           $now - ($n - i + 2) * 3600, $now - ($n - i + 2) * 3600 + 1800, NULL FROM c;
    DELETE FROM history_pause;"
  # Timewarrior and Watson: their files, written directly.
  python3 - "$n" "$now" "$dir" <<'PY'
import json, os, sys, time, uuid
n, now, root = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
tw = os.path.join(root, "timew", "data")
os.makedirs(tw)
open(os.path.join(root, "timew", "timewarrior.cfg"), "w").close()
months = {}
frames = []
for i in range(1, n + 1):
    start = now - (n - i + 2) * 3600
    end = start + 1800
    s = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(start))
    e = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(end))
    months.setdefault(s[:4] + "-" + s[4:6], []).append(f"inc {s} - {e} # Flax\n")
    frames.append([start, end, "Flax", uuid.UUID(int=i).hex, [], end])
for month, lines in months.items():
    with open(os.path.join(tw, month + ".data"), "w") as f:
        f.writelines(lines)
with open(os.path.join(tw, "tags.data"), "w") as f:
    f.write('{\n  "Flax":{"count":%d}\n}' % n)
os.makedirs(os.path.join(root, "watson"))
with open(os.path.join(root, "watson", "frames"), "w") as f:
    json.dump(frames, f, indent=1)
with open(os.path.join(root, "watson", "state"), "w") as f:
    f.write("{}")
PY
}

results="$work/results.txt"
: >"$results"
for n in "${sizes[@]}"; do
  dir="$work/n$n"
  mkdir -p "$dir"
  echo "prefilling $n sessions…" >&2
  prefill "$n" "$dir"
  export TIMEWARRIORDB="$dir/timew" WATSON_DIR="$dir/watson"
  y=("$yarn" --library "$dir/yarn")
  [ "$("${y[@]}" time log --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = "$n" ] \
    || { echo "bench/time.sh: yarn prefill failed" >&2; exit 1; }

  for op in start stop; do
    args=(-N --warmup 3 --runs "$runs" --export-json "$dir/$op.json")
    cmds=()
    # yarn
    if [ "$op" = start ]; then
      "${y[@]}" time start Flax -q
      args+=(--prepare "${y[*]} time cancel -q"); cmds+=(--command-name "yarn time $op" "${y[*]} time start Flax")
    else
      "${y[@]}" time cancel -q 2>/dev/null || true
      args+=(--prepare "${y[*]} time start Flax -q"); cmds+=(--command-name "yarn time $op" "${y[*]} time stop")
    fi
    if [ $have_timew = 1 ]; then
      if [ "$op" = start ]; then
        timew start Flax >/dev/null
        args+=(--prepare "timew cancel"); cmds+=(--command-name "timew $op" "timew start Flax")
      else
        timew cancel >/dev/null
        args+=(--prepare "timew start 2min ago Flax :adjust"); cmds+=(--command-name "timew $op" "timew stop")
      fi
    fi
    hyperfine "${args[@]}" "${cmds[@]}" >&2
    if [ "$op" = stop ]; then "${y[@]}" time cancel -q 2>/dev/null || true; [ $have_timew = 1 ] && { timew cancel >/dev/null || true; }; fi
    if [ $have_watson = 1 ]; then
      if [ "$op" = start ]; then
        watson start Flax >/dev/null
        wprep="watson cancel"; wcmd="watson start Flax"
      else
        wprep="watson start Flax"; wcmd="watson stop"
      fi
      hyperfine -N --warmup 1 --runs "$slow_runs" --export-json "$dir/$op-watson.json" \
        --prepare "$wprep" --command-name "watson $op" "$wcmd" >&2
      [ "$op" = start ] && { watson cancel >/dev/null || true; }
    fi
    python3 - "$n" "$op" "$dir/$op.json" "$dir/$op-watson.json" >>"$results" <<'PY'
import json, os, sys
n, op = sys.argv[1], sys.argv[2]
means = {}
for path in sys.argv[3:]:
    if os.path.exists(path):
        for r in json.load(open(path))["results"]:
            means[r["command"].split()[0]] = r["mean"] * 1000
y = means.get("yarn")
line = f"{int(n):>7} sessions  {op:<5}  yarn {y:7.2f} ms"
if "timew" in means:
    line += f"   timew {means['timew']:7.2f} ms   yarn/timew {y / means['timew']:5.2f}x"
if "watson" in means:
    line += f"   watson {means['watson']:8.2f} ms   watson/yarn {means['watson'] / y:6.1f}x"
print(line)
PY
  done
done
echo
echo "mean wall time per command (hyperfine; $runs runs, Watson $slow_runs):"
cat "$results"
