"""Expected values for ROCCurveTests, DecidabilityIndexTests, ZeroErrorPointsTests and ScoreFusionTests.

Run, outside the repository:
    python3 -m venv /work/venv-fusion
    /work/venv-fusion/bin/pip install scikit-learn==1.9.1 pyeer==0.5.6 numpy==2.4.6 scipy==1.17.1
    cd Tests/PadMetricsTests/Fixtures/golden && /work/venv-fusion/bin/python make_golden_roc_fusion.py
(bob.fusion.base is not on PyPI; its "mean" algorithm is reproduced below from its source.)

Writes, with a seeded generator (numpy default_rng(20261201)):
- roc_<set>.csv (generic padbench score CSV: id,label,species,score; an empty score is NaN, a failure
  to process) and roc_<set>.json: sklearn.metrics.roc_curve (drop_intermediate False and True),
  roc_auc_score, pyeer's decidability and its ZeroFMR / ZeroFNMR operating points;
- fusion_dev_eval.csv (id,split,label,out_a,out_b,out_c; an empty value is NaN) and
  fusion_dev_eval.json: sklearn StandardScaler fitted on dev, the mean of the normalised outputs
  (bob.fusion.base's Weighted_Sum with weights=None after StandardScaler, its "mean" algorithm) and
  sklearn LogisticRegression on the normalised outputs.

Conventions: higher score = more bona fide; bona fide is the positive class (label 1) for sklearn
and pyeer's genuine class; attacks (all species pooled) are sklearn's negatives and pyeer's
impostors. NaN scores are dropped before every reference call (sklearn and pyeer refuse or
propagate them). Floats are written as repr() strings ("inf" for sklearn's first threshold)
because Foundation's JSON number parser on Linux is not correctly rounded.
"""
import json
import math

import numpy as np
from pyeer.eer_info import get_eer_stats
from pyeer.eer_stats import get_decidability_value, get_fmr_op, get_fnmr_op
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(20261201)


def r(x):
    """repr of a float (None for NaN), so the Swift side reads the exact double."""
    x = float(x)
    return None if math.isnan(x) else repr(x)


def roc_sets():
    # Scores rounded to 0.1: ties within and across classes; two species; NaN in both classes;
    # the highest score is shared by a bona fide and an attack (pyeer's ZeroFMR then cannot reach
    # FMR 0 on its thresholds), the lowest is an attack.
    bf = [("bonafide", "", float(x)) for x in np.round(rng.normal(0.65, 0.15, 40), 1)]
    att = [("attack", "print", float(x)) for x in np.round(rng.normal(0.40, 0.15, 25), 1)]
    att += [("attack", "replay", float(x)) for x in np.round(rng.normal(0.45, 0.15, 20), 1)]
    top = max(s for _, _, s in bf + att) + 0.1
    rows = bf + [("bonafide", "", top)] + att + [("attack", "replay", top)] + [("attack", "print", -0.2)]
    for i in [2, 11, 45, 60]:
        rows[i] = (rows[i][0], rows[i][1], float("nan"))
    yield "roc_ties_nan", rows
    # Continuous scores, one species; the highest score is bona fide alone and the lowest bona
    # fide alone, so both zero-error points are reached on pyeer's thresholds.
    bf = [("bonafide", "", float(x)) for x in rng.normal(1.5, 1.0, 80)]
    att = [("attack", "mask", float(x)) for x in rng.normal(0.0, 1.0, 70)]
    lo = min(s for _, _, s in bf + att)
    hi = max(s for _, _, s in bf + att)
    yield "roc_continuous", bf + [("bonafide", "", hi + 0.5), ("bonafide", "", lo - 0.5)] + att
    # Few samples, an attack alone on top, a run of equal scores crossing both classes, collinear
    # ROC points (drop_intermediate removes some).
    yield "roc_small", [("bonafide", "", s) for s in [0.9, 0.85, 0.8, 0.7, 0.6, 0.6, 0.6, 0.3]] + \
        [("attack", "print", s) for s in [0.95, 0.6, 0.5, 0.45, 0.4, 0.3, 0.2]]


def roc_reference(rows):
    y = np.array([1 if label == "bonafide" else 0 for label, _, s in rows if not math.isnan(s)])
    score = np.array([s for _, _, s in rows if not math.isnan(s)])
    out = {"n_bonafide": int(y.sum()), "n_attack": int((1 - y).sum())}
    for key, drop in [("roc_all", False), ("roc_dropped", True)]:
        fpr, tpr, thr = roc_curve(y, score, drop_intermediate=drop)
        out[key] = [[r(a), r(b), r(t)] for a, b, t in zip(fpr, tpr, thr)]
    out["auc"] = r(roc_auc_score(y, score))
    gen, imp = score[y == 1], score[y == 0]
    stats = get_eer_stats(gen.tolist(), imp.tolist())
    # d' as pyeer computes it: np.mean, np.std (population, ddof=0), get_decidability_value.
    out["decidability"] = {"gmean": r(stats.gmean), "gstd": r(stats.gstd), "imean": r(stats.imean),
                           "istd": r(stats.istd), "value": r(stats.decidability)}
    # Zero-error points: pyeer's indices into its thresholds (distinct scores ascending), with
    # both rates at those indices.
    fmr, fnmr = stats.fmr, stats.fnmr
    i0, fnmr_at_fmr0 = get_fmr_op(fmr, fnmr, 0)
    j0, fmr_at_fnmr0 = get_fnmr_op(fmr, fnmr, 0)
    assert fnmr_at_fmr0 == stats.fmr0 and stats.thrs[i0] == stats.fmr0_th
    assert fmr_at_fnmr0 == stats.fnmr0 and stats.thrs[j0] == stats.fnmr0_th
    out["zero_fmr"] = {"threshold": r(stats.fmr0_th), "fmr": r(fmr[i0]), "fnmr": r(fnmr[i0]),
                       "fm": int(round(fmr[i0] * len(imp))), "fnm": int(round(fnmr[i0] * len(gen)))}
    out["zero_fnmr"] = {"threshold": r(stats.fnmr0_th), "fmr": r(fmr[j0]), "fnmr": r(fnmr[j0]),
                        "fm": int(round(fmr[j0] * len(imp))), "fnm": int(round(fnmr[j0] * len(gen)))}
    return out


for name, rows in roc_sets():
    with open(f"{name}.csv", "w") as f:
        f.write("id,label,species,score\n")
        for i, (label, species, score) in enumerate(rows):
            f.write(f"s{i:04d},{label},{species},{'' if math.isnan(score) else repr(score)}\n")
    with open(f"{name}.json", "w") as f:
        json.dump(roc_reference(rows), f, indent=1)
        f.write("\n")

# pyeer's decidability on small cases: both deviations zero (pyeer returns 1; the values are
# exact in binary, so numpy's mean is exact and its deviation exactly 0), one zero.
dprime_cases = []
for gen, imp in [([0.75, 0.75], [0.25, 0.25, 0.25]), ([0.9, 0.5, 0.7], [0.3, 0.3]), ([0.8, 0.6], [0.3, 0.1])]:
    g, i = np.array(gen), np.array(imp)
    dprime_cases.append({"bonafide": [r(x) for x in gen], "attack": [r(x) for x in imp],
                         "value": r(get_decidability_value(np.mean(g), np.std(g), np.mean(i), np.std(i)))})
with open("roc_decidability_cases.json", "w") as f:
    json.dump(dprime_cases, f, indent=1)
    f.write("\n")


# Fusion: three correlated outputs of different scales and offsets, driven by one latent
# separation; dev trains the normalisation and the logistic regression, eval is fused with them.
def fusion_split(n_bf, n_att):
    label = np.array([1] * n_bf + [0] * n_att)
    latent = np.where(label == 1, 1.0, -0.2) + rng.normal(0, 1.0, label.size)
    a = 0.8 * latent + rng.normal(0, 0.6, label.size) + 0.5
    b = 3.0 * (0.5 * latent + rng.normal(0, 0.9, label.size)) - 2.0
    c = 0.05 * (0.3 * latent + 0.7 * a + rng.normal(0, 0.8, label.size)) + 0.1
    return label, np.column_stack([a, b, c])


dev_y, dev_x = fusion_split(32, 30)
eval_y, eval_x = fusion_split(30, 32)
dev_x[5, 1] = np.nan  # a failure on dev: the sample is left out of training
eval_x[7, 2] = np.nan  # a failure on eval: its fused score is NaN

with open("fusion_dev_eval.csv", "w") as f:
    f.write("id,split,label,out_a,out_b,out_c\n")
    for split, ys, xs in [("dev", dev_y, dev_x), ("eval", eval_y, eval_x)]:
        for i, (y, x) in enumerate(zip(ys, xs)):
            values = ",".join("" if math.isnan(v) else repr(float(v)) for v in x)
            f.write(f"{split}{i:03d},{split},{'bonafide' if y == 1 else 'attack'},{values}\n")

keep = ~np.isnan(dev_x).any(axis=1)
train_x, train_y = dev_x[keep], dev_y[keep]
scaler = StandardScaler().fit(train_x)
train_z = scaler.transform(train_x)


def fused(model, x):
    """Fused values of x, NaN for a sample with a NaN output (scikit-learn refuses NaN)."""
    ok = ~np.isnan(x).any(axis=1)
    out = np.full(x.shape[0], np.nan)
    if model == "mean":
        # bob.fusion.base Weighted_Sum.decision_function with weights=None: numpy.mean(axis=1).
        out[ok] = np.mean(scaler.transform(x[ok]), axis=1)
    else:
        out[ok] = model(scaler.transform(x[ok]))
    return out


logistic = LogisticRegression(C=1e6, solver="lbfgs", tol=1e-12, max_iter=10000).fit(train_z, train_y)
# The same objective solved by Newton's method in scikit-learn: lbfgs must have reached its optimum.
newton = LogisticRegression(C=1e6, solver="newton-cholesky", tol=1e-14, max_iter=10000).fit(train_z, train_y)
assert np.all(np.abs(logistic.coef_ / newton.coef_ - 1) < 1e-7), (logistic.coef_, newton.coef_)
assert abs(logistic.intercept_[0] / newton.intercept_[0] - 1) < 1e-7
assert list(logistic.classes_) == [0, 1]

reference = {
    "outputs": ["out_a", "out_b", "out_c"],
    "n_train": int(keep.sum()),
    "scaler": {"mean": [r(v) for v in scaler.mean_], "var": [r(v) for v in scaler.var_],
               "scale": [r(v) for v in scaler.scale_]},
    "mean": {split: [r(v) for v in fused("mean", x)] for split, x in [("dev", dev_x), ("eval", eval_x)]},
    "logistic": {
        "coef": [r(v) for v in logistic.coef_[0]],
        "intercept": r(logistic.intercept_[0]),
        "coef_newton_cholesky": [r(v) for v in newton.coef_[0]],
        "intercept_newton_cholesky": r(newton.intercept_[0]),
        "n_iter": int(logistic.n_iter_[0]),
        "decision_function": {split: [r(v) for v in fused(logistic.decision_function, x)]
                              for split, x in [("dev", dev_x), ("eval", eval_x)]},
        "predict_proba": {split: [r(v) for v in fused(lambda z: logistic.predict_proba(z)[:, 1], x)]
                          for split, x in [("dev", dev_x), ("eval", eval_x)]},
    },
}
with open("fusion_dev_eval.json", "w") as f:
    json.dump(reference, f, indent=1)
    f.write("\n")
