#!/usr/bin/env bash
# make benchmark: speed of padbench (release build) against baselines measured in the same run,
# on this machine, in one sitting. Writes reports/benchmark-<timestamp>/results.md and prints it.
#
# Goal figures (issue 16), each printed beside its baseline:
#   decode        padbench's decode alone (decode-timing) / tjbench, same 640x480 q90 JPEG  >= 0.9
#   video decode  padbench's video decode (video-decode-timing) / ffmpeg -benchmark, same clip,
#                 same decoder threads, both to rgb24                                         >= 0.9
#   end to end    padbench bench images/s / best of OpenCV+NumPy script (1 and 2 processes)  >= 3
#   workers       padbench bench images/s with 2 workers / 1 worker pinned to one CPU         >= 1.8
#   eval          padbench eval of 10 million scores, whole command                          < 10 s
#   eval frames   the same 10 million scores as frames of 1 million presentations            < 10 s
#   memory        peak RSS of bench at the largest size (1M by default; Benchmarks/memory.sh)  < 250 MB
#   landmarks     dlib C++ shape_predictor us per face / padbench's (landmarks-timing), same
#                 faces and grey planes, identical points required                           >= 2
#   end to end with landmarks  padbench bench (face, landmarks, head, eye_state, mouth, eyes,
#                 quality) images/s / best of the OpenCV + dlib-bin script (1 and 2 processes) >= 3
#   memory with landmarks  peak RSS beyond the model's share at 100k samples
#                 (Benchmarks/memory_landmarks.sh)                                            < 250 MB
#
# Environment: BENCH_SCORES (default 10000000), BENCH_IMAGES (200), BENCH_MEMORY_SIZES (default
# "10000 100000 1000000", passed to memory.sh; BENCH_MEMORY=0 skips the memory section, the longest).
# BENCH_LANDMARKS=0 skips the landmark sections (it needs libdlib-dev, installed when missing, and
# libdlib-data's model; BENCH_LANDMARK_ROUNDS, default 20, rounds over the sample's 80 faces).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/padbench
DECODE=.build/release/decode-timing
OUT=reports/benchmark-$(date -u +%Y%m%d-%H%M%S)
DATA=reports/benchmark-data
N=${BENCH_SCORES:-10000000}
IMAGES=${BENCH_IMAGES:-200}
CORES=$(nproc)
mkdir -p "$OUT" "$DATA"
python3 -c "import bob.measure, cv2, numpy, PIL" 2>/dev/null || python3 -m pip install -q bob.measure "opencv-python-headless<5" pillow >/dev/null
command -v tjbench >/dev/null || { apt-get install -y -q libjpeg-turbo-progs >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && apt-get install -y -q libjpeg-turbo-progs >/dev/null; }; }
[ -x "$DECODE" ] || swift build -c release --product decode-timing >/dev/null
VIDEO_DECODE=.build/release/video-decode-timing
[ -x "$VIDEO_DECODE" ] || swift build -c release --product video-decode-timing >/dev/null

now() { date +%s.%N; }
ratio() { python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2]), 2))" "$1" "$2"; }
json() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }
verdict() { python3 -c "import sys; v, op, g = float(sys.argv[1]), sys.argv[2], float(sys.argv[3]); print('met' if (v >= g if op == '>=' else v < g) else 'NOT met')" "$1" "$2" "$3"; }
GOALS="$OUT/goals.md"
goal() { echo "| $1 | $2 | $3 | $4 $5 | $(verdict "$2" "$4" "$5") |" >> "$GOALS"; }
echo "| goal figure | measured | baseline (same run) | goal | |" > "$GOALS"
echo "|---|---|---|---|---|" >> "$GOALS"

{
echo "# padbench benchmark $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo
echo "machine: $CORES cores, $(free -g | awk '/Mem/{print $2}') GiB; padbench $($BIN --version); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# 1. Decode alone: padbench's ImageDecoder vs tjbench (libjpeg-turbo's own benchmark), same file.
[ -f "$DATA/synth-$IMAGES/manifest.csv" ] || $BIN dataset synth --sources datasets/sources --out "$DATA/synth-$IMAGES" --count "$IMAGES" --seed 7 > /dev/null
if [ ! -f "$DATA/decode-640x480-q90.jpg" ]; then
    first=$(find "$DATA/synth-$IMAGES" -name '*.jpg' | sort | head -1)
    djpeg -ppm "$first" > "$DATA/decode.ppm" && cjpeg -quality 90 "$DATA/decode.ppm" > "$DATA/decode-640x480-q90.jpg" && rm "$DATA/decode.ppm"
fi
ours=$($DECODE "$DATA/decode-640x480-q90.jpg" 5)
tj=$(tjbench "$DATA/decode-640x480-q90.jpg" -rgb -accuratedct -quiet -benchtime 5 -warmup 1 | awk 'NF >= 9 && $1 == "RGB" {print $NF}')
ours_mp=$(json "$ours" mpixels_per_s)
echo "## Decode alone: 640x480 JPEG, quality 90, 4:2:0, to RGB, accurate DCT, from memory, 5 s after 1 s warm-up"
echo
echo "| measure | Mpixels/s | ms per frame |"
echo "|---|---|---|"
echo "| padbench ImageDecoder (decode-timing) | $(printf %.1f "$ours_mp") | $(printf %.3f "$(json "$ours" mean_ms)") |"
echo "| tjbench (libjpeg-turbo) | $tj | $(python3 -c "print(f'{640 * 480 / 1e3 / float(\"$tj\"):.3f}')") |"
echo "| ratio padbench / tjbench | $(ratio "$ours_mp" "$tj") | |"
echo
goal "decode, padbench / tjbench (Mpixels/s)" "$(ratio "$ours_mp" "$tj")" "tjbench $tj Mpixels/s" ">=" 0.9

# 1b. Video decode alone: padbench's VideoDecoder vs the ffmpeg command line, same file, same
# decoder threads, both converting every frame to rgb24 (ffmpeg's filter graph on one thread, as
# padbench converts on one); fastest of 3 passes each. The clip: 10 s of 1280x720 H.264 at 30 fps.
VIDEO_THREADS=${BENCH_VIDEO_THREADS:-$CORES}
[ -f "$DATA/video-1280x720-h264.mp4" ] || ffmpeg -nostdin -loglevel error -f lavfi -i testsrc2=size=1280x720:rate=30 \
    -t 10 -c:v libx264 -pix_fmt yuv420p "$DATA/video-1280x720-h264.mp4"
ours_video=$($VIDEO_DECODE "$DATA/video-1280x720-h264.mp4" "$VIDEO_THREADS" 3)
ours_fps=$(json "$ours_video" frames_per_s)
ff_best=""
for pass in 1 2 3; do
    rt=$(ffmpeg -nostdin -benchmark -threads "$VIDEO_THREADS" -i "$DATA/video-1280x720-h264.mp4" -filter_threads 1 \
        -vsync passthrough -pix_fmt rgb24 -f null - 2>&1 | sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p')
    ff_best=$(python3 -c "import sys; a = [float(v) for v in sys.argv[1:] if v]; print(min(a))" $ff_best "$rt")
done
ff_fps=$(python3 -c "print(round(300 / $ff_best, 1))")
echo "## Video decode alone: 300 frames of 1280x720 H.264 to rgb24, $VIDEO_THREADS decoder threads, fastest of 3 passes"
echo
echo "| measure | frames/s |"
echo "|---|---|"
echo "| padbench VideoDecoder (video-decode-timing) | $(printf %.1f "$ours_fps") |"
echo "| ffmpeg -benchmark -threads $VIDEO_THREADS -i FILE -filter_threads 1 -vsync passthrough -pix_fmt rgb24 -f null - | $ff_fps |"
echo "| ratio padbench / ffmpeg | $(ratio "$ours_fps" "$ff_fps") |"
echo
goal "video decode, padbench / ffmpeg (frames/s)" "$(ratio "$ours_fps" "$ff_fps")" "ffmpeg $ff_fps frames/s" ">=" 0.9

# 2. Estimators end to end: bench throughput with 1 and all workers against the OpenCV script.
bench_rate() {  # $1 = concurrency, $2 = repeat, $3 = CPU list or "" (all); prints images/s of the whole command
    local t0 t1 pin=()
    [ -n "${3:-}" ] && pin=(taskset -c "$3")
    t0=$(now)
    "${pin[@]}" $BIN bench --dataset "$DATA/synth-$IMAGES" --profiles basic --estimators face,eyes,quality \
        --concurrency "$1" --out "$OUT/bench-c$1-$2${3:+-pinned}" --quiet > "$OUT/bench-c$1.txt"
    t1=$(now)
    python3 -c "print(round($IMAGES / ($t1 - $t0), 1))"
}
median() { python3 -c "import statistics, sys; print(statistics.median(float(v) for v in sys.argv[1:]))" "$@"; }
# 1 and all workers interleaved, three times each, medians reported: this VM's speed drifts between
# runs minutes apart, and a single pair once gave an impossible 2.6x on 2 cores. The 1-worker run is
# pinned to one CPU (taskset), so the ratio measures scaling over cores: unpinned, one worker gives
# each sample the spare CPUs for its detectors' scales (measured too, as "1 worker, all CPUs").
runs1=(); runsn=(); runs1all=()
for repeat in 1 2 3; do
    runs1+=("$(bench_rate 1 $repeat 0)"); runsn+=("$(bench_rate "$CORES" $repeat)")
    runs1all+=("$(bench_rate 1 $repeat)")
done
ours1=$(median "${runs1[@]}")
oursn=$(median "${runsn[@]}")
ours1all=$(median "${runs1all[@]}")
# The OpenCV script likewise: each configuration three times, medians.
pyruns1=(); pyrunsn=()
for repeat in 1 2 3; do
    py1=$(python3 Benchmarks/estimators_opencv.py "$DATA/synth-$IMAGES")
    pyn=$(python3 Benchmarks/estimators_opencv.py "$DATA/synth-$IMAGES" --processes "$CORES")
    pyruns1+=("$(printf %.1f "$(json "$py1" images_per_s)")"); pyrunsn+=("$(printf %.1f "$(json "$pyn" images_per_s)")")
done
py1_rate=$(median "${pyruns1[@]}"); pyn_rate=$(median "${pyrunsn[@]}")
best_py=$(python3 -c "print(max($py1_rate, $pyn_rate))")
echo "## Estimators on $IMAGES synthetic 640x480 JPEGs (decode + face + eyes + quality)"
echo
echo "Same parameters on both sides: Haar frontalface_default, scale 1.1, 3 neighbours, min size (then frontalface_alt around each detection: the agreement),"
echo "max(24, 8% of the shorter side); eyes (haarcascade_eye) in the upper 60% of the chosen face (most neighbours, then area, then leftmost);"
echo "quality on the face region. padbench's figure is the whole command, writing the run folder included."
echo
echo "| measure | images/s |"
echo "|---|---|"
echo "| padbench bench, 1 worker on 1 CPU (taskset -c 0, --concurrency 1), median of ${runs1[*]} | $ours1 |"
echo "| padbench bench, 1 worker on all $CORES CPUs (scales of each image in parallel), median of ${runs1all[*]} | $ours1all |"
echo "| padbench bench, $CORES workers, median of ${runsn[*]} | $oursn |"
echo "| Python OpenCV $(json "$py1" opencv)/NumPy, 1 process, OpenCV threads = cores, median of ${pyruns1[*]} | $py1_rate |"
echo "| Python OpenCV/NumPy, $CORES processes x 1 OpenCV thread, median of ${pyrunsn[*]} | $pyn_rate |"
echo "| ratio padbench ($CORES workers) / best Python | $(ratio "$oursn" "$best_py") |"
echo "| ratio padbench $CORES workers / 1 worker | $(ratio "$oursn" "$ours1") |"
echo
echo '```'; sed -n '/^step/,/^$/p' "$OUT/bench-c$CORES.txt"; echo '```'
echo
goal "end to end, padbench / best OpenCV script (images/s)" "$(ratio "$oursn" "$best_py")" "OpenCV best $best_py images/s" ">=" 3
goal "bench $CORES workers / 1 worker (images/s)" "$(ratio "$oursn" "$ours1")" "1 worker on 1 CPU $ours1 images/s" ">=" 1.8

# 2b. End to end with landmarks (issue 28): the same images through decode, face (with its
# agreement cascade), landmarks, head, eye_state, mouth, eyes and quality, against the script with
# --landmarks (dlib-bin's shape_predictor, cv2.solvePnP; see its docstring for what differs).
# padbench with all workers, the script with 1 process (OpenCV threads = cores) and with CORES
# processes; three interleaved runs of each, medians, the goal against the better script figure.
MODEL=/usr/share/dlib/shape_predictor_68_face_landmarks.dat
if [ "${BENCH_LANDMARKS:-1}" != 0 ] && [ -f "$MODEL" ]; then
    python3 -c "import dlib" 2>/dev/null || python3 -m pip install -q dlib-bin >/dev/null
    lm_rate() {  # $1 = repeat; images/s of the whole command
        local t0 t1
        t0=$(now)
        $BIN bench --dataset "$DATA/synth-$IMAGES" --profiles basic --estimators face,landmarks,head,eye_state,mouth,eyes,quality \
            --landmark-model "$MODEL" --concurrency "$CORES" --out "$OUT/bench-lm-$1" --quiet > "$OUT/bench-lm.txt"
        t1=$(now)
        python3 -c "print(round($IMAGES / ($t1 - $t0), 1))"
    }
    lmruns=(); lmpy1=(); lmpyn=()
    for repeat in 1 2 3; do
        lmruns+=("$(lm_rate $repeat)")
        p1=$(python3 Benchmarks/estimators_opencv.py "$DATA/synth-$IMAGES" --landmarks "$MODEL")
        pn=$(python3 Benchmarks/estimators_opencv.py "$DATA/synth-$IMAGES" --landmarks "$MODEL" --processes "$CORES")
        lmpy1+=("$(printf %.1f "$(json "$p1" images_per_s)")"); lmpyn+=("$(printf %.1f "$(json "$pn" images_per_s)")")
    done
    lm_ours=$(median "${lmruns[@]}"); lm_py1=$(median "${lmpy1[@]}"); lm_pyn=$(median "${lmpyn[@]}")
    lm_best=$(python3 -c "print(max($lm_py1, $lm_pyn))")
    faces=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "landmarks.parts") c = i} NR > 1 && $c == 68 {n++} END {print n + 0}' \
        "$OUT/bench-lm-1/samples.csv")
    echo "## End to end with landmarks on $IMAGES synthetic 640x480 JPEGs ($faces with 68 points): decode + face + landmarks + head + eye_state + mouth + eyes + quality"
    echo
    echo "Both sides: the two face cascades (default, then alt around each detection), dlib's 68-point model in the"
    echo "mapped box, six-point PnP pose with the line-of-sight correction, OFIQ eye and mouth openness, EAR, eye cascade,"
    echo "quality and background measures; each reads the model once per command (the script before its processes fork)."
    echo
    echo "| measure | images/s |"
    echo "|---|---|"
    echo "| padbench bench, $CORES workers, median of ${lmruns[*]} | $lm_ours |"
    echo "| Python OpenCV $(json "$p1" opencv) + dlib-bin $(python3 -c 'import dlib; print(dlib.__version__)'), 1 process, median of ${lmpy1[*]} | $lm_py1 |"
    echo "| Python OpenCV + dlib-bin, $CORES processes x 1 OpenCV thread, median of ${lmpyn[*]} | $lm_pyn |"
    echo "| ratio padbench / best Python | $(ratio "$lm_ours" "$lm_best") |"
    echo
    echo '```'; sed -n '/^step/,/^$/p' "$OUT/bench-lm.txt"; echo '```'
    echo
    goal "end to end with landmarks, padbench / best OpenCV + dlib-bin script (images/s)" "$(ratio "$lm_ours" "$lm_best")" \
        "Python best $lm_best images/s" ">=" 3
fi

# 3. Metrics: padbench eval on N scores vs bob.measure (EER + BPCER@APCER=1%) on the same file.
[ -f "$DATA/scores-$N.csv" ] || python3 Benchmarks/make_scores.py "$N" "$DATA/scores-$N.csv" 1
t0=$(now)
/usr/bin/env time -f '%M' -o "$OUT/eval.rss" $BIN eval --scores "$DATA/scores-$N.csv" --criterion bpcer@apcer=0.01 \
    --out "$OUT/eval" --timing > "$OUT/eval.txt"
t1=$(now)
wall=$(python3 -c "print(round($t1 - $t0, 2))")
metrics=$(grep -o 'metrics [0-9.]*' "$OUT/eval.txt" | awk '{print $2}')
bob=$(python3 Benchmarks/metrics_bob.py "$DATA/scores-$N.csv")
bob_s=$(printf %.2f "$(json "$bob" bob_metrics_s)")
echo "## Metrics on $N scores (two species)"
echo
echo "| measure | seconds |"
echo "|---|---|"
echo "| padbench eval, whole command (parse, metrics, per-sample CSVs, curves, archive); peak RSS $(( $(cat "$OUT/eval.rss") / 1024 )) MB | $wall |"
echo "| padbench metric computation (curve, EER, BPCER@APCER targets, AUC, operating point) | $metrics |"
echo "| bob.measure eer_threshold + farfrr + far_threshold (1%) on the same arrays | $bob_s |"
echo "| ratio bob / padbench metrics | $(ratio "$bob_s" "$metrics") |"
echo
echo '```'; grep -E '^(parse|threshold|metrics|write)' "$OUT/eval.txt" || true; echo "$bob"; echo '```'
echo
goal "eval of $N scores, whole command (s)" "$wall" "bob.measure metrics alone ${bob_s} s" "<" 10

# 3b. The same N scores as frames of N/10 presentations (issue 29): eval decides per presentation
# (mean of its frames) and writes the frame level beside it in frames/.
[ -f "$DATA/scores-$N-frames10.csv" ] || python3 Benchmarks/make_scores.py "$N" "$DATA/scores-$N-frames10.csv" 1 10
t0=$(now)
/usr/bin/env time -f '%M' -o "$OUT/eval-presentations.rss" $BIN eval --scores "$DATA/scores-$N-frames10.csv" \
    --criterion bpcer@apcer=0.01 --out "$OUT/eval-presentations" --timing > "$OUT/eval-presentations.txt"
t1=$(now)
pwall=$(python3 -c "print(round($t1 - $t0, 2))")
echo "## Metrics on $N frame scores in $((N / 10)) presentations"
echo
echo "| measure | seconds |"
echo "|---|---|"
echo "| padbench eval, whole command, presentation level and frames/; peak RSS $(( $(cat "$OUT/eval-presentations.rss") / 1024 )) MB | $pwall |"
echo
echo '```'; grep -E '^(parse|threshold|metrics|write|presentation)' "$OUT/eval-presentations.txt" || true; echo '```'
echo
goal "eval of $N frame scores in $((N / 10)) presentations, whole command (s)" "$pwall" "flat scores $wall s" "<" 10

# 4. Memory at scale (bench, merge of 8 shards, eval --archive), when Benchmarks/memory.sh exists.
# Sizes: BENCH_MEMORY_SIZES (default "10000 100000 1000000"); merge and eval --archive run at the
# largest. The goal row is the peak RSS of bench at the largest size.
if [ "${BENCH_MEMORY:-1}" != 0 ]; then
    read -r -a sizes <<< "${BENCH_MEMORY_SIZES:-10000 100000 1000000}"
    echo "## Memory: bench, merge of 8 shards, eval --archive on manifests of tiny images (Benchmarks/memory.sh)"
    echo
    Benchmarks/memory.sh "${sizes[@]}" | tee "$OUT/memory.md"
    echo
    largest=${sizes[-1]}
    peak=$(awk -F'|' -v n="$largest" '$2 ~ /bench/ && $3 + 0 == n {gsub(/ /, "", $5); print $5}' "$OUT/memory.md")
    goal "bench peak RSS at $largest samples (MB)" "$peak" "-" "<" 250
fi

# 4b. Memory of a bench that runs the landmark model on every sample (Benchmarks/memory_landmarks.sh):
# BENCH_MEMORY_LANDMARK_SIZES, default "1000 100000"; goal: under 250 MB beyond the model at the largest.
if [ "${BENCH_MEMORY:-1}" != 0 ] && [ "${BENCH_LANDMARKS:-1}" != 0 ] && [ -f /usr/share/dlib/shape_predictor_68_face_landmarks.dat ]; then
    read -r -a lsizes <<< "${BENCH_MEMORY_LANDMARK_SIZES:-1000 100000}"
    echo "## Memory with landmarks: bench on manifests of tiny face images (Benchmarks/memory_landmarks.sh)"
    echo
    Benchmarks/memory_landmarks.sh "${lsizes[@]}" | tee "$OUT/memory-landmarks.md"
    echo
    beyond=$(awk -F'|' -v n="${lsizes[-1]}" '$3 + 0 == n {gsub(/ /, "", $6); print $6}' "$OUT/memory-landmarks.md")
    goal "bench with landmarks at ${lsizes[-1]} samples, peak RSS beyond the model (MB)" "$beyond" "-" "<" 250
fi

# 5. Landmarks per face: padbench's evaluator (landmarks-timing) vs dlib's own C++ shape_predictor
# (landmarks_dlib.cpp, built here against Debian's libdlib-dev with g++ -O3), on the sample's 80
# manifest faces: the same grey planes (PGM files written by landmarks-timing) and rectangles, one
# thread each, a warm-up pass, then BENCH_LANDMARK_ROUNDS timed passes, five alternating runs of
# each, the fastest kept. The points must be identical.
MODEL=/usr/share/dlib/shape_predictor_68_face_landmarks.dat
if [ "${BENCH_LANDMARKS:-1}" != 0 ] && [ -f "$MODEL" ]; then
    pkg-config --exists dlib-1 || { apt-get install -y -q libdlib-dev >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null && apt-get install -y -q libdlib-dev >/dev/null; }; }
    [ -x .build/release/landmarks-timing ] || swift build -c release --product landmarks-timing >/dev/null
    # Linked by soname: dlib-1.pc names libblas.so and liblapack.so, which only the -dev packages
    # install; libdlib19.1 needs the runtime libraries, present with libdlib-dev.
    [ -x "$DATA/landmarks_dlib" ] && [ "$DATA/landmarks_dlib" -nt Benchmarks/landmarks_dlib.cpp ] \
        || g++ -O3 -DNDEBUG -DDLIB_NO_GUI_SUPPORT -o "$DATA/landmarks_dlib" Benchmarks/landmarks_dlib.cpp \
            $(pkg-config --cflags dlib-1) -ldlib -lpthread -l:libblas.so.3 -l:liblapack.so.3
    # Five alternating runs of each, the fastest kept: on a shared machine the slower runs measure
    # the neighbours; alternating gives both programs the same conditions.
    rounds=${BENCH_LANDMARK_ROUNDS:-4}
    ours=""; theirs=""
    for _ in 1 2 3 4 5; do
        o=$(.build/release/landmarks-timing "$MODEL" datasets/sample "$DATA/landmarks" "$rounds")
        t=$("$DATA/landmarks_dlib" "$MODEL" "$DATA/landmarks" "$rounds")
        [ -z "$ours" ] || [ "$(json "$o" us_per_face | cut -d. -f1)" -lt "$(json "$ours" us_per_face | cut -d. -f1)" ] && ours=$o
        [ -z "$theirs" ] || [ "$(json "$t" us_per_face | cut -d. -f1)" -lt "$(json "$theirs" us_per_face | cut -d. -f1)" ] && theirs=$t
    done
    same=$(cmp -s "$DATA/landmarks/points-padbench.txt" "$DATA/landmarks/points-dlib.txt" && echo yes || echo NO)
    ours_us=$(json "$ours" us_per_face); theirs_us=$(json "$theirs" us_per_face)
    echo "## Landmarks per face: dlib's 68-point model on the sample's $(json "$ours" faces) faces, fastest of 5 runs of $rounds rounds, one thread"
    echo
    echo "| measure | us per face | model read (ms) |"
    echo "|---|---|---|"
    echo "| padbench ShapePredictorModel (landmarks-timing) | $(printf %.1f "$ours_us") | $(printf %.0f "$(json "$ours" model_read_ms)") |"
    echo "| dlib $(pkg-config --modversion dlib-1) C++ shape_predictor (g++ -O3) | $(printf %.1f "$theirs_us") | $(printf %.0f "$(json "$theirs" model_read_ms)") |"
    echo "| ratio dlib / padbench | $(ratio "$theirs_us" "$ours_us") | |"
    echo "| identical points | $same | |"
    echo
    goal "landmarks per face, dlib / padbench (points identical: $same)" "$(ratio "$theirs_us" "$ours_us")" "dlib ${theirs_us} us" ">=" 2
fi

echo "## Goal figures"
echo
cat "$GOALS"
} | tee "$OUT/results.md"
