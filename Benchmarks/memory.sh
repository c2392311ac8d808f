#!/bin/bash
# Peak memory of bench, merge and eval --archive as the dataset grows (issue 16: a million
# samples in flat memory). Makes manifest datasets of tiny images in reports/benchmark-data (not
# committed; 300 distinct PNG/JPEG files hard-linked under one name per row), runs the release
# padbench under /usr/bin/time -v and prints a markdown table of peak RSS and growth per sample.
# usage: Benchmarks/memory.sh [N ...]          (default: 10000 100000 1000000)
#        MERGE_N="100000 1000000" Benchmarks/memory.sh   (sizes for the 8-shard merge and
#            eval --archive, default: the largest N; with two or more sizes the growth column is
#            (peak - first size's peak) / (samples - first size's samples), as for bench)
#        ONE_SPLIT_N="20000 300000" (default; "" skips): bench again on datasets whose every row
#            is in the eval split, the one bench reports on, so every sample's decision is kept;
#            the goal (issue 26) is a growth of at most 150 bytes per sample between the sizes
#        REUSE_SHARDS=1 ...   (merge the shard archives an earlier run left in reports/benchmark-data
#            instead of benching the 8 shards again: at a million samples they take as long as bench)
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@"); [ ${#SIZES[@]} -eq 0 ] && SIZES=(10000 100000 1000000)
MERGE_SIZES=(${MERGE_N:-${SIZES[-1]}})
DATA=reports/benchmark-data
BIN=.build/release/padbench
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
[ -x $BIN ] || swift build -c release
mkdir -p $DATA

dataset() {  # N [SPLIT] -> folder with manifest.csv (every row in SPLIT when given)
  local dir=$DATA/m$1${2:+-$2}
  [ -f $dir/manifest.csv ] || python3 Benchmarks/make_manifest.py $1 $dir ${2:+--split $2} >&2
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
  read wall kb < <(measure bench-$n $BIN bench --dataset $dir --profiles basic --face-detector cascade --out $DATA/run-$n --force --quiet)
  growth="-"
  if [ -n "$first_n" ]; then growth=$(( (kb - first_kb) * 1024 / (n - first_n) )); else first_n=$n; first_kb=$kb; fi
  echo "| bench --profiles basic | $n | $wall | $(( kb / 1024 )) | $growth |"
done

one_first_n=""; one_first_kb=""
for n in ${ONE_SPLIT_N-20000 300000}; do
  dir=$(dataset $n eval)
  read wall kb < <(measure bench-eval-$n $BIN bench --dataset $dir --profiles basic --face-detector cascade --out $DATA/run-eval-$n --force --quiet)
  growth="-"
  if [ -n "$one_first_n" ]; then growth=$(( (kb - one_first_kb) * 1024 / (n - one_first_n) )); else one_first_n=$n; one_first_kb=$kb; fi
  echo "| bench --profiles basic, all in the eval split | $n | $wall | $(( kb / 1024 )) | $growth |"
done

growth() {  # N KB FIRST_N FIRST_KB -> bytes per sample, or whole RSS / samples when there is no first size
  if [ "$3" = "$1" ]; then echo "$(( $2 * 1024 / $1 )) (whole RSS / samples)"; else echo $(( ($2 - $4) * 1024 / ($1 - $3) )); fi
}
merge_first=(); eval_first=()
for n in "${MERGE_SIZES[@]}"; do
  dir=$(dataset $n)
  shards=()
  rm -rf $DATA/merged-$n $DATA/eval-$n
  for k in 1 2 3 4 5 6 7 8; do
    archive=$DATA/shard-$n-$k/results.tar.zst
    if [ -z "${REUSE_SHARDS:-}" ] || [ ! -f $archive ]; then
      $BIN bench --dataset $dir --profiles basic --face-detector cascade --shard $k/8 --out $DATA/shard-$n-$k --force --quiet > /dev/null
    fi
    shards+=($archive)
  done
  read wall kb < <(measure merge-$n $BIN merge "${shards[@]}" --out $DATA/merged-$n)
  [ ${#merge_first[@]} -eq 0 ] && merge_first=($n $kb)
  echo "| merge of 8 shards | $n | $wall | $(( kb / 1024 )) | $(growth $n $kb ${merge_first[@]}) |"
  [ -f $DATA/run-$n/results.tar.zst ] || $BIN bench --dataset $dir --profiles basic --face-detector cascade --out $DATA/run-$n --force --quiet > /dev/null
  read wall kb < <(measure eval-$n $BIN eval --archive $DATA/run-$n/results.tar.zst --profiles basic --out $DATA/eval-$n)
  [ ${#eval_first[@]} -eq 0 ] && eval_first=($n $kb)
  echo "| eval --archive | $n | $wall | $(( kb / 1024 )) | $(growth $n $kb ${eval_first[@]}) |"
done
