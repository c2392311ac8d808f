"""Times bob.measure computing EER and BPCER@APCER=1% on the same score file padbench reads.

Usage: python3 Benchmarks/metrics_bob.py scores.csv
Prints one JSON line: {"load_s": ..., "bob_metrics_s": ...}. Parsing is timed apart (numpy),
so the comparison with padbench's metric time is metric computation only, as the issue asks.
"""
import json, sys, time
import numpy as np
import bob.measure as bm

path = sys.argv[1]
t0 = time.perf_counter()
data = np.genfromtxt(path, delimiter=",", skip_header=1, usecols=(1, 2, 3), dtype=None, encoding="ascii",
                     names=("label", "species", "score")) if False else None
# Faster than genfromtxt for 10M lines: pandas-free manual split on the three columns.
labels, species, scores = [], [], []
with open(path) as f:
    next(f)
    raw = f.read().split("\n")
if raw and raw[-1] == "":
    raw.pop()
cols = [line.split(",") for line in raw]
label = np.array([c[1] == "bonafide" for c in cols])
spec = np.array([c[2] for c in cols])
score = np.array([float(c[3]) if c[3] else np.nan for c in cols])
t1 = time.perf_counter()
ok = ~np.isnan(score)
bf = score[label & ok]
attacks = {s: score[(spec == s) & ~label & ok] for s in np.unique(spec[~label])}
pooled = np.concatenate(list(attacks.values()))
t2 = time.perf_counter()
eer_t = bm.eer_threshold(pooled, bf)
far, frr = bm.farfrr(pooled, bf, eer_t)
t_target = max(bm.far_threshold(a, [], 0.01) for a in attacks.values())
bpcer100 = bm.farfrr(pooled, bf, t_target)[1]
t3 = time.perf_counter()
print(json.dumps({"n": int(len(score)), "load_s": t1 - t0, "bob_metrics_s": t3 - t2,
                  "eer": float((far + frr) / 2), "eer_threshold": float(eer_t), "bpcer@apcer=0.01": float(bpcer100)}))
