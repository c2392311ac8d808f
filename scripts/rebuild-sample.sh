#!/bin/bash
# Rebuilds datasets/sample from datasets/sources into OUT (default /tmp/padbench-sample), stills and
# video part, with the committed names (video/<split>/<class>/clipNNNNNN.avi) and manifest rows, then
# compares it with the committed datasets/sample file by file: exit 0 when every file is byte-equal.
# usage: scripts/rebuild-sample.sh [OUT]      (PADBENCH = the padbench to use, default the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/padbench-sample}
BIN=${PADBENCH:-.build/release/padbench}
[ -x "$BIN" ] || swift build -c release
[ -e "$OUT" ] && { echo "$OUT exists; give another folder or remove it" >&2; exit 64; }
clips=$(mktemp -d)
trap 'rm -rf "$clips"' EXIT
# The stills: 80 presentations at 640x480.
"$BIN" dataset synth --sources datasets/sources --out "$OUT" --count 80 --seed 20261127 --size 640x480 > /dev/null
# The video part: 8 clips of 8 frames at 320x240, the stills' seed so each subject keeps its split.
"$BIN" dataset synth --video --sources datasets/sources --out "$clips/out" --count 8 --clip-frames 8 \
  --seed 20261127 > /dev/null
# Under video/, each clip named clipNNNNNN.avi, its manifest row appended with that path.
tail -n +2 "$clips/out/manifest.csv" | while IFS=, read -r path rest; do
  name="video/$(dirname "$path")/clip$(basename "$path")"
  mkdir -p "$OUT/$(dirname "$name")"
  cp "$clips/out/$path" "$OUT/$name"
  echo "$name,$rest" >> "$OUT/manifest.csv"
done
if diff -r -q "$OUT" datasets/sample; then
  echo "$OUT equals datasets/sample byte for byte ($(find "$OUT" -type f | wc -l) files)"
else
  echo "$OUT differs from datasets/sample" >&2
  exit 1
fi
