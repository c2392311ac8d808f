#!/usr/bin/env bash
# make benchmark: speed of padbench (release build) against baselines measured in the same run.
# Writes reports/benchmark-<timestamp>/results.md and prints it.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/padbench
OUT=reports/benchmark-$(date -u +%Y%m%d-%H%M%S)
DATA=reports/benchmark-data
N=${BENCH_SCORES:-10000000}
IMAGES=${BENCH_IMAGES:-200}
mkdir -p "$OUT" "$DATA"
python3 -c "import bob.measure, cv2, numpy" 2>/dev/null || python3 -m pip install -q bob.measure "opencv-python-headless<5" >/dev/null

now() { date +%s.%N; }
{
echo "# padbench benchmark $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo
echo "machine: $(nproc) cores, $(free -g | awk '/Mem/{print $2}') GiB; padbench $($BIN --version)"
echo

# 1. Metrics: padbench eval on N scores vs bob.measure (EER + BPCER@APCER=1%) on the same file.
[ -f "$DATA/scores-$N.csv" ] || python3 Benchmarks/make_scores.py "$N" "$DATA/scores-$N.csv" 1
t0=$(now)
$BIN eval --scores "$DATA/scores-$N.csv" --criterion bpcer@apcer=0.01 --out "$OUT/eval" --timing > "$OUT/eval.txt"
t1=$(now)
wall=$(echo "$t1 - $t0" | bc)
metrics=$(grep -o 'metrics [0-9.]*' "$OUT/eval.txt" | awk '{print $2}')
bob=$(python3 Benchmarks/metrics_bob.py "$DATA/scores-$N.csv")
bob_s=$(echo "$bob" | python3 -c "import json,sys; print(json.load(sys.stdin)['bob_metrics_s'])")
echo "## Metrics on $N scores (two species)"
echo
echo "| measure | seconds |"
echo "|---|---|"
echo "| padbench eval, whole command (parse, metrics, curves.csv, archive) | $wall |"
echo "| padbench metric computation (curve, EER, 3 BPCER@APCER targets, AUC, operating point) | $metrics |"
echo "| bob.measure eer_threshold + farfrr + far_threshold (1%) on the same arrays | $bob_s |"
echo "| ratio bob / padbench metrics | $(echo "scale=2; $bob_s / $metrics" | bc) |"
echo
echo '```'; grep -E '^(parse|threshold)' "$OUT/eval.txt"; echo "$bob"; echo '```'
echo

# 2. Estimators: bench throughput on synthetic 640x480 JPEGs.
[ -f "$DATA/synth-$IMAGES/manifest.csv" ] || $BIN dataset synth --sources datasets/sources --out "$DATA/synth-$IMAGES" --count "$IMAGES" --seed 7 > /dev/null
t0=$(now)
$BIN bench --dataset "$DATA/synth-$IMAGES" --profiles basic --estimators face,eyes,quality --out "$OUT/bench" --quiet > "$OUT/bench.txt"
t1=$(now)
wall=$(echo "$t1 - $t0" | bc)
py1=$(python3 Benchmarks/estimators_opencv.py "$DATA/synth-$IMAGES")
pyn=$(python3 Benchmarks/estimators_opencv.py "$DATA/synth-$IMAGES" --processes "$(nproc)")
rate() { python3 -c "import json,sys; print(round(json.loads(sys.argv[1])['images_per_s'],1))" "$1"; }
ours=$(echo "scale=1; $IMAGES / $wall" | bc)
echo "## Estimators on $IMAGES synthetic 640x480 JPEGs (decode + face + eyes + quality)"
echo
echo "| measure | images/s |"
echo "|---|---|"
echo "| padbench bench, whole command ($(nproc) workers; includes writing the run folder) | $ours |"
echo "| Python OpenCV/NumPy, $(nproc) processes x 1 OpenCV thread | $(rate "$pyn") |"
echo "| Python OpenCV/NumPy, 1 process, OpenCV threads = cores | $(rate "$py1") |"
echo "| ratio padbench / best Python | $(python3 -c "import sys; print(round(float(sys.argv[1]) / max(float(sys.argv[2]), float(sys.argv[3])), 2))" "$ours" "$(rate "$pyn")" "$(rate "$py1")") |"
echo
echo '```'; sed -n '/^step/,/^$/p' "$OUT/bench.txt"; echo "$py1"; echo "$pyn"; echo '```'
} | tee "$OUT/results.md"
