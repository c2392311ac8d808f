"""Writes N scores in padbench's generic CSV (id,label,species,score), two attack species.
Usage: python3 Benchmarks/make_scores.py N out.csv [seed]"""
import sys
import numpy as np
n = int(sys.argv[1]); out = sys.argv[2]; seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
rng = np.random.default_rng(seed)
nb = n // 2; na = n - nb
bf = rng.normal(1.5, 1.0, nb); a1 = rng.normal(0.0, 1.0, na // 2); a2 = rng.normal(0.4, 1.0, na - na // 2)
with open(out, "w") as f:
    f.write("id,label,species,score\n")
    chunk = []
    for i, s in enumerate(bf): chunk.append(f"b{i},bonafide,,{s:.9f}\n")
    for i, s in enumerate(a1): chunk.append(f"p{i},attack,print,{s:.9f}\n")
    for i, s in enumerate(a2): chunk.append(f"r{i},attack,replay,{s:.9f}\n")
    f.write("".join(chunk))
