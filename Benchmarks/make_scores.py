"""Writes N scores in padbench's generic CSV (id,label,species,score), two attack species.
Usage: python3 Benchmarks/make_scores.py N out.csv [seed] [frames]
With frames K, a `presentation` column groups every K consecutive rows of one class into one
presentation (frame scores of a video: N/K presentations), as issue 29's eval figure needs."""
import sys
import numpy as np
n = int(sys.argv[1]); out = sys.argv[2]; seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
frames = int(sys.argv[4]) if len(sys.argv) > 4 else 0
rng = np.random.default_rng(seed)
nb = n // 2; na = n - nb
bf = rng.normal(1.5, 1.0, nb); a1 = rng.normal(0.0, 1.0, na // 2); a2 = rng.normal(0.4, 1.0, na - na // 2)
with open(out, "w") as f:
    f.write("id,label,species,score" + (",presentation" if frames else "") + "\n")
    def rows(prefix, label, species, scores):
        if frames:
            return (f"{prefix}{i},{label},{species},{s:.9f},{prefix}v{i // frames}\n" for i, s in enumerate(scores))
        return (f"{prefix}{i},{label},{species},{s:.9f}\n" for i, s in enumerate(scores))
    for part in (rows("b", "bonafide", "", bf), rows("p", "attack", "print", a1), rows("r", "attack", "replay", a2)):
        f.writelines(part)
