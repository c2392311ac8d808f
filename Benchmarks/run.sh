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
#   UltraFace     Python onnxruntime us per image / padbench's face step, 1 thread, pinned  >= 1
#   MiniFASNet    Python onnxruntime us per face / padbench's minifasnet step, batch 1       >= 1
#   end to end with ONNX networks  padbench bench (face, landmarks, minifasnet, quality)
#                 images/s / best of Benchmarks/onnx_baselines.py (1 and CORES processes)     >= 2
#   memory with ONNX networks  peak RSS of bench --estimators face,minifasnet at 100k samples
#                 (Benchmarks/memory_onnx.sh)                                                 < 350 MB
#
# Environment: BENCH_SCORES (default 10000000), BENCH_IMAGES (200), BENCH_MEMORY_SIZES (default
# "10000 100000 1000000", passed to memory.sh; BENCH_MEMORY=0 skips the memory section, the longest).
# BENCH_LANDMARKS=0 skips the landmark sections (it needs libdlib-dev, installed when missing, and
# libdlib-data's model; BENCH_LANDMARK_ROUNDS, default 20, rounds over the sample's 80 faces).
# BENCH_ONNX=0 skips the ONNX sections (BENCH_ONNX_REPEAT, default 5 copies of the sample's 80
# stills; BENCH_ONNX_PYTHON, default .venv-ref/bin/python; BENCH_MEMORY_ONNX_SIZES, default "1000 100000").
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
ratio() { python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2]), 3))" "$1" "$2"; }
json() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }
verdict() { python3 -c "import sys, operator; v, op, g = float(sys.argv[1]), sys.argv[2], float(sys.argv[3]); print('met' if {'>=': operator.ge, '<=': operator.le, '<': operator.lt}[op](v, g) else 'NOT met')" "$1" "$2" "$3"; }
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
    "${pin[@]}" $BIN bench --dataset "$DATA/synth-$IMAGES" --profiles basic --face-detector cascade --estimators face,eyes,quality \
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
        $BIN bench --dataset "$DATA/synth-$IMAGES" --profiles basic --face-detector cascade --estimators face,landmarks,head,eye_state,mouth,eyes,quality \
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

# 6. ONNX estimators (issue 37): padbench's native UltraFace and MiniFASNet (ONNX Runtime's C
# library from .venv, `make onnxruntime`) against Python onnxruntime 1.32.0 + OpenCV 4.14
# (Benchmarks/onnx_baselines.py, run by .venv-ref's Python; BENCH_ONNX_PYTHON to use another) on the
# same images: BENCH_ONNX_REPEAT (default 5) copies of datasets/sample's 80 stills, a stills-only
# manifest of hard links in $DATA (the sample's videos left out). BENCH_ONNX=0 skips the section.
#  - Per network, per item, one thread each: padbench bench --estimators face,minifasnet
#    --concurrency 1 and the script, both pinned to CPU 0 (taskset -c 0). One sample in flight, so
#    every MiniFASNet batch holds 1 face and each network call has its one intra-op thread, as the
#    script's sessions (intra = inter = 1). padbench's figure is the mean_us of its `face` and
#    `minifasnet` steps (timing.csv: wall time per sample; pinned to one CPU, its CPU time when
#    nothing else runs there); the script's is its wall ms per image of pre-processing + run + NMS
#    (imread excluded: padbench's decode is a step of its own) and per face of both crops + both
#    networks at batch 1, on the very faces padbench's run found (--boxes its samples.csv). The
#    script's CPU ms (process_time) and batch-16 rate are shown beside. Goals: Python time /
#    padbench time >= 1 for each network.
#  - End to end: bench --estimators face,landmarks,minifasnet,quality, all workers, whole command,
#    against the script's end_to_end (the same work; 1 process, and CORES processes over the image
#    list); goal >= 2 against the better of the two.
# Three interleaved runs of each, medians.
MODEL=/usr/share/dlib/shape_predictor_68_face_landmarks.dat
if [ "${BENCH_ONNX:-1}" != 0 ]; then
    ls .venv/lib/python3*/site-packages/onnxruntime/capi/libonnxruntime.so.* >/dev/null 2>&1 || make onnxruntime >/dev/null
    ONNX_PY=${BENCH_ONNX_PYTHON:-.venv-ref/bin/python}
    if ! "$ONNX_PY" -c "import onnxruntime, cv2, numpy, dlib" 2>/dev/null; then
        [ -x .venv-ref/bin/python ] || python3 -m venv .venv-ref
        ONNX_PY=.venv-ref/bin/python
        .venv-ref/bin/pip install -q --disable-pip-version-check onnxruntime==1.32.0 numpy \
            opencv-python-headless==4.14.0.94 dlib-bin==20.0.1.post1 >/dev/null
    fi
    OREP=${BENCH_ONNX_REPEAT:-5}
    ODIR=$DATA/onnx-stills-$OREP
    [ -f "$ODIR/manifest.csv" ] || python3 - "$ODIR" "$OREP" <<'PY'
import csv, os, sys
out, repeat = sys.argv[1], int(sys.argv[2])
with open("datasets/sample/manifest.csv") as f:
    reader = csv.reader(f); head = next(reader)
    rows = [r for r in reader if r[0].lower().endswith(".jpg")]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "manifest.csv.tmp"), "w", newline="") as f:
    w = csv.writer(f); w.writerow(head)
    for k in range(repeat):
        for r in rows:
            path = "c%d/%s" % (k, r[0]); full = os.path.join(out, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            if not os.path.exists(full):
                os.link(os.path.join("datasets/sample", r[0]), full)
            w.writerow([path] + r[1:])
os.replace(os.path.join(out, "manifest.csv.tmp"), os.path.join(out, "manifest.csv"))
PY
    OIMAGES=$(( $(wc -l < "$ODIR/manifest.csv") - 1 ))
    step_us() { awk -F, -v s="$2" 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "mean_us") c = i} $1 == s {print $c}' "$1/timing.csv"; }
    pick() {  # JSON lines, "key=value,...", field -> the field of the first line matching
        python3 -c "
import json, sys
want = dict(a.split('=') for a in sys.argv[2].split(','))
for line in sys.argv[1].splitlines():
    d = json.loads(line)
    if all(str(d.get(k)) == v for k, v in want.items()):
        print(d[sys.argv[3]]); break" "$1" "$2" "$3"
    }
    ouf=(); omf=(); puf=(); pufcpu=(); pmf=(); pmfcpu=(); pmf16=(); oe2e=(); pe1=(); pen=()
    for repeat in 1 2 3; do
        taskset -c 0 $BIN bench --dataset "$ODIR" --profiles basic --estimators face,minifasnet --concurrency 1 \
            --out "$OUT/onnx-c1-$repeat" --quiet > "$OUT/onnx-c1.txt"
        ouf+=("$(step_us "$OUT/onnx-c1-$repeat" face)"); omf+=("$(step_us "$OUT/onnx-c1-$repeat" minifasnet)")
        py=$(taskset -c 0 "$ONNX_PY" Benchmarks/onnx_baselines.py "$ODIR" --measure ultraface,minifasnet \
            --boxes "$OUT/onnx-c1-$repeat/samples.csv")
        echo "$py" >> "$OUT/onnx-python.jsonl"
        puf+=("$(pick "$py" measure=ultraface detect_wall_ms_per_image)"); pufcpu+=("$(pick "$py" measure=ultraface detect_cpu_ms_per_image)")
        pmf+=("$(pick "$py" measure=minifasnet,batch=1 wall_ms_per_face)"); pmfcpu+=("$(pick "$py" measure=minifasnet,batch=1 cpu_ms_per_face)")
        pmf16+=("$(pick "$py" measure=minifasnet,batch=16 wall_ms_per_face)")
        t0=$(now)
        $BIN bench --dataset "$ODIR" --profiles basic --estimators face,landmarks,minifasnet,quality --landmark-model "$MODEL" \
            --concurrency "$CORES" --out "$OUT/onnx-e2e-$repeat" --quiet > "$OUT/onnx-e2e.txt"
        t1=$(now)
        oe2e+=("$(python3 -c "print(round($OIMAGES / ($t1 - $t0), 1))")")
        py=$("$ONNX_PY" Benchmarks/onnx_baselines.py "$ODIR" --measure end_to_end --processes "1,$CORES" --landmarks "$MODEL")
        echo "$py" >> "$OUT/onnx-python.jsonl"
        pe1+=("$(printf %.1f "$(pick "$py" measure=end_to_end,processes=1 images_per_s)")")
        pen+=("$(printf %.1f "$(pick "$py" measure=end_to_end,processes=$CORES images_per_s)")")
    done
    m_ouf=$(median "${ouf[@]}"); m_omf=$(median "${omf[@]}")
    m_puf=$(python3 -c "print(round(1000 * $(median "${puf[@]}"), 1))"); m_pufcpu=$(python3 -c "print(round(1000 * $(median "${pufcpu[@]}"), 1))")
    m_pmf=$(python3 -c "print(round(1000 * $(median "${pmf[@]}"), 1))"); m_pmfcpu=$(python3 -c "print(round(1000 * $(median "${pmfcpu[@]}"), 1))")
    m_pmf16=$(python3 -c "print(round(1000 * $(median "${pmf16[@]}"), 1))")
    m_oe2e=$(median "${oe2e[@]}"); m_pe1=$(median "${pe1[@]}"); m_pen=$(median "${pen[@]}")
    e2e_best=$(python3 -c "print(max($m_pe1, $m_pen))")
    ofaces=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "minifasnet.score") c = i} NR > 1 && c && $c != "" {n++} END {print n + 0}' \
        "$OUT/onnx-c1-1/samples.csv")
    us() { python3 -c "import statistics, sys; print(', '.join(str(round(float(v) * float(sys.argv[1]))) for v in sys.argv[2:]))" "$@"; }
    echo "## ONNX networks per item: $OIMAGES stills ($OREP x the sample's 80, $ofaces faces scored), one thread, both pinned to CPU 0"
    echo
    echo "padbench: bench --estimators face,minifasnet --concurrency 1 (every MiniFASNet batch 1 face), mean_us of the step."
    echo "Python onnxruntime $("$ONNX_PY" -c 'import onnxruntime; print(onnxruntime.__version__)') + OpenCV $("$ONNX_PY" -c 'import cv2; print(cv2.__version__)'), intra = inter op threads 1: wall per item (CPU beside), MiniFASNet on padbench's own face boxes."
    echo
    echo "| measure | padbench us | Python us (wall) | Python us (CPU) | ratio Python / padbench |"
    echo "|---|---:|---:|---:|---:|"
    echo "| UltraFace RFB-320 per image: resize + normalise + run + NMS; runs ${ouf[*]} / $(us 1000 "${puf[@]}") | $m_ouf | $m_puf | $m_pufcpu | $(ratio "$m_puf" "$m_ouf") |"
    echo "| MiniFASNet V2 + V1SE per face: 2 crops + 2 runs, batch 1; runs ${omf[*]} / $(us 1000 "${pmf[@]}") | $m_omf | $m_pmf | $m_pmfcpu | $(ratio "$m_pmf" "$m_omf") |"
    echo "| MiniFASNet, Python at batch 16 (per face), for reference | - | $m_pmf16 | - | $(ratio "$m_pmf16" "$m_omf") |"
    echo
    echo '```'; sed -n '/^step/,/^$/p' "$OUT/onnx-c1.txt"; echo '```'
    echo
    echo "## End to end with the ONNX networks: $OIMAGES stills, decode + face (UltraFace) + landmarks + minifasnet + quality"
    echo
    echo "| measure | images/s |"
    echo "|---|---|"
    echo "| padbench bench, $CORES workers, whole command, median of ${oe2e[*]} | $m_oe2e |"
    echo "| Python onnxruntime + OpenCV + dlib-bin, 1 process, median of ${pe1[*]} | $m_pe1 |"
    echo "| Python, $CORES processes (1 OpenCV thread each), median of ${pen[*]} | $m_pen |"
    echo "| ratio padbench / best Python | $(ratio "$m_oe2e" "$e2e_best") |"
    echo
    echo '```'; sed -n '/^step/,/^$/p' "$OUT/onnx-e2e.txt"; echo '```'
    echo
    goal "UltraFace per image, Python onnxruntime / padbench (1 thread, pinned)" "$(ratio "$m_puf" "$m_ouf")" "Python $m_puf us, padbench $m_ouf us" ">=" 1
    goal "MiniFASNet pair per face, Python onnxruntime / padbench (1 thread, batch 1, pinned)" "$(ratio "$m_pmf" "$m_omf")" \
        "Python $m_pmf us, padbench $m_omf us" ">=" 1
    goal "end to end with ONNX networks, padbench / best Python (images/s)" "$(ratio "$m_oe2e" "$e2e_best")" "Python best $e2e_best images/s" ">=" 2
fi

# 6b. Memory of a bench that runs the ONNX networks on every sample (Benchmarks/memory_onnx.sh):
# BENCH_MEMORY_ONNX_SIZES, default "1000 100000"; goal: peak RSS under 350 MB at the largest.
if [ "${BENCH_MEMORY:-1}" != 0 ] && [ "${BENCH_ONNX:-1}" != 0 ]; then
    read -r -a osizes <<< "${BENCH_MEMORY_ONNX_SIZES:-1000 100000}"
    echo "## Memory with the ONNX networks: bench --estimators face,minifasnet on tiny face images (Benchmarks/memory_onnx.sh)"
    echo
    Benchmarks/memory_onnx.sh "${osizes[@]}" | tee "$OUT/memory-onnx.md"
    echo
    opeak=$(awk -F'|' -v n="${osizes[-1]}" '$3 + 0 == n {gsub(/ /, "", $6); print $6}' "$OUT/memory-onnx.md")
    goal "bench with face,minifasnet at ${osizes[-1]} samples, peak RSS (MB)" "$opeak" "-" "<" 350
fi

# 7. External programs at their own speed (Benchmarks/external/run_section.sh): padbench CPU per
# video frame handed to a no-op program, a 20 ms program's throughput against its own, a 200 ms
# remote model pipelined 64 deep, a fixed-cost-per-call model batched 32 against 1. BENCH_EXTERNAL=0 skips.
[ "${BENCH_EXTERNAL:-1}" != 0 ] && . Benchmarks/external/run_section.sh

echo "## Goal figures"
echo
cat "$GOALS"
} | tee "$OUT/results.md"
