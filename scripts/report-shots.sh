#!/bin/sh
# Renders the reports of sample runs with headless Chromium into PNGs under reports/shots/ (git-ignored),
# to be looked at by a person: a bench on datasets/sample with 4 profiles, one on its stills with group.* and attr.*
# labels, an eval on a 3-species score file (dev and eval), an import, a compare (HTML) and a folds page, the
# paired-bootstrap compare page of the committed curve-regression pair (base and new overlaid), `padbench plot` of
# four runs, and an eval on skewed (log-normal) scores whose histogram takes a log axis with overflow bins.
# Usage: scripts/report-shots.sh [PADBENCH]
set -eu
BIN=${1:-.build/debug/padbench}
OUT=reports/shots
CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null || { echo "report-shots: $CHROMIUM not found (Debian: apt-get install chromium)" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT/runs"
R=$OUT/runs

# 1. bench: 4 profiles on the committed sample (with subjects: subject-clustered intervals).
"$BIN" bench --dataset datasets/sample --profiles basic,luna-id-default,dot-default,misnap-default --out "$R/bench" --quiet

# 1b. labels: the sample's still images as one set (its two subjects are in different splits) with the labels its
# subjects give: group.sex (Eileen Collins female, the cameraman male) and attr.grayscale (the cameraman photograph
# is grayscale): demographic differentials, which output detects which attribute, error versus discard.
mkdir -p "$R/labelled" && cp -r datasets/sample "$R/labelled/sample"
awk -F, 'BEGIN { OFS = "," } NR == 1 { print $0, "group.sex", "attr.grayscale"; next } $1 ~ /\.avi$/ { next }
         { $4 = ""; print $0, ($5 == "eileen-collins" ? "female" : "male"), ($5 == "eileen-collins" ? 0 : 1) }' \
  datasets/sample/manifest.csv > "$R/labelled/sample/manifest.csv"
"$BIN" bench --dataset "$R/labelled/sample" --profiles basic --out "$R/labels" --quiet

# 2. eval: a generic score file with 3 species, dev and eval rows (fixed pseudo-random scores).
awk 'BEGIN { srand(17); print "id,label,species,score,split";
  split("print replay mask", sp, " ");
  for (i = 0; i < 600; i++) { split_ = (i % 2 ? "eval" : "dev");
    printf "bf%d,bonafide,,%.4f,%s\n", i, 0.62 + 0.16 * (rand() + rand() - 1), split_;
    for (s = 1; s <= 3; s++) printf "%s%d,attack,%s,%.4f,%s\n", sp[s], i, sp[s], 0.25 + 0.1 * s + 0.2 * (rand() + rand() - 1), split_ } }' > "$R/scores3.csv"
"$BIN" eval --scores "$R/scores3.csv" --criterion bpcer@apcer=0.05 --out "$R/eval" > /dev/null
# The same with replay attacks 0.08 higher: a regression for compare, and a second fold.
awk -F, 'NR > 1 && $3 == "replay" { $4 = $4 + 0.08 } { OFS = ","; print }' "$R/scores3.csv" > "$R/scores3-worse.csv"
"$BIN" eval --scores "$R/scores3-worse.csv" --criterion bpcer@apcer=0.05 --out "$R/eval-worse" > /dev/null

# 3. import: a long CSV (id,output,value) of a liveness score for every still image (a clip's frames have ids of
# their own), decided by luna-id-default.
awk -F, 'NR > 1 && $1 !~ /\.avi$/ { v = ($2 == "bonafide" ? 0.7 : 0.35) + 0.25 * ((NR * 7919) % 101) / 101; printf "%s,luna.liveness,%.3f\n", $1, v }
         BEGIN { print "id,output,value" }' datasets/sample/manifest.csv > "$R/luna-long.csv"
"$BIN" import long-csv --dataset datasets/sample --input "$R/luna-long.csv" --profiles luna-id-default --out "$R/import" > /dev/null

# 4. compare (HTML) and folds.
"$BIN" compare "$R/eval/results.tar.zst" "$R/eval-worse/results.tar.zst" --html "$R/compare.html" > /dev/null || true
"$BIN" folds "$R/eval/results.tar.zst" "$R/eval-worse/results.tar.zst" --out "$R/folds" > /dev/null

# 5. the curve gate: a compare page with base and new overlaid; several runs on one chart; skewed scores.
for n in base new; do
  "$BIN" eval --scores examples/scores/curve-regression/$n.csv --threshold 0.55 --out "$R/curve-$n" > /dev/null
done
"$BIN" compare "$R/curve-base" "$R/curve-new" --html "$R/compare-curve.html" > /dev/null || true
"$BIN" plot "$R/eval" "$R/eval-worse" "$R/curve-base" "$R/curve-new" --out "$R/plot" > /dev/null
awk 'BEGIN { srand(29); print "id,label,species,score";
  for (i = 0; i < 500; i++) { printf "bf%d,bonafide,,%.3f\n", i, exp(4 + 1.2 * (rand() + rand() + rand() - 1.5) * 2);
    printf "at%d,attack,print,%.3f\n", i, exp(2.5 + 1.2 * (rand() + rand() + rand() - 1.5) * 2) }
  print "outlier,bonafide,,250000" }' > "$R/skewed.csv"
"$BIN" eval --scores "$R/skewed.csv" --threshold 30 --out "$R/skewed" > /dev/null

# The first 2400 px (what a reviewer sees first) and the whole page: its height is measured first
# (a copy of the page beside it with a script that writes its scroll height
# into the title, read back with --dump-dom at the same 1280 px width in a 100 px window, so a short
# page is not padded to the window), then the window is made that tall.
page_height() {
  copy="${1%.html}.height.html"
  { cat "$1"; echo '<script>document.title = "height=" + Math.max(document.body.scrollHeight, document.documentElement.scrollHeight);</script>'; } > "$copy"
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,100 --dump-dom \
    "file://$PWD/$copy" 2>/dev/null | sed -n 's/.*<title>height=\([0-9]*\)<\/title>.*/\1/p' | head -1
  rm -f "$copy"
}
shot() {
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$OUT/$1.png" --window-size=1280,2400 "file://$PWD/$2" 2>/dev/null
  height=$(page_height "$2")
  [ -n "$height" ] || { echo "report-shots: cannot measure the height of $2" >&2; exit 1; }
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$OUT/$1-full.png" --window-size=1280,"$height" "file://$PWD/$2" 2>/dev/null
  echo "$OUT/$1-full.png: 1280x$height (the whole page)"
}
shot bench "$R/bench/report.html"
shot labels "$R/labels/report.html"
shot eval "$R/eval/report.html"
shot import "$R/import/report.html"
shot compare "$R/compare.html"
shot folds "$R/folds/folds.html"
shot compare-curve "$R/compare-curve.html"
shot plot "$R/plot/plot.html"
shot skewed "$R/skewed/report.html"
ls "$OUT"/*.png
