#!/bin/bash
# Peak memory of bench, merge and eval --archive as the dataset grows (issue 16: a million
# samples in flat memory). Makes manifest datasets of tiny images in reports/benchmark-data (not
# committed; 300 distinct PNG/JPEG files hard-linked under one name per row), runs the release
# padbench under /usr/bin/time -v and prints a markdown table of peak RSS and growth per sample.
# usage: Benchmarks/memory.sh [N ...]          (default: 10000 100000 1000000)
#        MERGE_N=100000 Benchmarks/memory.sh    (size for the 8-shard merge and eval --archive;
#                                                default: the largest N)
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@"); [ ${#SIZES[@]} -eq 0 ] && SIZES=(10000 100000 1000000)
MERGE_N=${MERGE_N:-${SIZES[-1]}}
DATA=reports/benchmark-data
BIN=.build/release/padbench
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
[ -x $BIN ] || swift build -c release
mkdir -p $DATA

dataset() {  # N -> folder with manifest.csv
  local dir=$DATA/m$1
  [ -f $dir/manifest.csv ] || python3 Benchmarks/make_manifest.py $1 $dir >&2
  echo $dir
}
measure() {  # LABEL COMMAND... -> "seconds kb" (peak resident set size in kB)
  local log=$DATA/time-$1.txt; shift
  /usr/bin/time -v "$@" > $DATA/out.txt 2> $log || { echo "failed: $*" >&2; tail -5 $log >&2; exit 1; }
  local kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' $log)
  local wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' $log)
  echo "$wall $kb"
}

echo "| command | samples | wall (m:ss) | peak RSS (MB) | growth (bytes/sample) |"
echo "|---|---:|---:|---:|---:|"
first_n=""; first_kb=""
for n in "${SIZES[@]}"; do
  dir=$(dataset $n)
  read wall kb < <(measure bench-$n $BIN bench --dataset $dir --profiles basic --out $DATA/run-$n --force --quiet)
  growth="-"
  if [ -n "$first_n" ]; then growth=$(( (kb - first_kb) * 1024 / (n - first_n) )); else first_n=$n; first_kb=$kb; fi
  echo "| bench --profiles basic | $n | $wall | $(( kb / 1024 )) | $growth |"
done

dir=$(dataset $MERGE_N)
shards=()
rm -rf $DATA/merged-$MERGE_N $DATA/eval-$MERGE_N
for k in 1 2 3 4 5 6 7 8; do
  $BIN bench --dataset $dir --profiles basic --shard $k/8 --out $DATA/shard-$MERGE_N-$k --force --quiet > /dev/null
  shards+=($DATA/shard-$MERGE_N-$k/results.tar.zst)
done
read wall kb < <(measure merge-$MERGE_N $BIN merge "${shards[@]}" --out $DATA/merged-$MERGE_N)
echo "| merge of 8 shards | $MERGE_N | $wall | $(( kb / 1024 )) | $(( kb * 1024 / MERGE_N )) (whole RSS / samples) |"
[ -f $DATA/run-$MERGE_N/results.tar.zst ] || $BIN bench --dataset $dir --profiles basic --out $DATA/run-$MERGE_N --force --quiet > /dev/null
read wall kb < <(measure eval-$MERGE_N $BIN eval --archive $DATA/run-$MERGE_N/results.tar.zst --profiles basic --out $DATA/eval-$MERGE_N)
echo "| eval --archive | $MERGE_N | $wall | $(( kb / 1024 )) | $(( kb * 1024 / MERGE_N )) (whole RSS / samples) |"
