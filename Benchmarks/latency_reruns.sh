#!/bin/bash
# The latency gate under load: "identical work passes on a loaded 2-core machine while a 1.5x
# slower estimator is still caught".
#  1. Starts LOAD busy processes (default 4: a load of 4 or more on 2 cores) for the whole script.
#  2. Runs `bench` on datasets/sample N times (default 20) with the release padbench and compares
#     each run with the one before it both ways (2 (N - 1) comparisons), `compare --gate latency`
#     (the CPU-time gate, the default) and, for the record, `--latency-clock wall`; counts the
#     comparisons that alarmed (exit 1) and prints each one's highest lower bound (it would alarm
#     at any `--latency-ratio` below that).
#  3. Builds two copies of the sample re-encoded alike by ffmpeg (stills JPEG, clips MPEG-4), one
#     at the original size and one with PIXELS (default 1.6) times the pixels, so decode and the
#     `quality` estimator do more work (quality's CPU p50 measured about 1.5x at 1.7x the pixels;
#     the line printed gives the ratio measured); benches both and compares them
#     (`--allow-different-dataset --gate latency`): the gate must catch `quality` (exit 1 with
#     `timing quality cpu_p50_us` REGRESSED). When the machine's speed changed between the two
#     runs (compare exits 2, not gated) the pair is run again, at most 3 times.
# usage: Benchmarks/latency_reruns.sh [N]
#        PADBENCH=path/to/padbench LOAD=4 LIMIT=1.25 PIXELS=1.6 OUT=reports/latency-reruns \
#          Benchmarks/latency_reruns.sh 20
# Prints one line per comparison and a summary; exit 1 when an identical rerun alarmed on the CPU
# gate or the slower estimator was not caught.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20}
BIN=${PADBENCH:-.build/release/padbench}
LOAD=${LOAD:-4}
OUT=${OUT:-reports/latency-reruns}
# LIMIT: compare's --latency-ratio (default: compare's own).
LIMIT_OPTION=${LIMIT:+--latency-ratio $LIMIT}
[ -x "$BIN" ] || swift build -c release
[ "$N" -ge 2 ] || { echo "N must be at least 2" >&2; exit 64; }
command -v ffmpeg > /dev/null || { echo "ffmpeg (the command) is needed to build the scaled stills" >&2; exit 64; }
rm -rf "$OUT"
mkdir -p "$OUT"

burners=()
stop_load() { for pid in "${burners[@]}"; do kill "$pid" 2> /dev/null || true; done; wait 2> /dev/null || true; }
trap stop_load EXIT
for _ in $(seq 1 "$LOAD"); do
  (while :; do :; done) &
  burners+=($!)
done
sleep 2
echo "load: $LOAD busy processes on $(nproc) CPUs; loadavg $(cut -d' ' -f1 /proc/loadavg)"

verdict() { # compare's exit code as a word (2 with the machine-speed note: nothing gated); else stop
  case $1 in
    0) echo "no alarm" ;;
    1) echo ALARM ;;
    2) if grep -q "machine ran at another speed" "$2"; then echo "not gated (machine speed $(speed "$2"))"
       else echo "compare exited 2: $(tail -1 "$2")" >&2; exit 2; fi ;;
    *) echo "compare exited $1" >&2; exit 2 ;;
  esac
}
speed() { sed -n 's/.*reference work \(x[0-9.]*\) new.*/\1/p' "$1" | head -1; }

# The highest lower bound of the gated latency checks: the comparison alarms at any limit below it.
highest() {
  grep 'quantile-interval' "$1" | sed -n 's/.*95% interval \[x\([0-9.]*\),.*/\1/p' | sort -g | tail -1
}

cpu_alarms=0; wall_alarms=0; comparisons=0; speed_skips=0
compare_pair() { # BASE NEW: both gates, one line
  set +e
  "$BIN" compare "$OUT/run$1" "$OUT/run$2" --gate latency $LIMIT_OPTION > "$OUT/compare$1-$2.txt" 2>&1; cpu=$?
  "$BIN" compare "$OUT/run$1" "$OUT/run$2" --gate latency --latency-clock wall $LIMIT_OPTION \
    > "$OUT/wall$1-$2.txt" 2>&1; wall=$?
  set -e
  cpu_word=$(verdict $cpu "$OUT/compare$1-$2.txt"); wall_word=$(verdict $wall "$OUT/wall$1-$2.txt")
  [ "$cpu" -eq 2 ] && speed_skips=$((speed_skips + 1))
  comparisons=$((comparisons + 1))
  [ "$cpu" -eq 1 ] && cpu_alarms=$((cpu_alarms + 1))
  [ "$wall" -eq 1 ] && wall_alarms=$((wall_alarms + 1))
  echo "run $1 -> run $2: cpu gate $cpu_word (highest lower bound $(highest "$OUT/compare$1-$2.txt")), " \
    "wall gate $wall_word (highest lower bound $(highest "$OUT/wall$1-$2.txt"))"
}
for k in $(seq 1 "$N"); do
  "$BIN" bench --dataset datasets/sample --profiles basic --quiet --out "$OUT/run$k" > "$OUT/bench$k.log" 2>&1 \
    || { echo "bench $k failed:" >&2; tail -3 "$OUT/bench$k.log" >&2; exit 2; }
done
# Each rerun against the one before it, both ways: a slower and a faster baseline alike.
for k in $(seq 2 "$N"); do
  compare_pair $((k - 1)) "$k"
  compare_pair "$k" $((k - 1))
done

# The same samples, re-encoded alike, at 1x and PIXELS x the pixels (stills as JPEG, clips as MPEG-4).
python3 - "$OUT" << 'EOF'
import csv, math, os, subprocess, sys
out = sys.argv[1]
factor = math.sqrt(float(os.environ.get("PIXELS", "1.6")))
rows = list(csv.DictReader(open("datasets/sample/manifest.csv")))
for name, f in (("same", 1.0), ("larger", factor)):
    root = os.path.join(out, name)
    with open(os.path.join(out, name + ".csv"), "w", newline="") as m:
        w = csv.DictWriter(m, fieldnames=list(rows[0].keys()))
        w.writeheader()
        for r in rows:
            target = os.path.join(root, r["path"])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            scale = f"scale=trunc(iw*{f}/2)*2:trunc(ih*{f}/2)*2:flags=bicubic"
            codec = ["-q:v", "3"] if r["path"].endswith(".jpg") else ["-c:v", "mpeg4", "-q:v", "3", "-an"]
            subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", os.path.join("datasets/sample", r["path"]),
                            "-vf", scale] + codec + [target], check=True)
            row = dict(r)
            for key in ("x", "y", "w", "h"):
                if row.get(key):
                    row[key] = f"{float(r[key]) * f:.1f}"
            w.writerow(row)
    os.replace(os.path.join(out, name + ".csv"), os.path.join(root, "manifest.csv"))
EOF
# The pair again when the machine changed speed between its two runs (at most 3 tries).
for try in 1 2 3; do
  for name in same larger; do
    "$BIN" bench --dataset "$OUT/$name" --profiles basic --quiet --force --out "$OUT/run-$name" \
      > "$OUT/bench-$name.log" 2>&1 || { echo "bench $name failed:" >&2; tail -3 "$OUT/bench-$name.log" >&2; exit 2; }
  done
  set +e
  "$BIN" compare "$OUT/run-same" "$OUT/run-larger" --allow-different-dataset --gate latency $LIMIT_OPTION \
    > "$OUT/compare-larger.txt" 2>&1
  slow=$?
  set -e
  slow_word=$(verdict $slow "$OUT/compare-larger.txt")
  echo "larger samples vs the same, try $try: $slow_word"
  [ "$slow" -ne 2 ] && break
done
quality=$(grep 'timing quality cpu_p50_us' "$OUT/compare-larger.txt" | sed 's/  */ /g' || true)
echo "$quality"
caught=0
[ "$slow" -eq 1 ] && grep -q '^REGRESSED *timing quality cpu_p50_us' "$OUT/compare-larger.txt" && caught=1
echo "identical reruns: $comparisons comparisons under load $LOAD, alarmed: $cpu_alarms on CPU time" \
  "($wall_alarms on wall time), not gated for machine speed: $speed_skips; slower quality step caught: $([ $caught -eq 1 ] && echo yes || echo NO)"
[ "$cpu_alarms" -eq 0 ] && [ "$caught" -eq 1 ]
