#!/bin/bash
# Peak memory of a bench that runs the ONNX networks on every sample (issue 37: under 350 MB peak
# RSS at 100k samples): `--profiles basic --estimators face,minifasnet` (UltraFace RFB-320, the
# default detector, and the MiniFASNet pair with its batched dynamic-batch copies) on manifest
# datasets of tiny face images in reports/benchmark-data (Benchmarks/make_manifest.py --faces: 300
# crops of the sample's faces, 64-96 px, hard-linked under one name per row; the same datasets as
# memory_landmarks.sh, not committed), release padbench under /usr/bin/time -v, all workers.
# Prints a markdown table: peak RSS, the networks' share (the smallest size's bench with and
# without the two estimators, as memory_landmarks.sh measures the model's share), faces found
# (samples with a finite minifasnet.score) and growth per sample against the smallest size.
# usage: Benchmarks/memory_onnx.sh [N ...]     (default: $ONNX_MEMORY_SIZES, else "1000 100000";
#        the first size is the reference for the share and the growth). At about 4 ms per sample
#        on 2 cores, 100k samples take several minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@"); [ ${#SIZES[@]} -eq 0 ] && read -r -a SIZES <<< "${ONNX_MEMORY_SIZES:-1000 100000}"
DATA=reports/benchmark-data
BIN=${BENCH_BIN:-.build/release/padbench}   # BENCH_BIN: another padbench build to measure
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
[ -x "$BIN" ] || swift build -c release --product padbench
python3 -c "import PIL, numpy" 2>/dev/null || python3 -m pip install -q pillow numpy >/dev/null 2>&1
mkdir -p $DATA

dataset() {  # N -> folder with manifest.csv
  local dir=$DATA/f$1
  [ -f $dir/manifest.csv ] || python3 Benchmarks/make_manifest.py $1 $dir 1 --faces datasets/sample >&2
  echo $dir
}
measure() {  # LABEL COMMAND... -> "wall kb"
  local log=$DATA/time-$1.txt; shift
  /usr/bin/time -v "$@" > $DATA/out.txt 2> $log || { echo "failed: $*" >&2; tail -5 $log >&2; exit 1; }
  echo "$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' $log) $(awk -F': ' '/Maximum resident set size/ {print $2}' $log)"
}
run() {  # N ONNX(0/1) -> "wall kb"
  local extra=(); [ "$2" = 1 ] && extra=(--estimators face,minifasnet)
  measure onnx-$1-$2 $BIN bench --dataset "$(dataset $1)" --profiles basic "${extra[@]}" --out $DATA/onnx-run-$1-$2 --force --quiet
}
faces() {  # run folder -> samples with a finite minifasnet.score
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "minifasnet.score") c = i}
    NR > 1 && c && $c != "" && $c != "nan" && $c != "NaN" {n++} END {print n + 0}' "$1/samples.csv"
}

small=${SIZES[0]}
read -r _ without < <(run $small 0)
read -r wall0 with < <(run $small 1)
share_mb=$(( (with - without) / 1024 ))
echo "estimators face (UltraFace RFB-320) + minifasnet (V2 + V1SE, dynamic batch); their share of RSS: $share_mb MB"
echo "(bench of $small samples: $(( with / 1024 )) MB with them, $(( without / 1024 )) MB without); $(nproc) workers"
echo
echo "| command | samples | faces scored | wall (m:ss) | peak RSS (MB) | growth (bytes/sample) |"
echo "|---|---:|---:|---:|---:|---:|"
echo "| bench --profiles basic --estimators face,minifasnet | $small | $(faces $DATA/onnx-run-$small-1) | $wall0 | $(( with / 1024 )) | - |"
for n in "${SIZES[@]:1}"; do
  read -r wall kb < <(run $n 1)
  echo "| bench --profiles basic --estimators face,minifasnet | $n | $(faces $DATA/onnx-run-$n-1) | $wall | $(( kb / 1024 )) | $(( (kb - with) * 1024 / (n - small) )) |"
done
