#!/usr/bin/env bash
# The regression gate: bench a dataset with the release binary and compare it with a baseline
# archive, exiting as `padbench compare` does: 0 no regression, 1 a regression, 2 not comparable
# (64 for a wrong command line). `make regress` runs this script; make itself turns any failing
# recipe into its own exit status 2, so call the script directly when a CI step must tell a
# regression (1) from runs that cannot be compared (2).
#
#   scripts/regress.sh BASE [DATASET] [PROFILES]
#   MODEL=pad-model.json EXTERNAL="pad=python3 my_model.py" scripts/regress.sh BASE
#
# MODEL: a PAD baseline model (`bench --model`); EXTERNAL: one `--external NAME=COMMAND`; GATE:
# `compare --gate` (default: every gate; `accuracy` leaves latency out, e.g. on shared CI runners).
set -uo pipefail
cd "$(dirname "$0")/.."
BASE=${1:?usage: scripts/regress.sh BASE [DATASET] [PROFILES]}
DATASET=${2:-${DATASET:-datasets/sample}}
PROFILES=${3:-${PROFILES:-basic}}
BIN=${PADBENCH:-.build/release/padbench}
OUT=${OUT:-reports/regress-new}
[ -x "$BIN" ] || swift build -c release --product padbench || exit 2
extra=()
[ -n "${MODEL:-}" ] && extra+=(--model "$MODEL")
[ -n "${EXTERNAL:-}" ] && extra+=(--external "$EXTERNAL")
"$BIN" bench --dataset "$DATASET" --profiles "$PROFILES" "${extra[@]}" --out "$OUT" --quiet --force
status=$?
[ $status = 0 ] || { echo "scripts/regress.sh: bench failed (exit $status); nothing compared" >&2; exit 2; }
gate=()
[ -n "${GATE:-}" ] && gate=(--gate "$GATE")
"$BIN" compare "$BASE" "$OUT/results.tar.zst" "${gate[@]}" --junit "$OUT/compare-junit.xml"
exit $?
