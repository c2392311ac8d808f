#!/bin/bash
# Issue 30's check: "the paired bootstrap gate raises no alarm on 20 identical reruns of the
# sample". Runs `bench` on datasets/sample N times (default 20) with the release padbench, then
# `compare RUN1 RUNk --gate accuracy` for k = 2..N (the accuracy gate holds McNemar's test of the
# decisions and the paired bootstrap of EER and BPCER@APCER; latency is left out: wall times of
# reruns differ), and counts the comparisons that alarmed (exit 1). It also checks that every
# rerun's scores equal the first run's byte for byte: samples.csv without its `*_ns` timing columns
# and decisions.csv.
# usage: Benchmarks/reruns.sh [N]
#        PADBENCH=path/to/padbench PROFILES=basic OUT=reports/reruns Benchmarks/reruns.sh 20
# Prints one line per comparison and a summary line; exit 1 when a comparison alarmed or a rerun's
# scores differ.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20}
BIN=${PADBENCH:-.build/release/padbench}
PROFILES=${PROFILES:-basic}
OUT=${OUT:-reports/reruns}
[ -x "$BIN" ] || swift build -c release
[ "$N" -ge 2 ] || { echo "N must be at least 2" >&2; exit 64; }
rm -rf "$OUT"
mkdir -p "$OUT"

# samples.csv without the columns whose name ends in _ns (per-step nanoseconds differ per run).
scores() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) keep[i] = ($i !~ /_ns$/) }
           { line = ""; for (i = 1; i <= NF; i++) if (keep[i]) line = line (line == "" ? "" : ",") $i; print line }' "$1"
}

alarms=0; differ=0
for k in $(seq 1 "$N"); do
  "$BIN" bench --dataset datasets/sample --profiles "$PROFILES" --quiet --out "$OUT/run$k" > "$OUT/bench$k.log" 2>&1 \
    || { echo "bench $k failed:" >&2; tail -3 "$OUT/bench$k.log" >&2; exit 2; }
  [ "$k" -eq 1 ] && continue
  same=identical
  if ! cmp -s <(scores "$OUT/run1/samples.csv") <(scores "$OUT/run$k/samples.csv") \
     || ! cmp -s "$OUT/run1/decisions.csv" "$OUT/run$k/decisions.csv"; then
    same=DIFFERENT; differ=$((differ + 1))
  fi
  set +e
  "$BIN" compare "$OUT/run1" "$OUT/run$k" --gate accuracy > "$OUT/compare$k.txt" 2>&1
  rc=$?
  set -e
  case $rc in
    0) verdict="no alarm" ;;
    1) verdict=ALARM; alarms=$((alarms + 1)) ;;
    *) echo "compare $k exited $rc:" >&2; tail -3 "$OUT/compare$k.txt" >&2; exit 2 ;;
  esac
  bootstrap=$(grep -c "paired-bootstrap" "$OUT/compare$k.txt" || true)
  echo "run $k vs run 1: $verdict ($bootstrap paired-bootstrap checks), scores $same"
done
echo "reruns: $N, comparisons: $((N - 1)), alarmed: $alarms, scores differing from run 1: $differ"
[ "$alarms" -eq 0 ] && [ "$differ" -eq 0 ]
