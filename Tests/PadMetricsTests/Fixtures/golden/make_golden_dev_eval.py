"""Thresholds that travel: chosen on dev by bob.measure, applied to eval, for GoldenTests.

Run: pip install bob.measure==6.1.1 numpy; python3 make_golden_dev_eval.py
Writes <set>.csv (generic padbench CSV with a split column: id,label,species,score,split) and
<set>.json for every set below.

Any threshold inside dev's gap between two consecutive scores gives the same dev rates, but only
bob's exact double gives bob's eval rates; so every eval score here lies inside one of dev's gaps:
at bob's midpoints, one ulp either side of them, and between the highest attack and the next dev
score (where bob.measure.far_threshold returns nextafter(highest attack)).

Per set and criterion: the dev threshold (repr, the exact double), the dev and eval rates there
(bob.measure.farfrr per species, pooled for BPCER). Criteria:
- eer: bob.measure.eer_threshold(attacks, bona fide) (one species only: bob has one negative class);
- min-hter: bob.measure.min_hter_threshold(attacks, bona fide) (one species only);
- bpcer@apcer=x: bob.pad.base's apcer_threshold, the maximum over species of
  bob.measure.far_threshold(species attacks, [], x) (bob.pad.base.error_utils.apcer_threshold calls
  exactly that; bob.pad.base itself is not needed here).
Also on dev: "eer_pooled", bob.pad.base's EER with every attack pooled into bob.measure's one
negative class (eer_threshold(all attacks, bona fide), rates by farfrr), and "species_eer", bob.measure
eer_threshold / farfrr on bona fide against each species alone.
Cross-check: every rate from farfrr is recomputed by plain counting with numpy (accepted when
score >= t) and must agree exactly; scikit-learn's roc_curve gives the same pooled APCER and BPCER at
the dev scores themselves (its thresholds are scores, not bob's midpoints, so it cannot check the
thresholds, only the counting).
"""
import json
import numpy as np
import bob.measure as bm
from sklearn.metrics import roc_curve


def issue_example():
    """issue 27's example: dev's EER gap is (0.41, 0.58), bob's threshold 0.495; eval holds a bona
    fide at 0.496 and print attacks at 0.497 and 0.499 (bob: eval APCER 3/8, BPCER 1/8)."""
    dev = [("bonafide", "", v) for v in [0.58, 0.62, 0.7, 0.75, 0.8, 0.9]]
    dev += [("attack", "print", v) for v in [0.1, 0.25, 0.33, 0.41]]
    ev = [("bonafide", "", v) for v in [0.3, 0.496, 0.62, 0.66, 0.71, 0.77, 0.85, 0.93]]
    ev += [("attack", "print", v) for v in [0.05, 0.12, 0.2, 0.28, 0.36, 0.497, 0.499, 0.7]]
    return dev, ev


def inside_gaps(dev, rng, n):
    """n eval scores in dev's gaps: bob's midpoints and their neighbouring doubles, and values
    between the highest attack and the next score."""
    scores = sorted({s for _, _, s in dev})
    out = []
    for _ in range(n):
        k = int(rng.integers(1, len(scores)))
        a, b = scores[k - 1], scores[k]
        m = (a + b) / 2
        out.append(float(rng.choice([m, np.nextafter(m, -np.inf), np.nextafter(m, np.inf),
                                     np.nextafter(a, np.inf), a + (b - a) * rng.uniform(0.05, 0.95)])))
    return out


def gaps_one_species(rng):
    dev = [("bonafide", "", float(x)) for x in np.round(rng.normal(0.7, 0.12, 80), 2)]
    dev += [("attack", "replay", float(x)) for x in np.round(rng.normal(0.45, 0.12, 60), 2)]
    high = max(s for l, _, s in dev if l == "attack")
    ev_bf = inside_gaps(dev, rng, 90) + [float(np.nextafter(high, np.inf))]
    ev_att = inside_gaps(dev, rng, 70) + [float(np.nextafter(high, np.inf)), high]
    ev = [("bonafide", "", x) for x in ev_bf] + [("attack", "replay", x) for x in ev_att]
    return dev, ev


def gaps_two_species(rng):
    dev = [("bonafide", "", float(x)) for x in np.round(rng.normal(0.75, 0.1, 70), 3)]
    dev += [("attack", "print", float(x)) for x in np.round(rng.normal(0.4, 0.1, 40), 3)]
    dev += [("attack", "mask", float(x)) for x in np.round(rng.normal(0.55, 0.1, 25), 3)]
    ev = [("bonafide", "", x) for x in inside_gaps(dev, rng, 80)]
    for sp in ["print", "mask"]:
        high = max(s for l, x, s in dev if x == sp)
        ev += [("attack", sp, x) for x in inside_gaps(dev, rng, 45) + [float(np.nextafter(high, np.inf))]]
    return dev, ev


def split(rows):
    bf = np.array([s for l, _, s in rows if l == "bonafide"])
    species = sorted({x for l, x, _ in rows if l == "attack"})
    return bf, {sp: np.array([s for l, x, s in rows if x == sp]) for sp in species}


def rates(rows, t):
    bf, att = split(rows)
    pooled = np.concatenate(list(att.values()))
    assert float(bm.farfrr(pooled, bf, t)[1]) == float(np.sum(bf < t) / len(bf))
    for a in att.values():
        assert float(bm.farfrr(a, bf, t)[0]) == float(np.sum(a >= t) / len(a))
    apcer = {sp: repr(float(bm.farfrr(a, bf, t)[0])) for sp, a in att.items()}
    return {"bpcer": repr(float(bm.farfrr(pooled, bf, t)[1])), "apcer": apcer,
            "apcer_max": repr(max(float(bm.farfrr(a, bf, t)[0]) for a in att.values()))}


def expected(dev, ev):
    bf, att = split(dev)
    criteria = {}
    if len(att) == 1:
        (attacks,) = att.values()
        criteria["eer"] = float(bm.eer_threshold(attacks, bf))
        criteria["min-hter"] = float(bm.min_hter_threshold(attacks, bf))
    for x in [0.01, 0.05, 0.1, 0.2]:
        criteria[f"bpcer@apcer={x}"] = max(float(bm.far_threshold(a, [], x)) for a in att.values())
    out = {"criteria": [{"criterion": c, "threshold": repr(t), "dev": rates(dev, t), "eval": rates(ev, t)}
                        for c, t in criteria.items()]}
    pooled = np.concatenate(list(att.values()))
    t = float(bm.eer_threshold(pooled, bf))
    far, frr = bm.farfrr(pooled, bf, t)
    out["eer_pooled"] = {"threshold": repr(t), "eer": repr(float((far + frr) / 2))}
    out["species_eer"] = {}
    for sp, a in att.items():
        t = float(bm.eer_threshold(a, bf))
        far, frr = bm.farfrr(a, bf, t)
        out["species_eer"][sp] = {"threshold": repr(t), "eer": repr(float((far + frr) / 2))}
    labels = np.r_[np.ones(len(bf)), np.zeros(len(pooled))]
    fpr, tpr, thr = roc_curve(labels, np.r_[bf, pooled], drop_intermediate=False)
    for a, b, x in zip(fpr[1:], tpr[1:], thr[1:]):
        far, frr = bm.farfrr(pooled, bf, x)
        assert abs(a - far) < 1e-12 and abs((1 - b) - frr) < 1e-12
    return out


rng = np.random.default_rng(20261124)
for name, (dev, ev) in [("issue_example", issue_example()), ("gaps_one_species", gaps_one_species(rng)),
                        ("gaps_two_species", gaps_two_species(rng))]:
    name = "dev_eval_" + name
    with open(f"{name}.csv", "w") as f:
        f.write("id,label,species,score,split\n")
        for part, rows in [("dev", dev), ("eval", ev)]:
            for i, (label, species, score) in enumerate(rows):
                f.write(f"{part}{i:03d},{label},{species},{score!r},{part}\n")
    out = expected(dev, ev)
    with open(f"{name}.json", "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print(name, [(o["criterion"], o["threshold"], o["eval"]["apcer_max"], o["eval"]["bpcer"]) for o in out["criteria"]])
    print("  pooled EER", out["eer_pooled"], "species", out["species_eer"])
