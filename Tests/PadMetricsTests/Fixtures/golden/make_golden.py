"""Expected values for PadMetricsTests, computed once with bob.measure 6.1.1 and scikit-learn.

Run: pip install bob.measure scikit-learn numpy; python3 make_golden.py
Writes <set>.csv (generic padbench score CSV: id,label,species,score) and <set>.json.
The Swift tests read these files and never need Python.

Conventions: higher score = more bona fide; accepted when score >= threshold (bob.measure).
bob's "negatives" are attacks, "positives" bona fide. NaN scores are failures to process:
dropped before every bob call, as bob.measure.utils.get_fta does, and counted separately.
Multi-species sets: APCER per species = bob.measure.farfrr(attacks of that species, bona fide, t)[0];
BPCER@APCER=x = BPCER at max over species of bob.measure.far_threshold(species attacks, [], x).
EER is compared on single-species sets only (bob has one negative class).
"""
import json, math
import numpy as np
import bob.measure as bm
from sklearn.metrics import roc_auc_score, roc_curve

rng = np.random.default_rng(20261123)

def sets():
    yield "ties_one_species", \
        [("bonafide", "", float(x)) for x in np.round(rng.normal(0.7, 0.15, 60), 1)] + \
        [("attack", "print", float(x)) for x in np.round(rng.normal(0.4, 0.15, 50), 1)]
    yield "one_species", \
        [("bonafide", "", float(x)) for x in rng.normal(2.0, 1.0, 200)] + \
        [("attack", "replay", float(x)) for x in rng.normal(0.0, 1.0, 150)]
    five = []
    for k, (mu, n) in enumerate([(0.2, 40), (0.35, 30), (0.5, 25), (0.1, 60), (0.45, 20)]):
        five += [("attack", f"species{k+1}", float(x)) for x in rng.normal(mu, 0.15, n)]
    yield "five_species", [("bonafide", "", float(x)) for x in rng.normal(0.75, 0.12, 120)] + five
    yield "single_bonafide", [("bonafide", "", 0.8)] + [("attack", "mask", float(x)) for x in rng.normal(0.5, 0.2, 30)]
    nan = [("bonafide", "", float(x)) for x in rng.normal(1.0, 0.5, 80)] + \
          [("attack", "print", float(x)) for x in rng.normal(0.0, 0.5, 50)] + \
          [("attack", "replay", float(x)) for x in rng.normal(0.3, 0.5, 40)]
    for i in [3, 17, 85, 100, 140, 160]:
        nan[i] = (nan[i][0], nan[i][1], float("nan"))
    yield "nan_two_species", nan

def r(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)

for name, rows in sets():
    with open(f"{name}.csv", "w") as f:
        f.write("id,label,species,score\n")
        for i, (label, species, score) in enumerate(rows):
            f.write(f"s{i:04d},{label},{species},{'' if math.isnan(score) else repr(score)}\n")
    bf = np.array([s for l, _, s in rows if l == "bonafide" and not math.isnan(s)])
    species = sorted({sp for l, sp, _ in rows if l == "attack"})
    att = {sp: np.array([s for l, x, s in rows if l == "attack" and x == sp and not math.isnan(s)]) for sp in species}
    pooled = np.concatenate([att[sp] for sp in species])
    out = {"n_bonafide": int(len(bf)), "n_attack": int(len(pooled)),
           "n_failed_bonafide": sum(1 for l, _, s in rows if l == "bonafide" and math.isnan(s)),
           "n_failed_attack": sum(1 for l, _, s in rows if l == "attack" and math.isnan(s))}
    # Rates at fixed thresholds.
    points = []
    for t in [float(np.median(bf)), float(np.median(pooled)), 0.5]:
        p = {"threshold": t, "bpcer": float(bm.farfrr(pooled, bf, t)[1]),
             "apcer_pooled": float(bm.farfrr(pooled, bf, t)[0]),
             "apcer": {sp: float(bm.farfrr(att[sp], bf, t)[0]) for sp in species}}
        points.append(p)
    out["points"] = points
    # BPCER at APCER targets: the lowest attack score t (or, when none qualifies, the next double
    # above the highest attack score) at which every species' bob.measure.farfrr APCER is <= x.
    # Brute force over candidates; with one species it must equal bob.measure.far_threshold.
    targets = []
    candidates = sorted(set(pooled.tolist())) + [float(np.nextafter(pooled.max(), np.inf))]
    for x in [0.01, 0.05, 0.1, 0.2]:
        t = next(c for c in candidates if all(bm.farfrr(att[sp], bf, c)[0] <= x for sp in species))
        if len(species) == 1:
            assert t == float(bm.far_threshold(pooled, [], x)), (name, x)
        targets.append({"target": x, "threshold": t, "bpcer": float(bm.farfrr(pooled, bf, t)[1]),
                        "apcer_max": max(float(bm.farfrr(att[sp], bf, t)[0]) for sp in species)})
    out["bpcer_at_apcer"] = targets
    if len(species) == 1 and len(bf) >= 2:
        t = float(bm.eer_threshold(pooled, bf))
        far, frr = bm.farfrr(pooled, bf, t)
        out["eer"] = {"threshold": t, "apcer": float(far), "bpcer": float(frr), "eer": float((far + frr) / 2)}
        out["min_hter_threshold"] = float(bm.min_hter_threshold(pooled, bf))
        out["apcer_at_bpcer"] = [{"target": x, "threshold": float(bm.frr_threshold([], bf, x)),
                                  "apcer": float(bm.farfrr(pooled, bf, float(bm.frr_threshold([], bf, x)))[0])}
                                 for x in [0.05, 0.1, 0.2]]
    # APCER at BPCER targets by the exact rule: the highest bona fide score t whose
    # bob.measure.farfrr BPCER is <= x (brute force). bob.measure.frr_threshold differs only when
    # bona fide scores tie at the boundary (it counts the tied scores as rejected).
    out["apcer_at_bpcer_exact"] = []
    bf_candidates = sorted(set(bf.tolist()))
    for x in [0.05, 0.1, 0.2]:
        t = max(c for c in bf_candidates if bm.farfrr(pooled, bf, c)[1] <= x)
        out["apcer_at_bpcer_exact"].append({"target": x, "threshold": t, "bpcer": float(bm.farfrr(pooled, bf, t)[1]),
            "apcer_max": max(float(bm.farfrr(att[sp], bf, t)[0]) for sp in species)})
    labels = np.r_[np.ones(len(bf)), np.zeros(len(pooled))]
    scores = np.r_[bf, pooled]
    out["auc"] = float(roc_auc_score(labels, scores))
    fpr, tpr, thr = roc_curve(labels, scores, drop_intermediate=False)
    # sklearn: thresholds descending, first is +inf; fpr = pooled APCER, tpr = 1 - BPCER.
    out["roc"] = [{"threshold": float(t), "apcer_pooled": float(a), "bpcer": float(1 - b)}
                  for t, a, b in zip(thr[1:], fpr[1:], tpr[1:])]
    # Floats are written as repr() strings: Foundation's JSON number parsing on Linux is not
    # correctly rounded, and thresholds must round-trip to the exact double.
    def exact(o):
        if isinstance(o, float): return repr(o)
        if isinstance(o, dict): return {k: exact(v) for k, v in o.items()}
        if isinstance(o, list): return [exact(v) for v in o]
        return o
    with open(f"{name}.json", "w") as f:
        json.dump(exact(out), f, indent=1)
    print(name, "ok")
