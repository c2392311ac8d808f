#!/usr/bin/env bash
# External estimators (the pipelined / batched / rgb24 protocol): padbench's cost and throughput
# with the programs of Benchmarks/external/ and examples/external/slow_remote.py.
#
# Meant to be sourced by Benchmarks/run.sh inside its `{ ... } | tee results.md` block, before the
# "Goal figures" table (it uses run.sh's BIN, OUT, DATA, CORES, now, median, ratio, goal):
#     [ "${BENCH_EXTERNAL:-1}" != 0 ] && . Benchmarks/external/run_section.sh
# It also runs on its own from the repository root (bash Benchmarks/external/run_section.sh): then it
# defines those itself, writes under reports/benchmark-external-<timestamp>/ and prints its goals.
#
# Figures, each the median of three runs, each beside its same-run baseline:
#  (a) padbench CPU per video frame handed to an external program: bench on the sample's video part
#      (datasets/sample's 8 clips, hard links in $DATA/external-video) with
#      --external "noop=python3 Benchmarks/external/noop.py --cpu-log F", against the same bench
#      without --external. CPU = user + system of the whole command (getrusage RUSAGE_CHILDREN of
#      the wrapper: padbench plus every process it reaped) minus the noop processes' own CPU (each
#      logs getrusage RUSAGE_SELF and its request count when padbench ends it). Per frame:
#      (padbench CPU with noop - padbench CPU without) / frames sent to noop. Goal <= 5 ms.
#      Also shown: the same with noop --input rgb24 (padbench writes the decoded pixels).
#  (b) cpu20ms.py (about 20 ms of CPU per image) through padbench, CORES processes
#      (--external-processes CORES --concurrency 2 x CORES: a sample decodes while the programs work),
#      whole command, against own_speed.py
#      driving CORES copies itself (images_per_s_total: spawn to exit); goal >= 0.95.
#  (c) slow_remote.py (200 ms per request, max_in_flight 64) through padbench with one process and
#      --concurrency 64: images/s of the whole command; goal >= 40 (the program allows 320).
#  (d) fixed_latency.py (50 ms per call): batch 32 against batch 1, one process, --concurrency 64;
#      ratio of images/s of the whole command; goal >= 10 (ideal 32).
# Stills for (b)-(d): BENCH_EXTERNAL_REPEAT (default 5) copies of the sample's 80 stills, hard links
# in $DATA/external-stills-<repeat>. (a) uses --profiles basic; (b)-(d) a profile on the program's
# score alone (only_profile), so padbench runs no estimator of its own there.

if [ -z "${GOALS:-}" ]; then  # run on its own: run.sh's conventions
    set -euo pipefail
    cd "$(dirname "${BASH_SOURCE[0]}")/../.."
    BIN=${BIN:-.build/release/padbench}
    OUT=${OUT:-reports/benchmark-external-$(date -u +%Y%m%d-%H%M%S)}
    DATA=${DATA:-reports/benchmark-data}
    CORES=$(nproc)
    mkdir -p "$OUT" "$DATA"
    now() { date +%s.%N; }
    ratio() { python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2]), 2))" "$1" "$2"; }
    median() { python3 -c "import statistics, sys; print(statistics.median(float(v) for v in sys.argv[1:]))" "$@"; }
    verdict() { python3 -c "import sys; v, op, g = float(sys.argv[1]), sys.argv[2], float(sys.argv[3]); print('met' if (v >= g if op == '>=' else v <= g if op == '<=' else v < g) else 'NOT met')" "$1" "$2" "$3"; }
    GOALS="$OUT/goals.md"
    goal() { echo "| $1 | $2 | $3 | $4 $5 | $(verdict "$2" "$4" "$5") |" >> "$GOALS"; }
    echo "| goal figure | measured | baseline (same run) | goal | |" > "$GOALS"
    echo "|---|---|---|---|---|" >> "$GOALS"
    EXTERNAL_STANDALONE=1
fi

XREP=${BENCH_EXTERNAL_REPEAT:-5}
XVID=$DATA/external-video
XSTILLS=$DATA/external-stills-$XREP
python3 - "$XVID" "$XSTILLS" "$XREP" <<'PY'
import csv, os, sys
video, stills, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open("datasets/sample/manifest.csv") as f:
    reader = csv.reader(f); head = next(reader); rows = list(reader)
def write(out, chosen, copies):
    if os.path.exists(os.path.join(out, "manifest.csv")):
        return
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "manifest.csv.tmp"), "w", newline="") as f:
        w = csv.writer(f); w.writerow(head)
        for k in range(copies):
            for r in chosen:
                path = ("c%d/%s" % (k, r[0])) if copies > 1 else r[0]
                full = os.path.join(out, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                if not os.path.exists(full):
                    os.link(os.path.join("datasets/sample", r[0]), full)
                w.writerow([path] + r[1:])
    os.replace(os.path.join(out, "manifest.csv.tmp"), os.path.join(out, "manifest.csv"))
write(video, [r for r in rows if r[0].lower().endswith(".avi")], 1)
write(stills, [r for r in rows if r[0].lower().endswith(".jpg")], repeat)
PY
XIMAGES=$(( $(wc -l < "$XSTILLS/manifest.csv") - 1 ))

# cpu_run OUTDIR ARGS... : runs `padbench bench ARGS --out OUTDIR --quiet --force`; prints
# "wall_s cpu_s" (cpu: user + system of padbench and every process it reaped), or "nan nan" when
# the command fails (its output is kept in OUTDIR.log).
cpu_run() {
    local dir=$1; shift
    python3 - "$dir" "$BIN" "$@" <<'PY' || echo "nan nan"
import resource, subprocess, sys, time
dir, command = sys.argv[1], [sys.argv[2], "bench"] + sys.argv[3:] + ["--out", sys.argv[1], "--quiet", "--force"]
t = time.perf_counter()
with open(dir + ".log", "w") as log:
    rc = subprocess.call(command, stdout=log, stderr=subprocess.STDOUT)
wall = time.perf_counter() - t
u = resource.getrusage(resource.RUSAGE_CHILDREN)
if rc != 0:
    sys.exit(1)
print(wall, u.ru_utime + u.ru_stime)
PY
}
# logged CPU seconds and requests of the programs that wrote LOG: "cpu_s requests"
logged() { awk '{cpu += $3 + $4; n += $5} END {printf "%.6f %d\n", cpu, n}' "$1" 2>/dev/null || echo "0 0"; }
calc() { python3 -c "import math, sys; nan = float('nan'); v = eval(sys.argv[1]); print(round(v, int(sys.argv[2])) if math.isfinite(v) else 'nan')" "$1" "${2:-3}" 2>/dev/null || echo nan; }

# A profile on an external program's score alone, so (b)-(d) measure padbench's handling of the
# program, not its own estimators (the basic profile would also run the face detector and quality).
only_profile() {  # NAME -> path of a profile deciding on NAME.score alone
    local file="$DATA/profile-external-$1.yaml"
    printf 'name: external-%s\ndescription: %s.score alone (benchmark)\nsource: padbench benchmark\nscore: %s.score\ngates:\n  - {output: %s.score, op: ge, value: 0, code: LOW, message: low score}\n' \
        "$1" "$1" "$1" "$1" > "$file"
    echo "$file"
}

# (a) padbench's CPU per frame handed to noop.py, against the same bench without --external.
xa_base=(); xa_path=(); xa_rgb=(); xa_frames=""
for repeat in 1 2 3; do
    read -r _ c0 < <(cpu_run "$OUT/ext-video-none-$repeat" --dataset "$XVID" --profiles basic)
    xa_base+=("$c0")
    for mode in path rgb24; do
        log="$OUT/ext-video-$mode-$repeat.cpu"; rm -f "$log"
        read -r _ c1 < <(cpu_run "$OUT/ext-video-$mode-$repeat" --dataset "$XVID" --profiles basic \
            --external "noop=python3 Benchmarks/external/noop.py --input $mode --cpu-log $log")
        read -r child frames < <(logged "$log")
        xa_frames=$frames
        per=$(calc "($c1 - $child - $c0) * 1000 / max($frames, 1)" 3)
        if [ "$mode" = path ]; then xa_path+=("$per"); else xa_rgb+=("$per"); fi
    done
done
m_xa_path=$(median "${xa_path[@]}"); m_xa_rgb=$(median "${xa_rgb[@]}"); m_xa_base=$(median "${xa_base[@]}")
m_xa_base_frame=$(calc "$m_xa_base * 1000 / max(${xa_frames:-0}, 1)" 2)

# (b) cpu20ms.py: padbench with CORES processes against own_speed.py with CORES copies.
xb_pad=(); xb_own=(); xb_own_steady=(); xb_cpu=()
for repeat in 1 2 3; do
    read -r w _ < <(cpu_run "$OUT/ext-cpu20ms-$repeat" --dataset "$XSTILLS" --profiles "$(only_profile cpu)" \
        --external "cpu=python3 Benchmarks/external/cpu20ms.py" --external-processes "$CORES" --concurrency "$((2 * CORES))")
    xb_pad+=("$(calc "$XIMAGES / $w" 1)")
    own=$(python3 Benchmarks/external/own_speed.py python3 Benchmarks/external/cpu20ms.py \
        --images "$XSTILLS" --n "$XIMAGES" --processes "$CORES" || echo '{}')
    echo "$own" >> "$OUT/ext-own-speed.jsonl"
    xb_own+=("$(python3 -c "import json, sys; print(json.loads(sys.argv[1]).get('images_per_s_total', 'nan'))" "$own")")
    xb_own_steady+=("$(python3 -c "import json, sys; print(json.loads(sys.argv[1]).get('images_per_s', 'nan'))" "$own")")
    xb_cpu+=("$(python3 -c "import json, sys; print(round(1000 * json.loads(sys.argv[1]).get('cpu_s_per_image', float('nan')), 1))" "$own")")
done
m_xb_pad=$(median "${xb_pad[@]}"); m_xb_own=$(median "${xb_own[@]}")
m_xb_own_steady=$(median "${xb_own_steady[@]}"); m_xb_cpu=$(median "${xb_cpu[@]}")

# (c) slow_remote.py: 64 requests in flight in one process.
xc=()
for repeat in 1 2 3; do
    read -r w _ < <(cpu_run "$OUT/ext-remote-$repeat" --dataset "$XSTILLS" --profiles "$(only_profile remote)" \
        --external "remote=python3 examples/external/slow_remote.py" --external-processes 1 --concurrency 64)
    xc+=("$(calc "$XIMAGES / $w" 1)")
done
m_xc=$(median "${xc[@]}")
own_remote=$(python3 Benchmarks/external/own_speed.py python3 examples/external/slow_remote.py \
    --images "$XSTILLS" --n "$XIMAGES" || echo '{}')
echo "$own_remote" >> "$OUT/ext-own-speed.jsonl"
own_remote_rate=$(python3 -c "import json, sys; print(json.loads(sys.argv[1]).get('images_per_s_total', 'nan'))" "$own_remote")

# (d) fixed_latency.py, 50 ms per call: batch 32 against batch 1, one process each.
xd32=(); xd1=()
for repeat in 1 2 3; do
    for b in 32 1; do
        read -r w _ < <(cpu_run "$OUT/ext-fixed-b$b-$repeat" --dataset "$XSTILLS" --profiles "$(only_profile gpu)" \
            --external "gpu=python3 Benchmarks/external/fixed_latency.py --latency-ms 50 --batch $b" \
            --external-processes 1 --concurrency 64)
        if [ "$b" = 32 ]; then xd32+=("$(calc "$XIMAGES / $w" 1)"); else xd1+=("$(calc "$XIMAGES / $w" 1)"); fi
    done
done
m_xd32=$(median "${xd32[@]}"); m_xd1=$(median "${xd1[@]}")

echo "## External estimators: pipelined, batched and rgb24 programs (Benchmarks/external/)"
echo
echo "(a) on the sample's 8 clips (${xa_frames:-?} frames sent per run), (b)-(d) on $XIMAGES stills ($XREP x the sample's 80) with a profile on the program's score alone; (a) --profiles basic; medians of three."
echo
echo "| measure | value | baseline (same run) |"
echo "|---|---|---|"
echo "| (a) padbench CPU ms per video frame handed to noop.py (PPM path), beyond the bench without --external; runs ${xa_path[*]} | $m_xa_path | bench without --external: $m_xa_base s CPU ($m_xa_base_frame ms per frame) |"
echo "| (a) the same with noop.py --input rgb24 (pixels file per frame); runs ${xa_rgb[*]} | $m_xa_rgb | |"
echo "| (b) cpu20ms.py through padbench, $CORES processes, images/s (whole command); runs ${xb_pad[*]} | $m_xb_pad | own_speed.py, $CORES processes: $m_xb_own images/s spawn to exit (runs ${xb_own[*]}), $m_xb_own_steady steady; $m_xb_cpu ms CPU per image |"
echo "| (c) slow_remote.py (200 ms, max_in_flight 64) through padbench, 1 process, --concurrency 64, images/s; runs ${xc[*]} | $m_xc | own_speed.py: $own_remote_rate images/s (ideal 320) |"
echo "| (d) fixed_latency.py 50 ms per call, batch 32, 1 process, --concurrency 64, images/s; runs ${xd32[*]} | $m_xd32 | batch 1: $m_xd1 images/s (runs ${xd1[*]}; ideal 640 and 20) |"
echo "| (d) ratio batch 32 / batch 1 | $(ratio "$m_xd32" "$m_xd1") | |"
echo
goal "external: padbench CPU per video frame handed to noop.py (ms)" "$m_xa_path" "bench without --external $m_xa_base_frame ms/frame" "<=" 5
goal "external: cpu20ms.py through padbench / own_speed.py, $CORES processes (images/s)" "$(ratio "$m_xb_pad" "$m_xb_own")" \
    "own_speed.py $m_xb_own images/s" ">=" 0.95
goal "external: slow_remote.py, max_in_flight 64, --concurrency 64 (images/s)" "$m_xc" "own_speed.py $own_remote_rate images/s" ">=" 40
goal "external: fixed_latency.py batch 32 / batch 1 (images/s)" "$(ratio "$m_xd32" "$m_xd1")" "batch 1 $m_xd1 images/s" ">=" 10

if [ -n "${EXTERNAL_STANDALONE:-}" ]; then
    echo "## Goal figures"
    echo
    cat "$GOALS"
fi
