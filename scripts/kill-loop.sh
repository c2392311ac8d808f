#!/usr/bin/env bash
# kill -9 at random points of bench, bench --resume, eval, import and merge, and check after every
# kill that nothing was lost (issue 25): the inputs are unchanged, --out holds a whole run or none,
# a complete run under --out is never lost, and the next command either resumes or starts clean.
# Run by hand (not part of `make test`), from the repository root, after `swift build`:
#   scripts/kill-loop.sh [KILLS=30] [PADBENCH=.build/debug/padbench]
# Prints one line per round (a round of kind resume* killed a bench, then its resume) and the
# totals; exits 1 on the first broken promise.
set -u
KILLS=${1:-30}
PADBENCH=$(realpath "${2:-.build/debug/padbench}")
REPO=$(dirname "$(dirname "$(realpath "$0")")")
WORK=$(mktemp -d /tmp/padbench-kill-loop.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1

# Inputs: 40 images of the committed sample, a fast external estimator (so a debug build measures
# 40 samples in about two seconds), a profile on its output, a score file, an IDEMIA export and
# two bench shards for merge.
mkdir data
head -41 "$REPO/datasets/sample/manifest.csv" > data/manifest.csv
tail -n +2 data/manifest.csv | cut -d, -f1 | while read -r p; do
  mkdir -p "data/$(dirname "$p")"; cp "$REPO/datasets/sample/$p" "data/$p"; done
cat > est.sh <<'SCRIPT'
while IFS= read -r line; do
  case "$line" in
    *describe*) echo '{"outputs": ["score"], "version": "1"}' ;;
    *) id=$(printf '%s\n' "$line" | sed 's/.*"id" *: *"\([^"]*\)".*/\1/'); sleep 0.03
       printf '{"id": "%s", "outputs": {"score": 0.%s}}\n' "$id" "${#id}" ;;
  esac
done
SCRIPT
printf 'name: mine\nsource: kill loop\nscore: mine.score\ngates:\n  - {output: mine.score, op: ge, value: 0.2, code: LOW, message: low}\n' > mine.yaml
{ echo "id,label,species,score"; for i in $(seq 0 999); do echo "b$i,bonafide,,0.$((500 + i % 400))"; echo "a$i,attack,print,0.$((100 + i % 500))"; done; } > scores.csv
{ echo "id,status"; tail -n +2 data/manifest.csv | cut -d, -f1 | awk 'NR%2{print $0",Live";next}{print $0",Fake"}'; } > idemia.csv
BENCH=(bench --dataset data --profiles mine.yaml --external "mine=sh $WORK/est.sh" --concurrency 1 --quiet)
for k in 1 2; do "$PADBENCH" "${BENCH[@]}" --shard "$k/2" --out "shard$k" > /dev/null || exit 1; done
inputs_sum() { find data est.sh mine.yaml scores.csv idemia.csv shard1 shard2 -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum; }
INPUTS=$(inputs_sum)

command_of() {  # the command line of a kind, writing into $2
  case $1 in
    bench | resume) echo "${BENCH[@]@Q} --out $2" ;;
    eval) echo "eval --scores scores.csv --threshold 0.5 --out $2" ;;
    import) echo "import idemia-status --dataset data --input idemia.csv --profiles idemia-status --out $2" ;;
    merge) echo "merge shard1/results.tar.zst shard2/results.tar.zst --out $2" ;;
  esac
}
whole_or_none() {  # --out holds a whole run or nothing under its name
  [ ! -e "$1" ] && return 0
  [ -f "$1/manifest.json" ] && [ -f "$1/results.tar.zst" ] && "$PADBENCH" show "$1" > /dev/null 2>&1
}
fail() { echo "BROKEN: $*"; exit 1; }
run_killed() {  # start a command, kill -9 it after a random delay below $2 ms
  eval "exec \"$PADBENCH\" $1" > /dev/null 2>&1 &
  local pid=$!
  local ms=$((RANDOM % $2))
  sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
  kill -9 "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
}

kills=0 resumeKills=0 resumed=0 clean=0 completeBefore=0 kept=0
kinds=(bench resume eval import merge)
for i in $(seq 1 "$KILLS"); do
  kind=${kinds[$(((i - 1) % 5))]}
  out="out-$kind"
  had=0; [ -f "$out/manifest.json" ] && had=1
  cmd=$(command_of "$kind" "$out")
  force=""; [ $had = 1 ] && force=" --force"
  case $kind in
    bench) run_killed "$cmd$force" 4000 ;;
    resume)  # a bench killed, then its resume killed
      run_killed "$cmd$force" 4000
      if [ -f "$out.partial/command.json" ]; then run_killed "bench --resume $out" 3000
        kind="resume*"; kills=$((kills + 1)); resumeKills=$((resumeKills + 1)); fi ;;
    *) run_killed "$cmd$force" 1500 ;;
  esac
  kills=$((kills + 1))
  [ "$(inputs_sum)" = "$INPUTS" ] || fail "kill $i ($kind): an input changed"
  whole_or_none "$out" || fail "kill $i ($kind): $out holds a torn run"
  if [ $had = 1 ]; then
    completeBefore=$((completeBefore + 1))
    [ -f "$out/manifest.json" ] || fail "kill $i ($kind): the complete run under $out was lost"
    kept=$((kept + 1))
  fi
  # The next command resumes an interrupted bench, or starts clean; it must succeed.
  if [ -f "$out.partial/command.json" ]; then
    "$PADBENCH" bench --resume "$out" > /dev/null 2> err.txt || fail "kill $i ($kind): resume failed: $(cat err.txt)"
    next=resumed; resumed=$((resumed + 1))
  else
    force=""; [ -f "$out/manifest.json" ] && force=" --force"
    eval "\"$PADBENCH\" $cmd$force" > /dev/null 2> err.txt || fail "kill $i ($kind): clean start failed: $(cat err.txt)"
    next=clean; clean=$((clean + 1))
  fi
  whole_or_none "$out" && [ -e "$out" ] || fail "kill $i ($kind): no whole run after the next command"
  [ -e "$out.partial" ] && fail "kill $i ($kind): $out.partial left after the next command"
  echo "kill $i: $kind, complete run before: $had, next command: $next, ok"
done
leftovers=$(find . -maxdepth 1 -name '*.replaced-*' | wc -l)
echo "kills: $kills; next command resumed: $resumed, started clean: $clean; complete runs under --out before a kill: $completeBefore, still complete after: $kept; inputs unchanged; resumes killed: $resumeKills; .replaced-* left: $leftovers"
