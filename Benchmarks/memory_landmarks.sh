#!/bin/bash
# Peak memory of a bench that runs the landmark model on every sample (issue 28: under 250 MB
# beyond the model itself at 100k samples). Makes manifest datasets of tiny face images in
# reports/benchmark-data (Benchmarks/make_manifest.py --faces: 300 crops of the sample's faces,
# 64-96 px, hard-linked under one name per row; not committed), runs the release padbench under
# /usr/bin/time -v with `--profiles basic --estimators landmarks,head,eye_state,mouth` and prints
# a markdown table: peak RSS, the model's own share, the rest ("beyond the model") and growth.
# The model's share is measured, not assumed: the peak RSS of the same bench at the smallest size
# with and without the landmark estimators (the model's arrays; the file's size is printed beside).
# usage: Benchmarks/memory_landmarks.sh [N ...]      (default: 1000 100000)
#        LANDMARK_MODEL=FILE ...                     (default Debian libdlib-data's 68-point model)
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@"); [ ${#SIZES[@]} -eq 0 ] && SIZES=(1000 100000)
DATA=reports/benchmark-data
BIN=.build/release/padbench
MODEL=${LANDMARK_MODEL:-/usr/share/dlib/shape_predictor_68_face_landmarks.dat}
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
[ -x $BIN ] || swift build -c release
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
run() {  # N LANDMARKS(0/1) -> "wall kb"
  local extra=(); [ "$2" = 1 ] && extra=(--estimators landmarks,head,eye_state,mouth --landmark-model "$MODEL")
  measure lm-$1-$2 $BIN bench --dataset "$(dataset $1)" --profiles basic --face-detector cascade "${extra[@]}" --out $DATA/lm-run-$1-$2 --force --quiet
}

small=${SIZES[0]}
read -r _ without < <(run $small 0)
read -r _ with < <(run $small 1)
model_mb=$(( (with - without) / 1024 ))
faces=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "landmarks.parts") c = i} NR > 1 && $c == 68 {n++} END {print n + 0}' \
  $DATA/lm-run-$small-1/samples.csv)
echo "model: $MODEL, $(( $(stat -c %s "$MODEL") / 1000000 )) MB on disk; its share of RSS: $model_mb MB (bench of $small samples: $(( with / 1024 )) MB with the landmark estimators, $(( without / 1024 )) MB without); landmarks found on $faces of $small samples"
echo
echo "| command | samples | wall (m:ss) | peak RSS (MB) | beyond the model (MB) | growth (bytes/sample) |"
echo "|---|---:|---:|---:|---:|---:|"
echo "| bench --profiles basic --estimators landmarks,head,eye_state,mouth | $small | - | $(( with / 1024 )) | $(( (with / 1024) - model_mb )) | - |"
for n in "${SIZES[@]:1}"; do
  read -r wall kb < <(run $n 1)
  echo "| bench --profiles basic --estimators landmarks,head,eye_state,mouth | $n | $wall | $(( kb / 1024 )) | $(( (kb / 1024) - model_mb )) | $(( (kb - with) * 1024 / (n - small) )) |"
done
